#include "AutoStop.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pw::dock {

namespace {

// ceil(share x runs), at most `cap` (0: no cap), at least kMinAgreeingRuns, at most the runs;
// never below 2 (so a single run, which cannot have two agreeing, never stops).
int quorumOf(double share, int cap, int runs) {
    int wanted = static_cast<int>(std::ceil(share * runs - 1e-9));
    if (cap > 0)
        wanted = std::min(wanted, cap);
    return std::max(std::min(std::max(wanted, kMinAgreeingRuns), runs), 2);
}

} // namespace

PooledAutoStop::PooledAutoStop(const LgaOptions& o, int runs)
    : on_(o.autoStop && o.autoStopFrequency > 0), frequency_(std::max(o.autoStopFrequency, 1)),
      window_(std::max(o.autoStopWindow, 1)),
      quorum_(quorumOf(o.autoStopQuorum, o.autoStopQuorumCap, runs)),
      stagnation_(std::max(o.autoStopStagnation, 0)),
      maxGenerations_(std::max(o.maxGenerations, 1L)), tolerance_(o.autoStopTolerance),
      progress_(o.autoStopProgress) {}
bool PooledAutoStop::isCheckpoint(long generation) const {
    return on_ && generation > 0 && generation % frequency_ == 0;
}

long PooledAutoStop::nextCheckpoint(long generation) const {
    if (!on_)
        return maxGenerations_;
    return std::min(maxGenerations_, (generation / frequency_ + 1) * frequency_);
}

bool PooledAutoStop::check(long generation, const std::vector<double>& runBest) {
    AutoStopCheck c;
    c.generation = generation;
    c.best = std::numeric_limits<double>::infinity();
    for (double e : runBest)
        c.best = std::min(c.best, e);
    for (double e : runBest)
        c.agreeing += e <= c.best + tolerance_;
    // No progress: the overall best `window` checkpoints ago is at most `progress_` above today's
    // (the best never rises: elitism keeps every run's best).
    const int n = static_cast<int>(trace_.size());
    const auto stillFor = [&](int checks) {
        return n >= checks && trace_[n - checks].best - c.best <= progress_;
    };
    c.converged =
        (stillFor(window_) && c.agreeing >= quorum_) || (stagnation_ > 0 && stillFor(stagnation_));
    trace_.push_back(c);
    return c.converged;
}

} // namespace pw::dock
