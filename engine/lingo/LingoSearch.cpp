// CPU LINGO searches: threads take query rows from an atomic counter; each row keeps a bounded
// heap of its best hits, so a 100k x 100k top-10 search holds 100k x 10 hits, not the matrix.
#include "LingoSearch.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace pw::lingo {

int resolveThreads(int threads) {
    if (threads > 0)
        return threads;
    return std::max(1, int(std::thread::hardware_concurrency()));
}

namespace {

template <typename Fn> void parallelRows(size_t begin, size_t end, int threads, Fn fn) {
    const int n = std::min<long>(resolveThreads(threads), long(std::max<size_t>(1, end - begin)));
    std::atomic<size_t> next{begin};
    auto work = [&] {
        for (size_t r; (r = next.fetch_add(1)) < end;)
            fn(r);
    };
    if (n == 1) {
        work();
        return;
    }
    std::vector<std::thread> pool;
    for (int t = 0; t < n; ++t)
        pool.emplace_back(work);
    for (auto& t : pool)
        t.join();
}

// Bounded selection: a heap whose front is the worst kept hit.
struct HitKeeper {
    size_t k;
    std::vector<LingoHit>& hits;
    void offer(const LingoHit& h) {
        auto worse = [](const LingoHit& a, const LingoHit& b) { return betterHit(a, b); };
        if (k == 0 || hits.size() < k) {
            hits.push_back(h);
            if (k)
                std::push_heap(hits.begin(), hits.end(), worse);
        } else if (betterHit(h, hits.front())) {
            std::pop_heap(hits.begin(), hits.end(), worse);
            hits.back() = h;
            std::push_heap(hits.begin(), hits.end(), worse);
        }
    }
    void finish() { std::sort(hits.begin(), hits.end(), betterHit); }
};

} // namespace

void similarityRows(const LingoSet& q, const LingoSet& db, size_t r0, size_t r1, float* out,
                    int threads) {
    const size_t n = db.size();
    parallelRows(r0, r1, threads, [&](size_t r) {
        float* row = out + (r - r0) * n;
        for (size_t j = 0; j < n; ++j)
            row[j] = similarity(q, r, db, j);
    });
}

void selectHits(const float* row, size_t n, size_t selfIndex, const SearchOptions& o,
                std::vector<LingoHit>& out) {
    out.clear();
    HitKeeper keep{size_t(std::max(0, o.topK)), out};
    for (size_t j = 0; j < n; ++j) {
        if ((o.excludeSelf && j == selfIndex) || !(row[j] >= o.threshold))
            continue;
        keep.offer({uint32_t(j), row[j]});
    }
    keep.finish();
}

HitLists search(const LingoSet& q, const LingoSet& db, const SearchOptions& o) {
    HitLists result(q.size());
    parallelRows(0, q.size(), o.threads, [&](size_t r) {
        HitKeeper keep{size_t(std::max(0, o.topK)), result[r]};
        for (size_t j = 0; j < db.size(); ++j) {
            if (o.excludeSelf && j == r)
                continue;
            const float t = similarity(q, r, db, j);
            if (t >= o.threshold)
                keep.offer({uint32_t(j), t});
        }
        keep.finish();
    });
    return result;
}

} // namespace pw::lingo
