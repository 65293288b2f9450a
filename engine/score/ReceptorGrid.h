// ReceptorGrid: Vina's precomputed receptor maps, one per ligand XS type, sampled every 0.375 Å
// over the box and read back by trilinear interpolation with its gradient (Vina's cache/grid).
#pragma once

#include "ReceptorModel.h"
#include "ScoringFunction.h"

#include <vector>

namespace pw {

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

private:
    GridDims dims_;
    int nx_ = 0, ny_ = 0, nz_ = 0;           // sample points per axis
    std::vector<double> maps_[kXsTypeCount]; // [x][y][z], z fastest
};

} // namespace pw
