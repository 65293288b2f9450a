// Ad4PairMath: the exact AD4 intermolecular terms of one ligand atom at any point, as
// ad4::Ad4ExactScorer::inter computes them, in the map kernel's own per-site arithmetic
// (Ad4MapPointMath: closestDonor and PointSums::addSite, with the atom's one affinity map in
// place of a grid point's many) and with the running sums in double. Written once for the device
// and the host: the pair kernel (Ad4PairKernel.cu) feeds the sites through shared memory, the
// host test (tests/cudahost/test_ad4_pair_math.cpp) runs atomTerms against the CPU scorer.
#pragma once

#include "Ad4MapPointMath.cuh"
#include "Ad4PairTypes.h"

namespace pw::cuda::ad4pair {

constexpr double kOutsidePenalty = 500.0; // kcal/mol/Å^2, autodock4's ENERGYPENALTY

// GridGeometry::contains, operation for operation (a NaN coordinate counts as inside there too).
// (Axis by axis without an array: an indexed local array would live in the kernel's stack.)
PW_AD4_HD bool insideBox(const Ad4PairArgs& a, double x, double y, double z) {
    return !(x <= a.lo[0] || x >= a.hi[0] || y <= a.lo[1] || y >= a.hi[1] || z <= a.lo[2] ||
             z >= a.hi[2]);
}

// autodock4's outside-box rule: 500 * |x - centre|^2, booked as vdW and again as electrostatics.
PW_AD4_HD Ad4PairAtomTerms penaltyTerms(const Ad4PairArgs& a, double x, double y, double z) {
    const double p = ad4kernel::exactSquare(ad4kernel::exactDifference(x, a.center[0]),
                                            ad4kernel::exactDifference(y, a.center[1]),
                                            ad4kernel::exactDifference(z, a.center[2])) *
                     kOutsidePenalty;
    return {p, p, 0.0};
}

// One atom's sweep over the receptor sites: begin, add every site in file order, finish.
struct AtomSweep {
    ad4kernel::Args one;     // the setup seen through the atom's affinity map only
    ad4kernel::Probe probe;  // that map's probe type
    double cx, cy, cz;       // the atom relative to the box centre
    int closest;             // closest donor site (autogrid's H-bond fade reference)
    float4 closestBond;
    ad4kernel::PointSums<1, double> sums;

    PW_AD4_HD void begin(const Ad4PairArgs& a, int map, double x, double y, double z) {
        one = a.maps;
        // Map m's rows of the pair tables start at m * nrec rows (Ad4MapPacking's layout).
        one.pairTables = a.maps.pairTables +
                         static_cast<long>(map) * a.maps.nrec * ad4kernel::kPairTableSize;
        one.nmaps = 1;
        probe = a.probes[map];
        cx = ad4kernel::exactDifference(x, a.center[0]);
        cy = ad4kernel::exactDifference(y, a.center[1]);
        cz = ad4kernel::exactDifference(z, a.center[2]);
        closest = ad4kernel::closestDonor(a.maps, cx, cy, cz);
        closestBond = a.maps.ndonors > 0 ? a.maps.bond[closest] : make_float4(0.f, 0.f, 0.f, 0.f);
        sums.reset();
    }

    PW_AD4_HD void add(int site, const ad4kernel::SitePosition& p, float4 s, int2 kind,
                       float4 bond, float4 plane) {
        sums.addSite(one, &probe, p, s, kind, bond, plane, site == closest, closestBond, cx, cy,
                     cz);
    }

    // The atom's terms for charge q; estat: the electrostatic weight (the sums leave it out, as
    // the map kernel applies it when it stores the e map).
    PW_AD4_HD Ad4PairAtomTerms finish(double q, double estat) const {
        // autogrid adds both the weakest and the strongest directional H-bond.
        const double hb =
            sums.hbMax[0] > -999998.f ? double(sums.hbMin[0]) + double(sums.hbMax[0]) : 0.0;
        return {sums.e[0] + hb, q * (sums.elec * estat), fabs(q) * sums.desolv};
    }
};

// The whole computation of one atom (map, charge q, absolute position x, y, z) with the sites
// read straight from the arrays: the host test's path (the kernel runs the same AtomSweep calls
// over shared-memory tiles).
PW_AD4_HD Ad4PairAtomTerms atomTerms(const Ad4PairArgs& a, int map, double q, double x, double y,
                                     double z) {
    if (a.penalty && !insideBox(a, x, y, z))
        return penaltyTerms(a, x, y, z);
    AtomSweep s;
    s.begin(a, map, x, y, z);
    for (int j = 0; j < a.maps.nsites; ++j)
        s.add(j, a.maps.pos[j], a.maps.site[j], a.maps.kind[j], a.maps.bond[j], a.maps.plane[j]);
    return s.finish(q, a.estat);
}

} // namespace pw::cuda::ad4pair
