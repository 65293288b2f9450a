#include "score/ad4/Ad4PairTerms.h"

#include <algorithm>
#include <cmath>

namespace pw::ad4 {

PairCoefficients pairCoefficients(const AtomParameters& a, const AtomParameters& b,
                                  const FreeEnergyCoefficients& fe) {
    PairCoefficients c;
    if (a.isDonor() && b.isAcceptor()) {
        c.Rij = b.Rij_hb;
        c.epsij = b.epsij_hb * fe.hbond;
        c.xB = 10;
        c.hbond = true;
    } else if (a.isAcceptor() && b.isDonor()) {
        c.Rij = a.Rij_hb;
        c.epsij = a.epsij_hb * fe.hbond;
        c.xB = 10;
        c.hbond = true;
    } else {
        // autodock4 weights each epsilon first, then takes the geometric mean (same rounding).
        c.Rij = (a.Rii + b.Rii) / 2.0;
        c.epsij = std::sqrt((a.epsii * fe.vdW) * (b.epsii * fe.vdW));
    }
    const double k = c.epsij / static_cast<double>(c.xA - c.xB);
    c.cA = k * std::pow(c.Rij, static_cast<double>(c.xA)) * c.xB;
    c.cB = k * std::pow(c.Rij, static_cast<double>(c.xB)) * c.xA;
    return c;
}

double pairEnergy(const PairCoefficients& c, double r) {
    const double e = c.cA / std::pow(r, static_cast<double>(c.xA)) -
                     c.cB / std::pow(r, static_cast<double>(c.xB));
    return std::min(kEnergyClamp, e);
}

double smoothedPairEnergy(const PairCoefficients& c, double r, double smoothWidth, double* dEdr) {
    // The unsmoothed curve falls to its minimum at Rij (when cB > 0) and rises after it, so the
    // window minimum is the curve at the window end nearest Rij, or the well depth inside.
    const double half = smoothWidth / 2.0;
    double rEval = r;
    if (c.cB > 0 && c.Rij > 0) {
        if (r < c.Rij - half)
            rEval = r + half;
        else if (r > c.Rij + half)
            rEval = r - half;
        else
            rEval = c.Rij;
    } else {
        rEval = r + half; // purely repulsive: decreasing everywhere
    }
    // Integer powers by multiplication (xA = 12, xB = 6 or 10): this runs in the search's loop.
    const double inv2 = 1.0 / (rEval * rEval);
    const double inv6 = inv2 * inv2 * inv2;
    const double a = c.cA * inv6 * inv6;
    const double b = c.cB * (c.xB == 10 ? inv6 * inv2 * inv2 : inv6);
    const double e = a - b;
    if (e >= kEnergyClamp || rEval == c.Rij) {
        *dEdr = 0.0;
        return std::min(kEnergyClamp, e);
    }
    *dEdr = (-c.xA * a + c.xB * b) / rEval;
    return e;
}

double mehlerSolmajerDielectric(double r) {
    // eps(r) = A + B / (1 + k exp(-lambda B r)), B = eps0 - A (Mehler & Solmajer 1991).
    constexpr double lambda = 0.003627, eps0 = 78.4, A = -8.5525, k = 7.7839;
    constexpr double B = eps0 - A;
    const double eps = A + B / (1.0 + k * std::exp(-lambda * B * r));
    return eps < 1e-6 ? 1.0 : eps;
}

double mehlerSolmajerDielectricDerivative(double r) {
    constexpr double lambda = 0.003627, eps0 = 78.4, A = -8.5525, k = 7.7839;
    constexpr double B = eps0 - A;
    const double x = k * std::exp(-lambda * B * r);
    const double eps = A + B / (1.0 + x);
    if (eps < 1e-6)
        return 0.0;
    return B * x * lambda * B / ((1.0 + x) * (1.0 + x));
}

double electrostaticEnergy(double qi, double qj, double r, const FreeEnergyCoefficients& fe) {
    return fe.estat * kElecScale * qi * qj / (r * mehlerSolmajerDielectric(r));
}

double desolvationGaussian(double r) {
    return std::exp(-r * r / (2.0 * kDesolvSigma * kDesolvSigma));
}

double desolvationPairFactor(const AtomParameters& i, double qi, const AtomParameters& j,
                             double qj) {
    return j.vol * (i.solpar + kQSolPar * std::fabs(qi)) +
           i.vol * (j.solpar + kQSolPar * std::fabs(qj));
}

std::vector<double> smoothWithWindowMinimum(const std::vector<double>& values, double width,
                                            const std::function<double(int)>& distanceOf,
                                            const std::function<int(double)>& indexOf) {
    const int n = static_cast<int>(values.size());
    std::vector<double> out(values.size());
    for (int i = 0; i < n; ++i) {
        const double r = distanceOf(i);
        const int lo = std::clamp(indexOf(r - width / 2.0), 0, n - 1);
        const int hi = std::clamp(indexOf(r + width / 2.0), 0, n - 1);
        double m = values[i];
        for (int j = std::min(lo, hi); j <= std::max(lo, hi); ++j)
            m = std::min(m, values[j]);
        out[i] = m;
    }
    return out;
}

} // namespace pw::ad4
