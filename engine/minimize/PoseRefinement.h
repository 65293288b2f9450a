// PoseRefinement: flexible minimization of one ligand pose in a receptor, as `minimize` and the
// app run it: BFGS in pose space on the Vina energy, then Vina's final numbers for the result.
#pragma once

#include "BfgsMinimizer.h"
#include "score/LigandScorer.h"

#include <vector>

namespace pw {

struct RefinementOptions {
    MinimizeOptions minimize; // line search, tolerance, iteration cap, trajectory, cancel
    // Vina --local_only: Armijo search and (25 + movable atoms)/3 steps, converged or not.
    bool vinaSteps = false;
    // How a grid mover (and a grid reporter) reads its maps; an exact reporter is unaffected. A
    // tricubic with strong Wolfe to convergence makes the minimized pose a well-conditioned
    // function of the start (GPU and CPU agree; tests/bench/RESULTS.md).
    GridInterpolation gridInterpolation = GridInterpolation::Trilinear;
    // C1 intramolecular potential while minimizing (IntraSmoothing.h): half-width (A) of the
    // rounding of the hydrophobic/H-bond ramp kinks (0 = Vina's ramps), and the force-shifted
    // cutoff. Reported scores are unaffected.
    double rampSmoothing = 0;
    bool intraCutoffShift = false;

    // The well-conditioned configuration (tests/bench/RESULTS.md): strong Wolfe to |g| < 1e-5,
    // Catmull-Rom map reads, ramps rounded over 0.05 A, cutoff force-shifted. Minimized poses then
    // depend smoothly on the start, so GPU (float) and CPU (double) agree on >= 99% of near-native
    // starts.
    static RefinementOptions wellConditioned();
};

struct RefinementResult {
    std::vector<Vec3> coordinates; // minimized, every atom of the ligand (hydrogens too)
    Pose pose;
    VinaScore start;          // the input pose, reported as Vina --score_only would
    VinaScore score;          // the minimized pose, reported as Vina --local_only does
    double energy = 0;        // the minimized objective (inter + intra of the scorer that moved it)
    double rmsdFromStart = 0; // heavy atoms, same atom order (no symmetry)
    int iterations = 0;
    int evaluations = 0;
    StopReason reason = StopReason::MaxIterations;
    std::vector<TrajectoryFrame> trajectory;
};

// Movable atoms as Vina counts them for its step budget: heavy atoms and polar hydrogens.
int vinaMovableAtoms(const Molecule& ligand);

// Minimizes ligand (prepared, with its torsion tree; coordinates = the start pose) with
// `mover` (grid or exact scorer) and reports the result with `reporter` (normally the exact
// scorer: Vina --local_only minimizes on its grid and reports the exact sum).
RefinementResult refinePose(const Molecule& ligand, const LigandScorer& mover,
                            const LigandScorer& reporter, const RefinementOptions& options);

double heavyAtomRmsd(const Molecule& ligand, const std::vector<Vec3>& a,
                     const std::vector<Vec3>& b);

} // namespace pw
