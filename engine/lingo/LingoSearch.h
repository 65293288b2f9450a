// LingoSearch: CPU reference for LINGO similarity searches: a block of matrix rows, and
// query-vs-database top-k / threshold hits, multithreaded, in memory bounded by the hits kept.
#pragma once

#include "LingoSet.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pw::lingo {

struct LingoHit {
    uint32_t index = 0; // database molecule
    float similarity = 0.0f;
};

// The one hit order used everywhere (CPU and GPU): higher similarity first, then lower index.
inline bool betterHit(const LingoHit& a, const LingoHit& b) {
    return a.similarity > b.similarity || (a.similarity == b.similarity && a.index < b.index);
}

struct SearchOptions {
    int topK = 10;            // hits kept per query; 0 = every hit at or above the threshold
    float threshold = 0.0f;   // hits need similarity >= threshold
    bool excludeSelf = false; // all-vs-all: skip query i against database i
    int threads = 0;          // 0 = all hardware threads
};

using HitLists = std::vector<std::vector<LingoHit>>; // per query, sorted by betterHit

// Similarities of queries [r0, r1) against the whole database, row-major into out
// ((r1 - r0) x db.size() floats).
void similarityRows(const LingoSet& queries, const LingoSet& db, size_t r0, size_t r1, float* out,
                    int threads = 0);

// Per query, the best hits (at most topK when topK > 0), never the full matrix.
HitLists search(const LingoSet& queries, const LingoSet& db, const SearchOptions& options);

// Keeps the best `k` hits of one row (shared by CPU search and the GPU host code's fallbacks).
void selectHits(const float* row, size_t n, size_t selfIndex, const SearchOptions& options,
                std::vector<LingoHit>& out);

int resolveThreads(int threads);

} // namespace pw::lingo
