// Quaternion: the few rotation helpers that poses need (rotation vector <-> unit quaternion,
// angle wrapping). Orientations are Eigen unit quaternions; increments are rotation vectors.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace pw {

using Quaternion = Eigen::Quaterniond;

// Unit quaternion of the rotation by |v| radians about v/|v| (identity for a tiny v).
Quaternion quaternionFromRotationVector(const Eigen::Vector3d& v);
// Unit quaternion of the rotation by angle radians about a unit axis.
Quaternion quaternionFromAxisAngle(const Eigen::Vector3d& unitAxis, double angle);
// Rotation vector (axis times angle in [-pi, pi]) of a unit quaternion; inverse of the above.
Eigen::Vector3d rotationVectorFromQuaternion(const Quaternion& q);
// Angle wrapped into [-pi, pi].
double normalizeAngle(double angle);

} // namespace pw
