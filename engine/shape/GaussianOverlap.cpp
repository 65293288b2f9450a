#include "GaussianOverlap.h"

#include <Eigen/Geometry>

#include <cmath>

namespace pw::shape {

double overlapVolume(const std::vector<Vec3>& a, const std::vector<std::uint8_t>& clsA,
                     const std::vector<Vec3>& b, const std::vector<std::uint8_t>& clsB) {
    const PairConstants& pc = pairConstants();
    double v = 0;
    for (size_t i = 0; i < a.size(); ++i)
        for (size_t j = 0; j < b.size(); ++j)
            v += pc.k[clsA[i]][clsB[j]] *
                 std::exp(-pc.c[clsA[i]][clsB[j]] * (a[i] - b[j]).squaredNorm());
    return v;
}

double selfVolume(const ShapeModel& m) {
    return overlapVolume(m.positions, m.cls, m.positions, m.cls);
}

double colourOverlap(const std::vector<ColourFeature>& a, const std::vector<ColourFeature>& b) {
    const PairConstants& pc = pairConstants();
    const double k = pc.k[kColourClass][kColourClass], c = pc.c[kColourClass][kColourClass];
    double v = 0;
    for (const ColourFeature& fa : a)
        for (const ColourFeature& fb : b)
            if (fa.type == fb.type)
                v += k * std::exp(-c * (fa.position - fb.position).squaredNorm());
    return v;
}

double colourSelfVolume(const ShapeModel& m) {
    return colourOverlap(m.colour, m.colour);
}

Eigen::Matrix3d poseRotation(const PoseVector& x) {
    Eigen::Quaterniond q(x[0], x[1], x[2], x[3]);
    q.normalize();
    return q.toRotationMatrix();
}

double poseOverlap(const std::vector<Vec3>& ref, const std::vector<std::uint8_t>& refCls,
                   const std::vector<Vec3>& fit, const std::vector<std::uint8_t>& fitCls,
                   const PoseVector& x, PoseVector* grad) {
    const PairConstants& pc = pairConstants();
    const double w = x[0];
    const Vec3 v(x[1], x[2], x[3]), t(x[4], x[5], x[6]);
    const double n = w * w + v.squaredNorm();
    const Eigen::Matrix3d R = poseRotation(x);
    double total = 0;
    Vec3 sumG = Vec3::Zero(); // d overlap / d x'_j summed: the translation gradient
    Eigen::Matrix3d M = Eigen::Matrix3d::Zero(); // sum_j x_j g_j^T: the rotation gradient's input
    double rotDotG = 0;                          // sum_j (R x_j) . g_j
    for (size_t j = 0; j < fit.size(); ++j) {
        const Vec3 rx = R * fit[j];
        const Vec3 p = rx + t;
        Vec3 g = Vec3::Zero();
        for (size_t i = 0; i < ref.size(); ++i) {
            const Vec3 d = p - ref[i];
            const double c = pc.c[refCls[i]][fitCls[j]];
            const double e = pc.k[refCls[i]][fitCls[j]] * std::exp(-c * d.squaredNorm());
            total += e;
            g -= (2 * c * e) * d;
        }
        if (grad) {
            sumG += g;
            M += fit[j] * g.transpose();
            rotDotG += rx.dot(g);
        }
    }
    if (grad) {
        // x' = u(q)/n + t with u = q x q* (homogeneous quadratic) and n = |q|^2:
        // d/dw = (2w x + 2 v*x)/n, d/dv = (-2(x.g)v + 2(v.g)x + 2(v.x)g + 2w x*g)/n, minus
        // 2q (R x . g)/n from the normalisation. Summed over atoms through M.
        const double trM = M.trace();
        const Vec3 cross(M(1, 2) - M(2, 1), M(2, 0) - M(0, 2), M(0, 1) - M(1, 0));
        const double gw = (2 * w * trM + 2 * v.dot(cross) - 2 * w * rotDotG) / n;
        const Vec3 gv = (-2 * trM * v + 2 * (M * v) + 2 * (M.transpose() * v) + 2 * w * cross -
                         2 * rotDotG * v) /
                        n;
        (*grad) << gw, gv, sumG;
    }
    return total;
}

} // namespace pw::shape
