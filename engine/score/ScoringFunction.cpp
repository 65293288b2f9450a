#include "ScoringFunction.h"

#include "VinaConstants.h"

#include <cmath>

namespace pw {
namespace {

// Vina's slope_step: 0 at or beyond `bad`, 1 at or beyond `good`, linear in between.
inline double slopeStep(double bad, double good, double x, double* dx) {
    const double t = (x - bad) / (good - bad);
    if (t <= 0.0) {
        *dx = 0.0;
        return 0.0;
    }
    if (t >= 1.0) {
        *dx = 0.0;
        return 1.0;
    }
    *dx = 1.0 / (good - bad);
    return t;
}

} // namespace

std::string_view scoreTermName(int term) {
    switch (term) {
    case Gauss1:
        return "gauss1";
    case Gauss2:
        return "gauss2";
    case Repulsion:
        return "repulsion";
    case Hydrophobic:
        return "hydrophobic";
    case HydrogenBond:
        return "hbond";
    default:
        return "?";
    }
}

std::string_view scoringKindName(ScoringKind kind) {
    return kind == ScoringKind::Vina ? "vina" : "vinardo";
}

TermArray ScoringFunction::defaultWeights(ScoringKind kind) {
    return kind == ScoringKind::Vina ? vina::kVinaWeights : vina::kVinardoWeights;
}

ScoringFunction::ScoringFunction(ScoringKind kind) : ScoringFunction(kind, defaultWeights(kind)) {}

ScoringFunction::ScoringFunction(ScoringKind kind, const TermArray& weights)
    : kind_(kind), weights_(weights), cutoff_(vina::kCutoff) {
    const bool v = kind == ScoringKind::Vina;
    if (!v)
        weights_[Gauss2] = 0.0; // Vinardo has no second gaussian
    weightRot_ = v ? vina::kVinaWeightRot : vina::kVinardoWeightRot;
    glueWeight_ = vina::kGlueWeight;
    g1Offset_ = v ? vina::kVinaGauss1Offset : vina::kVinardoGaussOffset;
    g1InvWidth_ = 1.0 / (v ? vina::kVinaGauss1Width : vina::kVinardoGaussWidth);
    g2Offset_ = vina::kVinaGauss2Offset;
    g2InvWidth_ = 1.0 / vina::kVinaGauss2Width;
    hydGood_ = v ? vina::kVinaHydrophobicGood : vina::kVinardoHydrophobicGood;
    hydBad_ = v ? vina::kVinaHydrophobicBad : vina::kVinardoHydrophobicBad;
    hbGood_ = v ? vina::kVinaHbondGood : vina::kVinardoHbondGood;
    hbBad_ = v ? vina::kVinaHbondBad : vina::kVinardoHbondBad;
    for (int i = 0; i < kXsTypeCount; ++i)
        for (int j = 0; j < kXsTypeCount; ++j) {
            const auto a = static_cast<XsType>(i), b = static_cast<XsType>(j);
            PairParams& p = pair_[i * kXsTypeCount + j];
            p.optimal = radius(a) + radius(b);
            p.hydrophobic = xsIsHydrophobic(a) && xsIsHydrophobic(b) ? 1.0 : 0.0;
            p.hbond =
                (xsIsDonor(a) && xsIsAcceptor(b)) || (xsIsDonor(b) && xsIsAcceptor(a)) ? 1.0 : 0.0;
        }
    buildTable();
}

void ScoringFunction::buildTable() {
    // Samples r_k = sqrt(k / 32) up to the cutoff (Vina samples to 20 Å, but every value beyond
    // the 8 Å cutoff is zero), then each bin holds the mean of its two ends like Vina's `fast`.
    tableSize_ = static_cast<int>(kTableSamplesPerA2 * cutoff_ * cutoff_) + 3;
    auto store = std::make_shared<std::vector<double>>();
    store->reserve(static_cast<size_t>(tableSize_) * kXsTypeCount * (kXsTypeCount + 1) / 2);
    int row = 0;
    for (int i = 0; i < kXsTypeCount; ++i)
        for (int j = i; j < kXsTypeCount; ++j, ++row) {
            tablePair_[i * kXsTypeCount + j] = row;
            tablePair_[j * kXsTypeCount + i] = row;
            std::vector<double> smooth(tableSize_ + 1, 0.0);
            for (int k = 0; k < tableSize_; ++k) {
                double d;
                smooth[k] = pairEnergy(i, j, std::sqrt(k / kTableSamplesPerA2), &d);
            }
            for (int k = 0; k < tableSize_; ++k)
                store->push_back(0.5 * (smooth[k] + smooth[k + 1]));
        }
    tableStore_ = store;
    table_ = tableStore_->data();

    // Hermite knots of the smooth terms at s_k = k / 32 Å^2 with the analytic value and slope
    // dE/ds = E'(r) / 2r, scaled by the knot step. No cutoff here: the knot at r = 8 Å holds the
    // limit from below, so the spline keeps the analytic hard cutoff (splineEnergy returns 0
    // beyond it) instead of smearing the step over the last interval.
    auto spline = std::make_shared<std::vector<double>>();
    spline->reserve(static_cast<size_t>(tableSize_) * 2 * row);
    const double step = 1.0 / kTableSamplesPerA2;
    for (int i = 0; i < kXsTypeCount; ++i)
        for (int j = i; j < kXsTypeCount; ++j)
            for (int k = 0; k < tableSize_; ++k) {
                const double r = std::sqrt(k * step);
                double dEdr = 0.0;
                const double e = smoothEnergy(pair_[i * kXsTypeCount + j], r, &dEdr);
                // At r = 0 the slope in s is undefined (no pair ever gets there).
                const double slope = r > 0 ? dEdr / (2 * r) : 0.0;
                spline->push_back(e);
                spline->push_back(slope * step);
            }
    splineStore_ = spline;
    spline_ = splineStore_->data();
}

ScoringFunction::TableView ScoringFunction::tableView() const {
    TableView v;
    v.tableSize = tableSize_;
    v.tableRows = kXsTypeCount * (kXsTypeCount + 1) / 2;
    v.tablePair = tablePair_.data();
    v.table = table_;
    v.spline = spline_;
    v.hydGood = hydGood_;
    v.hydBad = hydBad_;
    v.hbGood = hbGood_;
    v.hbBad = hbBad_;
    return v;
}

double ScoringFunction::cutoff() const {
    return cutoff_;
}

double ScoringFunction::radius(XsType t) const {
    const int i = static_cast<int>(t);
    if (i < 0 || i >= kXsTypeCount)
        return 0.0;
    return kind_ == ScoringKind::Vina ? vina::kXsRadiusVina[i] : vina::kXsRadiusVinardo[i];
}

double ScoringFunction::pairEnergyInRange(const PairParams& p, double r, double* dEdr) const {
    double d1, d2;
    const double e = smoothEnergy(p, r, &d1) + rampEnergy(p, r, &d2);
    *dEdr = d1 + d2;
    return e;
}

double ScoringFunction::smoothEnergy(const PairParams& p, double r, double* dEdr) const {
    const double d = r - p.optimal;
    const double x1 = (d - g1Offset_) * g1InvWidth_;
    const double e1 = std::exp(-x1 * x1);
    double e = weights_[Gauss1] * e1;
    double de = weights_[Gauss1] * e1 * (-2.0 * x1 * g1InvWidth_);
    if (kind_ == ScoringKind::Vina) {
        const double x2 = (d - g2Offset_) * g2InvWidth_;
        const double e2 = std::exp(-x2 * x2);
        e += weights_[Gauss2] * e2;
        de += weights_[Gauss2] * e2 * (-2.0 * x2 * g2InvWidth_);
    }
    if (d < 0.0) {
        e += weights_[Repulsion] * d * d;
        de += weights_[Repulsion] * 2.0 * d;
    }
    *dEdr = de;
    return e;
}

double ScoringFunction::rampEnergy(const PairParams& p, double r, double* dEdr) const {
    if (r >= cutoff_) {
        *dEdr = 0.0;
        return 0.0;
    }
    const double d = r - p.optimal;
    double e = 0.0, de = 0.0, ds;
    if (p.hydrophobic != 0.0) {
        e += weights_[Hydrophobic] * slopeStep(hydBad_, hydGood_, d, &ds);
        de += weights_[Hydrophobic] * ds;
    }
    if (p.hbond != 0.0) {
        e += weights_[HydrogenBond] * slopeStep(hbBad_, hbGood_, d, &ds);
        de += weights_[HydrogenBond] * ds;
    }
    *dEdr = de;
    return e;
}

void ScoringFunction::addPairTerms(int t1, int t2, double r, TermArray& raw) const {
    if (r >= cutoff_)
        return;
    const PairParams& p = pair_[t1 * kXsTypeCount + t2];
    const double d = r - p.optimal;
    double ds;
    const double x1 = (d - g1Offset_) * g1InvWidth_;
    raw[Gauss1] += std::exp(-x1 * x1);
    if (kind_ == ScoringKind::Vina) {
        const double x2 = (d - g2Offset_) * g2InvWidth_;
        raw[Gauss2] += std::exp(-x2 * x2);
    }
    if (d < 0.0)
        raw[Repulsion] += d * d;
    if (p.hydrophobic != 0.0)
        raw[Hydrophobic] += slopeStep(hydBad_, hydGood_, d, &ds);
    if (p.hbond != 0.0)
        raw[HydrogenBond] += slopeStep(hbBad_, hbGood_, d, &ds);
}

} // namespace pw
