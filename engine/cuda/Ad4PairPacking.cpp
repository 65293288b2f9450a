#include "Ad4PairPacking.h"

namespace pw::cuda {

PackedAd4Pair packAd4Pair(const ad4::MapSetup& setup, ad4::OutsideBox outside) {
    PackedAd4Pair p;
    p.maps = packAd4Maps(setup);
    Ad4PairArgs& a = p.args;
    a.maps = p.maps.args;
    const Eigen::Vector3d lo = setup.box.lo(), hi = setup.box.hi();
    for (int k = 0; k < 3; ++k) {
        a.center[k] = setup.box.center[k];
        a.lo[k] = lo[k];
        a.hi[k] = hi[k];
    }
    a.penalty = outside == ad4::OutsideBox::Penalty ? 1 : 0;
    a.estat = setup.estatWeight;
    return p;
}

Ad4PairArgs hostView(const PackedAd4Pair& p) {
    Ad4PairArgs a = p.args;
    ad4kernel::Args& m = a.maps;
    m.pos = p.maps.pos.data();
    m.site = p.maps.site.data();
    m.kind = p.maps.kind.data();
    m.bond = p.maps.bond.data();
    m.plane = p.maps.plane.data();
    m.donors = p.maps.donors.data();
    m.pairTables = p.maps.pairTables.data();
    m.desolvation = p.maps.desolvation.data();
    m.inverseDielectric = p.maps.inverseDielectric.data();
    a.probes = p.maps.probes.data();
    return a;
}

} // namespace pw::cuda
