// FlexDock: docking with flexible receptor side chains on the CPU (dock --flex): the Lamarckian
// GA of LgaRun with the side chains' torsions as extra genes (random in [-pi, pi) at the start,
// mutated and crossed like the ligand's torsions), BFGS local search on Vina's maps (ligand and
// moving side-chain atoms against the rigid receptor; the pairs exact), then each run's best
// minimized on the exact energy and reported with Vina's numbers.
#pragma once

#include "DockOptions.h"

#include "core/Pose.h"
#include "score/BoxConfig.h"
#include "score/flex/FlexScorer.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

namespace pw::dock {

struct FlexDockRun {
    int run = 0;
    Pose pose; // ligand pose, its torsions followed by the side chains'
    std::vector<Vec3> ligandCoordinates, flexCoordinates;
    double searchEnergy = 0; // the GA's best (maps), before the exact minimization
    FlexScore score;         // Vina's numbers of the final pose
    long evaluations = 0;
    long generations = 0;
};

struct FlexDockSetup {
    const FlexScorer* exact = nullptr;        // its ligand scorer sums receptor atoms exactly
    const LigandScorer* gridLigand = nullptr; // the same ligand on `grid`
    const ReceptorGrid* grid = nullptr;       // maps of the ligand's and the side chains' types
    SearchBox box;
    LgaOptions lga;                // its local search is BFGS whatever it names
    int runs = 10;
    long evaluationsPerRun = 0;    // 0: AutoDock-GPU's heuristic for all torsions
    std::uint64_t seed = 0;
    std::uint64_t ligandIndex = 0; // keys the random streams with seed and run
    int threads = 1;               // runs in parallel
    // Watching and stopping (the app's docking panel); none of them changes a result.
    // onGeneration: after every generation of every run, from the run's thread (thread-safe,
    // quick); its pose holds the ligand's torsions first, then the side chains'.
    GenerationObserver onGeneration;
    // A run stops at its next generation once *cancel is true; the results are then not the
    // search's and the caller drops them.
    const std::atomic<bool>* cancel = nullptr;
    // After each run's end, from its thread (thread-safe): the runs ended so far.
    std::function<void(long runsDone)> onRunDone;
};

// All runs of one ligand (prepared, with its torsion tree; the scorers' ligand), best first by
// affinity. Deterministic in the setup whatever the thread count.
std::vector<FlexDockRun> dockLigandWithFlex(const Molecule& ligand, const FlexDockSetup& setup);

} // namespace pw::dock
