// LongestFirst: the launch order of a batch of independent runs on a GPU (one block per run):
// longest first by estimated cost. A launch lasts until its last block ends, and blocks start in
// index order as SMs free up (what the hardware does in practice; CUDA does not promise it): in
// input order a long run that starts near the end runs alone at the launch's tail; longest
// first (LPT scheduling) leaves only short runs for the end.
#pragma once

#include <algorithm>
#include <numeric>
#include <vector>

namespace pw {

// Entry j: the id (item x runsPer + run) that goes to block j, items by descending costPerRun;
// ties keep input order (stable), so the order is deterministic.
inline std::vector<long> longestFirstOrder(const std::vector<double>& costPerRun, int runsPer) {
    runsPer = std::max(runsPer, 1);
    std::vector<long> order(costPerRun.size() * static_cast<size_t>(runsPer));
    std::iota(order.begin(), order.end(), 0L);
    std::stable_sort(order.begin(), order.end(), [&](long a, long b) {
        return costPerRun[static_cast<size_t>(a / runsPer)] >
               costPerRun[static_cast<size_t>(b / runsPer)];
    });
    return order;
}

} // namespace pw
