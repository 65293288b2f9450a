// ShapeOverlayCuda: Gaussian shape overlay on a CUDA GPU: one warp per (fit molecule, start), the
// whole BFGS loop on the device. Without CUDA the same API exists and reports itself unusable.
#pragma once

#include "shape/ShapeOverlay.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace pw::cuda {

// Largest molecules the kernel takes (heavy atoms); larger fits are overlaid on the CPU.
inline constexpr int kShapeMaxRefAtoms = 256;
inline constexpr int kShapeMaxFitAtoms = 128;

struct ShapeGpuTiming {
    double pack = 0;   // host: frame coordinates into pinned float4 buffers (s)
    double device = 0; // H2D + kernels + D2H, what PAPER times (s)
    double finish = 0; // host: world transforms, colour, ratios (s)
    long long overlays = 0;
};

// True when a CUDA device `device` can run kernels; why says what failed otherwise.
#ifdef POSEWRIGHT_HAVE_CUDA
bool shapeGpuUsable(int device, std::string* why);
#else
inline bool shapeGpuUsable(int, std::string* why) {
    if (why)
        *why = "this build has no CUDA backend";
    return false;
}
#endif

class ShapeOverlayGpu {
public:
    // Throws std::runtime_error when the device cannot be used or the reference is too large.
    ShapeOverlayGpu(const shape::ShapeOverlay& cpu, int device);
    ~ShapeOverlayGpu();
    ShapeOverlayGpu(const ShapeOverlayGpu&) = delete;
    ShapeOverlayGpu& operator=(const ShapeOverlayGpu&) = delete;

    // Same contract as ShapeOverlay::overlayAll (results in input order); fits larger than
    // kShapeMaxFitAtoms go to the CPU reference.
    std::vector<shape::ShapeScores> overlayAll(const std::vector<shape::ShapeModel>& fits,
                                               bool scoreOnly, ShapeGpuTiming* timing = nullptr);
    // The same, reporting done/total after each launch (chunks of up to 2^18 molecules) and
    // checking progress->cancelled() before each: a cancelled run returns an empty vector.
    std::vector<shape::ShapeScores> overlayAll(const std::vector<shape::ShapeModel>& fits,
                                               bool scoreOnly, ShapeGpuTiming* timing,
                                               Progress* progress);
    std::string deviceName() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    const shape::ShapeOverlay& cpu_;
};

#ifndef POSEWRIGHT_HAVE_CUDA
// Null implementation (GROMACS's pattern): call sites need no #ifdef; shapeGpuUsable() is false.
struct ShapeOverlayGpu::Impl {};
inline ShapeOverlayGpu::ShapeOverlayGpu(const shape::ShapeOverlay& cpu, int) : cpu_(cpu) {
    throw std::runtime_error("this build has no CUDA backend");
}
inline ShapeOverlayGpu::~ShapeOverlayGpu() = default;
inline std::vector<shape::ShapeScores>
ShapeOverlayGpu::overlayAll(const std::vector<shape::ShapeModel>&, bool, ShapeGpuTiming*) {
    return {};
}
inline std::vector<shape::ShapeScores>
ShapeOverlayGpu::overlayAll(const std::vector<shape::ShapeModel>&, bool, ShapeGpuTiming*,
                            Progress*) {
    return {};
}
inline std::string ShapeOverlayGpu::deviceName() const {
    return {};
}
#endif

} // namespace pw::cuda
