#include "Ad4MapPacking.h"

#include <cmath>

namespace pw::cuda {

PackedAd4Maps packAd4Maps(const ad4::MapSetup& setup) {
    PackedAd4Maps p;
    const size_t n = setup.sites.size();
    p.pos.resize(n);
    p.site.resize(n);
    p.bond.resize(n);
    p.plane.resize(n);
    p.kind.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const ad4::ReceptorSite& s = setup.sites[i];
        p.pos[i] = {s.position.x(), s.position.y(), s.position.z(), 0.0};
        p.site[i] = make_float4(float(s.charge), float(s.vol),
                                float(s.solpar + ad4::kQSolPar * std::fabs(s.charge)), 0.f);
        p.bond[i] = make_float4(float(s.bond.x()), float(s.bond.y()), float(s.bond.z()), 0.f);
        p.plane[i] = make_float4(float(s.plane.x()), float(s.plane.y()), float(s.plane.z()), 0.f);
        p.kind[i] = make_int2(s.type, static_cast<int>(s.hbond) | (s.cosExponent << 8));
    }
    p.donors = setup.donors;
    p.pairTables.assign(setup.pairTables.begin(), setup.pairTables.end());
    p.desolvation.assign(setup.desolvation.begin(), setup.desolvation.end());
    p.inverseDielectric.assign(setup.inverseDielectric.begin(), setup.inverseDielectric.end());
    for (const ad4::AtomParameters* t : setup.mapTypes)
        p.probes.push_back({static_cast<int>(t->hbond), float(t->solpar), float(t->vol), 0});

    ad4kernel::Args& a = p.args;
    a.nx = setup.box.points(0);
    a.ny = setup.box.points(1);
    a.nz = setup.box.points(2);
    a.hx = setup.box.npts[0] / 2;
    a.hy = setup.box.npts[1] / 2;
    a.hz = setup.box.npts[2] / 2;
    a.spacing = setup.box.spacing;
    a.nsites = static_cast<int>(n);
    a.ndonors = static_cast<int>(setup.donors.size());
    a.nmaps = static_cast<int>(setup.mapTypes.size());
    a.nrec = static_cast<int>(setup.receptorTypes.size());
    a.estat = static_cast<float>(setup.estatWeight);
    a.points = setup.box.pointCount();
    return p;
}

} // namespace pw::cuda
