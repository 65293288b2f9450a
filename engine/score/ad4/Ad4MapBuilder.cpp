#include "score/ad4/Ad4MapBuilder.h"

#include "core/InputError.h"
#include "core/ParallelFor.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <thread>

namespace pw::ad4 {

namespace {

const AtomParameters& knownType(const std::string& type, const std::string& file,
                                const std::string& what) {
    const AtomParameters* p = findParameters(type);
    if (!p)
        throw InputError(file, 0,
                         what + " has AutoDock 4 type '" + type +
                             "', which the AD4.1_bound force field does not define");
    return *p;
}

void checkBox(const GridGeometry& box, const std::string& file) {
    for (int a = 0; a < 3; ++a)
        if (box.npts[a] <= 0 || box.npts[a] % 2 != 0)
            throw InputError(file, 0,
                             "AD4 map box: npts must be even and positive on every axis (got " +
                                 std::to_string(box.npts[0]) + " " + std::to_string(box.npts[1]) +
                                 " " + std::to_string(box.npts[2]) + ")");
    if (!(box.spacing > 0))
        throw InputError(file, 0, "AD4 map box: spacing must be positive");
}

// autogrid's directional H-bond factors of one receptor site seen from a grid point (`dir`: unit
// vector from the point to the site): racc scales acceptor probes on a donor hydrogen (with Hramp,
// the fade-out of donors not aligned with the closest one), rdon donor probes on an acceptor.
struct HbondFactors {
    double racc = 1, rdon = 1, hramp = 1;
};

HbondFactors hbondFactors(const MapSetup& s, const ReceptorSite& site, int siteIndex,
                          int closestDonor, const Vec3& dir) {
    HbondFactors f;
    const double cosTheta = -dir.dot(site.bond);
    if (site.hbond == HbondType::Donor1) {
        if (cosTheta <= 0) {
            f.racc = 0;
            return f;
        }
        const double c2 = cosTheta * cosTheta;
        f.racc = site.cosExponent == 2 ? c2 : site.cosExponent == 4 ? c2 * c2 : cosTheta;
        if (siteIndex != closestDonor) {
            const double c = std::clamp(s.sites[closestDonor].bond.dot(site.bond), -1.0, 1.0);
            f.hramp = 0.5 - 0.5 * std::cos(std::acos(c) * 120.0 / 90.0);
        }
    } else if (site.hbond == HbondType::Acceptor1) {
        f.rdon = cosTheta <= 0 ? 0.0 : cosTheta * cosTheta;
    } else if (site.hbond == HbondType::Acceptor2) {
        // Goodford's lone-pair terms: t0 out of the lone-pair plane, ti within it.
        const double t0 =
            std::numbers::pi / 2 - std::acos(std::clamp(dir.dot(site.plane), -1.0, 1.0));
        const Vec3 cross = dir.cross(site.plane);
        const double len2 = std::max(cross.squaredNorm(), kMapApproxZero);
        f.rdon = 0;
        if (cosTheta >= 0) {
            const double ti = std::clamp(cross.dot(site.bond) / std::sqrt(len2), -1.0, 1.0);
            const double away = std::fabs(std::acos(ti) - std::numbers::pi / 2);
            f.rdon = (0.9 + 0.1 * std::sin(away + away)) * std::cos(t0);
        } else if (cosTheta >= -0.34202) { // cos(100 degrees)
            f.rdon = 562.25 * std::pow(0.116978 - cosTheta * cosTheta, 3.0) * std::cos(t0);
        }
    }
    return f;
}

// d/d(point) of hbondFactors' racc and rdon (hramp depends only on which donor is closest: its
// derivative is 0). Each factor is a function of the unit vector `dir` from the point to the site;
// its Euclidean gradient in dir is projected onto the sphere and scaled: d(dir)/d(point) =
// -(I - dir dir^T) / r.
struct HbondFactorGradients {
    Vec3 racc = Vec3::Zero(), rdon = Vec3::Zero();
};

HbondFactorGradients hbondFactorGradients(const ReceptorSite& site, const Vec3& dir, double r) {
    HbondFactorGradients g;
    auto toPoint = [&](const Vec3& v) -> Vec3 { return -(v - dir.dot(v) * dir) / r; };
    const double cosTheta = -dir.dot(site.bond);
    const Vec3 dCos = toPoint(-site.bond);
    if (site.hbond == HbondType::Donor1) {
        if (cosTheta <= 0)
            return g;
        const double n = site.cosExponent == 2 ? 2 : site.cosExponent == 4 ? 4 : 1;
        g.racc = n * std::pow(cosTheta, n - 1) * dCos;
    } else if (site.hbond == HbondType::Acceptor1) {
        if (cosTheta > 0)
            g.rdon = 2 * cosTheta * dCos;
    } else if (site.hbond == HbondType::Acceptor2) {
        // cos(t0) = sqrt(1 - x^2), x = dir . plane (clamped to [-1, 1] as hbondFactors does).
        const double x = dir.dot(site.plane);
        const double cosT0 = std::sqrt(std::max(0.0, 1 - std::min(x * x, 1.0)));
        const Vec3 dCosT0 = cosT0 > 1e-9 && std::fabs(x) < 1 ? Vec3(toPoint(-x / cosT0 * site.plane))
                                                              : Vec3(Vec3::Zero());
        if (cosTheta >= 0) {
            // ti = (dir x plane) . bond / |dir x plane|, away = |asin(ti)|.
            const Vec3 cross = dir.cross(site.plane);
            const double len2Raw = cross.squaredNorm();
            const double len2 = std::max(len2Raw, kMapApproxZero);
            const double num = cross.dot(site.bond);
            const double tiRaw = num / std::sqrt(len2);
            const double ti = std::clamp(tiRaw, -1.0, 1.0);
            const double away = std::fabs(std::acos(ti) - std::numbers::pi / 2);
            Vec3 dAway = Vec3::Zero();
            if (std::fabs(tiRaw) < 1 && 1 - ti * ti > 1e-12) {
                const Vec3 dNum = site.plane.cross(site.bond); // d(dir . (plane x bond)) / d(dir)
                Vec3 dTi = dNum / std::sqrt(len2);
                if (len2Raw > kMapApproxZero) {
                    const Vec3 dLen2 = 2 * site.plane.squaredNorm() * dir - 2 * x * site.plane;
                    dTi -= num / (2 * len2 * std::sqrt(len2)) * dLen2;
                }
                dAway = (ti > 0 ? 1.0 : -1.0) / std::sqrt(1 - ti * ti) * toPoint(dTi);
            }
            g.rdon = 0.2 * std::cos(away + away) * cosT0 * dAway +
                     (0.9 + 0.1 * std::sin(away + away)) * dCosT0;
        } else if (cosTheta >= -0.34202) {
            const double u = 0.116978 - cosTheta * cosTheta;
            g.rdon = 562.25 * 3 * u * u * (-2 * cosTheta) * cosT0 * dCos +
                     562.25 * u * u * u * dCosT0;
        }
    }
    return g;
}

} // namespace

MapSetup prepareMaps(const Molecule& receptor, const GridGeometry& box,
                     const std::vector<std::string>& ligandTypes, const MapBuildOptions& options) {
    const std::string& file = receptor.sourceFile;
    checkBox(box, file);
    if (receptor.atoms.empty())
        throw InputError(file, 0, "receptor has no atoms");
    if (ligandTypes.empty())
        throw InputError(file, 0, "AD4 maps: no ligand atom types requested");
    if (ligandTypes.size() > kMaxMapTypes)
        throw InputError(file, 0,
                         "AD4 maps: at most " + std::to_string(kMaxMapTypes) +
                             " ligand atom types per map set");

    MapSetup s;
    s.box = box;
    for (const auto& t : ligandTypes) {
        if (std::find(s.typeNames.begin(), s.typeNames.end(), t) != s.typeNames.end())
            throw InputError(file, 0, "AD4 maps: ligand type '" + t + "' requested twice");
        s.mapTypes.push_back(&knownType(t, file, "requested ligand map"));
        s.typeNames.push_back(t);
    }

    std::vector<int> typeOf(receptor.atoms.size());
    bool charged = false;
    for (size_t i = 0; i < receptor.atoms.size(); ++i) {
        const Atom& a = receptor.atoms[i];
        if (a.ad4Type.empty())
            throw InputError(file, 0,
                             "receptor atom " + std::to_string(a.serial) +
                                 " has no AutoDock 4 type (a PDBQT receptor is needed)");
        const AtomParameters* p =
            &knownType(a.ad4Type, file, "receptor atom " + std::to_string(a.serial));
        auto it = std::find(s.receptorTypes.begin(), s.receptorTypes.end(), p);
        if (it == s.receptorTypes.end())
            it = s.receptorTypes.insert(s.receptorTypes.end(), p);
        typeOf[i] = static_cast<int>(it - s.receptorTypes.begin());
        charged = charged || a.charge != 0.0;
    }
    if (!charged)
        throw InputError(file, 0,
                         "receptor has no partial charges (all are zero): AD4 maps need a "
                         "charged PDBQT receptor (Gasteiger charges, columns 71-76)");

    s.sites = mapReceptorSites(receptor, box.center, typeOf, s.receptorTypes);
    for (size_t i = 0; i < s.sites.size(); ++i)
        if (s.sites[i].hbond == HbondType::Donor1 || s.sites[i].hbond == HbondType::DonorSpherical)
            s.donors.push_back(static_cast<int>(i));

    const FreeEnergyCoefficients& fe = boundCoefficients();
    s.pairTables.reserve(s.mapTypes.size() * s.receptorTypes.size() * kMapPairTableSize);
    for (const AtomParameters* m : s.mapTypes)
        for (const AtomParameters* r : s.receptorTypes) {
            const auto t = cachedMapPairTable(*m, *r, options.smooth, fe);
            s.pairTables.insert(s.pairTables.end(), t.begin(), t.end());
        }
    s.desolvation = mapDesolvationTable(fe);
    s.inverseDielectric =
        mapInverseDielectricTable(options.distanceDependentDielectric, options.constantDielectric);
    s.estatWeight = fe.estat;
    return s;
}

namespace {

// A table read at distance r: autogrid's truncation (the maps), or for the smooth twin the
// straight line between the two samples around r, with its slope (0 past the last sample).
struct TableRead {
    double value, slope;
};

template <bool Smooth>
TableRead readSamples(const double* t, int size, double r) {
    if constexpr (!Smooth) {
        return {t[mapTableIndex(r, size)], 0.0};
    } else {
        const double u = r * kMapTableDivisions;
        const int i = static_cast<int>(u);
        if (i >= size - 1)
            return {t[size - 1], 0.0};
        const double step = t[i + 1] - t[i];
        return {t[i] + (u - i) * step, step * kMapTableDivisions};
    }
}

template <bool Smooth>
TableRead readTable(const std::vector<double>& t, double r) {
    return readSamples<Smooth>(t.data(), static_cast<int>(t.size()), r);
}

// Pair-table read of map m against the site's receptor type.
template <bool Smooth>
TableRead readPairTable(const MapSetup& s, int m, int siteType, double r) {
    const size_t nr = s.receptorTypes.size();
    const double* t = s.pairTables.data() + (size_t(m) * nr + siteType) * kMapPairTableSize;
    return readSamples<Smooth>(t, kMapPairTableSize, r);
}

// d/d(point) of the outputs, filled by the smooth sweep only.
struct SweepGradient {
    Vec3* affinity = nullptr; // [m - m0]
    Vec3 elec = Vec3::Zero(), desolv = Vec3::Zero();
};

// The sweep at one point for the affinity maps [m0, m1) (written to affinity[m - m0]) and the
// electrostatic and desolvation maps: the one code path of the map builders and the exact scorer.
// Smooth = false is autogrid's arithmetic; Smooth = true reads the tables by linear interpolation
// and also fills `grad` (the same terms, differentiated).
template <bool Smooth>
void sweepPoint(const MapSetup& s, const Vec3& c, int m0, int m1, double* affinity,
                double& elecOut, double& desolvOut, SweepGradient* grad = nullptr) {
    double hbMin[kMaxMapTypes], hbMax[kMaxMapTypes];
    bool hbUsed[kMaxMapTypes];
    Vec3 gMin[kMaxMapTypes], gMax[kMaxMapTypes];
    for (int m = m0; m < m1; ++m) {
        affinity[m - m0] = 0;
        hbMin[m] = 999999.;
        hbMax[m] = -999999.;
        hbUsed[m] = false;
        if constexpr (Smooth) {
            grad->affinity[m - m0].setZero();
            gMin[m].setZero();
            gMax[m].setZero();
        }
    }
    double elec = 0, desolv = 0; // locals: the outputs may live in the same array as affinity

    // autogrid fades acceptor probes by how far each donor's X-H points from the closest donor's.
    // (Squared distances: the same donor as autogrid's distances but for exact ties.)
    int closestDonor = 0;
    double r2Min = 999999. * 999999.;
    for (int ia : s.donors) {
        const Vec3 d = s.sites[ia].position - c;
        const double r2 = d.x() * d.x() + d.y() * d.y() + d.z() * d.z();
        if (r2 < r2Min) {
            r2Min = r2;
            closestDonor = ia;
        }
    }

    const int nsites = static_cast<int>(s.sites.size());
    for (int ia = 0; ia < nsites; ++ia) {
        const ReceptorSite& site = s.sites[ia];
        Vec3 d = site.position - c;
        double r = std::sqrt(d.x() * d.x() + d.y() * d.y() + d.z() * d.z());
        r = std::max(r, kMapApproxZero);
        const TableRead diel = readTable<Smooth>(s.inverseDielectric, r);
        const double inverseR = 1.0 / std::max(r, kMinElecDistance);
        elec += site.charge * inverseR * diel.value * s.estatWeight;
        if constexpr (Smooth) {
            // d/d(point) of a function of r is its slope times -d / r (d: point -> site).
            const double dInverseR = r > kMinElecDistance ? -inverseR * inverseR : 0.0;
            grad->elec -= site.charge * s.estatWeight *
                          (dInverseR * diel.value + inverseR * diel.slope) / r * d;
        }
        if (r > kNonbondCutoff)
            continue;
        d /= r;
        [[maybe_unused]] const Vec3 dR = -d;
        const HbondFactors f = hbondFactors(s, site, ia, closestDonor, d);
        HbondFactorGradients fg;
        if constexpr (Smooth)
            fg = hbondFactorGradients(site, d, r);
        const bool siteDonor =
            site.hbond == HbondType::Donor1 || site.hbond == HbondType::DonorSpherical;
        const bool siteAcceptor = static_cast<int>(site.hbond) > 2;
        const TableRead sol = readTable<Smooth>(s.desolvation, r);
        const double siteSolvation = site.solpar + kQSolPar * std::fabs(site.charge);
        for (int m = m0; m < m1; ++m) {
            const AtomParameters& probe = *s.mapTypes[m];
            const TableRead pair = readPairTable<Smooth>(s, m, site.type, r);
            const double e = pair.value;
            // v = e * (a + (1 - a) * rsph) for a directional factor a; its gradient.
            [[maybe_unused]] auto directional = [&](double a, const Vec3& da, double rsph) {
                Vec3 g = Vec3::Zero();
                if constexpr (Smooth) {
                    const double dRsph = e > 0.0 && e < 100.0 ? pair.slope / 100.0 : 0.0;
                    g = pair.slope * (a + (1.0 - a) * rsph) * dR +
                        e * ((1.0 - rsph) * da + (1.0 - a) * dRsph * dR);
                }
                return g;
            };
            Vec3 g = Vec3::Zero();
            if (probe.hbond != HbondType::None) {
                const double rsph = std::clamp(e / 100.0, 0.0, 1.0);
                if ((probe.hbond == HbondType::AcceptorSpherical ||
                     probe.hbond == HbondType::Acceptor2) &&
                    siteDonor) {
                    affinity[m - m0] += e * f.hramp * (f.racc + (1.0 - f.racc) * rsph);
                    if constexpr (Smooth)
                        g = f.hramp * directional(f.racc, fg.racc, rsph);
                } else if ((probe.hbond == HbondType::Acceptor1 && siteDonor) ||
                           (probe.isDonor() && siteAcceptor)) {
                    const bool acc = probe.hbond == HbondType::Acceptor1 && siteDonor;
                    const double a = acc ? f.racc : f.rdon;
                    const double v = e * (a + (1.0 - a) * rsph);
                    if (v < hbMin[m]) {
                        hbMin[m] = v;
                        if constexpr (Smooth)
                            gMin[m] = directional(a, acc ? fg.racc : fg.rdon, rsph);
                    }
                    if (v > hbMax[m]) {
                        hbMax[m] = v;
                        if constexpr (Smooth)
                            gMax[m] = directional(a, acc ? fg.racc : fg.rdon, rsph);
                    }
                    hbUsed[m] = true;
                } else {
                    affinity[m - m0] += e;
                    g = pair.slope * dR;
                }
            } else {
                affinity[m - m0] += e;
                g = pair.slope * dR;
            }
            const double solvation = probe.solpar * site.vol + siteSolvation * probe.vol;
            affinity[m - m0] += solvation * sol.value;
            if constexpr (Smooth)
                grad->affinity[m - m0] += g + solvation * sol.slope * dR;
        }
        desolv += kQSolPar * site.vol * sol.value;
        if constexpr (Smooth)
            grad->desolv += kQSolPar * site.vol * sol.slope * dR;
    }
    // autogrid adds both the strongest and the weakest directional H-bond of the point (so a
    // single one counts twice): kept as it is, the maps must equal autogrid's.
    for (int m = m0; m < m1; ++m)
        if (hbUsed[m]) {
            affinity[m - m0] += hbMin[m] + hbMax[m];
            if constexpr (Smooth)
                grad->affinity[m - m0] += gMin[m] + gMax[m];
        }
    elecOut = elec;
    desolvOut = desolv;
}

} // namespace

void mapPointEnergies(const MapSetup& s, const Vec3& c, double* out) {
    const int nm = static_cast<int>(s.mapTypes.size());
    sweepPoint<false>(s, c, 0, nm, out, out[nm], out[nm + 1]);
}

PointEnergy mapPointEnergy(const MapSetup& s, const Vec3& offset, int map) {
    if (map < 0 || map >= static_cast<int>(s.mapTypes.size()))
        throw std::out_of_range("mapPointEnergy: no affinity map " + std::to_string(map));
    PointEnergy e;
    sweepPoint<false>(s, offset, map, map + 1, &e.affinity, e.elec, e.desolv);
    return e;
}

PointEnergyGradient mapPointEnergySmooth(const MapSetup& s, const Vec3& offset, int map) {
    if (map < 0 || map >= static_cast<int>(s.mapTypes.size()))
        throw std::out_of_range("mapPointEnergySmooth: no affinity map " + std::to_string(map));
    PointEnergyGradient out;
    SweepGradient g;
    g.affinity = &out.affinity;
    sweepPoint<true>(s, offset, map, map + 1, &out.value.affinity, out.value.elec,
                     out.value.desolv, &g);
    out.elec = g.elec;
    out.desolv = g.desolv;
    return out;
}

Ad4Maps buildMapsCpu(const MapSetup& s, int threads) {
    Ad4Maps g(s.box, s.typeNames);
    const int nmaps = s.mapCount();
    const int nx = s.box.points(0), ny = s.box.points(1), nz = s.box.points(2);
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    parallelFor(nz, threads, [&](long iz) {
        std::vector<double> e(nmaps);
        for (int iy = 0; iy < ny; ++iy)
            for (int ix = 0; ix < nx; ++ix) {
                mapPointEnergies(s, gridOffset(s.box, ix, iy, static_cast<int>(iz)), e.data());
                const size_t p = g.index(ix, iy, static_cast<int>(iz));
                for (int k = 0; k < nmaps; ++k)
                    g.values(k)[p] = static_cast<float>(e[k]);
            }
    });
    return g;
}

} // namespace pw::ad4
