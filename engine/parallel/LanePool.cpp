#include "LanePool.h"

#include <algorithm>
#include <utility>

namespace pw {

LanePool::LanePool(std::vector<size_t> laneDevice)
    : laneDevice_(std::move(laneDevice)), busy_(laneDevice_.size(), false) {
    size_t devices = 0;
    for (size_t d : laneDevice_)
        devices = std::max(devices, d + 1);
    busyOnDevice_.assign(devices, 0);
}

LanePool::Lease LanePool::acquire(long batch) {
    std::unique_lock lock(m_);
    waiting_.insert(batch);
    auto freeLane = [&]() -> size_t { // the free lane on the least busy device, or size()
        size_t best = size();
        for (size_t l = 0; l < size(); ++l)
            if (!busy_[l] && (best == size() || busyOnDevice_[laneDevice_[l]] <
                                                    busyOnDevice_[laneDevice_[best]]))
                best = l;
        return best;
    };
    cv_.wait(lock, [&] { return *waiting_.begin() == batch && freeLane() < size(); });
    waiting_.erase(waiting_.find(batch));
    const size_t lane = freeLane();
    busy_[lane] = true;
    ++busyOnDevice_[laneDevice_[lane]];
    lock.unlock();
    cv_.notify_all(); // the next waiter may take another free lane
    return Lease(*this, lane);
}

size_t LanePool::waiting() {
    std::lock_guard lock(m_);
    return waiting_.size();
}

void LanePool::release(size_t lane) {
    {
        std::lock_guard lock(m_);
        busy_[lane] = false;
        --busyOnDevice_[laneDevice_[lane]];
    }
    cv_.notify_all();
}

} // namespace pw
