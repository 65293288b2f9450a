// MinimizeKernel: the batched flexible-ligand minimization kernel (one warp per pose: energy,
// gradient, torsion-tree roll-up, line search and BFGS update all on the GPU) and its launch.
#pragma once

#include "DockAd4Types.h"
#include "MinimizeTypes.h"
#include "PairScoreTypes.h"

#include <cuda_runtime.h>

#include <cstddef>

namespace pw::cuda {

inline constexpr int kGridTypeSlots = 17; // one map pointer per XS type (kXsTypeCount)

// The exact mode's receptor (MinimizeBatchOptions::exact): the pair kernel's cell list and
// tables (PairScorer's device copies), read in double by atomInterExact.
struct ExactInterGpu {
    PairReceptorDev receptor;
    PairScoringDev scoring;
    double centre[3]; // the kernel's coordinates are relative to this point (absolute A)
};

// The scoring function and receptor maps as the kernel reads them (float).
struct ScoringParamsGpu {
    float cutoff2, curlV, outSlope;
    float w[5]; // gauss1, gauss2, repulsion, hydrophobic, hbond
    float g1Offset, g1InvWidth, g2Offset, g2InvWidth;
    int secondGauss; // Vina: 1; Vinardo: 0
    float hydGood, hydBad, hbGood, hbBad;
    const float4* pairParams; // per type pair: optimal distance, hydrophobic flag, hbond flag
    const float* table;       // tabulated potential rows (Vina's reported numbers)
    int tableSize;
    float tableFactor; // samples per A^2
    const float* maps[kGridTypeSlots];
    float3 gridBegin;
    float invSpacing, spacing;
    int nx, ny, nz;
    // How the minimizer reads the maps (pw::GridInterpolation: 0 trilinear, 1 Catmull-Rom,
    // 2 cubic B-spline); the reported grid inter uses the same read.
    int interpolation;
    // pw::IntraSmoothing: > 0, half-width (A) of the C1 rounding of the intra ramp kinks; and
    // the force-shifted cutoff, per type pair E(rc2) and dE/dr2(rc2) of the CPU's spline.
    float rampHalfWidth;
    int shiftCutoff;
    const float2* cutoffShift;
    // AutoDock 4 scoring instead of the above when ad4.maps is set (the docking search only).
    Ad4ScoringGpu ad4;
    // The intermolecular term from receptor atoms instead of the maps (launchMinimize's
    // exactInter; the maps are then not read).
    ExactInterGpu exact;
};

// The minimizer's algorithm (mirrors pw::MinimizeOptions).
struct SearchParamsGpu {
    int armijo;         // 1: Armijo backtracking; 0: strong Wolfe
    int vinaCompatible; // Vina's loop: stop test on the pre-step gradient, take failed searches
    float armijoC, armijoMultiplier, armijoInitial;
    int armijoTrials;
    float wolfeC1, wolfeC2, wolfeInitial, wolfeMaxStep;
    int wolfeMaxEvaluations;
    float gradientTolerance;
    float maxStepNorm; // > 0: first trial of every search at most this far (MinimizeOptions)
};

struct BatchGpu {
    const TemplateGpu* templates;
    const int* atoms; // packAtom values
    const NodeGpu* nodes;
    const PairGpu* pairs;
    const PoseInputGpu* poses;
    int poseCount;
    const float3* start; // per pose, kinematic atom order
    float3* final;
    float* torsions;
    PoseResultGpu* results;
    int maxAtoms, maxNodes, maxTorsions; // sizes shared memory
    // Device-side control, shared by every chunk of one minimize() call (null: not polled).
    // cancel != 0 stops each pose before its next BFGS step (lane 0 reads it once per step):
    // the pose keeps its partial result with reason Cancelled, as the CPU minimizer does.
    // The host sets it with a copy on a stream of its own while the kernel runs.
    const int* cancel;
    // Poses whose results are written, counted as they finish: progress during a long chunk.
    unsigned int* finished;
};

std::size_t minimizeSharedBytesPerWarp(int maxAtoms, int maxNodes, int maxTorsions,
                                       Reduction reduction);

// Launches the batch on stream; warpsPerBlock poses per block. exactInter: the kernel instance
// that sums the intermolecular term over scoring.exact's receptor atoms (grid-free, as the CPU's
// exact LigandScorer) and reports Vina's tabulated inter over them.
cudaError_t launchMinimize(const BatchGpu& batch, const ScoringParamsGpu& scoring,
                           const SearchParamsGpu& search, Reduction reduction, int warpsPerBlock,
                           cudaStream_t stream, bool exactInter = false);

} // namespace pw::cuda
