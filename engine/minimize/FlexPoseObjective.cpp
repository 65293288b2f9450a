#include "FlexPoseObjective.h"

namespace pw {

FlexPoseObjective::FlexPoseObjective(const LigandKinematics& ligand, const FlexScorer& scorer)
    : ligand_(ligand), scorer_(scorer), frames_(ligand.makeFrames()),
      ligandPose_(ligand.referencePose()) {}

FlexPoseObjective::FlexPoseObjective(const LigandKinematics& ligand, const FlexScorer& scorer,
                                     const LigandScorer& gridLigand, const ReceptorGrid& grid)
    : FlexPoseObjective(ligand, scorer) {
    gridLigand_ = &gridLigand;
    grid_ = &grid;
}

Pose FlexPoseObjective::startPose() const {
    Pose p = ligand_.referencePose();
    p.torsions.resize(p.torsions.size() + scorer_.flex().torsionCount(), 0.0);
    return p;
}

void FlexPoseObjective::place(const Pose& pose) {
    const int nl = ligand_.torsionCount();
    ligandPose_.position = pose.position;
    ligandPose_.orientation = pose.orientation;
    for (int t = 0; t < nl; ++t)
        ligandPose_.torsions[t] = pose.torsions[t];
    ligand_.coordinates(ligandPose_, frames_, ligandCoords_);
    scorer_.flex().coordinates(pose.torsions.data() + nl, flexWork_, flexCoords_);
}

double FlexPoseObjective::evaluate(const Pose& pose, double* gradient) {
    ++evaluations_;
    place(pose);
    std::vector<Vec3>* lg = gradient ? &ligandGrad_ : nullptr;
    std::vector<Vec3>* fg = gradient ? &flexGrad_ : nullptr;
    const double e =
        grid_ ? scorer_.evaluateOnGrid(*gridLigand_, *grid_, ligandCoords_, flexCoords_, lg, fg)
              : scorer_.evaluate(ligandCoords_, flexCoords_, lg, fg);
    if (!gradient)
        return e;
    ligand_.gradient(frames_, ligandCoords_, ligandGrad_, gradient);
    scorer_.flex().torsionGradient(flexWork_, flexGrad_, gradient + ligand_.dimension());
    return e;
}

bool FlexPoseObjective::coordinates(const Pose& pose, std::vector<Eigen::Vector3d>& out) {
    place(pose);
    out = ligandCoords_;
    out.insert(out.end(), flexCoords_.begin(), flexCoords_.end());
    return true;
}

void FlexPoseObjective::split(const Pose& pose, std::vector<Vec3>& ligand,
                              std::vector<Vec3>& flex) {
    place(pose);
    ligand = ligandCoords_;
    flex = flexCoords_;
}

} // namespace pw
