// FlexRefinement: minimization of a ligand pose together with flexible receptor side chains
// (Vina --local_only --flex): the ligand's position, orientation and torsions and every side
// chain's torsions in one BFGS search on the exact energy, then Vina's numbers for the result.
#pragma once

#include "BfgsMinimizer.h"
#include "score/flex/FlexScorer.h"

#include <vector>

namespace pw {

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
};

// What `minimize --flex` runs: strong Wolfe to |g| < 1e-5 (at most 1000 steps), every first
// trial at most 0.5 (Å and radians) from the current point.
MinimizeOptions flexMinimizeOptions();

// ligand: prepared, with its torsion tree (coordinates = the start); the scorer's ligand must be
// this molecule. The side chains start as read.
FlexRefinementResult refineWithFlex(const Molecule& ligand, const FlexScorer& scorer,
                                    const MinimizeOptions& options = flexMinimizeOptions());

} // namespace pw
