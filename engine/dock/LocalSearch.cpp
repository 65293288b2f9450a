#include "LocalSearch.h"

#include "Genotype.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pw::dock {
namespace {

// Size of a gene's unit in pose-space units (Å or radians), by pose-vector index.
double geneUnit(int i) {
    return i < kPoseRotationOffset ? kTranslationGeneUnit : kAngleGeneUnit;
}

bool insideBox(const Pose& p, const SearchBox& box) {
    const Vec3 d = (p.position - box.center).cwiseAbs();
    return (d.array() <= 0.5 * box.size.array()).all();
}

} // namespace

long solisWets(DockObjective& f, Pose& pose, double& energy, const LgaOptions& options,
               const SearchBox& box, DockRandom& rng, LocalSearchWorkspace& ws) {
    const SolisWetsOptions& sw = options.solisWets;
    const int n = pose.dimension();
    ws.deviate.assign(n, 0.0);
    ws.bias.assign(n, 0.0);
    ws.step.resize(n);
    const long start = f.evaluations();
    // Uniform in +-sqrt(3) * base has standard deviation base (AutoDock-GPU's *_mul_sqrt3).
    const double translation = std::sqrt(3.0) * sw.translationStep;
    const double angle = std::sqrt(3.0) * sw.angleStepDegrees * kAngleGeneUnit;
    double rho = 1.0;
    int successes = 0, failures = 0;
    for (int it = 0; it < options.localSearchIterations && rho >= sw.rhoLowerBound; ++it) {
        for (int i = 0; i < n; ++i) {
            // Each gene moves with probability 0.3, as AutoDock-GPU's Solis-Wets does.
            const double u = rng.uniform(-1.0, 1.0);
            const bool moves = rng.uniform() < 0.3;
            ws.deviate[i] = moves ? rho * u * (i < kPoseRotationOffset ? translation : angle) : 0;
        }
        bool improved = false;
        for (int sign : {1, -1}) {
            for (int i = 0; i < n; ++i)
                ws.step[i] = sign * (ws.deviate[i] + ws.bias[i]);
            ws.trial = pose;
            ws.trial.applyStep(ws.step.data(), 1.0);
            clampToBox(ws.trial, box);
            const double e = f.energy(ws.trial);
            if (e < energy) {
                pose = ws.trial;
                energy = e;
                for (int i = 0; i < n; ++i)
                    ws.bias[i] = 0.6 * ws.bias[i] + sign * 0.4 * ws.deviate[i];
                improved = true;
                break;
            }
        }
        if (improved) {
            ++successes;
            failures = 0;
        } else {
            for (double& b : ws.bias)
                b *= 0.5;
            ++failures;
            successes = 0;
        }
        if (successes >= sw.consecutiveLimit) {
            rho *= 2.0;
            successes = 0;
        } else if (failures >= sw.consecutiveLimit) {
            rho *= 0.5;
            failures = 0;
        }
    }
    return f.evaluations() - start;
}

long adadelta(DockObjective& f, Pose& pose, double& energy, const LgaOptions& options,
              const SearchBox& box, LocalSearchWorkspace& ws) {
    const double rho = options.adadelta.rho, eps = options.adadelta.epsilon;
    const int n = pose.dimension();
    ws.gradient.resize(n);
    ws.squareGradient.assign(n, 0.0);
    ws.squareDelta.assign(n, 0.0);
    ws.step.resize(n);
    ws.trial = pose;
    const long start = f.evaluations();
    // The early stop (AdadeltaOptions): successes and failures against the search's own best.
    const double stopBound = options.adadelta.stopRhoLowerBound;
    const int limit = std::max(1, options.adadelta.consecutiveLimit);
    double stepCounter = 1.0, searchBest = std::numeric_limits<double>::infinity();
    int successes = 0, failures = 0;
    for (int it = 0; it < options.localSearchIterations; ++it) {
        if (stopBound > 0 && stepCounter <= stopBound)
            break;
        const double e = f.evaluate(ws.trial, ws.gradient.data());
        if (e < energy) {
            pose = ws.trial;
            energy = e;
        }
        if (e < searchBest - options.adadelta.stopTolerance) {
            searchBest = e;
            ++successes, failures = 0;
        } else {
            ++failures, successes = 0;
        }
        if (successes >= limit)
            stepCounter *= 2, successes = 0;
        else if (failures >= limit)
            stepCounter *= 0.5, failures = 0;
        for (int i = 0; i < n; ++i) {
            // In gene units (AutoDock-GPU's genotype), then back to pose units.
            const double unit = geneUnit(i);
            const double g = ws.gradient[i] * unit;
            if (!std::isfinite(g)) {
                ws.step[i] = 0;
                continue;
            }
            ws.squareGradient[i] = rho * ws.squareGradient[i] + (1 - rho) * g * g;
            const double delta =
                -g * std::sqrt(ws.squareDelta[i] + eps) / std::sqrt(ws.squareGradient[i] + eps);
            ws.squareDelta[i] = rho * ws.squareDelta[i] + (1 - rho) * delta * delta;
            ws.step[i] = delta * unit;
        }
        ws.trial.applyStep(ws.step.data(), 1.0);
        clampToBox(ws.trial, box);
    }
    return f.evaluations() - start;
}

long bfgsLocalSearch(DockObjective& f, Pose& pose, double& energy, const LgaOptions& options,
                     const SearchBox& box, LocalSearchWorkspace& ws) {
    const long start = f.evaluations();
    const long cap = options.localSearchIterations;
    MinimizeOptions mo;
    mo.lineSearch = LineSearchKind::StrongWolfe;
    mo.maxIterations = options.localSearchIterations;
    mo.gradientTolerance = 1e-4;
    // From a clashing individual the first direction -g is huge; a capped step keeps the line
    // search near the individual instead of sampling poses far across the box.
    mo.maxStepNorm = 2.0;
    mo.progress = [&](const MinimizeProgress&) { return f.evaluations() - start < cap; };
    BfgsMinimizer::minimize(f, pose, mo, ws.bfgs, ws.bfgsResult);
    Pose& found = ws.bfgsResult.pose;
    double e = ws.bfgsResult.energy;
    if (!insideBox(found, box)) {
        clampToBox(found, box);
        e = f.energy(found);
    }
    if (e < energy) {
        pose = found;
        energy = e;
    }
    return f.evaluations() - start;
}

long localSearch(LocalSearchMethod method, DockObjective& f, Pose& pose, double& energy,
                 const LgaOptions& options, const SearchBox& box, DockRandom& rng,
                 LocalSearchWorkspace& ws) {
    switch (method) {
    case LocalSearchMethod::SolisWets:
        return solisWets(f, pose, energy, options, box, rng, ws);
    case LocalSearchMethod::Adadelta:
        return adadelta(f, pose, energy, options, box, ws);
    case LocalSearchMethod::Bfgs:
        return bfgsLocalSearch(f, pose, energy, options, box, ws);
    }
    return 0;
}

} // namespace pw::dock
