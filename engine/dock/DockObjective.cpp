#include "DockObjective.h"

namespace pw::dock {

DockObjective::DockObjective(const LigandKinematics& kinematics, const LigandDockScoring& scoring)
    : kinematics_(kinematics), scoring_(scoring), frames_(kinematics.makeFrames()),
      coords_(kinematics.atomCount()), atomGradient_(kinematics.atomCount()) {}

double DockObjective::evaluate(const Pose& pose, double* gradient) {
    ++evaluations_;
    kinematics_.coordinates(pose, frames_, coords_);
    for (Vec3& g : atomGradient_)
        g.setZero();
    const double e = scoring_.evaluate(coords_, &atomGradient_);
    kinematics_.gradient(frames_, coords_, atomGradient_, gradient);
    return e;
}

double DockObjective::energy(const Pose& pose) {
    ++evaluations_;
    kinematics_.coordinates(pose, frames_, coords_);
    return scoring_.evaluate(coords_, nullptr);
}

bool DockObjective::coordinates(const Pose& pose, std::vector<Eigen::Vector3d>& out) {
    kinematics_.coordinates(pose, frames_, out);
    return true;
}

} // namespace pw::dock
