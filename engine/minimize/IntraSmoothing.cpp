#include "IntraSmoothing.h"

#include "score/VinaConstants.h"

#include <algorithm>
#include <cmath>

namespace pw {
namespace {

// Quadratic rounding of a unit slope change at v = 0 over [-h, h], minus the kink it replaces.
double kinkCorrection(double v, double h, double* dv) {
    if (v <= -h || v >= h) {
        *dv = 0.0;
        return 0.0;
    }
    const double u = v + h;
    *dv = u / (2 * h) - (v > 0 ? 1.0 : 0.0);
    return u * u / (4 * h) - std::max(0.0, v);
}

} // namespace

double IntraSmoothing::correction(double good, double bad, double halfWidth, double d, double* dd) {
    // Slope m between the ends, 0 outside: +m at the lower end, -m at the upper end.
    const double lo = std::min(good, bad), hi = std::max(good, bad);
    const double m = 1.0 / (good - bad);
    double a, b;
    const double e =
        m * (kinkCorrection(d - lo, halfWidth, &a) - kinkCorrection(d - hi, halfWidth, &b));
    *dd = m * (a - b);
    return e;
}

void IntraSmoothing::cutoffShift(const ScoringFunction& sf, int t1, int t2, double& value,
                                 double& slope) {
    // Just inside the cutoff: the spline's last interval, as LigandScorer's intra sum reads it.
    value = sf.splineEnergy(t1, t2, sf.cutoffSquared() * (1 - 1e-12), &slope);
}

IntraSmoothing::IntraSmoothing(const LigandScorer& scorer, double rampHalfWidth, bool shiftCutoff)
    : halfWidth_(rampHalfWidth) {
    const ScoringFunction& sf = scorer.scoringFunction();
    const bool vina = sf.kind() == ScoringKind::Vina;
    hydGood_ = vina ? vina::kVinaHydrophobicGood : vina::kVinardoHydrophobicGood;
    hydBad_ = vina ? vina::kVinaHydrophobicBad : vina::kVinardoHydrophobicBad;
    hbGood_ = vina ? vina::kVinaHbondGood : vina::kVinardoHbondGood;
    hbBad_ = vina ? vina::kVinaHbondBad : vina::kVinardoHbondBad;
    cutoff_ = sf.cutoff();
    cutoff2_ = sf.cutoffSquared();
    const bool ramps = halfWidth_ > 0;
    if (!ramps && !shiftCutoff)
        return;
    const VinaLigandTopology& topo = scorer.topology();
    for (const auto& [i, j] : topo.intraPairs) {
        const XsType a = topo.types[i], b = topo.types[j];
        if (a == XsType::None || b == XsType::None)
            continue;
        const bool hyd = ramps && xsIsHydrophobic(a) && xsIsHydrophobic(b);
        const bool hb =
            ramps && ((xsIsDonor(a) && xsIsAcceptor(b)) || (xsIsDonor(b) && xsIsAcceptor(a)));
        double value = 0, slope = 0;
        if (shiftCutoff)
            cutoffShift(sf, static_cast<int>(a), static_cast<int>(b), value, slope);
        if (!hyd && !hb && value == 0 && slope == 0)
            continue;
        pairs_.push_back({i, j, sf.radius(a) + sf.radius(b), hyd ? sf.weights()[Hydrophobic] : 0.0,
                          hb ? sf.weights()[HydrogenBond] : 0.0, value, slope});
    }
}

double IntraSmoothing::evaluate(const std::vector<Vec3>& coords,
                                std::vector<Vec3>* gradient) const {
    double total = 0.0;
    for (const Pair& p : pairs_) {
        const Vec3 delta = coords[p.j] - coords[p.i];
        const double r2 = delta.squaredNorm();
        if (r2 >= cutoff2_ || r2 <= 0)
            continue; // the pair potential is cut there (as LigandScorer's intra sum)
        const double r = std::sqrt(r2);
        const double d = r - p.optimal;
        // Cutoff shift, linear in r^2 (d/dr = 2 r d/dr2).
        double e = -(p.shiftValue + (r2 - cutoff2_) * p.shiftSlope);
        double de = -2.0 * r * p.shiftSlope, dd;
        if (p.hydWeight != 0) {
            e += p.hydWeight * correction(hydGood_, hydBad_, halfWidth_, d, &dd);
            de += p.hydWeight * dd;
        }
        if (p.hbWeight != 0) {
            e += p.hbWeight * correction(hbGood_, hbBad_, halfWidth_, d, &dd);
            de += p.hbWeight * dd;
        }
        total += e;
        if (gradient && de != 0) {
            const Vec3 g = (de / r) * delta;
            (*gradient)[p.j] += g;
            (*gradient)[p.i] -= g;
        }
    }
    return total;
}

} // namespace pw
