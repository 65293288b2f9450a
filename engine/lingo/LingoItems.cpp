// LingoItems: the (LINGO, count level) vocabulary, ordered so that the dense part takes the items
// whose pairs would cost most as tail work, and the width chosen by a simple cost model.
#include "LingoItems.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace pw::lingo {
namespace {

size_t roundUp(size_t x, size_t a) {
    return (x + a - 1) / a * a;
}

uint64_t itemKey(uint32_t lingo, uint32_t level) {
    return (uint64_t(lingo) << 32) | level;
}

template <typename Fn> void forEachItem(const LingoSet& s, size_t m, Fn fn) {
    for (uint32_t e = s.offsets[m]; e < s.offsets[m + 1]; ++e)
        for (uint32_t c = 1; c <= s.counts[e]; ++c)
            fn(itemKey(s.lingos[e], c));
}

} // namespace

LingoItems itemize(const LingoSet& q, const LingoSet& db, bool sameSet, const ItemizeOptions& o) {
    // Vocabulary and per-set document frequencies.
    std::unordered_map<uint64_t, uint32_t> id;
    std::vector<uint64_t> dfQ, dfDb;
    auto count = [&](const LingoSet& s, std::vector<uint64_t>& df) {
        for (size_t m = 0; m < s.size(); ++m)
            forEachItem(s, m, [&](uint64_t key) {
                auto [it, fresh] = id.emplace(key, uint32_t(id.size()));
                if (fresh) {
                    dfQ.push_back(0);
                    dfDb.push_back(0);
                }
                ++df[it->second];
            });
    };
    count(q, dfQ);
    if (sameSet)
        dfDb = dfQ;
    else
        count(db, dfDb);
    const uint32_t nItems = uint32_t(id.size());

    // Rank items by the tail pairs they would cause.
    std::vector<uint32_t> order(nItems);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const uint64_t ca = dfQ[a] * dfDb[a], cb = dfQ[b] * dfDb[b];
        return ca != cb ? ca > cb : a < b;
    });
    std::vector<uint32_t> rank(nItems);
    for (uint32_t r = 0; r < nItems; ++r)
        rank[order[r]] = r;

    LingoItems out;
    out.totalItems = nItems;
    out.rowsQ = roundUp(std::max<size_t>(q.size(), 1), o.rowAlign);
    out.rowsDb = roundUp(std::max<size_t>(db.size(), 1), o.rowAlign);

    // Width: minimise dense cost (pairs x width) + tailPairCost x tail pairs.
    std::vector<uint64_t> tailAfter(nItems + 1, 0); // tail pairs if the first r items are dense
    for (uint32_t r = nItems; r-- > 0;)
        tailAfter[r] = tailAfter[r + 1] + dfQ[order[r]] * dfDb[order[r]];
    const double pairs = double(out.rowsQ) * double(out.rowsDb);
    size_t best = 0;
    if (o.forceDenseWidth >= 0) {
        best = roundUp(size_t(o.forceDenseWidth), o.widthAlign);
    } else {
        double bestCost = -1;
        for (size_t w = o.widthAlign;; w += o.widthAlign) {
            const double cost =
                pairs * double(w) + o.tailPairCost * double(tailAfter[std::min<size_t>(w, nItems)]);
            if (bestCost < 0 || cost < bestCost) {
                bestCost = cost;
                best = w;
            }
            if (w >= nItems)
                break;
        }
    }
    out.denseWidth = uint32_t(best);
    out.denseItems = uint32_t(std::min<size_t>(best, nItems));
    out.tailPairs = tailAfter[out.denseItems];

    // Dense rows and tail postings (molecules visited in order, so postings come out sorted).
    const uint32_t nTail = nItems - out.denseItems;
    auto fill = [&](const LingoSet& s, std::vector<uint8_t>& dense, size_t rows,
                    std::vector<uint32_t>& offsets, std::vector<uint32_t>& mols) {
        dense.assign(rows * out.denseWidth, 0);
        std::vector<uint32_t> cnt(nTail + 1, 0);
        for (size_t m = 0; m < s.size(); ++m)
            forEachItem(s, m, [&](uint64_t key) {
                const uint32_t r = rank[id.at(key)];
                if (r < out.denseItems)
                    dense[m * out.denseWidth + r] = 1;
                else
                    ++cnt[r - out.denseItems + 1];
            });
        offsets.assign(nTail + 1, 0);
        for (uint32_t t = 0; t < nTail; ++t)
            offsets[t + 1] = offsets[t] + cnt[t + 1];
        mols.assign(offsets[nTail], 0);
        std::vector<uint32_t> fillPos(offsets.begin(), offsets.end() - 1);
        for (size_t m = 0; m < s.size(); ++m)
            forEachItem(s, m, [&](uint64_t key) {
                const uint32_t r = rank[id.at(key)];
                if (r >= out.denseItems)
                    mols[fillPos[r - out.denseItems]++] = uint32_t(m);
            });
    };
    fill(q, out.denseQ, out.rowsQ, out.tailQOffsets, out.tailQMols);
    if (sameSet) {
        out.tailDbOffsets = out.tailQOffsets;
        out.tailDbMols = out.tailQMols;
    } else {
        fill(db, out.denseDb, out.rowsDb, out.tailDbOffsets, out.tailDbMols);
    }
    return out;
}

TailWork tailWork(const LingoItems& items, size_t r0, size_t r1) {
    TailWork w;
    for (size_t t = 0; t < items.tailItems(); ++t) {
        const auto qb = items.tailQMols.begin() + items.tailQOffsets[t];
        const auto qe = items.tailQMols.begin() + items.tailQOffsets[t + 1];
        const auto lo = std::lower_bound(qb, qe, uint32_t(r0));
        const auto hi = std::lower_bound(lo, qe, uint32_t(r1));
        const uint32_t nq = uint32_t(hi - lo);
        const uint32_t nd = items.tailDbOffsets[t + 1] - items.tailDbOffsets[t];
        if (nq == 0 || nd == 0)
            continue;
        w.qStart.push_back(uint32_t(lo - items.tailQMols.begin()));
        w.qCount.push_back(nq);
        w.dbStart.push_back(items.tailDbOffsets[t]);
        w.dbCount.push_back(nd);
        w.prefix.push_back(w.prefix.back() + uint64_t(nq) * nd);
    }
    return w;
}

} // namespace pw::lingo
