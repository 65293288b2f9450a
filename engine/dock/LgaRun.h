// LgaRun: one independent run of the Lamarckian genetic algorithm (AutoDock-GPU's search) for
// one ligand: random population in the box, then generations of elitism, tournament selection,
// two-point crossover, mutation and local search, until the budget or the cap. It advances in
// steps (advance(until)) so that the engine can test AutoStop over all runs of a ligand at fixed
// generations (dock::PooledAutoStop) and stop them together.
#pragma once

#include "DockObjective.h"
#include "DockOptions.h"
#include "DockRandom.h"
#include "DockResult.h"
#include "LigandDockScoring.h"
#include "LocalSearch.h"

#include "core/LigandKinematics.h"
#include "score/BoxConfig.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace pw::dock {

struct LgaRunSetup {
    const LigandKinematics* kinematics = nullptr; // RootOrigin::RootCentroid
    const LigandDockScoring* scoring = nullptr;
    SearchBox box;
    LgaOptions options; // autoStop is the engine's (over all runs), never tested by one run
    long evaluationBudget = 0; // per run
    std::uint64_t seed = 0;
    std::uint64_t ligand = 0; // keys of the run's random stream with seed and run
    std::uint64_t run = 0;
    const std::atomic<bool>* cancel = nullptr; // polled between generations
    const GenerationObserver* observer = nullptr; // told after each generation when set
};

class LgaRun {
public:
    // The random first population (generation 0). setup's pointers must outlive the run.
    explicit LgaRun(const LgaRunSetup& setup);

    // Runs generations until `until` generations are done or the run ends (budget, cap,
    // cancel). Deterministic in the setup: the same generations whatever the steps.
    void advance(long until);

    bool ended() const { return ended_; }
    bool cancelled() const { return cancelled_; }
    long generation() const { return generation_; }
    double bestEnergy() const; // the population's lowest searched energy
    // The run's best individual so far: pose, coordinates, searched energy, evaluations and
    // generations (score and terms are left for the caller's exact re-scoring).
    DockRun result() const;

private:
    struct Population {
        std::vector<Pose> poses;
        std::vector<double> energies;
    };
    int tournament(DockRandom& rng) const;
    void report(long generation) const;

    LgaRunSetup s_;
    DockRandom rng_;
    DockObjective f_;
    LocalSearchWorkspace ws_;
    Population pop_, next_;
    std::vector<int> order_;
    long generation_ = 0;
    bool ended_ = false, cancelled_ = false;
};

// A whole run on its own (no AutoStop: that is a ligand's, over all its runs).
DockRun runLga(const LgaRunSetup& setup);

} // namespace pw::dock
