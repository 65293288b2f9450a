// LigandDockScoring: one ligand's energy as the docking search sees it (fast, interpolated maps,
// with dE/dx) and as the results report it (re-scored exactly), whatever the scoring function.
#pragma once

#include "DockResult.h"
#include "DockTarget.h"

#include "core/Molecule.h"

#include <memory>
#include <vector>

namespace pw::dock {

class LigandDockScoring {
public:
    virtual ~LigandDockScoring() = default;
    // The searched energy (inter + intra) of coordinates in the ligand's atom order; adds dE/dx
    // per atom to *gradient when given (sized to the atom count, zeroed by the caller).
    // Thread-safe: many runs of one ligand call it at once.
    virtual double evaluate(const std::vector<Vec3>& coords, std::vector<Vec3>* gradient) const = 0;
    // The reported score and its terms, computed exactly (Vina: LigandScorer::finalScore over
    // the receptor atoms, as minimize reports it).
    virtual double rescore(const std::vector<Vec3>& coords, std::vector<DockTerm>& terms) const = 0;
};

// The scoring of `ligand` (prepared) against target. Vina/Vinardo: the target's grid must
// already hold the ligand's XS types (prepareTargetFor). Throws InputError when the ligand
// cannot be scored there (e.g. an atom type without a map).
std::unique_ptr<LigandDockScoring> makeLigandDockScoring(const DockTarget& target,
                                                         const Molecule& ligand);

// Makes sure the target's maps cover every ligand of a batch (Vina: DockingTarget::gridFor with
// the union of their XS types). Call from one thread, before docking.
void prepareTargetFor(const DockTarget& target, const std::vector<Molecule>& ligands);
// Whether prepareTargetFor would change nothing (the maps cover the ligands already): a batch
// may then dock while another batch still docks on the same target.
bool targetReadyFor(const DockTarget& target, const std::vector<Molecule>& ligands);

} // namespace pw::dock
