// FlexPoseObjective: a ligand pose and the torsions of flexible receptor side chains as one point
// of the BFGS search (Vina's conf with its flex part): Pose::torsions holds the ligand's torsions
// first, then every residue's, in FlexModel order. The energy is FlexScorer::evaluate (analytic,
// exact gradients); the gradient rolls dE/dx up the ligand's tree and each residue's tree.
#pragma once

#include "PoseObjective.h"
#include "score/flex/FlexScorer.h"

#include <vector>

namespace pw {

class FlexPoseObjective final : public PoseObjective {
public:
    // ligand: the kinematics of the scorer's ligand. All referenced; one objective per thread.
    FlexPoseObjective(const LigandKinematics& ligand, const FlexScorer& scorer);
    // Moves on Vina's maps instead (FlexScorer::evaluateOnGrid): Vina's own --local_only path.
    FlexPoseObjective(const LigandKinematics& ligand, const FlexScorer& scorer,
                      const LigandScorer& gridLigand, const ReceptorGrid& grid);

    int dimension() const override { return ligand_.dimension() + scorer_.flex().torsionCount(); }
    double evaluate(const Pose& pose, double* gradient) override;
    // Ligand atoms, then the flexible atoms (FlexModel's flat order).
    bool coordinates(const Pose& pose, std::vector<Eigen::Vector3d>& out) override;

    // The start: the ligand's pose as given and every side chain as read (zero torsions).
    Pose startPose() const;
    // Energy evaluations so far (docking budgets count them).
    long evaluations() const { return evaluations_; }
    // Splits a pose's coordinates (from coordinates()) into ligand and flexible parts.
    void split(const Pose& pose, std::vector<Vec3>& ligand, std::vector<Vec3>& flex);

private:
    void place(const Pose& pose);

    const LigandKinematics& ligand_;
    const FlexScorer& scorer_;
    const LigandScorer* gridLigand_ = nullptr;
    const ReceptorGrid* grid_ = nullptr;
    KinematicFrames frames_;
    FlexModel::Workspace flexWork_;
    Pose ligandPose_;
    std::vector<Vec3> ligandCoords_, flexCoords_, ligandGrad_, flexGrad_;
    long evaluations_ = 0;
};

} // namespace pw
