// ShapeOverlayKernel: device code of the Gaussian shape overlay: the overlap and its 7-D gradient
// for one warp (lanes own fit atoms, reference atoms are read from shared memory by all lanes at
// once), and the BFGS loop every lane runs in lockstep on identical, warp-reduced values.
#pragma once

#include <cuda_runtime.h>

namespace pw::cuda::shapekernel {

constexpr int kWarpsPerBlock = 4;
constexpr int kSlots = 4; // fit atoms per lane: 4 x 32 = kShapeMaxFitAtoms
// Numbers per start pose in the starts array: quaternion (w, x, y, z), then translation.
constexpr int kPoseSize = 7;

struct Settings {
    int nRef, nMol, nStarts, maxIterations, maxLineSearch;
    float relTol, firstStep;
    int oneClass; // every centre has radius class 0: constants in registers, no table reads
    float k0, c0; // class-0 pair constants
};

struct OverlayOut {
    float overlap;
    float x[7];
    int iterations;
    int pad;
};

struct MolOut {
    float overlap, fitVolume;
    float x[7];
    int start, iterations;
};

} // namespace pw::cuda::shapekernel

namespace pw::cuda::shapekernel {
// Overlays of nMol x nStarts (one warp each), then the best start per molecule into out.
// starts: S.nStarts poses of kPoseSize floats in device memory (shape::overlayStartPoses order).
void launchOverlay(const float4* ref, const float2* table, const float4* fit, const int* offsets,
                   const float* starts, const Settings& S, OverlayOut* overlays, float* fitVolume,
                   MolOut* out, cudaStream_t stream);
} // namespace pw::cuda::shapekernel
