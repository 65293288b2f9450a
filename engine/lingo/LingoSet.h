// LingoSet: the LINGO profiles of many molecules in one flat (CSR) layout, the form every
// search (CPU threads, CUDA kernels) reads.
#pragma once

#include "LingoProfile.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pw::lingo {

struct LingoSet {
    std::vector<uint32_t> offsets{0}; // molecule i: entries [offsets[i], offsets[i+1])
    std::vector<uint32_t> lingos;     // sorted distinct LINGOs of each molecule
    std::vector<uint32_t> counts;     // their counts
    std::vector<uint32_t> sizes;      // |X| per molecule

    size_t size() const { return sizes.size(); }
    uint32_t distinct(size_t i) const { return offsets[i + 1] - offsets[i]; }
    uint32_t maxDistinct() const;
    void add(const LingoProfile& p);

    static LingoSet fromCanonicalSmiles(const std::vector<std::string>& canonical);
};

// I and T of molecule a of `x` and molecule b of `y`.
uint32_t intersection(const LingoSet& x, size_t a, const LingoSet& y, size_t b);
inline float similarity(const LingoSet& x, size_t a, const LingoSet& y, size_t b) {
    return tanimotoFromCounts(intersection(x, a, y, b), x.sizes[a], y.sizes[b]);
}

} // namespace pw::lingo
