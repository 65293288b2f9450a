// MultiDeviceBackend: one Backend over several devices (`--device cuda:all`, `cuda:0,2`): a batch
// is cut into contiguous chunks of about equal work (WorkSplit), one worker thread per device
// takes chunks from a shared queue and runs them on its device's backend (its own streams), and
// the results land at their place in the batch. Every result depends only on its own item (the
// docking random streams are keyed by the ligand's index in the input, passed on as
// dock::LigandKeys), so the output is the one device's output whatever the split and the timing.
// Shape overlay is split the same way; LINGO runs on the first device. Docking is cut into
// contiguous chunks of equal estimated docking work (WorkSplit's dockWork: the budget grows with
// the torsions), each large enough to fill a GPU, handed out longest first (the chunk holding
// the heaviest ligand first: a launch lasts as long as its longest run) to "lanes": each device's
// backend, plus any second backend on the same device (addDockLane), so that a device runs two
// launches at once and one launch's long runs leave no SM idle while the other's fill them.
// dock() may be called from several threads at once (a command's next batch queued behind the
// one docking now): their chunks share the lanes (LanePool), the oldest batch first.
#pragma once

#include "LanePool.h"
#include "WorkSplit.h"
#include "backend/Backend.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace pw {

class MultiDeviceBackend final : public Backend {
public:
    // chunksPerDevice: how finely a batch is cut for the shared queue (more: better balance on
    // uneven work, smaller launches).
    explicit MultiDeviceBackend(std::vector<std::unique_ptr<Backend>> devices,
                                int chunksPerDevice = 3);

    // A further backend on the same device as the device'th, used for docking only: the device
    // runs one launch per lane at a time. (Not while a dock() runs.) Its phase timings go to the group "<its group> lane K"
    // (K from 2), so that each group's phases still never overlap.
    void addDockLane(size_t device, std::unique_ptr<Backend> lane);
    // Lanes made at the first docking batch (a command that never docks pays nothing for
    // them): lanesPerDevice - 1 more per device, from make(device) (null: none for that one).
    void setDockLaneFactory(int lanesPerDevice,
                            std::function<std::unique_ptr<Backend>(size_t device)> make);
    // How docking is cut: chunks of at least minRunsPerChunk runs (ligands x runs), at most
    // chunksPerLane per lane, at least one per lane.
    void setDockChunking(long minRunsPerChunk, int chunksPerLane);
    size_t dockLaneCount() const { return devices_.size() + extraLanes_.size(); } // made so far

    std::string description() const override;
    bool isGpu() const override;
    int deviceCount() const { return int(devices_.size()); }
    Backend& device(size_t d) { return *devices_[d]; }

    void minimize(const DockingTarget& target, const std::vector<Molecule>& ligands,
                  const MinimizeBatchOptions& options, std::vector<RefinementResult>& results,
                  Progress* progress = nullptr) override;
    // minimize() with the ligands lent rather than copied: each device's piece is moved out of
    // `ligands` into its own vector and moved back once the device is done (also on an error
    // or a cancel), so `ligands` holds the same molecules on return. A Molecule costs ~5 us to
    // copy (and as much to free): 2,000,000 poses copied into the pieces cost more host time
    // than a GPU's share of the minimization (tests/bench/RESULTS.md, helper scale2).
    void minimizeLent(const DockingTarget& target, std::vector<Molecule>& ligands,
                      const MinimizeBatchOptions& options, std::vector<RefinementResult>& results,
                      Progress* progress = nullptr);
    // Exact scoring split like minimize: each device scores its chunks (the pair kernel on a GPU).
    void scoreExact(const DockingTarget& target, const std::vector<Molecule>& ligands,
                    std::vector<VinaScore>& results) override;
    BatchStatus dock(const dock::DockTarget& target, const std::vector<Molecule>& ligands,
                     const dock::DockOptions& options, std::vector<dock::LigandDockResult>& results,
                     Progress* progress = nullptr, const Molecule* reference = nullptr,
                     dock::LigandKeys keys = 0) override;
    std::unique_ptr<OverlayBatch> prepareOverlay(const shape::ShapeModel& reference,
                                                 const shape::OverlayOptions& options) override;
    std::unique_ptr<LingoComparison> prepareLingo(const lingo::LingoSet& queries,
                                                  const lingo::LingoSet& database,
                                                  bool allVsAll) override;

private:
    std::vector<WorkChunk> minimizePieces(const std::vector<Molecule>& ligands) const;
    // The docking lanes (each device's backend, then the extra ones) and their pool, made or
    // remade when the lanes changed; under lanesMutex_.
    void readyDockLanes();


    std::vector<std::unique_ptr<Backend>> devices_;
    int chunksPerDevice_;
    struct Lane {
        size_t device;
        std::unique_ptr<Backend> backend;
    };
    std::vector<Lane> extraLanes_;
    int factoryLanes_ = 1;
    std::function<std::unique_ptr<Backend>(size_t device)> makeLane_;
    // Four waves of an H100 (132 SMs, one run per block, one block per SM): a launch's tail,
    // its last and shortest runs, stays a small part of it.
    // Up to 8 per lane: the lanes of a batch drain at its end, and smaller last chunks leave a
    // shorter wait (the other lane of a GPU fills a chunk's own tail).
    long dockMinRunsPerChunk_ = 4 * 132;
    int dockChunksPerLane_ = 8;
    std::mutex lanesMutex_;
    std::vector<Backend*> dockLanes_;
    std::vector<std::string> dockLaneSuffix_; // "" or " lane K": the lane's timings group
    std::unique_ptr<LanePool> lanePool_;
    std::atomic<long> dockBatches_{0}; // numbers the dock() calls: the pool's order
};

// The number of devices behind a backend (1 unless it is a MultiDeviceBackend): commands scale
// their batch sizes with it so that every device gets a full batch.
int backendDeviceCount(const Backend& backend);

// The backend of each device (a MultiDeviceBackend's devices; else the backend itself): a command
// that keeps its own queue of batches runs one worker per device on these.
std::vector<Backend*> deviceBackends(Backend& backend);

// backend.minimize(...), through MultiDeviceBackend::minimizeLent where the backend has several
// devices (no copy of the ligands); `ligands` holds the same molecules on return.
void minimizeBatch(Backend& backend, const DockingTarget& target, std::vector<Molecule>& ligands,
                   const MinimizeBatchOptions& options, std::vector<RefinementResult>& results,
                   Progress* progress = nullptr);

} // namespace pw
