// WorkerPool: parallelFor on threads kept for the pool's life. A pipeline stage that runs a
// parallel loop per chunk (the minimize command's preparation and formatting: two loops of 8,192
// records each, hundreds of times) otherwise starts and ends a thread per core per loop; on 32
// cores that cost tens of seconds of system time over 2,000,000 poses (thread stacks mapped and
// unmapped, new threads handed other threads' malloc arenas).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pw {

class WorkerPool {
public:
    // threads: how many run a loop, the caller's thread included (at least 1).
    explicit WorkerPool(int threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    // body(i) for every i in [0, count), indices handed out one at a time (uneven items balance
    // themselves); returns when all are done. One loop at a time (callers of one pool take
    // turns); the first exception a body throws is rethrown here once the loop has stopped.
    void parallelFor(long count, const std::function<void(long)>& body);

private:
    void work(); // a worker's life
    void runItems();

    std::vector<std::thread> threads_;
    std::mutex callers_; // one loop at a time
    std::mutex m_;
    std::condition_variable wake_, finished_;
    // The current loop, set before its generation is announced under m_ and left alone until
    // every worker has reported it done (so no worker can see a loop that has ended):
    const std::function<void(long)>* body_ = nullptr;
    long count_ = 0;
    std::atomic<long> next_{0};
    long generation_ = 0; // under m_
    size_t done_ = 0;     // under m_: workers done with the current loop
    std::exception_ptr error_; // under m_
    bool stopping_ = false;    // under m_
};

} // namespace pw
