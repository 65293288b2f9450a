// AutoStop: the convergence test of one ligand's docking, pooled over all its runs (the idea of
// AutoDock-GPU's --autostop, which pools the populations of a ligand's runs; our criterion is our
// own, built for few, expensive generations of BFGS local search). At fixed checkpoints (every
// `frequency` generations) it looks at the best energy of every run; the ligand has converged
// when the overall best has not improved over the last `window` checkpoints and a quorum of the
// runs reached it independently (their best within `tolerance` of it), or when it has not
// improved over the last `stagnation` checkpoints whatever the agreement (default 30, 0: off;
// flexible ligands seldom reach a quorum). The decision depends only
// on the ligand's own runs at those checkpoints, never on the order or the device that ran them:
// the CPU engine and the GPU launch loop call this same code.
#pragma once

#include "DockOptions.h"
#include "DockResult.h" // AutoStopCheck

#include <vector>

namespace pw::dock {

inline constexpr int kMinAgreeingRuns = 3;

class PooledAutoStop {
public:
    // runs: the ligand's runs (the quorum is a share of them).
    PooledAutoStop(const LgaOptions& options, int runs);

    // Whether the test looks at the runs after `generation` generations (AutoStop on, a
    // multiple of the frequency).
    bool isCheckpoint(long generation) const;
    // The generation the runs advance to before the next test after `generation` (no test when
    // AutoStop is off: maxGenerations then).
    long nextCheckpoint(long generation) const;

    // At a checkpoint: each run's best searched energy after `generation` generations (a run
    // that ended earlier, by its budget, gives its final best). Answers whether the ligand has
    // converged; every call is recorded in trace().
    bool check(long generation, const std::vector<double>& runBest);

    // Runs that must agree: ceil(quorum x runs), at most the cap (ten agreeing runs are enough
    // evidence whatever the batch), at least kMinAgreeingRuns (one or two runs alone are weak
    // evidence), at most the runs; a single run never stops.
    int quorum() const { return quorum_; }
    const std::vector<AutoStopCheck>& trace() const { return trace_; }

private:
    bool on_;
    int frequency_, window_, quorum_, stagnation_;
    long maxGenerations_;
    double tolerance_, progress_;
    std::vector<AutoStopCheck> trace_;
};

} // namespace pw::dock
