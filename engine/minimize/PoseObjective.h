// PoseObjective: what the BFGS minimizer minimizes, an energy and its gradient over pose space;
// CartesianPoseObjective adapts any f(coords, dE/dx) through the ligand's kinematics.
#pragma once

#include "core/LigandKinematics.h"
#include "core/Pose.h"

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace pw {

class PoseObjective {
public:
    virtual ~PoseObjective() = default;
    // Number of pose-space degrees of freedom (6 + torsions).
    virtual int dimension() const = 0;
    // Energy at pose; writes dimension() gradient entries (layout of Pose::applyStep).
    virtual double evaluate(const Pose& pose, double* gradient) = 0;
    // Atom coordinates of a pose, for results and trajectories; false when there are no atoms.
    virtual bool coordinates(const Pose&, std::vector<Eigen::Vector3d>&) { return false; }
};

// Energy of Cartesian coordinates; must write dE/dx of every atom into gradient (pre-sized to the
// atom count and zeroed). Called once per evaluation: it should not allocate.
using CartesianObjective = std::function<double(const std::vector<Eigen::Vector3d>& coords,
                                                std::vector<Eigen::Vector3d>& gradient)>;

class CartesianPoseObjective final : public PoseObjective {
public:
    // kinematics must outlive this object. Not thread-safe: one per thread.
    CartesianPoseObjective(const LigandKinematics& kinematics, CartesianObjective energy);

    int dimension() const override { return kinematics_.dimension(); }
    double evaluate(const Pose& pose, double* gradient) override;
    bool coordinates(const Pose& pose, std::vector<Eigen::Vector3d>& out) override;

    const LigandKinematics& kinematics() const { return kinematics_; }
    // Coordinates and dE/dx of the last evaluate() call.
    const std::vector<Eigen::Vector3d>& lastCoordinates() const { return coords_; }
    const std::vector<Eigen::Vector3d>& lastAtomGradient() const { return atomGradient_; }

private:
    const LigandKinematics& kinematics_;
    CartesianObjective energy_;
    KinematicFrames frames_;
    std::vector<Eigen::Vector3d> coords_;
    std::vector<Eigen::Vector3d> atomGradient_;
};

} // namespace pw
