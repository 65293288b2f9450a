#include "WorkerPool.h"

#include <algorithm>

namespace pw {

WorkerPool::WorkerPool(int threads) {
    for (int t = 1; t < std::max(threads, 1); ++t)
        threads_.emplace_back([this] { work(); });
}

WorkerPool::~WorkerPool() {
    {
        std::lock_guard turn(callers_);
        std::lock_guard lock(m_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_)
        t.join();
}

void WorkerPool::runItems() {
    for (long i = next_++; i < count_; i = next_++) {
        try {
            (*body_)(i);
        } catch (...) {
            std::lock_guard lock(m_);
            if (!error_)
                error_ = std::current_exception();
            next_ = count_; // hand out no more
        }
    }
}

void WorkerPool::work() {
    long seen = 0;
    for (;;) {
        {
            std::unique_lock lock(m_);
            wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
            if (stopping_)
                return;
            seen = generation_;
        }
        runItems();
        std::lock_guard lock(m_);
        if (++done_ == threads_.size())
            finished_.notify_all();
    }
}

void WorkerPool::parallelFor(long count, const std::function<void(long)>& body) {
    if (count <= 0)
        return;
    std::lock_guard turn(callers_);
    {
        std::lock_guard lock(m_);
        body_ = &body;
        count_ = count;
        next_ = 0;
        done_ = 0;
        error_ = nullptr;
        ++generation_;
    }
    wake_.notify_all();
    runItems();
    std::exception_ptr error;
    {
        std::unique_lock lock(m_);
        finished_.wait(lock, [&] { return done_ == threads_.size(); });
        error = error_;
        body_ = nullptr;
    }
    if (error)
        std::rethrow_exception(error);
}

} // namespace pw
