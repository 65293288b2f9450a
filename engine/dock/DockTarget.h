// DockTarget: what stays fixed while a batch of ligands is docked into one receptor: the scoring
// kind, the box, and the scoring objects (Vina/Vinardo grid + receptor, or AD4 maps).
#pragma once

#include "DockOptions.h"

#include "score/BoxConfig.h"
#include "score/DockingTarget.h"

#include <memory>

namespace pw::ad4 {
class Ad4Maps; // engine/score/ad4/Ad4Maps.h
} // namespace pw::ad4

namespace pw::dock {

struct DockTarget {
    DockScoring scoring = DockScoring::Vina;
    // The search box: genotypes' positions stay inside it (Vina's box, or the AD4 maps' extent).
    SearchBox box;
    // Vina/Vinardo: the receptor, scoring function and grid (the same object minimize uses).
    // Its grid must hold the ligands' XS types (the engine asks gridFor() before a batch).
    std::shared_ptr<DockingTarget> vina;
    // AD4: one map per ligand atom type plus electrostatics and desolvation (the box is the
    // maps' extent: Ad4DockMaps.h makes both).
    std::shared_ptr<const ad4::Ad4Maps> ad4;

    static DockTarget forVina(std::shared_ptr<DockingTarget> target) {
        DockTarget t;
        t.scoring = target->scoring().kind() == ScoringKind::Vinardo ? DockScoring::Vinardo
                                                                     : DockScoring::Vina;
        t.box = target->box();
        t.vina = std::move(target);
        return t;
    }
};

// The batch entry point every backend provides (Backend::dock): dock each ligand (prepared, with
// its torsion tree) options.runs times; results[i] belongs to ligands[i]. Bad ligands get
// LigandDockResult::error and the batch goes on; a cancel (progress->cancel) stops between runs.
//   BatchStatus Backend::dock(const dock::DockTarget&, const std::vector<Molecule>& ligands,
//                             const dock::DockOptions&, std::vector<dock::LigandDockResult>&,
//                             Progress* progress = nullptr, const Molecule* reference = nullptr);

} // namespace pw::dock
