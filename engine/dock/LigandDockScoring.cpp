#include "LigandDockScoring.h"

#include "core/InputError.h"
#include "score/LigandScorer.h"
#include "score/ad4/Ad4LigandScorer.h"

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
        VinaScore s = exact_.finalScore(coords);
        // A macrocycle: Vina's docking gives every pose one shared unbound energy, so a ring left
        // open is not rewarded the way --score_only's own-pose glue would reward it (LigandScorer
        // finalScore); the glue of the closed ring stands in for it.
        if (s.ringClosure > 0)
            s = exact_.finalScore(coords, s.intra + exact_.closedRingGlue());
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

// AutoDock 4.2: the search reads the analytic twin of autodock4's model (trilinear maps, closed
// form pair potentials: exact gradients); the report is autodock4's own arithmetic, with the
// unbound state taken as the pose's own internal energy (AutoDock 4.2's default "bound" model:
// free energy = intermolecular + torsional).
class Ad4DockScoring final : public LigandDockScoring {
public:
    Ad4DockScoring(const Molecule& ligand, const ad4::Ad4Maps& maps) : scorer_(ligand, maps) {}

    double evaluate(const std::vector<Vec3>& coords, std::vector<Vec3>* gradient) const override {
        return scorer_.energyAndGradient(coords, gradient);
    }

    double rescore(const std::vector<Vec3>& coords, std::vector<DockTerm>& terms) const override {
        ad4::Ad4Energy e = scorer_.score(coords);
        e.unbound = e.intra;
        terms.clear();
        terms.push_back({"inter", e.inter()});
        terms.push_back({"vdw_hb_desolv", e.interVdwHbDesolv});
        terms.push_back({"elec", e.interElec});
        terms.push_back({"intra", e.intra});
        terms.push_back({"torsional", e.torsional});
        terms.push_back({"unbound", e.unbound});
        return e.freeEnergy();
    }

private:
    ad4::Ad4LigandScorer scorer_;
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
        if (!target.ad4)
            throw std::logic_error("DockTarget: AD4 scoring without maps");
        // Throws InputError for an atom type without AD4 parameters or without a map.
        return std::make_unique<Ad4DockScoring>(ligand, *target.ad4);
    }
    throw std::logic_error("unknown DockScoring");
}

namespace {

// The Vina grid's XS types that the ligands need.
std::vector<XsType> gridTypesOf(const DockTarget& target, const std::vector<Molecule>& ligands) {
    std::vector<XsType> types;
    for (const Molecule& m : ligands) {
        LigandScorer probe(m, target.vina->scoring(), target.vina->receptor());
        for (XsType t : probe.typesNeeded())
            if (std::find(types.begin(), types.end(), t) == types.end())
                types.push_back(t);
    }
    return types;
}

} // namespace

void prepareTargetFor(const DockTarget& target, const std::vector<Molecule>& ligands) {
    if (target.scoring == DockScoring::Ad4 || !target.vina)
        return;
    target.vina->gridFor(gridTypesOf(target, ligands));
}

bool targetReadyFor(const DockTarget& target, const std::vector<Molecule>& ligands) {
    if (target.scoring == DockScoring::Ad4 || !target.vina)
        return true;
    return target.vina->hasGridFor(gridTypesOf(target, ligands));
}

} // namespace pw::dock
