// ShapeOptimizer: BFGS over the 7 pose numbers (quaternion + translation) that maximizes the
// Gaussian overlap of a fit with the reference; the CPU reference of the CUDA kernel's loop.
#pragma once

#include "GaussianOverlap.h"

namespace pw::shape {

// Why 7-D (quaternion, not normalised, + translation) rather than a 6-D rotation vector: the
// overlap is a smooth rational function of q everywhere except q = 0, its gradient is exact and
// cheap (a 3x3 sum per evaluation, see poseOverlap), and there is no singularity at 180 degrees to
// re-anchor around. BFGS simply learns the flat direction along q. PAPER made the same choice.
struct OptimizerSettings {
    int maxIterations = 20;
    // Stop when an iteration improves the overlap by less than this fraction.
    double relativeTolerance = 1e-5;
    // Length of the first step (quaternion units ~ radians/2, and A), before BFGS has a scale.
    double firstStep = 0.2;
    int maxLineSearchSteps = 10;
    // Keep every accepted pose in OptimizeResult::path (to replay the optimization). Off for
    // batches: it allocates.
    bool recordPath = false;
};

// One accepted pose of the BFGS: the start, then one per iteration. The line search accepts
// only steps of sufficient increase (Armijo), so the overlap never decreases along a path.
struct PathPoint {
    PoseVector x; // quaternion normalised
    double overlap = 0;
};

struct OptimizeResult {
    PoseVector x;
    double overlap = 0;
    int iterations = 0;
    int evaluations = 0;
    std::vector<PathPoint> path; // with OptimizerSettings::recordPath: start first, x last
};

OptimizeResult optimizePose(const std::vector<Vec3>& ref, const std::vector<std::uint8_t>& refCls,
                            const std::vector<Vec3>& fit, const std::vector<std::uint8_t>& fitCls,
                            const PoseVector& start, const OptimizerSettings& settings);

} // namespace pw::shape
