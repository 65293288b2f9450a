#include "AutoStop.h"

#include <algorithm>
#include <cmath>

namespace pw::dock {

bool AutoStop::converged(long generation, const std::vector<double>& energies) {
    if (frequency_ <= 0 || energies.empty() || generation % frequency_ != 0)
        return false;
    sorted_ = energies;
    const int cream = std::max<int>(1, static_cast<int>(energies.size()) / 10);
    std::partial_sort(sorted_.begin(), sorted_.begin() + cream, sorted_.end());
    Record r;
    r.best = sorted_[0];
    for (int i = 0; i < cream; ++i) {
        r.sum += sorted_[i];
        r.sumSquares += sorted_[i] * sorted_[i];
    }
    r.count = cream;
    window_[recorded_ % window_.size()] = r;
    ++recorded_;
    if (recorded_ < static_cast<int>(window_.size()))
        return false;
    double sum = 0, sumSquares = 0, n = 0, bestMean = 0;
    for (const Record& w : window_) {
        sum += w.sum;
        sumSquares += w.sumSquares;
        n += w.count;
        bestMean += w.best / window_.size();
    }
    const double mean = sum / n;
    const double sd = std::sqrt(std::max(0.0, sumSquares / n - mean * mean));
    double bestSpread = 0;
    for (const Record& w : window_)
        bestSpread = std::max(bestSpread, std::abs(w.best - bestMean));
    return sd < tolerance_ && bestSpread < 1e-4;
}

} // namespace pw::dock
