// The queues between the stages of a command's chunk pipeline (`minimize`): a bounded FIFO, and
// the hand-off that puts chunks finished out of order by several workers (one per device) back
// into input order.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

namespace pw::cli {

// A bounded FIFO between two pipeline stages; abort() wakes everyone (an error somewhere).
template <class T> class BoundedQueue {
public:
    explicit BoundedQueue(size_t capacity) : capacity_(capacity) {}
    bool push(T v) { // false when aborted
        std::unique_lock lock(m_);
        cv_.wait(lock, [&] { return aborted_ || q_.size() < capacity_; });
        if (aborted_)
            return false;
        q_.push_back(std::move(v));
        cv_.notify_all();
        return true;
    }
    std::optional<T> pop() { // nullopt: closed and drained, or aborted
        std::unique_lock lock(m_);
        cv_.wait(lock, [&] { return aborted_ || closed_ || !q_.empty(); });
        if (aborted_ || q_.empty())
            return std::nullopt;
        T v = std::move(q_.front());
        q_.pop_front();
        cv_.notify_all();
        return v;
    }
    void close() {
        std::lock_guard lock(m_);
        closed_ = true;
        cv_.notify_all();
    }
    void abort() {
        std::lock_guard lock(m_);
        aborted_ = true;
        cv_.notify_all();
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<T> q_;
    size_t capacity_;
    bool closed_ = false, aborted_ = false;
};

// Items numbered 0, 1, 2, ... finished by several workers in any order go on to `out` in their
// numbers' order. A worker whose item is `window` or more ahead of the next one due waits before
// working on it, so at most `window` finished items are held here (a stalled device cannot make
// the others fill memory).
template <class T> class InOrderHandoff {
public:
    InOrderHandoff(BoundedQueue<T>& out, long window) : out_(out), window_(window) {}

    // Waits until item `number` may be worked on; false when aborted.
    bool admit(long number) {
        std::unique_lock lock(m_);
        cv_.wait(lock, [&] { return aborted_ || number < next_ + window_; });
        return !aborted_;
    }
    // Item `number` is finished: it and every finished item after it in sequence go on to `out`
    // (waiting there while `out` is full: the stage after is the slower one). False when aborted.
    bool finish(long number, T item) {
        std::lock_guard lock(m_);
        held_.emplace(number, std::move(item));
        for (auto it = held_.begin(); !aborted_ && it != held_.end() && it->first == next_;
             it = held_.erase(it), ++next_)
            if (!out_.push(std::move(it->second)))
                aborted_ = true;
        cv_.notify_all();
        return !aborted_;
    }
    void abort() {
        std::lock_guard lock(m_);
        aborted_ = true;
        cv_.notify_all();
    }

private:
    BoundedQueue<T>& out_;
    long window_;
    std::mutex m_;
    std::condition_variable cv_;
    std::map<long, T> held_;
    long next_ = 0;
    bool aborted_ = false;
};

} // namespace pw::cli
