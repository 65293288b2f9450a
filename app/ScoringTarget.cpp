#include "ScoringTarget.h"

#include "chem/LigandPreparation.h"
#include "chem/ReceptorPreparation.h"
#include "core/InputError.h"
#include "score/LigandScorer.h"

namespace pw {

std::shared_ptr<const ScoringTarget> buildScoringTarget(const Molecule& receptor, int generation,
                                                        const SearchBox& box, ScoringKind kind,
                                                        int threads, double receptorPH) {
    auto t = std::make_shared<ScoringTarget>();
    t->receptorGeneration = generation;
    t->box = box;
    t->kind = kind;
    ReceptorPreparationOptions preparation;
    preparation.pH = receptorPH;
    t->receptor = prepareReceptor(receptor, preparation);
    t->target = std::make_unique<DockingTarget>(t->receptor, box, kind, threads);
    // All ligand types up front: later ligands never trigger a rebuild, so the target stays
    // read-only (and safe to share between the GUI thread and a job) after this.
    t->target->gridFor(DockingTarget::commonLigandTypes());
    return t;
}

std::optional<Molecule> preparedInPlace(const Molecule& ligand) {
    try {
        Molecule prepared = prepareLigand(ligand);
        if (prepared.atoms.size() != ligand.atoms.size())
            return std::nullopt;
        return prepared;
    } catch (const InputError&) {
        return std::nullopt;
    }
}

VinaScore scorePose(const ScoringTarget& target, const Molecule& ligand) {
    const DockingTarget& t = *target.target;
    LigandScorer exact(ligand, t.scoring(), t.receptor());
    std::vector<Vec3> coords;
    coords.reserve(ligand.atoms.size());
    for (const Atom& a : ligand.atoms)
        coords.push_back(a.position);
    return exact.finalScore(coords);
}

RefinementOptions appRefinementOptions() {
    RefinementOptions o;
    o.minimize.lineSearch = LineSearchKind::StrongWolfe;
    o.minimize.recordTrajectory = false; // the watched job keeps its own frames, with their terms
    return o;
}

} // namespace pw
