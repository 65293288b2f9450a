// LocalSearch: the three local searches of the Lamarckian GA (Solis-Wets, ADADELTA, BFGS). Each
// improves one individual in place and never returns a pose worse than its start.
#pragma once

#include "DockObjective.h"
#include "DockOptions.h"
#include "DockRandom.h"

#include "minimize/BfgsMinimizer.h"
#include "score/BoxConfig.h"

namespace pw::dock {

// Per-run scratch space of the local searches (reused across calls: no allocation per search).
struct LocalSearchWorkspace {
    std::vector<double> gradient, squareGradient, squareDelta, step, deviate, bias;
    Pose trial, best;
    MinimizerWorkspace bfgs;
    MinimizeResult bfgsResult;
};

// Gene scales shared by Solis-Wets and ADADELTA, as AutoDock-GPU's genotype has them: position
// genes count in grid spacings (0.375 Å), angle genes in degrees. ADADELTA's step is set by its
// constants in these units, so they decide how far it moves per iteration.
inline constexpr double kTranslationGeneUnit = 0.375;                    // Å
inline constexpr double kAngleGeneUnit = 3.14159265358979323846 / 180.0; // radians

// Runs `method` from (pose, energy) for at most options.localSearchIterations iterations; on
// return pose/energy hold the best point seen (never worse than the start). Returns the
// evaluations used. The position stays inside the box.
long localSearch(LocalSearchMethod method, DockObjective& f, Pose& pose, double& energy,
                 const LgaOptions& options, const SearchBox& box, DockRandom& rng,
                 LocalSearchWorkspace& ws);

long solisWets(DockObjective& f, Pose& pose, double& energy, const LgaOptions& options,
               const SearchBox& box, DockRandom& rng, LocalSearchWorkspace& ws);
long adadelta(DockObjective& f, Pose& pose, double& energy, const LgaOptions& options,
              const SearchBox& box, LocalSearchWorkspace& ws);
long bfgsLocalSearch(DockObjective& f, Pose& pose, double& energy, const LgaOptions& options,
                     const SearchBox& box, LocalSearchWorkspace& ws);

} // namespace pw::dock
