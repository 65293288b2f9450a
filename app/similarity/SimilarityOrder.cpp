// SimilarityOrder: plain loops over the matrix rows; everything is O(N^2) at most.
#include "SimilarityOrder.h"

#include <algorithm>
#include <numeric>

namespace pw {

std::vector<int> orderBySimilarityTo(const float* matrix, int n, int hit) {
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    const float* row = matrix + size_t(hit) * size_t(n);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        if ((a == hit) != (b == hit))
            return a == hit;
        return row[a] > row[b];
    });
    return order;
}

std::vector<int> clusteredOrder(const float* matrix, int n) {
    std::vector<int> order;
    order.reserve(size_t(n));
    std::vector<float> best(size_t(n), -1.0f); // highest similarity to any placed hit
    std::vector<char> placed(size_t(n), 0);
    for (int step = 0; step < n; ++step) {
        int next = -1;
        for (int j = 0; j < n; ++j)
            if (!placed[size_t(j)] && (next < 0 || best[size_t(j)] > best[size_t(next)]))
                next = j;
        // best <= 0 means no link to the placed hits: `next` is then the lowest unplaced index,
        // which starts a new component.
        placed[size_t(next)] = 1;
        order.push_back(next);
        const float* row = matrix + size_t(next) * size_t(n);
        for (int j = 0; j < n; ++j)
            if (!placed[size_t(j)])
                best[size_t(j)] = std::max(best[size_t(j)], row[j]);
    }
    return order;
}

std::vector<std::pair<int, float>> nearestNeighbours(const float* matrix, int n, int hit, int k,
                                                     float threshold) {
    std::vector<std::pair<int, float>> all;
    const float* row = matrix + size_t(hit) * size_t(n);
    for (int j = 0; j < n; ++j)
        if (j != hit && row[j] >= threshold)
            all.emplace_back(j, row[j]);
    const auto better = [](const auto& a, const auto& b) {
        return a.second > b.second || (a.second == b.second && a.first < b.first);
    };
    const size_t keep = std::min(all.size(), size_t(std::max(k, 0)));
    std::partial_sort(all.begin(), all.begin() + long(keep), all.end(), better);
    all.resize(keep);
    return all;
}

} // namespace pw
