#include "score/ad4/Ad4Maps.h"

#include <algorithm>
#include <cmath>

namespace pw::ad4 {

Eigen::Vector3d GridGeometry::lo() const {
    Eigen::Vector3d v;
    for (int a = 0; a < 3; ++a)
        v[a] = center[a] - (npts[a] / 2) * spacing;
    return v;
}

Eigen::Vector3d GridGeometry::hi() const {
    Eigen::Vector3d v;
    for (int a = 0; a < 3; ++a)
        v[a] = center[a] + (npts[a] / 2) * spacing;
    return v;
}

Eigen::Vector3d GridGeometry::point(int i, int j, int k) const {
    return lo() + spacing * Eigen::Vector3d(i, j, k);
}

bool GridGeometry::contains(const Eigen::Vector3d& p) const {
    const Eigen::Vector3d l = lo(), h = hi();
    for (int a = 0; a < 3; ++a)
        if (p[a] <= l[a] || p[a] >= h[a])
            return false;
    return true;
}

bool GridGeometry::sameAs(const GridGeometry& o) const {
    return npts == o.npts && std::fabs(spacing - o.spacing) < 1e-4 &&
           (center - o.center).cwiseAbs().maxCoeff() < 1e-4;
}

Ad4Maps::Ad4Maps(const GridGeometry& geometry, std::vector<std::string> ligandTypes)
    : geometry_(geometry), ligandTypes_(std::move(ligandTypes)),
      values_(ligandTypes_.size() + 2, std::vector<float>(geometry.pointCount(), 0.0f)) {}

int Ad4Maps::mapIndex(std::string_view name) const {
    for (size_t m = 0; m < ligandTypes_.size(); ++m)
        if (ligandTypes_[m] == name)
            return static_cast<int>(m);
    if (name == "e")
        return electrostaticMap();
    if (name == "d")
        return desolvationMap();
    return -1;
}

std::string Ad4Maps::mapName(int map) const {
    if (map == electrostaticMap())
        return "e";
    if (map == desolvationMap())
        return "d";
    return ligandTypes_.at(map);
}

double Ad4Maps::interpolate(int map, const Eigen::Vector3d& p) const {
    // autodock4 4.2.6 trilinterp: cell index by truncation, fractional weights held in float,
    // the eight corners summed w (z) outermost, u (x) innermost, each weight * value product in
    // float (autodock4's maps are float), the sum in double.
    const Eigen::Vector3d lo = geometry_.lo();
    const double inv = 1.0 / geometry_.spacing;
    int c0[3];
    float w[3][2];
    for (int a = 0; a < 3; ++a) {
        const double u = (p[a] - lo[a]) * inv;
        c0[a] = static_cast<int>(u);
        const float p0 = static_cast<float>(u - c0[a]);
        w[a][1] = p0;
        w[a][0] = static_cast<float>(1.0L - p0);
    }
    const std::vector<float>& v = values_[map];
    double e = 0.0;
    for (int dz = 0; dz <= 1; ++dz)
        for (int dy = 0; dy <= 1; ++dy)
            for (int dx = 0; dx <= 1; ++dx) {
                // Maps are float in autodock4 too: weight times value is a float product.
                const float term = w[0][dx] * w[1][dy] * w[2][dz] * v[index(c0[0] + dx, c0[1] + dy, c0[2] + dz)];
                e += term;
            }
    return e;
}

double Ad4Maps::interpolateWithGradient(int map, const Eigen::Vector3d& p,
                                        Eigen::Vector3d* grad) const {
    const Eigen::Vector3d lo = geometry_.lo();
    const double inv = 1.0 / geometry_.spacing;
    int c0[3];
    double f[3];
    for (int a = 0; a < 3; ++a) {
        const double u = (p[a] - lo[a]) * inv;
        c0[a] = std::min(static_cast<int>(u), geometry_.npts[a] - 1);
        f[a] = u - c0[a];
    }
    const std::vector<float>& v = values_[map];
    double c[2][2][2];
    for (int dz = 0; dz <= 1; ++dz)
        for (int dy = 0; dy <= 1; ++dy)
            for (int dx = 0; dx <= 1; ++dx)
                c[dz][dy][dx] = v[index(c0[0] + dx, c0[1] + dy, c0[2] + dz)];
    const double gx = f[0], gy = f[1], gz = f[2];
    // Interpolate along x, then y, then z, keeping the partial derivatives.
    double cy[2][2], dcy[2][2];
    for (int dz = 0; dz <= 1; ++dz)
        for (int dy = 0; dy <= 1; ++dy) {
            cy[dz][dy] = c[dz][dy][0] + (c[dz][dy][1] - c[dz][dy][0]) * gx;
            dcy[dz][dy] = c[dz][dy][1] - c[dz][dy][0];
        }
    double cz[2], dczx[2], dczy[2];
    for (int dz = 0; dz <= 1; ++dz) {
        cz[dz] = cy[dz][0] + (cy[dz][1] - cy[dz][0]) * gy;
        dczx[dz] = dcy[dz][0] + (dcy[dz][1] - dcy[dz][0]) * gy;
        dczy[dz] = cy[dz][1] - cy[dz][0];
    }
    const double e = cz[0] + (cz[1] - cz[0]) * gz;
    if (grad) {
        (*grad)[0] = (dczx[0] + (dczx[1] - dczx[0]) * gz) * inv;
        (*grad)[1] = (dczy[0] + (dczy[1] - dczy[0]) * gz) * inv;
        (*grad)[2] = (cz[1] - cz[0]) * inv;
    }
    return e;
}

} // namespace pw::ad4
