// LingoItems: LINGO intersection rewritten as a count of shared items, for matrix hardware.
// Item (L, c) = "has at least c copies of LINGO L"; I(A,B) = number of items A and B share.
#pragma once

#include "LingoSet.h"

#include <cstdint>
#include <vector>

namespace pw::lingo {

// sum_L min(a_L, b_L) = sum_L sum_{c>=1} [a_L >= c][b_L >= c]: so I is the dot product of 0/1
// indicator vectors over the distinct (L, c) items of the two sets. This is exact (no hashing).
// The frequent items get a dense column (int8 0/1, for tensor-core products); the rare rest
// ("tail") are kept as posting lists, and only pairs that share a tail item need another look.
struct LingoItems {
    uint32_t denseWidth = 0; // bytes per dense row (multiple of ItemizeOptions::widthAlign)
    uint32_t denseItems = 0; // items with a dense column (<= denseWidth; the rest is zero padding)
    uint32_t totalItems = 0; // distinct (L, c) items over both sets
    size_t rowsQ = 0, rowsDb = 0; // padded row counts (multiples of rowAlign)
    std::vector<uint8_t> denseQ;  // rowsQ x denseWidth indicators
    std::vector<uint8_t> denseDb; // rowsDb x denseWidth (empty when the sets are the same)
    // Tail items: molecules (ascending) having item t: [tailQOffsets[t], tailQOffsets[t+1]).
    std::vector<uint32_t> tailQOffsets{0}, tailQMols, tailDbOffsets{0}, tailDbMols;
    uint64_t tailPairs = 0; // sum over tail items of |postings Q| x |postings Db|

    const std::vector<uint8_t>& dbRows() const { return denseDb.empty() ? denseQ : denseDb; }
    size_t tailItems() const { return tailQOffsets.size() - 1; }
};

struct ItemizeOptions {
    uint32_t rowAlign = 128;  // tile height of the tensor-core kernel
    uint32_t widthAlign = 64; // bytes of K per pipeline stage
    // Cost of re-checking one tail pair (a scalar sorted merge of two full profiles), in units of
    // one pair x one dense byte column. Measured on an H200 (tests/bench/RESULTS.md, lingo width
    // sweep, 32768^2): a tail pair costs about 1.2e-10 s, a pair x column of the int8 MMA product
    // about 1.7e-15 s: a ratio of 5e4 to 7e4. With 5e4 the model picks width 832, inside the
    // measured flat optimum (768 to 1024, 7.93 to 7.97 ms).
    double tailPairCost = 50000.0;
    int forceDenseWidth = -1; // >= 0: use this width (rounded up to widthAlign), for tests
};

// sameSet: queries and database are the same molecules (all-vs-all): one dense array.
LingoItems itemize(const LingoSet& queries, const LingoSet& db, bool sameSet,
                   const ItemizeOptions& options = {});

// The tail work of query rows [r0, r1): per tail item, its query postings inside the range and
// all its database postings; prefix[i] = pairs before item i (prefix.back() = all pairs).
struct TailWork {
    std::vector<uint32_t> qStart, qCount, dbStart, dbCount;
    std::vector<uint64_t> prefix{0};
    uint64_t pairs() const { return prefix.back(); }
};
TailWork tailWork(const LingoItems& items, size_t r0, size_t r1);

} // namespace pw::lingo
