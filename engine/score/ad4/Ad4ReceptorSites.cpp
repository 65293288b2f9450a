#include "score/ad4/Ad4ReceptorSites.h"

#include "score/ad4/Ad4MapTables.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>

namespace pw::ad4 {

namespace {

constexpr int kBondScanWindow = 20; // autogrid looks this many atoms either side for bonds

// v / |v| with autogrid's guard: a squared length below 1e-6 is taken as 1e-6.
Vec3 unitGuarded(const Vec3& v) {
    const double len2 = std::max(v.squaredNorm(), kMapApproxZero);
    return v / std::sqrt(len2);
}

struct Scan {
    const Molecule& mol;
    const std::vector<int>& typeOf;
    const std::vector<const AtomParameters*>& types;
    std::string_view typeName(int atom) const { return types[typeOf[atom]]->type; }
    bool isHydrogen(int atom) const { // autogrid's "hydrogen" or "nonHB_hydrogen"
        const auto n = typeName(atom);
        return n == "HD" || n == "H";
    }
    const Vec3& pos(int atom) const { return mol.atoms[atom].position; }
};

// Donor hydrogen: the first atom of the window closer than sqrt(1.90) Å is its heavy atom.
void donorGeometry(const Scan& s, int ia, int from, int to, ReceptorSite& site) {
    for (int ib = from; ib <= to; ++ib) {
        if (ib == ia)
            continue;
        const Vec3 d = s.pos(ia) - s.pos(ib);
        if (d.squaredNorm() < 1.90) {
            const auto n = s.typeName(ib);
            site.cosExponent = (n == "OA" || n == "SA") ? 4 : 2;
            site.bond = unitGuarded(d);
            return;
        }
    }
}

// Up to `maxBonds` neighbours of atom ia in window order: heavy atoms closer than heavyCut2
// (squared Å), hydrogens closer than 1.3 Å.
std::vector<int> bondedNeighbours(const Scan& s, int ia, int from, int to, double heavyCut2,
                                  size_t maxBonds) {
    std::vector<int> found;
    for (int ib = from; ib <= to && found.size() < maxBonds; ++ib) {
        if (ib == ia)
            continue;
        const double r2 = (s.pos(ia) - s.pos(ib)).squaredNorm();
        if ((!s.isHydrogen(ib) && r2 < heavyCut2) || (s.isHydrogen(ib) && r2 < 1.69))
            found.push_back(ib);
    }
    return found;
}

// Oxygen/sulphur acceptor with two lone pairs.
void acceptor2Geometry(const Scan& s, int ia, int from, int to, ReceptorSite& site) {
    const auto bonded = bondedNeighbours(s, ia, from, to, 3.61, 2);
    if (bonded.size() == 1) {
        // Carbonyl O=C: along C->O; the lone-pair plane normal is (C->O) x (C->X) for the last
        // atom X bonded to the carbon (autogrid keeps the last one it finds).
        const int i1 = bonded[0];
        site.bond = unitGuarded(s.pos(ia) - s.pos(i1));
        for (int i2 = from; i2 <= to; ++i2) {
            if (i2 == i1 || i2 == ia)
                continue;
            const double r2 = (s.pos(i1) - s.pos(i2)).squaredNorm();
            const bool hd = s.typeName(i2) == "HD";
            if ((r2 < 2.89 && !hd) || (r2 < 1.69 && hd)) {
                const Vec3 d = unitGuarded(s.pos(i2) - s.pos(i1));
                site.plane = unitGuarded(site.bond.cross(d));
            }
        }
    } else if (bonded.size() == 2) {
        // Hydroxyl or ether X1-O-X2: plane direction X1->X2, and the vector from the X1-X2 line
        // to the oxygen points between the lone pairs.
        const Vec3& x1 = s.pos(bonded[0]);
        site.plane = unitGuarded(s.pos(bonded[1]) - x1);
        const double along = (s.pos(ia) - x1).dot(site.plane);
        site.bond = unitGuarded(s.pos(ia) - (along * site.plane + x1));
    }
}

// Nitrogen acceptor with one lone pair: away from the mean of its (up to three) neighbours.
void acceptor1Geometry(const Scan& s, int ia, int from, int to, ReceptorSite& site) {
    const auto bonded = bondedNeighbours(s, ia, from, to, 2.89, 3);
    if (bonded.empty())
        return;
    Vec3 mean = Vec3::Zero();
    for (int b : bonded)
        mean += s.pos(b);
    mean /= static_cast<double>(bonded.size());
    site.bond = unitGuarded(s.pos(ia) - mean);
}

} // namespace

std::vector<ReceptorSite>
mapReceptorSites(const Molecule& receptor, const Vec3& gridCentre, const std::vector<int>& typeOf,
                 const std::vector<const AtomParameters*>& receptorTypes) {
    const Scan scan{receptor, typeOf, receptorTypes};
    const int n = static_cast<int>(receptor.atoms.size());
    std::vector<ReceptorSite> sites(n);
    for (int ia = 0; ia < n; ++ia) {
        const AtomParameters& t = *receptorTypes[typeOf[ia]];
        ReceptorSite& site = sites[ia];
        site.position = receptor.atoms[ia].position - gridCentre;
        site.charge = receptor.atoms[ia].charge;
        site.type = typeOf[ia];
        site.hbond = t.hbond;
        site.vol = t.vol;
        site.solpar = t.solpar;
        const int from = std::max(ia - kBondScanWindow, 0);
        const int to = std::min(ia + kBondScanWindow, n - 1);
        if (t.hbond == HbondType::Donor1)
            donorGeometry(scan, ia, from, to, site);
        else if (t.hbond == HbondType::Acceptor2)
            acceptor2Geometry(scan, ia, from, to, site);
        else if (t.hbond == HbondType::Acceptor1)
            acceptor1Geometry(scan, ia, from, to, site);
    }
    return sites;
}

} // namespace pw::ad4
