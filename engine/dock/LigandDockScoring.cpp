#include "LigandDockScoring.h"

#include "core/InputError.h"
#include "score/LigandScorer.h"

#include <algorithm>
#include <stdexcept>

namespace pw::dock {
namespace {

// Vina/Vinardo: the search reads the target's grid maps (Vina's docking), the report sums
// exactly over receptor atoms (as minimize reports).
class VinaDockScoring final : public LigandDockScoring {
public:
    VinaDockScoring(const DockingTarget& t, const Molecule& ligand)
        : grid_(ligand, t.scoring(), t.receptor(), t.grid()),
          exact_(ligand, t.scoring(), t.receptor()) {}

    double evaluate(const std::vector<Vec3>& coords, std::vector<Vec3>* gradient) const override {
        if (!gradient)
            return grid_.interEnergy(coords, nullptr) + grid_.intraEnergy(coords, nullptr);
        return grid_.evaluate(coords, gradient);
    }

    double rescore(const std::vector<Vec3>& coords, std::vector<DockTerm>& terms) const override {
        const VinaScore s = exact_.finalScore(coords);
        static const char* const names[kScoreTermCount] = {"gauss1", "gauss2", "repulsion",
                                                           "hydrophobic", "hydrogen"};
        terms.clear();
        terms.push_back({"inter", s.inter});
        terms.push_back({"intra", s.intra});
        terms.push_back({"torsional", s.torsional});
        for (int k = 0; k < kScoreTermCount; ++k)
            terms.push_back({names[k], s.terms.interWeighted[k]});
        return s.affinity;
    }

private:
    LigandScorer grid_;
    LigandScorer exact_;
};

} // namespace

std::unique_ptr<LigandDockScoring> makeLigandDockScoring(const DockTarget& target,
                                                         const Molecule& ligand) {
    switch (target.scoring) {
    case DockScoring::Vina:
    case DockScoring::Vinardo: {
        if (!target.vina)
            throw std::logic_error("DockTarget: Vina scoring without a DockingTarget");
        const ReceptorGrid* grid = target.vina->grid();
        LigandScorer probe(ligand, target.vina->scoring(), target.vina->receptor());
        for (XsType t : probe.typesNeeded())
            if (!grid || !grid->hasMap(static_cast<int>(t)))
                throw InputError(ligand.sourceFile, ligand.sourceRecord,
                                 "ligand '" + ligand.name + "': atom type " +
                                     std::string(xsTypeName(t)) +
                                     " has no map in the receptor grid");
        return std::make_unique<VinaDockScoring>(*target.vina, ligand);
    }
    case DockScoring::Ad4:
        throw InputError(ligand.sourceFile, ligand.sourceRecord,
                         "AD4 docking needs the AD4 maps (not available in this build yet)");
    }
    throw std::logic_error("unknown DockScoring");
}

void prepareTargetFor(const DockTarget& target, const std::vector<Molecule>& ligands) {
    if (target.scoring == DockScoring::Ad4 || !target.vina)
        return;
    std::vector<XsType> types;
    for (const Molecule& m : ligands) {
        LigandScorer probe(m, target.vina->scoring(), target.vina->receptor());
        for (XsType t : probe.typesNeeded())
            if (std::find(types.begin(), types.end(), t) == types.end())
                types.push_back(t);
    }
    target.vina->gridFor(types);
}

} // namespace pw::dock
