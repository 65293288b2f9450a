#include "LigandScorer.h"

#include "VinaCurl.h"
#include "VinaConstants.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace pw {

LigandScorer::LigandScorer(const Molecule& ligand, const ScoringFunction& sf,
                           const ReceptorModel& receptor, const ReceptorGrid* grid)
    : sf_(sf), closure_(sf), receptor_(receptor), grid_(grid),
      topo_(buildVinaLigandTopology(ligand)) {
    types_.resize(ligand.atoms.size());
    for (size_t i = 0; i < ligand.atoms.size(); ++i) {
        types_[i] = static_cast<int>(topo_.types[i]);
        if (types_[i] >= 0)
            heavy_.push_back(static_cast<int>(i));
    }
    for (const auto& [i, j] : topo_.intraPairs)
        pairs_.push_back({i, j, types_[i], types_[j]});
    if (grid_)
        for (int i : heavy_)
            if (!grid_->hasMap(types_[i]))
                throw std::invalid_argument("LigandScorer: the grid has no map for XS type " +
                                            std::string(xsTypeName(topo_.types[i])));
}

std::vector<XsType> LigandScorer::typesNeeded() const {
    std::vector<XsType> out;
    for (int i : heavy_) {
        const auto t = static_cast<XsType>(types_[i]);
        bool seen = false;
        for (XsType u : out)
            seen = seen || u == t;
        if (!seen)
            out.push_back(t);
    }
    return out;
}

double LigandScorer::interEnergy(const std::vector<Vec3>& coords, std::vector<Vec3>* gradient,
                                 double* penaltyOut) const {
    double total = 0.0, penaltyTotal = 0.0;
    const double slope = vina::kOutOfBoxSlope;
    for (int i : heavy_) {
        const int t = types_[i];
        const Vec3& x = coords[i];
        double e = 0.0, scale = 1.0;
        Vec3 g = Vec3::Zero();
        if (grid_) {
            double outside;
            Vec3 og;
            e = grid_->interpolate(t, x, g, outside, og, interpolation_);
            e = vina::curl(e, &scale);
            const double pen = slope * outside;
            penaltyTotal += pen;
            total += e + pen;
            if (gradient)
                (*gradient)[i] += scale * g + slope * og;
            continue;
        }
        double pen = 0.0;
        Vec3 penGrad = Vec3::Zero();
        bool clamped[3] = {false, false, false};
        const Vec3 p = clampToRegion(x, pen, penGrad, clamped);
        const bool useCells = receptor_.penalizeOutside() || receptor_.region().contains(p);
        const ReceptorModel::Site* b;
        const ReceptorModel::Site* end;
        if (useCells) {
            const auto span = receptor_.candidates(p);
            b = span.begin;
            end = span.end;
        } else {
            b = receptor_.sites().data();
            end = b + receptor_.sites().size();
        }
        const double cut2 = sf_.cutoffSquared();
        double gx = 0, gy = 0, gz = 0;
        for (const auto* s = b; s != end; ++s) {
            const double dx = p.x() - s->x, dy = p.y() - s->y, dz = p.z() - s->z;
            const double r2 = dx * dx + dy * dy + dz * dz;
            if (r2 >= cut2)
                continue;
            double dEdr2;
            e += sf_.splineEnergy(s->type, t, r2, &dEdr2);
            const double f = 2.0 * dEdr2;
            gx += f * dx;
            gy += f * dy;
            gz += f * dz;
        }
        e = vina::curl(e, &scale);
        penaltyTotal += pen;
        total += e + pen;
        if (gradient) {
            g = Vec3(clamped[0] ? 0.0 : gx, clamped[1] ? 0.0 : gy, clamped[2] ? 0.0 : gz);
            (*gradient)[i] += scale * g + penGrad;
        }
    }
    if (penaltyOut)
        *penaltyOut = penaltyTotal;
    return total;
}

Vec3 LigandScorer::clampToRegion(const Vec3& x, double& penalty, Vec3& penaltyGrad,
                                 bool clamped[3]) const {
    // Vina (non_cache.cpp) scores an atom outside the box at the nearest point of the box and
    // adds 1e6 per Å outside; the interaction then no longer depends on the clamped coordinate.
    penalty = 0.0;
    penaltyGrad.setZero();
    if (!receptor_.penalizeOutside())
        return x;
    const double slope = vina::kOutOfBoxSlope;
    const Vec3 lo = receptor_.region().begin, hi = receptor_.region().end();
    Vec3 p = x;
    for (int d = 0; d < 3; ++d) {
        if (p[d] < lo[d]) {
            penalty += slope * (lo[d] - p[d]);
            penaltyGrad[d] = -slope;
            p[d] = lo[d];
            clamped[d] = true;
        } else if (p[d] > hi[d]) {
            penalty += slope * (p[d] - hi[d]);
            penaltyGrad[d] = slope;
            p[d] = hi[d];
            clamped[d] = true;
        }
    }
    return p;
}

double LigandScorer::interTabulated(const std::vector<Vec3>& coords, double* penaltyOut) const {
    if (grid_)
        return interEnergy(coords, nullptr, penaltyOut);
    double total = 0.0, penaltyTotal = 0.0;
    const double cut2 = sf_.cutoffSquared();
    for (int i : heavy_) {
        double pen;
        Vec3 penGrad;
        bool clamped[3] = {false, false, false};
        const Vec3 p = clampToRegion(coords[i], pen, penGrad, clamped);
        const bool useCells = receptor_.penalizeOutside() || receptor_.region().contains(p);
        const ReceptorModel::Site* b = receptor_.sites().data();
        const ReceptorModel::Site* end = b + receptor_.sites().size();
        if (useCells) {
            const auto span = receptor_.candidates(p);
            b = span.begin;
            end = span.end;
        }
        double e = 0.0, scale;
        for (const auto* s = b; s != end; ++s) {
            const double dx = p.x() - s->x, dy = p.y() - s->y, dz = p.z() - s->z;
            const double r2 = dx * dx + dy * dy + dz * dz;
            if (r2 < cut2)
                e += sf_.tabulatedEnergy(s->type, types_[i], r2);
        }
        total += vina::curl(e, &scale) + pen;
        penaltyTotal += pen;
    }
    if (penaltyOut)
        *penaltyOut = penaltyTotal;
    return total;
}

double LigandScorer::intraTabulated(const std::vector<Vec3>& coords) const {
    double total = 0.0, scale;
    const double cut2 = sf_.cutoffSquared();
    for (const Pair& pr : pairs_) {
        const double r2 = (coords[pr.j] - coords[pr.i]).squaredNorm();
        if (r2 < cut2)
            total += vina::curl(sf_.tabulatedEnergy(pr.ti, pr.tj, r2), &scale);
    }
    for (const auto& [i, j] : topo_.pseudoAtomPairs)
        total +=
            vina::curl(closure_.pseudoAtomPairTabulated((coords[j] - coords[i]).squaredNorm()), &scale);
    return total;
}

double LigandScorer::closedRingGlue() const {
    double scale;
    return static_cast<double>(topo_.gluePairs.size()) *
           vina::curl(closure_.gluePairTabulated(0.0), &scale);
}

double LigandScorer::glueTabulated(const std::vector<Vec3>& coords) const {
    double total = 0.0, scale;
    for (const auto& [i, j] : topo_.gluePairs)
        total += vina::curl(closure_.gluePairTabulated((coords[j] - coords[i]).squaredNorm()), &scale);
    return total;
}

double LigandScorer::intraEnergy(const std::vector<Vec3>& coords,
                                 std::vector<Vec3>* gradient) const {
    double total = 0.0;
    const double cut2 = sf_.cutoffSquared();
    for (const Pair& pr : pairs_) {
        const Vec3 d = coords[pr.j] - coords[pr.i];
        const double r2 = d.squaredNorm();
        if (r2 >= cut2)
            continue;
        double dEdr2, scale;
        double e = sf_.splineEnergy(pr.ti, pr.tj, r2, &dEdr2);
        e = vina::curl(e, &scale);
        total += e;
        if (gradient) {
            const Vec3 g = (2.0 * scale * dEdr2) * d;
            (*gradient)[pr.j] += g;
            (*gradient)[pr.i] -= g;
        }
    }
    if (!topo_.gluePairs.empty() || !topo_.pseudoAtomPairs.empty())
        total += closureEnergy(coords, gradient);
    return total;
}

double LigandScorer::closureEnergy(const std::vector<Vec3>& coords,
                                   std::vector<Vec3>* gradient) const {
    double total = 0.0;
    auto add = [&](int i, int j, bool glue) {
        const Vec3 d = coords[j] - coords[i];
        const double r = d.norm();
        double dEdr, scale;
        double e = glue ? closure_.gluePair(r, &dEdr) : closure_.pseudoAtomPair(r, &dEdr);
        e = vina::curl(e, &scale);
        total += e;
        if (gradient && r > 0.0) {
            const Vec3 g = (scale * dEdr / r) * d;
            (*gradient)[j] += g;
            (*gradient)[i] -= g;
        }
    };
    for (const auto& [i, j] : topo_.pseudoAtomPairs)
        add(i, j, false);
    for (const auto& [i, j] : topo_.gluePairs)
        add(i, j, true);
    return total;
}

double LigandScorer::evaluate(const std::vector<Vec3>& coords, std::vector<Vec3>* gradient,
                              ScoreBreakdown* terms) const {
    if (coords.size() != types_.size())
        throw std::invalid_argument("LigandScorer::evaluate: " + std::to_string(coords.size()) +
                                    " coordinates for a ligand of " +
                                    std::to_string(types_.size()) + " atoms");
    if (gradient) {
        if (gradient->size() != coords.size())
            gradient->resize(coords.size());
        for (Vec3& g : *gradient)
            g.setZero();
    }
    double penalty = 0.0;
    const double inter = interEnergy(coords, gradient, &penalty);
    const double intra = intraEnergy(coords, gradient);
    if (terms) {
        *terms = ScoreBreakdown{};
        terms->inter = inter;
        terms->intra = intra;
        terms->outOfBoxPenalty = penalty;
        addTerms(coords, *terms);
    }
    return inter + intra;
}

void LigandScorer::addTerms(const std::vector<Vec3>& coords, ScoreBreakdown& t) const {
    const GridDims& region = receptor_.region();
    for (int i : heavy_) {
        Vec3 p = coords[i];
        if (receptor_.penalizeOutside())
            p = p.cwiseMax(region.begin).cwiseMin(region.end());
        for (const auto& s : receptor_.sites()) {
            const double r = (p - Vec3(s.x, s.y, s.z)).norm();
            sf_.addPairTerms(s.type, types_[i], r, t.interRaw);
        }
    }
    for (const Pair& pr : pairs_)
        sf_.addPairTerms(pr.ti, pr.tj, (coords[pr.j] - coords[pr.i]).norm(), t.intraRaw);
    for (int k = 0; k < kScoreTermCount; ++k) {
        t.interWeighted[k] = sf_.weights()[k] * t.interRaw[k];
        t.intraWeighted[k] = sf_.weights()[k] * t.intraRaw[k];
    }
}

double LigandScorer::affinityFromEnergy(double e) const {
    // Vina's conf_smooth_div guards against a zero numerator only; the divisor is >= 1.
    if (std::abs(e) < 2.2e-16)
        return 0.0;
    return e / (1.0 + sf_.weightRot() * topo_.numTors);
}

VinaScore LigandScorer::finalScore(const std::vector<Vec3>& coords,
                                   std::optional<double> unbound) const {
    VinaScore s;
    evaluate(coords, nullptr, &s.terms);
    s.inter = interTabulated(coords, &s.terms.outOfBoxPenalty);
    s.intra = intraTabulated(coords);
    s.terms.inter = s.inter;
    s.terms.intra = s.intra;
    s.ringClosure = glueTabulated(coords);
    s.unbound = unbound ? *unbound : s.intra + s.ringClosure;
    s.numTors = topo_.numTors;
    const double e = s.inter + s.intra - s.unbound;
    s.affinity = affinityFromEnergy(e);
    s.torsional = s.affinity - e;
    return s;
}

} // namespace pw
