#include "ReceptorGrid.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

namespace pw {

ReceptorGrid::ReceptorGrid(const ReceptorModel& receptor, const ScoringFunction& sf,
                           const GridDims& dims, const std::vector<XsType>& types, int threads)
    : dims_(dims), nx_(dims.voxels[0] + 1), ny_(dims.voxels[1] + 1), nz_(dims.voxels[2] + 1) {
    std::vector<int> wanted;
    for (int t = 0; t < kXsTypeCount; ++t)
        if (types.empty() ||
            std::find(types.begin(), types.end(), static_cast<XsType>(t)) != types.end())
            wanted.push_back(t);
    const size_t points = static_cast<size_t>(nx_) * ny_ * nz_;
    for (int t : wanted)
        maps_[t].assign(points, 0.0);
    if (wanted.empty())
        return;

    // The model's cell list answers for points inside its region; points outside it (a grid
    // larger than the model's region) are summed over every receptor atom.
    const GridDims& region = receptor.region();
    const double cut2 = sf.cutoffSquared();
    const auto& all = receptor.sites();
    auto fillSlab = [&](int x) {
        std::vector<double> acc(wanted.size());
        for (int y = 0; y < ny_; ++y)
            for (int z = 0; z < nz_; ++z) {
                const Vec3 p = dims_.begin + dims_.spacing * Vec3(x, y, z);
                std::fill(acc.begin(), acc.end(), 0.0);
                const ReceptorModel::Site* b = all.data();
                const ReceptorModel::Site* e = all.data() + all.size();
                if (region.contains(p)) {
                    const auto span = receptor.candidates(p);
                    b = span.begin;
                    e = span.end;
                }
                for (const auto* s = b; s != e; ++s) {
                    const double dx = p.x() - s->x, dy = p.y() - s->y, dz = p.z() - s->z;
                    const double r2 = dx * dx + dy * dy + dz * dz;
                    if (r2 >= cut2)
                        continue;
                    // Vina fills its maps from the tabulated potential (cache.cpp populate).
                    for (size_t k = 0; k < wanted.size(); ++k)
                        acc[k] += sf.tabulatedEnergy(s->type, wanted[k], r2);
                }
                const size_t idx = (static_cast<size_t>(x) * ny_ + y) * nz_ + z;
                for (size_t k = 0; k < wanted.size(); ++k)
                    maps_[wanted[k]][idx] = acc[k];
            }
    };

    int n = threads > 0 ? threads : static_cast<int>(std::thread::hardware_concurrency());
    n = std::clamp(n, 1, nx_);
    std::atomic<int> next{0};
    auto worker = [&] {
        for (int x = next++; x < nx_; x = next++)
            fillSlab(x);
    };
    std::vector<std::thread> pool;
    for (int i = 1; i < n; ++i)
        pool.emplace_back(worker);
    worker();
    for (auto& t : pool)
        t.join();
}

double ReceptorGrid::interpolate(int type, const Vec3& p, Vec3& grad, double& outside,
                                 Vec3& outsideGrad) const {
    const std::vector<double>& m = maps_[type];
    const int n[3] = {nx_, ny_, nz_};
    const double inv = 1.0 / dims_.spacing;
    int a[3];
    double s[3];
    bool inside[3];
    outside = 0.0;
    for (int d = 0; d < 3; ++d) {
        double g = (p[d] - dims_.begin[d]) * inv;
        outsideGrad[d] = 0.0;
        inside[d] = true;
        if (g < 0) {
            outside += -g * dims_.spacing;
            outsideGrad[d] = -1.0;
            inside[d] = false;
            a[d] = 0;
            s[d] = 0.0;
        } else if (g >= n[d] - 1) {
            outside += (g - (n[d] - 1)) * dims_.spacing;
            outsideGrad[d] = 1.0;
            inside[d] = false;
            a[d] = n[d] - 2;
            s[d] = 1.0;
        } else {
            a[d] = static_cast<int>(g);
            s[d] = g - a[d];
        }
    }
    const size_t sy = nz_, sx = static_cast<size_t>(ny_) * nz_;
    const size_t i000 = a[0] * sx + a[1] * sy + a[2];
    const double f000 = m[i000], f001 = m[i000 + 1];
    const double f010 = m[i000 + sy], f011 = m[i000 + sy + 1];
    const double f100 = m[i000 + sx], f101 = m[i000 + sx + 1];
    const double f110 = m[i000 + sx + sy], f111 = m[i000 + sx + sy + 1];
    const double x = s[0], y = s[1], z = s[2];
    const double mx = 1 - x, my = 1 - y, mz = 1 - z;
    // Interpolate along z, then y, then x, keeping the partial derivatives.
    const double c00 = f000 * mz + f001 * z, c01 = f010 * mz + f011 * z;
    const double c10 = f100 * mz + f101 * z, c11 = f110 * mz + f111 * z;
    const double c0 = c00 * my + c01 * y, c1 = c10 * my + c11 * y;
    const double f = c0 * mx + c1 * x;
    const double dfdx = c1 - c0;
    const double dfdy = (c01 - c00) * mx + (c11 - c10) * x;
    const double dz0 = (f001 - f000) * my + (f011 - f010) * y;
    const double dz1 = (f101 - f100) * my + (f111 - f110) * y;
    const double dfdz = dz0 * mx + dz1 * x;
    grad = Vec3(inside[0] ? dfdx * inv : 0.0, inside[1] ? dfdy * inv : 0.0,
                inside[2] ? dfdz * inv : 0.0);
    return f;
}

} // namespace pw
