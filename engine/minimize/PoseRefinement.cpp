#include "PoseRefinement.h"

#include "IntraSmoothing.h"
#include "core/LigandKinematics.h"

#include <cmath>
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

RefinementResult refinePose(const Molecule& ligand, const LigandScorer& mover,
                            const LigandScorer& reporter, const RefinementOptions& options) {
    std::vector<Vec3> startCoords;
    startCoords.reserve(ligand.atoms.size());
    for (const Atom& a : ligand.atoms)
        startCoords.push_back(a.position);

    std::optional<LigandScorer> smooth;
    if (mover.usesGrid() && options.gridInterpolation != mover.gridInterpolation()) {
        smooth.emplace(mover);
        smooth->setGridInterpolation(options.gridInterpolation);
    }
    const LigandScorer& moving = smooth ? *smooth : mover;
    // A grid reporter reads the maps the same way: at a minimum of the smooth read its value is
    // flat, while the trilinear read still has a slope there (their difference), which would turn
    // rounding-sized position differences into reported-affinity differences.
    std::optional<LigandScorer> smoothReporter;
    if (reporter.usesGrid() && options.gridInterpolation != reporter.gridInterpolation()) {
        smoothReporter.emplace(reporter);
        smoothReporter->setGridInterpolation(options.gridInterpolation);
    }
    const LigandScorer& reporting = smoothReporter ? *smoothReporter : reporter;
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

} // namespace pw
