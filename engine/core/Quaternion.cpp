#include "Quaternion.h"

#include <cmath>
#include <numbers>

namespace pw {

Quaternion quaternionFromAxisAngle(const Eigen::Vector3d& unitAxis, double angle) {
    const double half = 0.5 * normalizeAngle(angle);
    const double s = std::sin(half);
    return Quaternion(std::cos(half), s * unitAxis.x(), s * unitAxis.y(), s * unitAxis.z());
}

Quaternion quaternionFromRotationVector(const Eigen::Vector3d& v) {
    const double angle = v.norm();
    // Below this the axis is meaningless and the rotation is the identity to double precision.
    if (angle < 1e-300)
        return Quaternion::Identity();
    return quaternionFromAxisAngle(v / angle, angle);
}

Eigen::Vector3d rotationVectorFromQuaternion(const Quaternion& q) {
    // q and -q are the same rotation: pick the hemisphere with w >= 0 so the angle is <= pi.
    const double sign = q.w() < 0 ? -1.0 : 1.0;
    const Eigen::Vector3d xyz = sign * q.vec();
    const double s = xyz.norm();
    if (s < 1e-300)
        return Eigen::Vector3d::Zero();
    const double angle = 2.0 * std::atan2(s, sign * q.w());
    return xyz * (angle / s);
}

double normalizeAngle(double angle) {
    constexpr double pi = std::numbers::pi;
    if (angle > pi || angle < -pi) {
        angle = std::remainder(angle, 2.0 * pi); // into [-pi, pi]
    }
    return angle;
}

} // namespace pw
