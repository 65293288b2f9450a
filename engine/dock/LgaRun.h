// LgaRun: one independent run of the Lamarckian genetic algorithm (AutoDock-GPU's search) for
// one ligand: random population in the box, then generations of elitism, tournament selection,
// two-point crossover, mutation and local search, until the budget, the cap or AutoStop.
#pragma once

#include "DockOptions.h"
#include "DockResult.h"
#include "LigandDockScoring.h"

#include "core/LigandKinematics.h"
#include "score/BoxConfig.h"

#include <atomic>
#include <cstdint>

namespace pw::dock {

struct LgaRunSetup {
    const LigandKinematics* kinematics = nullptr; // RootOrigin::RootCentroid
    const LigandDockScoring* scoring = nullptr;
    SearchBox box;
    LgaOptions options;
    long evaluationBudget = 0; // per run
    std::uint64_t seed = 0;
    std::uint64_t ligand = 0; // keys of the run's random stream with seed and run
    std::uint64_t run = 0;
    const std::atomic<bool>* cancel = nullptr; // polled between generations
    const GenerationObserver* observer = nullptr; // told after each generation when set
};

// The run's best individual: pose, coordinates, searched energy, evaluations and generations
// (score and terms are left for the caller's exact re-scoring). Deterministic in the setup.
DockRun runLga(const LgaRunSetup& setup);

} // namespace pw::dock
