// ParallelFor: runs body(i) for i in [0, count) on up to `threads` threads (the caller's thread
// included), handing out indices one at a time so uneven items balance themselves.
#pragma once

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace pw {

template <class Body> void parallelFor(long count, int threads, Body&& body) {
    std::atomic<long> next{0};
    auto work = [&] {
        for (long i = next++; i < count; i = next++)
            body(i);
    };
    const int n = static_cast<int>(std::min<long>(std::max(threads, 1), count));
    std::vector<std::thread> pool;
    for (int t = 1; t < n; ++t)
        pool.emplace_back(work);
    work();
    for (auto& t : pool)
        t.join();
}

} // namespace pw
