// ReceptorGrid: Vina's precomputed receptor maps, one per ligand XS type, sampled every 0.375 Å
// over the box and read back by trilinear interpolation with its gradient (Vina's cache/grid), or,
// as an option for well-conditioned minimization, by a C1/C2 tricubic over the same samples.
#pragma once

#include "core/InstanceId.h"
#include "ReceptorModel.h"
#include "ScoringFunction.h"

#include <string>
#include <vector>

namespace pw {

// How the map samples are read between grid points. Trilinear is Vina's (and the default): its
// value is continuous but its gradient jumps at every cell face, so BFGS paths that start a float
// rounding apart part ways (tests/bench/RESULTS.md). The tricubics use the 4x4x4 samples around
// the cell: Catmull-Rom passes through the samples (C1), the uniform cubic B-spline smooths them
// (C2, a convex combination: no overshoot next to steep repulsive walls).
enum class GridInterpolation { Trilinear, CatmullRom, BSpline };
const char* gridInterpolationName(GridInterpolation m); // "trilinear", "catmull-rom", "bspline"
// Parses those names (and "cubic" for catmull-rom); false when the name is unknown.
bool parseGridInterpolation(const std::string& name, GridInterpolation& out);

class ReceptorGrid {
public:
    // Builds the maps of `types` (all XS types when empty) over dims, with `threads` workers
    // (0 = hardware concurrency). Map values are the weighted pair energies summed over the
    // receptor atoms within the cutoff of each sample point, from Vina's tabulated potential
    // (ScoringFunction::tabulatedEnergy) as Vina fills its own maps.
    ReceptorGrid(const ReceptorModel& receptor, const ScoringFunction& sf, const GridDims& dims,
                 const std::vector<XsType>& types = {}, int threads = 0);

    const GridDims& dims() const { return dims_; }
    bool hasMap(int type) const { return type >= 0 && type < kXsTypeCount && !maps_[type].empty(); }

    // Interpolated map value at p for an atom of `type` (a map must exist). Outside the grid
    // the value at the nearest face is used, its gradient along that axis is zero, and
    // `outside` receives the distance (Å, summed over axes) and `outsideGrad` its gradient.
    double interpolate(int type, const Vec3& p, Vec3& grad, double& outside,
                       Vec3& outsideGrad) const;
    // The same with the chosen interpolation (out-of-box handling identical).
    double interpolate(int type, const Vec3& p, Vec3& grad, double& outside, Vec3& outsideGrad,
                       GridInterpolation mode) const;
    // Sample value at grid point (x, y, z) (the map as built, for uploads to a device).
    double sample(int type, int x, int y, int z) const {
        return maps_[type][(static_cast<size_t>(x) * ny_ + y) * nz_ + z];
    }

    // This object's own id (core/InstanceId.h): what a device copy of the grid is keyed by.
    std::uint64_t instanceId() const { return instance_.value(); }

private:
    InstanceId instance_;
    GridDims dims_;
    int nx_ = 0, ny_ = 0, nz_ = 0;           // sample points per axis
    std::vector<double> maps_[kXsTypeCount]; // [x][y][z], z fastest
};

} // namespace pw
