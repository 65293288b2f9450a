#include "FlexRefinement.h"

#include "FlexPoseObjective.h"
#include "PoseRefinement.h"

namespace pw {
namespace {

// Vina's reported objective (what the guard compares: not the affinity, which leaves most of the
// intramolecular energy out and would let a strained pose win).
double reported(const FlexScore& s) {
    return s.inter() + s.intra();
}

} // namespace

MinimizeOptions flexMinimizeOptions() {
    MinimizeOptions o;
    o.lineSearch = LineSearchKind::StrongWolfe;
    o.maxIterations = 1000;
    o.gradientTolerance = 1e-5;
    o.maxStepNorm = 0.5;
    return o;
}

FlexRefinementResult refineWithFlex(const Molecule& ligand, const FlexScorer& scorer,
                                    const MinimizeOptions& options, const FlexVinaPath* vina) {
    LigandKinematics kinematics(ligand);
    FlexPoseObjective objective(kinematics, scorer);
    std::vector<Vec3> startLigand;
    for (const Atom& a : ligand.atoms)
        startLigand.push_back(a.position);
    const std::vector<Vec3>& startFlex = scorer.flex().referenceCoordinates();

    FlexRefinementResult best;
    best.start = scorer.finalScore(startLigand, startFlex);
    // The start is a point visited too: at a pose that is already a minimum of Vina's tabulated
    // potential (a pose Vina minimized) the descent of the analytic one can end a rounding above.
    best.ligandCoordinates = startLigand;
    best.flexCoordinates = startFlex;
    best.pose = objective.startPose();
    best.score = best.start;
    best.path = "start";
    best.keptStart = true;
    int iterations = 0, evaluations = 0;
    // Strictly lower only: on a tie the earlier candidate stays.
    auto consider = [&](const MinimizeResult& m, const char* path) {
        iterations += m.iterations;
        evaluations += m.evaluations;
        FlexRefinementResult r;
        objective.split(m.pose, r.ligandCoordinates, r.flexCoordinates);
        r.score = scorer.finalScore(r.ligandCoordinates, r.flexCoordinates);
        if (reported(r.score) < reported(best.score)) {
            best.ligandCoordinates = std::move(r.ligandCoordinates);
            best.flexCoordinates = std::move(r.flexCoordinates);
            best.score = r.score;
            best.pose = m.pose;
            best.energy = m.energy;
            best.reason = m.reason;
            best.path = path;
            best.keptStart = false;
        }
    };
    const MinimizeResult main = BfgsMinimizer::minimize(objective, objective.startPose(), options);
    best.energy = main.initialEnergy;
    best.reason = main.reason;
    consider(main, "main");
    if (vina && vina->grid && vina->gridLigand && main.reason != StopReason::Cancelled) {
        // With side chains the exact landscape is rugged: descents that differ only in their
        // line search settle in different minima (measured on 1fpu, tests/bench/RESULTS.md), so
        // the guard also descends with Armijo steps and with no cap on the first trial, from the
        // start and from Vina's end, and keeps the lowest.
        MinimizeOptions armijo = options;
        armijo.lineSearch = LineSearchKind::Armijo;
        MinimizeOptions uncapped = options;
        uncapped.maxStepNorm = 0;
        consider(BfgsMinimizer::minimize(objective, objective.startPose(), armijo), "main-armijo");
        consider(BfgsMinimizer::minimize(objective, objective.startPose(), uncapped),
                 "main-uncapped");
        int movable = vinaMovableAtoms(ligand);
        for (char m : scorer.flex().movable())
            movable += m ? 1 : 0;
        MinimizeOptions vinaOptions = MinimizeOptions::vinaLocalOnly(movable);
        vinaOptions.cancel = options.cancel;
        FlexPoseObjective onGrid(kinematics, scorer, *vina->gridLigand, *vina->grid);
        const MinimizeResult path =
            BfgsMinimizer::minimize(onGrid, objective.startPose(), vinaOptions);
        consider(path, "vina");
        if (path.reason != StopReason::Cancelled) {
            consider(BfgsMinimizer::minimize(objective, path.pose, options), "vina+polish");
            consider(BfgsMinimizer::minimize(objective, path.pose, armijo), "vina+polish-armijo");
            consider(BfgsMinimizer::minimize(objective, path.pose, uncapped),
                     "vina+polish-uncapped");
        }
    }
    best.iterations = iterations;
    best.evaluations = evaluations;
    best.ligandRmsd = heavyAtomRmsd(ligand, startLigand, best.ligandCoordinates);
    return best;
}

} // namespace pw
