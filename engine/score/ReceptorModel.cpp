#include "ReceptorModel.h"

#include "VinaTopology.h"

#include <algorithm>
#include <cmath>

namespace pw {
namespace {

// Target cell edge: small cells waste fewer candidates, large ones fewer copies; 2 Å keeps the
// candidate lists about 1.5x the atoms really within 8 Å.
constexpr double kCellEdge = 2.0;

// Squared distance from p to the axis-aligned box [lo, hi].
double boxDistanceSquared(const Vec3& lo, const Vec3& hi, const Vec3& p) {
    double s = 0;
    for (int d = 0; d < 3; ++d) {
        const double e = p[d] < lo[d] ? lo[d] - p[d] : (p[d] > hi[d] ? p[d] - hi[d] : 0.0);
        s += e * e;
    }
    return s;
}

} // namespace

ReceptorModel::ReceptorModel(const Molecule& receptor, const GridDims& region, bool penalizeOutside,
                             double cutoff)
    : region_(region), penalizeOutside_(penalizeOutside), cutoff_(cutoff) {
    atomTypes_ = vinaRigidXsTypes(receptor);
    for (size_t i = 0; i < receptor.atoms.size(); ++i) {
        if (atomTypes_[i] == XsType::None)
            continue;
        const Vec3& p = receptor.atoms[i].position;
        sites_.push_back({p.x(), p.y(), p.z(), static_cast<int>(atomTypes_[i])});
    }

    const Vec3 lo = region_.begin, hi = region_.end();
    Vec3 edge;
    for (int d = 0; d < 3; ++d) {
        const double span = std::max(hi[d] - lo[d], 1e-9);
        cells_[d] = std::max(1, static_cast<int>(std::ceil(span / kCellEdge)));
        edge[d] = span / cells_[d];
        invCell_[d] = 1.0 / edge[d];
    }
    const double cut2 = cutoff_ * cutoff_;
    std::vector<const Site*> near;
    for (const Site& s : sites_)
        if (boxDistanceSquared(lo, hi, Vec3(s.x, s.y, s.z)) < cut2)
            near.push_back(&s);

    const int nCells = cells_[0] * cells_[1] * cells_[2];
    cellStart_.assign(nCells + 1, 0);
    int idx = 0;
    for (int x = 0; x < cells_[0]; ++x)
        for (int y = 0; y < cells_[1]; ++y)
            for (int z = 0; z < cells_[2]; ++z, ++idx) {
                const Vec3 cLo = lo + Vec3(x * edge[0], y * edge[1], z * edge[2]);
                const Vec3 cHi = cLo + edge;
                for (const Site* s : near)
                    if (boxDistanceSquared(cLo, cHi, Vec3(s->x, s->y, s->z)) < cut2)
                        cellSites_.push_back(*s);
                cellStart_[idx + 1] = static_cast<int>(cellSites_.size());
            }
}

} // namespace pw
