// LingoCuda: LINGO similarity on a CUDA GPU (full matrices, top-k and threshold searches), the
// same results as the CPU reference in lingo/LingoSearch.h, bit for bit.
#pragma once

#include "lingo/LingoItems.h"
#include "lingo/LingoSearch.h"

#include <memory>
#include <stdexcept>
#include <string>

namespace pw::lingo::gpu {

// TensorCore: int8 MMA over dense (LINGO, level) indicators + exact re-check of tail pairs.
// Merge: SIML's design, one thread per pair, sorted merge, query in shared memory.
enum class Kernel { TensorCore, Merge };
const char* kernelName(Kernel k);

struct DeviceStatus {
    bool usable = false;
    std::string name; // "NVIDIA H100 80GB HBM3 (cuda:0)" when usable
    std::string why;  // when not usable
};

struct GpuStats {
    double uploadSeconds = 0; // itemisation + host-to-device copies
    double kernelSeconds = 0; // last similarity computation (CUDA events)
    double denseSeconds = 0;  // of which the tensor-core item product (last full matrix)
    double tailSeconds = 0;   // and the exact re-check of tail pairs
    uint32_t denseWidth = 0, totalItems = 0;
    uint64_t tailPairs = 0;
};

#if defined(POSEWRIGHT_HAVE_CUDA)

DeviceStatus probeDevice(int device);

class LingoGpu {
public:
    // sameSet: queries and db are the same molecules (all-vs-all); enables symmetric tiles.
    LingoGpu(const LingoSet& queries, const LingoSet& db, bool sameSet, int device,
             Kernel kernel = Kernel::TensorCore, const ItemizeOptions& items = {});
    ~LingoGpu();
    LingoGpu(const LingoGpu&) = delete;
    LingoGpu& operator=(const LingoGpu&) = delete;

    // Query rows [r0, r1) against the whole database, row-major into host memory.
    void similarityRows(size_t r0, size_t r1, float* out);
    // Top-k / threshold hits per query, selected on the GPU chunk by chunk.
    HitLists search(const SearchOptions& options);
    // The whole queries x db matrix computed and left on the GPU; returns kernel seconds.
    double computeFullMatrix();
    // Copies element (i, j) of the matrix left by computeFullMatrix (for checks).
    float fullMatrixAt(size_t i, size_t j) const;

    const GpuStats& stats() const;
    std::string deviceName() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

#else // GROMACS-style null implementation: CPU-only builds compile callers unchanged.

inline DeviceStatus probeDevice(int) {
    return {false, {}, "this build has no CUDA support"};
}

class LingoGpu {
public:
    LingoGpu(const LingoSet&, const LingoSet&, bool, int, Kernel = Kernel::TensorCore,
             const ItemizeOptions& = {}) {
        throw std::runtime_error("this build has no CUDA support");
    }
    void similarityRows(size_t, size_t, float*) {}
    HitLists search(const SearchOptions&) { return {}; }
    double computeFullMatrix() { return 0; }
    float fullMatrixAt(size_t, size_t) const { return 0; }
    const GpuStats& stats() const { return stats_; }
    std::string deviceName() const { return {}; }

private:
    GpuStats stats_;
};

#endif

inline const char* kernelName(Kernel k) {
    return k == Kernel::TensorCore ? "tensorcore" : "merge";
}

} // namespace pw::lingo::gpu
