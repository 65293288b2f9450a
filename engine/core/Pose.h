// Pose: a flexible ligand's state as position (of the root fragment's origin), unit quaternion
// orientation and one torsion angle per rotatable bond (ARCHITECTURE.md §5). Steps are rotation
// vectors.
#pragma once

#include "Quaternion.h"

#include <Eigen/Core>

#include <vector>

namespace pw {

// Layout of a pose-space vector (gradient, step): [0,3) position, [3,6) rotation vector applied
// on the left in the lab frame about the root origin, [6, 6+n) torsions (radians).
inline constexpr int kPosePositionOffset = 0;
inline constexpr int kPoseRotationOffset = 3;
inline constexpr int kPoseTorsionOffset = 6;

struct Pose {
    Eigen::Vector3d position = Eigen::Vector3d::Zero();
    Quaternion orientation = Quaternion::Identity();
    std::vector<double> torsions; // torsions[i] belongs to TorsionTree node i + 1, radians

    int torsionCount() const { return static_cast<int>(torsions.size()); }
    // Number of degrees of freedom: 3 position + 3 rotation + torsions.
    int dimension() const { return kPoseTorsionOffset + torsionCount(); }

    // this <- this (+) alpha * step: position += alpha*dx, orientation = q(alpha*dw) * orientation
    // (normalized), torsion += alpha*dt wrapped into [-pi, pi]. step has dimension() entries.
    // Does not allocate.
    void applyStep(const double* step, double alpha);
};

} // namespace pw
