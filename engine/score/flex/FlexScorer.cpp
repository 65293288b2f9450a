#include "FlexScorer.h"

#include "score/VinaCurl.h"
#include "score/VinaConstants.h"

#include <stdexcept>

namespace pw {

FlexScorer::FlexScorer(const LigandScorer& ligand, const FlexModel& flex,
                       const ReceptorGrid* unboundGrid)
    : ligand_(ligand), flex_(flex), unboundGrid_(unboundGrid), sf_(ligand.scoringFunction()) {
    if (ligand.usesGrid())
        throw std::invalid_argument("FlexScorer: the ligand scorer must sum receptor atoms "
                                    "exactly (no grid)");
    const auto& types = ligand.topology().types;
    for (size_t i = 0; i < types.size(); ++i) {
        if (types[i] == XsType::None)
            continue;
        for (int f : flex.movableTyped())
            ligandFlexPairs_.push_back(
                {static_cast<int>(i), f, static_cast<int>(types[i]), flex.types()[f]});
    }
    if (unboundGrid_)
        for (int f : flex.movableTyped())
            if (!unboundGrid_->hasMap(flex.types()[f]))
                throw std::invalid_argument("FlexScorer: the unbound grid has no map for XS type " +
                                            std::string(xsTypeName(static_cast<XsType>(
                                                flex.types()[f]))));
}

double FlexScorer::atomVsReceptor(int type, const Vec3& x, bool tabulated, Vec3* grad) const {
    const ReceptorModel& rec = ligand_.receptor();
    Vec3 p = x;
    double penalty = 0.0;
    Vec3 penaltyGrad = Vec3::Zero();
    bool clamped[3] = {false, false, false};
    if (rec.penalizeOutside()) {
        const Vec3 lo = rec.region().begin, hi = rec.region().end();
        for (int d = 0; d < 3; ++d) {
            if (p[d] < lo[d]) {
                penalty += vina::kOutOfBoxSlope * (lo[d] - p[d]);
                penaltyGrad[d] = -vina::kOutOfBoxSlope;
                p[d] = lo[d];
                clamped[d] = true;
            } else if (p[d] > hi[d]) {
                penalty += vina::kOutOfBoxSlope * (p[d] - hi[d]);
                penaltyGrad[d] = vina::kOutOfBoxSlope;
                p[d] = hi[d];
                clamped[d] = true;
            }
        }
    }
    const ReceptorModel::Site* b = rec.sites().data();
    const ReceptorModel::Site* end = b + rec.sites().size();
    if (rec.penalizeOutside() || rec.region().contains(p)) {
        const auto span = rec.candidates(p);
        b = span.begin;
        end = span.end;
    }
    const double cut2 = sf_.cutoffSquared();
    double e = 0.0;
    Vec3 g = Vec3::Zero();
    for (const auto* s = b; s != end; ++s) {
        const Vec3 d(p.x() - s->x, p.y() - s->y, p.z() - s->z);
        const double r2 = d.squaredNorm();
        if (r2 >= cut2)
            continue;
        if (tabulated) {
            e += sf_.tabulatedEnergy(s->type, type, r2);
        } else {
            double dEdr2;
            e += sf_.splineEnergy(s->type, type, r2, &dEdr2);
            g += (2.0 * dEdr2) * d;
        }
    }
    double scale;
    e = vina::curl(e, &scale);
    if (grad) {
        for (int d = 0; d < 3; ++d)
            if (clamped[d])
                g[d] = 0.0;
        *grad += scale * g + penaltyGrad;
    }
    return e + penalty;
}

double FlexScorer::ligandFlexTabulated(const std::vector<Vec3>& lig,
                                       const std::vector<Vec3>& flex) const {
    double total = 0.0, scale;
    const double cut2 = sf_.cutoffSquared();
    for (const Pair& p : ligandFlexPairs_) {
        const double r2 = (flex[p.flex] - lig[p.lig]).squaredNorm();
        if (r2 < cut2)
            total += vina::curl(sf_.tabulatedEnergy(p.tl, p.tf, r2), &scale);
    }
    return total;
}

double FlexScorer::flexReceptorTabulated(const std::vector<Vec3>& flex) const {
    double total = 0.0;
    for (int f : flex_.movableTyped())
        total += atomVsReceptor(flex_.types()[f], flex[f], true, nullptr);
    return total;
}

double FlexScorer::flexReceptorGrid(const std::vector<Vec3>& flex) const {
    if (!unboundGrid_)
        return flexReceptorTabulated(flex);
    double total = 0.0, scale;
    for (int f : flex_.movableTyped()) {
        Vec3 g, og;
        double outside;
        const double e = unboundGrid_->interpolate(flex_.types()[f], flex[f], g, outside, og);
        total += vina::curl(e, &scale) + vina::kOutOfBoxSlope * outside;
    }
    return total;
}

double FlexScorer::flexFlexTabulated(const std::vector<Vec3>& flex) const {
    double total = 0.0, scale;
    const double cut2 = sf_.cutoffSquared();
    for (const FlexModel::Pair& p : flex_.pairs()) {
        const double r2 = (flex[p.j] - flex[p.i]).squaredNorm();
        if (r2 < cut2)
            total += vina::curl(sf_.tabulatedEnergy(p.ti, p.tj, r2), &scale);
    }
    return total;
}

FlexScore FlexScorer::finalScore(const std::vector<Vec3>& lig,
                                 const std::vector<Vec3>& flex) const {
    FlexScore s;
    s.ligandReceptor = ligand_.interTabulated(lig);
    s.ligandFlex = ligandFlexTabulated(lig, flex);
    s.ligandIntra = ligand_.intraTabulated(lig);
    s.flexReceptor = flexReceptorTabulated(flex);
    s.flexFlex = flexFlexTabulated(flex);
    // Vina's unbound system: the ligand's and the side chains' internal energies in this pose
    // (its eval_intramolecular), the flex-receptor part read from the maps.
    s.unbound = s.ligandIntra + ligand_.glueTabulated(lig) + flexReceptorGrid(flex) + s.flexFlex;
    const double e = s.inter() + s.intra() - s.unbound;
    s.affinity = ligand_.affinityFromEnergy(e);
    s.torsional = s.affinity - e;
    return s;
}

double FlexScorer::ligandFlexAnalytic(const std::vector<Vec3>& lig, const std::vector<Vec3>& flex,
                                      std::vector<Vec3>* ligGrad,
                                      std::vector<Vec3>* flexGrad) const {
    double total = 0.0;
    const double cut2 = sf_.cutoffSquared();
    for (const Pair& p : ligandFlexPairs_) {
        const Vec3 d = flex[p.flex] - lig[p.lig];
        const double r2 = d.squaredNorm();
        if (r2 >= cut2)
            continue;
        double dEdr2, scale;
        total += vina::curl(sf_.splineEnergy(p.tl, p.tf, r2, &dEdr2), &scale);
        const Vec3 g = (2.0 * scale * dEdr2) * d;
        if (flexGrad)
            (*flexGrad)[p.flex] += g;
        if (ligGrad)
            (*ligGrad)[p.lig] -= g;
    }
    return total;
}

double FlexScorer::flexReceptorAnalytic(const std::vector<Vec3>& flex,
                                        std::vector<Vec3>* grad) const {
    double total = 0.0;
    for (int f : flex_.movableTyped())
        total += atomVsReceptor(flex_.types()[f], flex[f], false, grad ? &(*grad)[f] : nullptr);
    return total;
}

double FlexScorer::flexFlexAnalytic(const std::vector<Vec3>& flex, std::vector<Vec3>* grad) const {
    double total = 0.0;
    const double cut2 = sf_.cutoffSquared();
    for (const FlexModel::Pair& p : flex_.pairs()) {
        const Vec3 d = flex[p.j] - flex[p.i];
        const double r2 = d.squaredNorm();
        if (r2 >= cut2)
            continue;
        double dEdr2, scale;
        total += vina::curl(sf_.splineEnergy(p.ti, p.tj, r2, &dEdr2), &scale);
        if (grad) {
            const Vec3 g = (2.0 * scale * dEdr2) * d;
            (*grad)[p.j] += g;
            (*grad)[p.i] -= g;
        }
    }
    return total;
}

double FlexScorer::evaluate(const std::vector<Vec3>& lig, const std::vector<Vec3>& flex,
                            std::vector<Vec3>* ligGrad, std::vector<Vec3>* flexGrad) const {
    if (static_cast<int>(flex.size()) != flex_.atomCount())
        throw std::invalid_argument("FlexScorer::evaluate: " + std::to_string(flex.size()) +
                                    " flexible coordinates for " +
                                    std::to_string(flex_.atomCount()) + " atoms");
    if (flexGrad) {
        flexGrad->resize(flex.size());
        for (Vec3& g : *flexGrad)
            g.setZero();
    }
    double e = ligand_.evaluate(lig, ligGrad); // zeroes and fills ligGrad
    e += ligandFlexAnalytic(lig, flex, ligGrad, flexGrad);
    e += flexReceptorAnalytic(flex, flexGrad);
    e += flexFlexAnalytic(flex, flexGrad);
    return e;
}

double FlexScorer::evaluateOnGrid(const LigandScorer& gridLigand, const ReceptorGrid& grid,
                                  const std::vector<Vec3>& lig, const std::vector<Vec3>& flex,
                                  std::vector<Vec3>* ligGrad,
                                  std::vector<Vec3>* flexGrad) const {
    if (flexGrad) {
        flexGrad->resize(flex.size());
        for (Vec3& g : *flexGrad)
            g.setZero();
    }
    double e = gridLigand.evaluate(lig, ligGrad);
    e += ligandFlexAnalytic(lig, flex, ligGrad, flexGrad);
    for (int f : flex_.movableTyped()) {
        Vec3 g, og;
        double outside, scale;
        const double v = grid.interpolate(flex_.types()[f], flex[f], g, outside, og);
        e += vina::curl(v, &scale) + vina::kOutOfBoxSlope * outside;
        if (flexGrad)
            (*flexGrad)[f] += scale * g + vina::kOutOfBoxSlope * og;
    }
    e += flexFlexAnalytic(flex, flexGrad);
    return e;
}

} // namespace pw
