#include "FlexRefinement.h"

#include "FlexPoseObjective.h"
#include "PoseRefinement.h"

namespace pw {

MinimizeOptions flexMinimizeOptions() {
    MinimizeOptions o;
    o.lineSearch = LineSearchKind::StrongWolfe;
    o.maxIterations = 1000;
    o.gradientTolerance = 1e-5;
    o.maxStepNorm = 0.5;
    return o;
}

FlexRefinementResult refineWithFlex(const Molecule& ligand, const FlexScorer& scorer,
                                    const MinimizeOptions& options) {
    LigandKinematics kinematics(ligand);
    FlexPoseObjective objective(kinematics, scorer);
    std::vector<Vec3> startLigand;
    for (const Atom& a : ligand.atoms)
        startLigand.push_back(a.position);
    const std::vector<Vec3>& startFlex = scorer.flex().referenceCoordinates();

    FlexRefinementResult r;
    r.start = scorer.finalScore(startLigand, startFlex);
    MinimizeResult m = BfgsMinimizer::minimize(objective, objective.startPose(), options);
    objective.split(m.pose, r.ligandCoordinates, r.flexCoordinates);
    r.pose = m.pose;
    r.score = scorer.finalScore(r.ligandCoordinates, r.flexCoordinates);
    r.energy = m.energy;
    // The search descends the analytic potential; Vina reports its tabulated one. At a start
    // that is already a minimum of the latter (a pose Vina minimized) the descent can end a
    // rounding above it: the start is then the better point visited, and is kept.
    if (r.start.inter() + r.start.intra() < r.score.inter() + r.score.intra()) {
        r.ligandCoordinates = startLigand;
        r.flexCoordinates = startFlex;
        r.pose = objective.startPose();
        r.score = r.start;
        r.energy = m.initialEnergy;
        r.keptStart = true;
    }
    r.ligandRmsd = heavyAtomRmsd(ligand, startLigand, r.ligandCoordinates);
    r.iterations = m.iterations;
    r.evaluations = m.evaluations;
    r.reason = m.reason;
    return r;
}

} // namespace pw
