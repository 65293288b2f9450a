// LanePool: the docking lanes of a MultiDeviceBackend, shared by docking batches that run at the
// same time (a command hands over its next batch while the last chunks of the one before still
// run, so that no lane waits at a batch's end). A chunk runs on a lane it holds alone; a free
// lane goes to the oldest batch that waits for one (batches finish in the order they came), and
// of the free lanes, to one on the device with the fewest busy lanes (two chunks in flight on
// two GPUs, not both on one).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <set>
#include <vector>

namespace pw {

class LanePool {
public:
    // laneDevice[l]: the device lane l runs on.
    explicit LanePool(std::vector<size_t> laneDevice);
    size_t size() const { return laneDevice_.size(); }

    // A lane held until the lease ends.
    class Lease {
    public:
        Lease(LanePool& pool, size_t lane) : pool_(&pool), lane_(lane) {}
        Lease(Lease&& o) noexcept : pool_(o.pool_), lane_(o.lane_) { o.pool_ = nullptr; }
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        Lease& operator=(Lease&&) = delete;
        ~Lease() {
            if (pool_)
                pool_->release(lane_);
        }
        size_t lane() const { return lane_; }

    private:
        LanePool* pool_;
        size_t lane_;
    };

    // Waits until a lane is free and no older batch (smaller number) waits for one.
    Lease acquire(long batch);
    // How many acquire() calls wait now.
    size_t waiting();

private:
    void release(size_t lane);

    std::vector<size_t> laneDevice_;
    std::mutex m_;
    std::condition_variable cv_;
    std::vector<bool> busy_;
    std::vector<int> busyOnDevice_;
    std::multiset<long> waiting_;
};

} // namespace pw
