// DockObjective: a ligand's docking energy over pose space for one run (the BFGS minimizer's
// PoseObjective), counting every evaluation against the run's budget.
#pragma once

#include "LigandDockScoring.h"

#include "core/LigandKinematics.h"
#include "minimize/PoseObjective.h"

#include <vector>

namespace pw::dock {

class DockObjective final : public PoseObjective {
public:
    // Both must outlive the objective. One objective per run (not thread-safe).
    DockObjective(const LigandKinematics& kinematics, const LigandDockScoring& scoring);

    int dimension() const override { return kinematics_.dimension(); }
    // Energy and pose-space gradient (dimension() entries).
    double evaluate(const Pose& pose, double* gradient) override;
    // Energy only (Solis-Wets and the GA need no gradient).
    double energy(const Pose& pose);
    bool coordinates(const Pose& pose, std::vector<Eigen::Vector3d>& out) override;

    long evaluations() const { return evaluations_; }
    const LigandKinematics& kinematics() const { return kinematics_; }

private:
    const LigandKinematics& kinematics_;
    const LigandDockScoring& scoring_;
    KinematicFrames frames_;
    std::vector<Vec3> coords_, atomGradient_;
    long evaluations_ = 0;
};

} // namespace pw::dock
