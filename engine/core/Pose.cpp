#include "Pose.h"

namespace pw {

void Pose::applyStep(const double* step, double alpha) {
    position += alpha * Eigen::Vector3d(step[0], step[1], step[2]);
    const Eigen::Vector3d rotation =
        alpha * Eigen::Vector3d(step[kPoseRotationOffset], step[kPoseRotationOffset + 1],
                                step[kPoseRotationOffset + 2]);
    // Normalizing every step keeps the rounding drift that Vina tolerates out of long runs.
    orientation = quaternionFromRotationVector(rotation) * orientation;
    orientation.normalize();
    for (size_t i = 0; i < torsions.size(); ++i)
        torsions[i] = normalizeAngle(torsions[i] + alpha * step[kPoseTorsionOffset + i]);
}

} // namespace pw
