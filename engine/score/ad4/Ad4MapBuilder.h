// Ad4MapBuilder: AutoDock 4 grid maps (one per ligand atom type, plus electrostatics "e" and
// desolvation "d") computed from a receptor PDBQT and a box, as autogrid4 4.2.6 computes them.
#pragma once

#include "core/Molecule.h"
#include "score/ad4/Ad4MapTables.h"
#include "score/ad4/Ad4Maps.h"
#include "score/ad4/Ad4Parameters.h"
#include "score/ad4/Ad4ReceptorSites.h"

#include <array>
#include <string>
#include <vector>

namespace pw::ad4 {

// Point (ix, iy, iz) relative to the grid centre, as autogrid computes it: (i - npts/2) * spacing.
inline Vec3 gridOffset(const GridGeometry& g, int ix, int iy, int iz) {
    return Vec3(double(ix - g.npts[0] / 2) * g.spacing, double(iy - g.npts[1] / 2) * g.spacing,
                double(iz - g.npts[2] / 2) * g.spacing);
}

struct MapBuildOptions {
    double smooth = kSmoothWidth;            // autogrid's `smooth` (Å)
    bool distanceDependentDielectric = true; // autogrid's `dielectric` < 0 (the usual -0.1465)
    double constantDielectric = 40.0;        // used when not distance-dependent
};

inline constexpr int kMaxMapTypes = 32;

// Everything the sweep reads, prepared once per receptor + box + type set; the CPU and the CUDA
// builders read the same setup.
struct MapSetup {
    GridGeometry box;
    std::vector<std::string> typeNames;
    std::vector<const AtomParameters*> mapTypes;      // one per affinity map
    std::vector<const AtomParameters*> receptorTypes; // distinct receptor types, first-seen order
    std::vector<ReceptorSite> sites;                  // receptor atoms, file order
    std::vector<int> donors;                          // sites that are H-bond donors
    // pairTables[(map * receptorTypes.size() + receptorType) * kMapPairTableSize + i]
    std::vector<double> pairTables;
    std::vector<double> desolvation;       // coeff_desolv * Gaussian, kMapLongTableSize samples
    std::vector<double> inverseDielectric; // 332 / eps(r), kMapLongTableSize samples
    double estatWeight = 0;

    int mapCount() const { return static_cast<int>(mapTypes.size()) + 2; }
};

// Throws pw::InputError naming the receptor's file for: an atom without an AD4 type, a type the
// force field does not know, a receptor whose charges are all zero (not charged), a box with
// odd or non-positive npts or a non-positive spacing, an unknown, repeated or excess ligand type.
MapSetup prepareMaps(const Molecule& receptor, const GridGeometry& box,
                     const std::vector<std::string>& ligandTypes,
                     const MapBuildOptions& options = {});

// All map values at one point (`offset` from the box centre): out[k] for the affinity maps, then
// e, then d (setup.mapCount() values). Double precision: the reference.
void mapPointEnergies(const MapSetup& setup, const Vec3& offset, double* out);

// One affinity map's value at one point (`offset` from the box centre) with the point's
// electrostatic potential and desolvation map values: what mapPointEnergies writes at out[map],
// out[e] and out[d], by the same code, for one probe type only (the exact AD4 scorer's cost per
// ligand atom). Throws std::out_of_range for a map index the setup does not have.
struct PointEnergy {
    double affinity = 0, elec = 0, desolv = 0;
};
PointEnergy mapPointEnergy(const MapSetup& setup, const Vec3& offset, int map);

// The smooth twin of mapPointEnergy, for minimization: the same sweep with every table read by
// linear interpolation between its 0.01 Å samples instead of autogrid's truncation (so within one
// table step of mapPointEnergy, and continuous in the point but for the 8 Å cutoff and a change
// of closest donor), with the analytic gradient of the three values with respect to the point.
struct PointEnergyGradient {
    PointEnergy value;
    Vec3 affinity = Vec3::Zero(), elec = Vec3::Zero(), desolv = Vec3::Zero();
};
PointEnergyGradient mapPointEnergySmooth(const MapSetup& setup, const Vec3& offset, int map);

// The whole grid on the CPU, z-planes spread over `threads` (0 = all cores).
Ad4Maps buildMapsCpu(const MapSetup& setup, int threads = 0);

} // namespace pw::ad4
