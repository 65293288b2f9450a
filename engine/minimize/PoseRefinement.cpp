#include "PoseRefinement.h"

#include "IntraSmoothing.h"
#include "core/LigandKinematics.h"

#include <cmath>
#include <iterator>
#include <optional>

namespace pw {

RefinementOptions RefinementOptions::wellConditioned() {
    RefinementOptions o;
    o.minimize.lineSearch = LineSearchKind::StrongWolfe;
    o.gridInterpolation = GridInterpolation::CatmullRom;
    o.rampSmoothing = 0.05;
    o.intraCutoffShift = true;
    return o;
}

int vinaMovableAtoms(const Molecule& ligand) {
    int n = 0;
    for (const Atom& a : ligand.atoms)
        if (a.element != 1 || ad4IsDonorHydrogen(a.ad4Type))
            ++n;
    return n;
}

double heavyAtomRmsd(const Molecule& ligand, const std::vector<Vec3>& a,
                     const std::vector<Vec3>& b) {
    double sum = 0;
    int n = 0;
    for (size_t i = 0; i < ligand.atoms.size() && i < a.size() && i < b.size(); ++i)
        if (ligand.atoms[i].element != 1) {
            sum += (a[i] - b[i]).squaredNorm();
            ++n;
        }
    return n ? std::sqrt(sum / n) : 0.0;
}

namespace {

// Vina --local_only's own path: Armijo, Vina's step budget, trilinear map reads, Vina's ramps.
RefinementOptions vinaPathOptions(const RefinementOptions& options) {
    RefinementOptions v;
    v.vinaSteps = true;
    v.gridInterpolation = GridInterpolation::Trilinear;
    v.minimize.recordTrajectory = options.minimize.recordTrajectory;
    v.minimize.progress = options.minimize.progress;
    v.minimize.cancel = options.minimize.cancel;
    return v;
}

// A grid scorer reading its maps with `mode` (a copy only when it reads them otherwise).
const LigandScorer& readingWith(const LigandScorer& scorer, GridInterpolation mode,
                                std::optional<LigandScorer>& copy) {
    if (!scorer.usesGrid() || scorer.gridInterpolation() == mode)
        return scorer;
    copy.emplace(scorer);
    copy->setGridInterpolation(mode);
    return *copy;
}

std::vector<Vec3> coordinatesOf(const Molecule& m) {
    std::vector<Vec3> c;
    c.reserve(m.atoms.size());
    for (const Atom& a : m.atoms)
        c.push_back(a.position);
    return c;
}

// One minimization from the ligand's coordinates; `reporting` gives the result's numbers.
RefinementResult minimizePath(const Molecule& ligand, const LigandScorer& mover,
                              const LigandScorer& reporting, const RefinementOptions& options) {
    const std::vector<Vec3> startCoords = coordinatesOf(ligand);
    std::optional<LigandScorer> smooth;
    const LigandScorer& moving = readingWith(mover, options.gridInterpolation, smooth);
    const IntraSmoothing ramps(moving, options.rampSmoothing, options.intraCutoffShift);
    LigandKinematics kinematics(ligand);
    CartesianPoseObjective objective(
        kinematics, [&](const std::vector<Vec3>& coords, std::vector<Vec3>& gradient) {
            double e = moving.evaluate(coords, &gradient);
            if (!ramps.empty())
                e += ramps.evaluate(coords, &gradient);
            return e;
        });

    MinimizeOptions minimize = options.minimize;
    if (options.vinaSteps) {
        MinimizeOptions vina = MinimizeOptions::vinaLocalOnly(vinaMovableAtoms(ligand));
        vina.recordTrajectory = minimize.recordTrajectory;
        vina.progress = minimize.progress;
        vina.cancel = minimize.cancel;
        minimize = vina;
    }

    MinimizeResult m = BfgsMinimizer::minimize(objective, kinematics.referencePose(), minimize);

    RefinementResult r;
    r.start = reporting.finalScore(startCoords);
    r.coordinates = m.coordinates.empty() ? kinematics.coordinates(m.pose) : m.coordinates;
    r.pose = m.pose;
    r.score = reporting.finalScore(r.coordinates);
    r.energy = m.energy;
    r.rmsdFromStart = heavyAtomRmsd(ligand, startCoords, r.coordinates);
    r.iterations = m.iterations;
    r.evaluations = m.evaluations;
    r.reason = m.reason;
    r.trajectory = std::move(m.trajectory);
    return r;
}

// The objective as Vina reports it: what the guard compares (not the affinity, which leaves the
// intramolecular energy out and would let a strained pose win).
double reportedObjective(const RefinementResult& r) {
    return r.score.inter + r.score.intra;
}

RefinementResult guardedRefinement(const Molecule& ligand, const LigandScorer& mover,
                                   const LigandScorer& reporting,
                                   const RefinementOptions& options) {
    RefinementResult best = minimizePath(ligand, mover, reporting, options);
    int evaluations = best.evaluations;
    bool cancelled = best.reason == StopReason::Cancelled;
    // Strictly lower only: on a tie the configured minimization's own result stays.
    auto consider = [&](RefinementResult&& r) {
        evaluations += r.evaluations;
        cancelled = cancelled || r.reason == StopReason::Cancelled;
        if (reportedObjective(r) < reportedObjective(best))
            best = std::move(r);
    };
    if (!cancelled) {
        RefinementResult vina = minimizePath(ligand, mover, reporting, vinaPathOptions(options));
        vina.path = RefinementPath::Vina;
        // Minimize on from Vina's end with the configured options: Vina stops after a fixed
        // step budget, often short of its basin's minimum.
        std::optional<RefinementResult> polished;
        if (vina.reason != StopReason::Cancelled) {
            Molecule from = ligand;
            for (size_t i = 0; i < from.atoms.size() && i < vina.coordinates.size(); ++i)
                from.atoms[i].position = vina.coordinates[i];
            polished = minimizePath(from, mover, reporting, options);
            polished->path = RefinementPath::VinaPolished;
            polished->start = vina.start;
            polished->rmsdFromStart =
                heavyAtomRmsd(ligand, coordinatesOf(ligand), polished->coordinates);
            polished->iterations += vina.iterations;
            std::vector<TrajectoryFrame> frames = vina.trajectory;
            frames.insert(frames.end(), std::make_move_iterator(polished->trajectory.begin()),
                          std::make_move_iterator(polished->trajectory.end()));
            polished->trajectory = std::move(frames);
        }
        consider(std::move(vina));
        if (polished)
            consider(std::move(*polished));
    }
    best.evaluations = evaluations; // the guard's whole cost
    if (cancelled)
        best.reason = StopReason::Cancelled;
    return best;
}

} // namespace

const char* refinementPathName(RefinementPath p) {
    switch (p) {
    case RefinementPath::Main:
        return "main";
    case RefinementPath::Vina:
        return "vina";
    case RefinementPath::VinaPolished:
        return "vina+polish";
    }
    return "unknown";
}

RefinementOptions RefinementOptions::standard() {
    RefinementOptions o = wellConditioned();
    // From a clash the first direction -g is ~1e3 long; a strong-Wolfe search that starts at
    // alpha = 1 along it brackets and zooms far out and can settle in another pocket 10-15 A
    // away (dock30 1jje: 6.7 kcal/mol above Vina's end). Vina's Armijo halves from alpha = 1 ten
    // times at most and so never goes that far. Capping the first trial keeps the search local
    // (tests/bench/RESULTS.md, localguard).
    o.minimize.maxStepNorm = kStandardMaxStep;
    o.vinaGuard = true;
    return o;
}

RefinementResult refinePose(const Molecule& ligand, const LigandScorer& mover,
                            const LigandScorer& reporter, const RefinementOptions& options) {
    // A grid reporter reads the maps the same way as the configured minimization: at a minimum
    // of the smooth read its value is flat, while the trilinear read still has a slope there
    // (their difference), which would turn rounding-sized position differences into
    // reported-affinity differences. Every path of the guard is reported by this same reader.
    std::optional<LigandScorer> smoothReporter;
    const LigandScorer& reporting =
        readingWith(reporter, options.gridInterpolation, smoothReporter);
    if (options.vinaGuard && !options.vinaSteps)
        return guardedRefinement(ligand, mover, reporting, options);
    return minimizePath(ligand, mover, reporting, options);
}

} // namespace pw
