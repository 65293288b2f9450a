#include "WorkSplit.h"

#include <algorithm>
#include <numeric>

namespace pw {

std::vector<WorkChunk> splitByWork(const std::vector<double>& work, size_t parts) {
    std::vector<WorkChunk> chunks;
    const size_t n = work.size();
    if (n == 0)
        return chunks;
    parts = std::clamp<size_t>(parts, 1, n);
    const double total = std::accumulate(work.begin(), work.end(), 0.0);
    double sum = 0;
    size_t begin = 0;
    for (size_t i = 0; i < n; ++i) {
        sum += work[i];
        const size_t left = n - i - 1; // items after this one
        const size_t chunksLeft = parts - chunks.size() - 1; // after the one being filled
        // Close the chunk at its share of the work, or when the items left are only enough for
        // one per remaining chunk; the last chunk takes the rest.
        const bool share = total > 0 && sum >= total * double(chunks.size() + 1) / double(parts);
        if (chunksLeft > 0 && (share || left == chunksLeft)) {
            chunks.push_back({begin, i + 1});
            begin = i + 1;
        }
    }
    chunks.push_back({begin, n});
    return chunks;
}

std::vector<size_t> longestFirst(const std::vector<WorkChunk>& chunks,
                                 const std::vector<double>& work) {
    std::vector<double> heaviest(chunks.size(), 0.0), sum(chunks.size(), 0.0);
    for (size_t c = 0; c < chunks.size(); ++c)
        for (size_t i = chunks[c].begin; i < chunks[c].end && i < work.size(); ++i) {
            heaviest[c] = std::max(heaviest[c], work[i]);
            sum[c] += work[i];
        }
    std::vector<size_t> order(chunks.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return heaviest[a] != heaviest[b] ? heaviest[a] > heaviest[b] : sum[a] > sum[b];
    });
    return order;
}

double ligandWork(const Molecule& ligand) {
    const size_t torsions =
        ligand.torsionTree && !ligand.torsionTree->nodes.empty() ? ligand.torsionTree->nodes.size() - 1
                                                                 : 0;
    return double(std::max<size_t>(1, ligand.atoms.size())) * double(torsions + 1);
}

double dockWork(const Molecule& ligand, const dock::DockOptions& options) {
    const int torsions = ligand.torsionTree ? ligand.torsionTree->torsionCount() : 0;
    const int runs = std::max(options.runs, 1);
    return ligandWork(ligand) * double(dock::evaluationBudget(options.lga, torsions, runs)) *
           double(runs);
}

} // namespace pw
