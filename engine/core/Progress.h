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

    // Optional: a cancel of the parent counts as this one's too (a command's one Ctrl-C flag
    // over the Progress of each batch it has in flight). Only cancelled() reads it: code that
    // polls `cancel` itself is handed a Progress that something else sets (MultiDeviceBackend's
    // chunk queue polls cancelled() and sets each worker's own flag).
    const Progress* parent = nullptr;

    bool cancelled() const {
        return cancel.load(std::memory_order_relaxed) || (parent && parent->cancelled());
    }
};

} // namespace pw
