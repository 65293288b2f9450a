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

const char* gridInterpolationName(GridInterpolation m) {
    switch (m) {
    case GridInterpolation::Trilinear:
        return "trilinear";
    case GridInterpolation::CatmullRom:
        return "catmull-rom";
    case GridInterpolation::BSpline:
        return "bspline";
    }
    return "?";
}

bool parseGridInterpolation(const std::string& name, GridInterpolation& out) {
    if (name == "trilinear")
        out = GridInterpolation::Trilinear;
    else if (name == "catmull-rom" || name == "cubic")
        out = GridInterpolation::CatmullRom;
    else if (name == "bspline")
        out = GridInterpolation::BSpline;
    else
        return false;
    return true;
}

namespace {

// Weights of samples a-1, a, a+1, a+2 at fraction t of cell [a, a+1], and their derivatives
// in t: Catmull-Rom (interpolating, C1) or the uniform cubic B-spline (approximating, C2).
void cubicWeights(GridInterpolation mode, double t, double w[4], double d[4]) {
    const double t2 = t * t, t3 = t2 * t;
    if (mode == GridInterpolation::CatmullRom) {
        w[0] = 0.5 * (-t3 + 2 * t2 - t);
        w[1] = 0.5 * (3 * t3 - 5 * t2 + 2);
        w[2] = 0.5 * (-3 * t3 + 4 * t2 + t);
        w[3] = 0.5 * (t3 - t2);
        d[0] = 0.5 * (-3 * t2 + 4 * t - 1);
        d[1] = 0.5 * (9 * t2 - 10 * t);
        d[2] = 0.5 * (-9 * t2 + 8 * t + 1);
        d[3] = 0.5 * (3 * t2 - 2 * t);
    } else {
        const double u = 1 - t;
        w[0] = u * u * u / 6;
        w[1] = (3 * t3 - 6 * t2 + 4) / 6;
        w[2] = (-3 * t3 + 3 * t2 + 3 * t + 1) / 6;
        w[3] = t3 / 6;
        d[0] = -0.5 * u * u;
        d[1] = 0.5 * (3 * t2 - 4 * t);
        d[2] = 0.5 * (-3 * t2 + 2 * t + 1);
        d[3] = 0.5 * t2;
    }
}

} // namespace

double ReceptorGrid::interpolate(int type, const Vec3& p, Vec3& grad, double& outside,
                                 Vec3& outsideGrad, GridInterpolation mode) const {
    if (mode == GridInterpolation::Trilinear)
        return interpolate(type, p, grad, outside, outsideGrad);
    const std::vector<double>& m = maps_[type];
    const int n[3] = {nx_, ny_, nz_};
    const double inv = 1.0 / dims_.spacing;
    int idx[3][4];
    double w[3][4], dw[3][4];
    bool inside[3];
    outside = 0.0;
    for (int d = 0; d < 3; ++d) {
        // Outside: the value at the nearest face, as the trilinear read does.
        double g = (p[d] - dims_.begin[d]) * inv;
        outsideGrad[d] = 0.0;
        inside[d] = true;
        int a;
        double s;
        if (g < 0) {
            outside += -g * dims_.spacing;
            outsideGrad[d] = -1.0;
            inside[d] = false;
            a = 0;
            s = 0.0;
        } else if (g >= n[d] - 1) {
            outside += (g - (n[d] - 1)) * dims_.spacing;
            outsideGrad[d] = 1.0;
            inside[d] = false;
            a = n[d] - 2;
            s = 1.0;
        } else {
            a = static_cast<int>(g);
            s = g - a;
        }
        // Samples beyond the edge repeat the edge sample.
        for (int k = 0; k < 4; ++k)
            idx[d][k] = std::clamp(a - 1 + k, 0, n[d] - 1);
        cubicWeights(mode, s, w[d], dw[d]);
    }
    const size_t sy = nz_, sx = static_cast<size_t>(ny_) * nz_;
    double f = 0, fx = 0, fy = 0, fz = 0;
    for (int i = 0; i < 4; ++i) {
        double cy = 0, cyDy = 0, cyDz = 0;
        for (int j = 0; j < 4; ++j) {
            const double* row = m.data() + idx[0][i] * sx + idx[1][j] * sy;
            double cz = 0, czDz = 0;
            for (int k = 0; k < 4; ++k) {
                const double v = row[idx[2][k]];
                cz += w[2][k] * v;
                czDz += dw[2][k] * v;
            }
            cy += w[1][j] * cz;
            cyDy += dw[1][j] * cz;
            cyDz += w[1][j] * czDz;
        }
        f += w[0][i] * cy;
        fx += dw[0][i] * cy;
        fy += w[0][i] * cyDy;
        fz += w[0][i] * cyDz;
    }
    grad = Vec3(inside[0] ? fx * inv : 0.0, inside[1] ? fy * inv : 0.0, inside[2] ? fz * inv : 0.0);
    return f;
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
