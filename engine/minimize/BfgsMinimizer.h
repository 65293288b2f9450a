// BfgsMinimizer: quasi-Newton (BFGS, inverse-Hessian form) minimization of a flexible ligand over
// pose space, with Vina's Armijo search or a strong-Wolfe search; the CPU reference for the GPU.
#pragma once

#include "LineSearch.h"
#include "PoseObjective.h"

#include "core/Pose.h"

#include <Eigen/Core>

#include <atomic>
#include <functional>
#include <vector>

namespace pw {

enum class LineSearchKind { Armijo, StrongWolfe };

enum class StopReason {
    Converged,        // gradient norm below the tolerance
    MaxIterations,    // iteration cap (Vina's fixed step count in Vina mode)
    LineSearchFailed, // no acceptable step along a descent direction (at a minimum to rounding)
    Cancelled,        // cancel flag set or progress callback returned false
};
const char* stopReasonName(StopReason r);

struct MinimizeProgress {
    int iteration = 0; // accepted steps so far
    int evaluations = 0;
    double energy = 0;
    double gradientNorm = 0;
    const Pose* pose = nullptr;
    // Current coordinates when the objective has atoms, else nullptr.
    const std::vector<Eigen::Vector3d>* coordinates = nullptr;
};

struct MinimizeOptions {
    LineSearchKind lineSearch = LineSearchKind::StrongWolfe;
    ArmijoParameters armijo;
    StrongWolfeParameters wolfe;
    int maxIterations = 1000;        // Vina's quasi_newton default max_steps
    double gradientTolerance = 1e-5; // on the Euclidean norm of the pose-space gradient
    // When > 0, every line search starts at alpha = min(initialStep, maxStepNorm / |p|): no
    // trial moves further than this in pose space (A and radians). Vina has no such cap: from a
    // clashing start its first direction -g is ~1e3 long, and the searches then sample poses
    // hundreds of A (and radians) away, which makes the path a chaotic function of the start.
    double maxStepNorm = 0;
    // Replays Vina's loop exactly: the stop test looks at the gradient before the step, a failed
    // line search still takes its last trial, and its Hessian update uses alpha * multiplier.
    bool vinaCompatible = false;
    bool recordTrajectory = false; // one frame per accepted step, plus the start
    // Called after every accepted step (and once at the start); return false to stop.
    std::function<bool(const MinimizeProgress&)> progress;
    const std::atomic<bool>* cancel = nullptr; // polled before every step

    // AutoDock Vina 1.2.3 --local_only (src/lib/vina.cpp, Vina::optimize): Armijo search and
    // (25 + movable atoms) / 3 steps. movableAtoms counts the atoms Vina keeps (heavy atoms and
    // polar hydrogens of the PDBQT).
    static MinimizeOptions vinaLocalOnly(int movableAtoms);
};

// Vina's local-only step count, integer division as in Vina::optimize.
inline int vinaLocalOnlySteps(int movableAtoms) {
    return (25 + movableAtoms) / 3;
}

struct TrajectoryFrame {
    double energy = 0;
    Pose pose;
    std::vector<Eigen::Vector3d> coordinates; // empty when the objective has no atoms
};

struct MinimizeResult {
    Pose pose;
    std::vector<Eigen::Vector3d> coordinates; // empty when the objective has no atoms
    double energy = 0;
    double initialEnergy = 0;
    double gradientNorm = 0;
    int iterations = 0;  // accepted steps
    int evaluations = 0; // objective evaluations (Vina's evalcount)
    StopReason reason = StopReason::MaxIterations;
    std::vector<TrajectoryFrame> trajectory;
};

// Work arrays for one minimization at a time; reuse it across calls (one per thread) so that the
// iterations allocate nothing.
class MinimizerWorkspace {
public:
    void prepare(int dimension, int torsions);

private:
    friend class BfgsMinimizer;
    Eigen::MatrixXd hessian; // inverse Hessian approximation
    Eigen::VectorXd g, gTrial, p, y, hy, gStart;
    Pose x, trial, start;
    std::vector<Eigen::Vector3d> frameCoords;
};

class BfgsMinimizer {
public:
    // Minimizes f from start. result's vectors are reused (no allocation when they already have
    // the capacity, trajectory aside). Deterministic: the same inputs give the same result.
    static void minimize(PoseObjective& f, const Pose& start, const MinimizeOptions& options,
                         MinimizerWorkspace& workspace, MinimizeResult& result);
    // Convenience: a fresh workspace and result.
    static MinimizeResult minimize(PoseObjective& f, const Pose& start,
                                   const MinimizeOptions& options = {});
};

} // namespace pw
