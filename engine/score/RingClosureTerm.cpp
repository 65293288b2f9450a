#include "RingClosureTerm.h"

#include "VinaConstants.h"

#include <cmath>

namespace pw {
namespace {

// Every Vina/Vinardo pair potential but the glue ends at 8 Å (scoring_function.h).
constexpr double kTermCutoff = vina::kCutoff;
// One step of Vina's r^2 table (precalculate.h factor 32).
const double kSmoothRadius = std::sqrt(1.0 / ScoringFunction::kTableSamplesPerA2);

} // namespace

RingClosureTerm::RingClosureTerm(const ScoringFunction& sf)
    : w1_(sf.weights()[Gauss1]), w2_(sf.weights()[Gauss2]), glueWeight_(sf.glueWeight()) {
    if (sf.kind() == ScoringKind::Vinardo) {
        offset1_ = vina::kVinardoGaussOffset;
        width1_ = vina::kVinardoGaussWidth;
        offset2_ = 0.0;
        width2_ = 1.0;
        w2_ = 0.0;
    } else {
        offset1_ = vina::kVinaGauss1Offset;
        width1_ = vina::kVinaGauss1Width;
        offset2_ = vina::kVinaGauss2Offset;
        width2_ = vina::kVinaGauss2Width;
    }
}

double RingClosureTerm::gaussians(double r, double* dEdr) const {
    if (r >= kTermCutoff) {
        *dEdr = 0.0;
        return 0.0;
    }
    const double x1 = (r - offset1_) / width1_, x2 = (r - offset2_) / width2_;
    const double g1 = w1_ * std::exp(-x1 * x1), g2 = w2_ * std::exp(-x2 * x2);
    *dEdr = -2.0 * x1 / width1_ * g1 - 2.0 * x2 / width2_ * g2;
    return g1 + g2;
}

double RingClosureTerm::pseudoAtomPair(double r, double* dEdr) const {
    return gaussians(r, dEdr);
}

double RingClosureTerm::gluePair(double r, double* dEdr) const {
    double e = gaussians(r, dEdr);
    if (r >= vina::kGlueCutoff)
        return e;
    if (r < kSmoothRadius) {
        // Same value and slope as weight * r at kSmoothRadius.
        e += glueWeight_ * (r * r / (2.0 * kSmoothRadius) + kSmoothRadius / 2.0);
        *dEdr += glueWeight_ * r / kSmoothRadius;
    } else {
        e += glueWeight_ * r;
        *dEdr += glueWeight_;
    }
    return e;
}

double RingClosureTerm::tabulated(double r2, bool glue) const {
    const double cutoff = glue ? vina::kGlueCutoff : kTermCutoff;
    if (r2 >= cutoff * cutoff)
        return 0.0;
    // Vina evaluates its potentials exactly at r = sqrt(i / 32) and averages the two bin ends.
    auto exact = [&](double r) {
        double d;
        double e = gaussians(r, &d);
        if (glue && r < vina::kGlueCutoff)
            e += glueWeight_ * r;
        return e;
    };
    const int i = static_cast<int>(ScoringFunction::kTableSamplesPerA2 * r2);
    const double r0 = std::sqrt(i / ScoringFunction::kTableSamplesPerA2);
    const double r1 = std::sqrt((i + 1) / ScoringFunction::kTableSamplesPerA2);
    return 0.5 * (exact(r0) + exact(r1));
}

double RingClosureTerm::pseudoAtomPairTabulated(double r2) const {
    return tabulated(r2, false);
}
double RingClosureTerm::gluePairTabulated(double r2) const {
    return tabulated(r2, true);
}

} // namespace pw
