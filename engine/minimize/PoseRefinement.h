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

    // Vina guard: also follow Vina's own path from the same start (its --local_only: Armijo
    // search, (25 + movable atoms)/3 steps, trilinear map reads, Vina's ramps), then minimize on
    // from that end with the options above, and return whichever of the ends has the lowest
    // score by the reporter (inter + intra, Vina's exact numbers). A local search from a clashing
    // start can fall into a different basin than Vina's; following Vina's path as well makes the
    // result never worse than Vina's own (up to the small differences between our replay and
    // Vina: tests/bench/RESULTS.md). Costs about 2-3x the evaluations. The returned energy and
    // score are those of the returned pose; the trajectory is that of the returned path.
    bool vinaGuard = false;

    // The well-conditioned configuration (tests/bench/RESULTS.md): strong Wolfe to |g| < 1e-5,
    // Catmull-Rom map reads, ramps rounded over 0.05 A, cutoff force-shifted. Minimized poses then
    // depend smoothly on the start, so GPU (float) and CPU (double) agree on >= 99% of near-native
    // starts.
    static RefinementOptions wellConditioned();
    // What `minimize` runs by default: wellConditioned(), the first trial of every line search
    // at most kStandardMaxStep from the current pose (A and radians), and the Vina guard.
    static RefinementOptions standard();
    static constexpr double kStandardMaxStep = 0.5;
};

// Which path gave a refinement's result (the Vina guard tries several).
enum class RefinementPath {
    Main,         // the configured minimization from the start
    Vina,         // Vina's --local_only path from the start
    VinaPolished, // Vina's path, then the configured minimization from its end
};
const char* refinementPathName(RefinementPath p); // "main", "vina", "vina+polish"

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
    RefinementPath path = RefinementPath::Main;
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
