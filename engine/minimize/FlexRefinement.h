// FlexRefinement: minimization of a ligand pose together with flexible receptor side chains
// (Vina --local_only --flex): the ligand's position, orientation and torsions and every side
// chain's torsions in one BFGS search on the exact energy, then Vina's numbers for the result.
#pragma once

#include "BfgsMinimizer.h"
#include "score/flex/FlexScorer.h"

#include <vector>

namespace pw {

// Vina's own --local_only path with flexible residues: the maps it moves on (they must hold the
// ligand's and the moving flexible atoms' types) and the ligand's scorer on them.
struct FlexVinaPath {
    const LigandScorer* gridLigand = nullptr;
    const ReceptorGrid* grid = nullptr;
};

struct FlexRefinementResult {
    std::vector<Vec3> ligandCoordinates; // minimized, every ligand atom
    std::vector<Vec3> flexCoordinates;   // minimized side chains (FlexModel's flat order)
    Pose pose;        // ligand pose, its torsions followed by the side chains' torsions
    FlexScore start;  // the input (side chains as read), as vina --score_only --flex reports it
    FlexScore score;  // the result, reported the same way
    double energy = 0; // the minimized objective (analytic inter + intra)
    double ligandRmsd = 0; // heavy atoms, from the start, same atom order
    int iterations = 0;
    int evaluations = 0;
    StopReason reason = StopReason::MaxIterations;
    bool keptStart = false; // the start scored better (Vina's numbers) than where the search ended
    // Which end was kept: "start", "main", "main-armijo", "main-uncapped", "vina",
    // "vina+polish", "vina+polish-armijo", "vina+polish-uncapped".
    const char* path = "main";
};

// What `minimize --flex` runs: strong Wolfe to |g| < 1e-5 (at most 1000 steps), every first
// trial at most 0.5 (Å and radians) from the current point.
MinimizeOptions flexMinimizeOptions();

// ligand: prepared, with its torsion tree (coordinates = the start); the scorer's ligand must be
// this molecule. The side chains start as read. With `vina`, the Vina guard: Vina's own path
// (its maps, Armijo search, (25 + movable atoms)/3 steps, the side chains' moving atoms counted)
// is followed too, then minimized on with `options`, and each descent is also made with Armijo
// steps and with no cap on the first trial; the end with the lowest inter + intra by
// Vina's reported numbers is returned (the start included), so that no start ends above
// Vina --local_only --flex (up to the differences between this replay and Vina).
FlexRefinementResult refineWithFlex(const Molecule& ligand, const FlexScorer& scorer,
                                    const MinimizeOptions& options = flexMinimizeOptions(),
                                    const FlexVinaPath* vina = nullptr);

} // namespace pw
