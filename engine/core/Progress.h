// Progress: how a long engine job reports (done/total, an optional frame of a watched pose) and
// learns that it should stop (a cancel flag it polls). The app forwards it through queued signals.
#pragma once

#include <Eigen/Core>

#include <atomic>
#include <functional>
#include <vector>

namespace pw {

struct ProgressFrame {
    int item = 0;       // which pose of the batch
    int iteration = 0;
    double energy = 0;
    const std::vector<Eigen::Vector3d>* coordinates = nullptr; // valid during the callback only
};

struct Progress {
    std::atomic<bool> cancel{false};
    // Called from worker threads: must be thread-safe and quick.
    std::function<void(long done, long total)> onProgress;
    std::function<void(const ProgressFrame&)> onFrame;

    bool cancelled() const { return cancel.load(std::memory_order_relaxed); }
};

} // namespace pw
