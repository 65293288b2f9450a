// Ad4Maps: an in-memory AutoDock 4 grid-map set: one affinity map per ligand atom type plus the
// electrostatic ("e") and desolvation ("d") maps, on autogrid's box: `npts` even per axis (as the
// GPF and the .fld's #NELEMENTS give it), npts+1 points, the centre on the middle point.
// Values are stored as float, the precision autodock4 reads them with (it parses `%f` into a
// float). Interpolation is autodock4's trilinear interpolation (trilinterp.cc), float weights.
#pragma once

#include "core/InstanceId.h"
#include <Eigen/Core>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pw::ad4 {

struct GridGeometry {
    Eigen::Vector3d center = Eigen::Vector3d::Zero();
    double spacing = 0.375;
    std::array<int, 3> npts{0, 0, 0}; // even numbers of intervals (autogrid's NELEMENTS)

    int points(int axis) const { return npts[axis] + 1; }
    std::size_t pointCount() const {
        return static_cast<std::size_t>(points(0)) * points(1) * points(2);
    }
    // Grid corners: centre -/+ (npts/2) * spacing, as autodock4's readfield computes them.
    Eigen::Vector3d lo() const;
    Eigen::Vector3d hi() const;
    // Position of grid point (i, j, k).
    Eigen::Vector3d point(int i, int j, int k) const;
    // Strictly inside the box (autodock4's is_out_grid_info is true on the faces).
    bool contains(const Eigen::Vector3d& p) const;
    // Same npts, spacing and centre (centre and spacing to 1e-4, the precision of the files).
    bool sameAs(const GridGeometry& o) const;
};

class Ad4Maps {
public:
    Ad4Maps() = default;
    // Zero-filled maps for the given ligand types (e.g. {"A", "C", "OA", "HD"}), plus "e" and "d".
    Ad4Maps(const GridGeometry& geometry, std::vector<std::string> ligandTypes);

    const GridGeometry& geometry() const { return geometry_; }
    const std::vector<std::string>& ligandTypes() const { return ligandTypes_; }
    int mapCount() const { return static_cast<int>(values_.size()); }
    // Index of a ligand type's affinity map, or of "e" / "d"; -1 when absent.
    int mapIndex(std::string_view name) const;
    int electrostaticMap() const { return static_cast<int>(ligandTypes_.size()); }
    int desolvationMap() const { return static_cast<int>(ligandTypes_.size()) + 1; }
    // The map's name: its ligand type, "e" or "d".
    std::string mapName(int map) const;

    // Values of one map, x fastest, then y, then z (the .map file order).
    std::vector<float>& values(int map) { return values_[map]; }
    const std::vector<float>& values(int map) const { return values_[map]; }
    std::size_t index(int i, int j, int k) const {
        return (static_cast<std::size_t>(k) * geometry_.points(1) + j) * geometry_.points(0) + i;
    }
    float at(int map, int i, int j, int k) const { return values_[map][index(i, j, k)]; }

    // autodock4's trilinear interpolation of one map at p (p must be inside: contains(p)).
    double interpolate(int map, const Eigen::Vector3d& p) const;
    // The same interpolant and its gradient d/dp (double weights: the analytic form).
    double interpolateWithGradient(int map, const Eigen::Vector3d& p, Eigen::Vector3d* grad) const;

    // This object's own id (core/InstanceId.h): what a device copy of the maps is keyed by.
    std::uint64_t instanceId() const { return instance_.value(); }

    // Where the maps came from (autogrid writes these in each .map header).
    std::string receptorFile = "receptor.pdbqt";
    std::string gpfFile = "maps.gpf";

private:
    GridGeometry geometry_;
    std::vector<std::string> ligandTypes_;
    std::vector<std::vector<float>> values_;
    InstanceId instance_;
};

} // namespace pw::ad4
