// ScoringTarget: the receptor side of scoring in the app: the prepared receptor and its
// DockingTarget with grid maps for every ligand type, for one receptor, box and scoring function.
#pragma once

#include "core/Molecule.h"
#include "minimize/PoseRefinement.h"
#include "score/DockingTarget.h"
#include "score/ScoreBreakdown.h"

#include <memory>
#include <optional>
#include <string>

namespace pw {

struct ScoringTarget {
    int receptorGeneration = 0;
    SearchBox box;
    ScoringKind kind = ScoringKind::Vina;
    Molecule receptor; // prepared: AD4 and XS types
    // Shared with every other ScoringTarget of the same receptor, box and scoring (the app's one
    // grid of them: buildScoringTarget). Read-only once built.
    std::shared_ptr<DockingTarget> target;
    // What the preparation added, for the user to see: "FILE: receptor had no polar hydrogens:
    // added N polar hydrogens ... at pH 7.4 ..." for a PDB without them; empty otherwise.
    std::string preparationNote;

    bool matches(int generation, const SearchBox& b, ScoringKind k) const {
        return generation == receptorGeneration && k == kind && b.center == box.center &&
               b.size == box.size;
    }
};

// Prepares the receptor and builds the grid maps for all ligand types (0.3-1 s for a 22 Å box:
// call it on a worker thread). A receptor without polar hydrogens gets them at receptorPH.
// Throws InputError when the receptor cannot be prepared.
// The one place the app builds Vina/Vinardo grids: minimization, the batch and docking all come
// here, and the last grids built are kept per receptor content, pH, box and scoring, so a second
// caller with the same inputs shares the first one's prepared receptor and grid (one build at a
// time; another waits and then shares).
std::shared_ptr<const ScoringTarget> buildScoringTarget(const Molecule& receptor, int generation,
                                                        const SearchBox& box, ScoringKind kind,
                                                        int threads, double receptorPH = 7.4);
// Grids buildScoringTarget has built in this process (a shared one is not counted).
long scoringGridBuilds();

// The ligand as the scorer needs it (XS types, torsion tree); the same atoms in the same order as
// the input, or nothing (preparation would add hydrogens or fails: minimize prepares it then).
std::optional<Molecule> preparedInPlace(const Molecule& ligand);

// The pose's score as Vina --score_only reports it (exact sums over receptor atoms), with the
// per-term breakdown. ligand must be prepared (preparedInPlace or the result of a minimization).
VinaScore scorePose(const ScoringTarget& target, const Molecule& ligand);

// The options the app minimizes with, watched or in a batch (tests compute the reference with the
// same): BFGS with a strong-Wolfe search to convergence on the grid, Vina's numbers reported from
// exact sums.
RefinementOptions appRefinementOptions();

} // namespace pw
