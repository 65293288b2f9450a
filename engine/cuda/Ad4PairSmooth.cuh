// Ad4PairSmooth: the smooth twin of the exact AD4 intermolecular energy with its analytic
// gradient (ad4::Ad4ExactScorer::energyAndGradient, one atom: mapPointEnergySmooth's sweep with
// the tables read by linear interpolation between samples, directional H-bond factors
// differentiated), written once for the device and the host test, in double, from the receptor
// as Ad4MapPacking packs it (site parameters and tables in float). The objective a minimizer can
// descend; Ad4PairMath.cuh is the truncated-table energy autogrid's maps hold.
#pragma once

#include "Ad4PairMath.cuh"

namespace pw::cuda::ad4pair {

struct D3 {
    double x, y, z;
};
PW_AD4_HD D3 operator+(D3 a, D3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
PW_AD4_HD D3 operator-(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
PW_AD4_HD D3 operator*(double s, D3 a) { return {s * a.x, s * a.y, s * a.z}; }
PW_AD4_HD double dot(D3 a, D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
PW_AD4_HD D3 cross(D3 a, D3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
PW_AD4_HD D3 of(float4 v) { return {double(v.x), double(v.y), double(v.z)}; }
PW_AD4_HD double clampD(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

// A table read at r: the straight line between the samples around r and its slope (0 past the
// last sample), as ad4's readSamples<true>.
struct SmoothRead {
    double value, slope;
};
PW_AD4_HD SmoothRead smoothRead(const float* t, int size, double r) {
    // r * 100 rounded as the CPU rounds it (no fused multiply-add), so that the sample pair, and
    // with it the slope, is the CPU's.
#ifdef __CUDA_ARCH__
    const double u = __dmul_rn(r, 100.0);
#else
    const double u = r * 100.0;
#endif
    const int i = static_cast<int>(u);
    if (i >= size - 1)
        return {double(ad4kernel::readOnly(t + size - 1)), 0.0};
    const double a = ad4kernel::readOnly(t + i), b = ad4kernel::readOnly(t + i + 1);
    return {a + (u - i) * (b - a), (b - a) * 100.0};
}

// One atom's energy (affinity + q e + |q| d) and dE/d(atom) over every site, in file order.
struct SmoothSweep {
    ad4kernel::Probe probe;
    const float* pairRows; // this map's rows of the pair tables
    D3 c;                  // the atom relative to the box centre
    int closest;           // closest donor site
    D3 closestBond;
    double affinity, elec, desolv, hbMin, hbMax;
    bool hbUsed;
    D3 gAffinity, gElec, gDesolv, gMin, gMax;

    PW_AD4_HD void begin(const Ad4PairArgs& a, int map, double x, double y, double z) {
        probe = a.probes[map];
        pairRows = a.maps.pairTables +
                   static_cast<long>(map) * a.maps.nrec * ad4kernel::kPairTableSize;
        c = {ad4kernel::exactDifference(x, a.center[0]), ad4kernel::exactDifference(y, a.center[1]),
             ad4kernel::exactDifference(z, a.center[2])};
        closest = ad4kernel::closestDonor(a.maps, c.x, c.y, c.z);
        closestBond = a.maps.ndonors > 0 ? of(a.maps.bond[closest]) : D3{0, 0, 0};
        affinity = elec = desolv = 0;
        hbMin = 999999.;
        hbMax = -999999.;
        hbUsed = false;
        gAffinity = gElec = gDesolv = gMin = gMax = D3{0, 0, 0};
    }

    PW_AD4_HD void add(const Ad4PairArgs& a, int siteIndex, const ad4kernel::SitePosition& p,
                       float4 s, int2 kind, float4 bond4, float4 plane4) {
        // point -> site, and r, rounded as the CPU rounds them (Ad4MapPointMath.cuh's helpers)
        const D3 d{ad4kernel::exactDifference(p.x, c.x), ad4kernel::exactDifference(p.y, c.y),
                   ad4kernel::exactDifference(p.z, c.z)};
        double r = sqrt(ad4kernel::exactSquare(d.x, d.y, d.z));
        r = r < 1.0e-6 ? 1.0e-6 : r;
        const double charge = s.x;
        const SmoothRead diel = smoothRead(a.maps.inverseDielectric, ad4kernel::kLongTableSize, r);
        const double inverseR = 1.0 / (r > 0.5 ? r : 0.5);
        elec += charge * inverseR * diel.value;
        // d/d(point) of a function of r is its slope times -d / r.
        const double dInverseR = r > 0.5 ? -inverseR * inverseR : 0.0;
        gElec = gElec - (charge * (dInverseR * diel.value + inverseR * diel.slope) / r) * d;
        if (r > ad4kernel::kCutoff)
            return;
        const D3 dir = (1.0 / r) * d, dR = -1.0 * dir;
        const D3 bond = of(bond4), plane = of(plane4);
        const int hb = kind.y & 0xff, exponent = kind.y >> 8;
        auto toPoint = [&](D3 v) { return (-1.0 / r) * (v - dot(dir, v) * dir); };
        // hbondFactors and hbondFactorGradients (Ad4MapBuilder.cpp), per site type.
        double racc = 1, rdon = 1, hramp = 1;
        D3 gRacc{0, 0, 0}, gRdon{0, 0, 0};
        const double cosTheta = -dot(dir, bond);
        const D3 dCos = toPoint(-1.0 * bond);
        if (hb == ad4kernel::Donor1) {
            if (cosTheta <= 0) {
                racc = 0;
            } else {
                const double c2 = cosTheta * cosTheta;
                racc = exponent == 2 ? c2 : exponent == 4 ? c2 * c2 : cosTheta;
                const double dRacc = exponent == 2   ? 2 * cosTheta
                                     : exponent == 4 ? 4 * c2 * cosTheta
                                                     : 1.0;
                gRacc = dRacc * dCos;
                if (siteIndex != closest) {
                    const double cb = clampD(dot(closestBond, bond), -1.0, 1.0);
                    hramp = 0.5 - 0.5 * cos(acos(cb) * 120.0 / 90.0);
                }
            }
        } else if (hb == ad4kernel::Acceptor1) {
            rdon = cosTheta <= 0 ? 0.0 : cosTheta * cosTheta;
            if (cosTheta > 0)
                gRdon = (2 * cosTheta) * dCos;
        } else if (hb == ad4kernel::Acceptor2) {
            const double x = dot(dir, plane);
            const double t0 = 1.5707963267948966 - acos(clampD(x, -1.0, 1.0));
            const double cosT0 = sqrt(fmax(0.0, 1 - fmin(x * x, 1.0)));
            const D3 dCosT0 = cosT0 > 1e-9 && fabs(x) < 1 ? toPoint((-x / cosT0) * plane)
                                                           : D3{0, 0, 0};
            rdon = 0;
            if (cosTheta >= 0) {
                const D3 q = cross(dir, plane);
                const double len2Raw = dot(q, q);
                const double len2 = fmax(len2Raw, 1.0e-6);
                const double num = dot(q, bond);
                const double tiRaw = num / sqrt(len2);
                const double ti = clampD(tiRaw, -1.0, 1.0);
                const double away = fabs(acos(ti) - 1.5707963267948966);
                rdon = (0.9 + 0.1 * sin(away + away)) * cos(t0);
                D3 dAway{0, 0, 0};
                if (fabs(tiRaw) < 1 && 1 - ti * ti > 1e-12) {
                    D3 dTi = (1.0 / sqrt(len2)) * cross(plane, bond);
                    if (len2Raw > 1.0e-6) {
                        const D3 dLen2 = (2 * dot(plane, plane)) * dir - (2 * x) * plane;
                        dTi = dTi - (num / (2 * len2 * sqrt(len2))) * dLen2;
                    }
                    dAway = ((ti > 0 ? 1.0 : -1.0) / sqrt(1 - ti * ti)) * toPoint(dTi);
                }
                gRdon = (0.2 * cos(away + away) * cosT0) * dAway +
                        (0.9 + 0.1 * sin(away + away)) * dCosT0;
            } else if (cosTheta >= -0.34202) { // cos(100 degrees)
                const double u = 0.116978 - cosTheta * cosTheta;
                rdon = 562.25 * u * u * u * cos(t0);
                gRdon = (562.25 * 3 * u * u * (-2 * cosTheta) * cosT0) * dCos +
                        (562.25 * u * u * u) * dCosT0;
            }
        }
        const bool siteDonor = hb == ad4kernel::Donor1 || hb == ad4kernel::DonorS;
        const bool siteAcceptor = hb > 2;
        const SmoothRead sol = smoothRead(a.maps.desolvation, ad4kernel::kLongTableSize, r);
        const SmoothRead pair =
            smoothRead(pairRows + static_cast<long>(kind.x) * ad4kernel::kPairTableSize,
                       ad4kernel::kPairTableSize, r);
        const double e = pair.value;
        // v = e * (f + (1 - f) * rsph) for a directional factor f, and its gradient.
        auto directional = [&](double f, D3 df, double rsph) {
            const double dRsph = e > 0.0 && e < 100.0 ? pair.slope / 100.0 : 0.0;
            return (pair.slope * (f + (1.0 - f) * rsph)) * dR +
                   e * ((1.0 - rsph) * df + ((1.0 - f) * dRsph) * dR);
        };
        D3 g{0, 0, 0};
        const int ph = probe.hbond;
        const bool probeDonor = ph == ad4kernel::Donor1 || ph == ad4kernel::DonorS;
        if (ph != ad4kernel::None) {
            const double rsph = clampD(e / 100.0, 0.0, 1.0);
            if ((ph == ad4kernel::AcceptorS || ph == ad4kernel::Acceptor2) && siteDonor) {
                affinity += e * hramp * (racc + (1.0 - racc) * rsph);
                g = hramp * directional(racc, gRacc, rsph);
            } else if ((ph == ad4kernel::Acceptor1 && siteDonor) || (probeDonor && siteAcceptor)) {
                const bool acc = ph == ad4kernel::Acceptor1 && siteDonor;
                const double f = acc ? racc : rdon;
                const double v = e * (f + (1.0 - f) * rsph);
                if (v < hbMin) {
                    hbMin = v;
                    gMin = directional(f, acc ? gRacc : gRdon, rsph);
                }
                if (v > hbMax) {
                    hbMax = v;
                    gMax = directional(f, acc ? gRacc : gRdon, rsph);
                }
                hbUsed = true;
            } else {
                affinity += e;
                g = pair.slope * dR;
            }
        } else {
            affinity += e;
            g = pair.slope * dR;
        }
        const double vol = s.y, siteSolvation = s.z;
        const double solvation = double(probe.solpar) * vol + siteSolvation * double(probe.vol);
        affinity += solvation * sol.value;
        gAffinity = gAffinity + g + (solvation * sol.slope) * dR;
        desolv += 0.01097 * vol * sol.value;
        gDesolv = gDesolv + (0.01097 * vol * sol.slope) * dR;
    }

    // The atom's energy for charge q (estat: the electrostatic weight); its gradient into grad.
    PW_AD4_HD double finish(double q, double estat, D3& grad) const {
        double aff = affinity;
        D3 gAff = gAffinity;
        if (hbUsed) { // autogrid adds both the weakest and the strongest directional H-bond
            aff += hbMin + hbMax;
            gAff = gAff + gMin + gMax;
        }
        const double absQ = fabs(q);
        grad = gAff + (q * estat) * gElec + absQ * gDesolv;
        return aff + q * estat * elec + absQ * desolv;
    }
};

// One atom: the penalty rule outside the box (Ad4ExactScorer: 2 * 500 * |x - centre|^2), else the
// whole sweep with the sites read straight from the arrays (the host test's path; the kernel
// feeds the same add calls from shared memory).
PW_AD4_HD double smoothAtomEnergy(const Ad4PairArgs& a, int map, double q, double x, double y,
                                  double z, D3& grad) {
    if (a.penalty && !insideBox(a, x, y, z)) {
        const D3 off{x - a.center[0], y - a.center[1], z - a.center[2]};
        grad = (4.0 * kOutsidePenalty) * off;
        return 2.0 * kOutsidePenalty * dot(off, off);
    }
    SmoothSweep s;
    s.begin(a, map, x, y, z);
    for (int j = 0; j < a.maps.nsites; ++j)
        s.add(a, j, a.maps.pos[j], a.maps.site[j], a.maps.kind[j], a.maps.bond[j],
              a.maps.plane[j]);
    return s.finish(q, a.estat, grad);
}

} // namespace pw::cuda::ad4pair
