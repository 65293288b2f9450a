#include "PoseObjective.h"

#include <utility>

namespace pw {

CartesianPoseObjective::CartesianPoseObjective(const LigandKinematics& kinematics,
                                               CartesianObjective energy)
    : kinematics_(kinematics), energy_(std::move(energy)), frames_(kinematics.makeFrames()),
      coords_(kinematics.atomCount()), atomGradient_(kinematics.atomCount()) {}

double CartesianPoseObjective::evaluate(const Pose& pose, double* gradient) {
    kinematics_.coordinates(pose, frames_, coords_);
    for (auto& g : atomGradient_)
        g.setZero();
    const double energy = energy_(coords_, atomGradient_);
    kinematics_.gradient(frames_, coords_, atomGradient_, gradient);
    return energy;
}

bool CartesianPoseObjective::coordinates(const Pose& pose, std::vector<Eigen::Vector3d>& out) {
    kinematics_.coordinates(pose, frames_, out);
    return true;
}

} // namespace pw
