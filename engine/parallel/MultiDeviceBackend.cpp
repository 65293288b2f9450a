#include "MultiDeviceBackend.h"

#include "WorkSplit.h"
#include "core/InputError.h"
#include "core/PhaseTimings.h"
#include "dock/LigandDockScoring.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <future>
#include <mutex>
#include <string>
#include <thread>

namespace pw {
namespace {

// Runs chunks [0, chunks) on `devices` workers, each taking the next chunk when it is free; the
// first exception is rethrown after all workers stopped (the others stop taking chunks). While
// they run, a cancel of `parent` is passed on to each worker's own Progress.
class ChunkQueue {
public:
    ChunkQueue(size_t devices, size_t chunks, Progress* parent)
        : chunks_(chunks), parent_(parent), child_(devices) {}

    // work(device, chunk, progress): the chunk on that device with that device's Progress.
    template <class Work> void run(Work&& work) {
        std::vector<std::thread> workers;
        for (size_t d = 0; d < child_.size(); ++d)
            workers.emplace_back([&, d] {
                try {
                    for (size_t c; !failed_ && !cancelled() && (c = next_++) < chunks_;)
                        work(d, c, child_[d]);
                } catch (...) {
                    std::lock_guard lock(m_);
                    if (!error_)
                        error_ = std::current_exception();
                    failed_ = true;
                }
            });
        std::thread watcher;
        if (parent_)
            watcher = std::thread([&] { watchCancel(); });
        for (auto& w : workers)
            w.join();
        if (watcher.joinable()) {
            {
                std::lock_guard lock(m_);
                finished_ = true;
            }
            cv_.notify_all();
            watcher.join();
        }
        if (error_)
            std::rethrow_exception(error_);
    }
    bool cancelled() const { return parent_ && parent_->cancelled(); }

private:
    void watchCancel() {
        std::unique_lock lock(m_);
        while (!cv_.wait_for(lock, std::chrono::milliseconds(20), [&] { return finished_; }))
            if (parent_->cancelled())
                for (Progress& p : child_)
                    p.cancel.store(true, std::memory_order_relaxed);
    }

    size_t chunks_;
    Progress* parent_;
    std::vector<Progress> child_;
    std::atomic<size_t> next_{0};
    std::atomic<bool> failed_{false};
    std::mutex m_;
    std::condition_variable cv_;
    bool finished_ = false;
    std::exception_ptr error_;
};

// Sums the chunks' progress into the parent's (done over all chunks of the batch).
class ProgressSum {
public:
    ProgressSum(Progress* parent, size_t chunks, long total)
        : parent_(parent), done_(chunks, 0), total_(total) {}
    void set(size_t chunk, long done) {
        if (!parent_ || !parent_->onProgress)
            return;
        // Under the lock: the parent sees the sums in order, and the total once, last.
        std::lock_guard lock(m_);
        done_[chunk] = done;
        long sum = 0;
        for (long d : done_)
            sum += d;
        parent_->onProgress(std::min(sum, total_), total_);
    }

private:
    Progress* parent_;
    std::mutex m_;
    std::vector<long> done_;
    long total_;
};

// A device's Progress for one chunk: progress summed into the parent's, frames re-numbered to
// the item's place in the whole batch.
void wire(Progress& child, Progress* parent, ProgressSum& sum, size_t chunk, size_t offset) {
    child.onProgress = [&sum, chunk](long done, long) { sum.set(chunk, done); };
    child.onFrame = nullptr;
    if (parent && parent->onFrame)
        child.onFrame = [parent, offset](const ProgressFrame& f) {
            ProgressFrame g = f;
            g.item += int(offset);
            parent->onFrame(g);
        };
}

std::vector<double> workOf(const std::vector<Molecule>& ligands) {
    std::vector<double> work(ligands.size());
    for (size_t i = 0; i < ligands.size(); ++i)
        work[i] = ligandWork(ligands[i]);
    return work;
}

// Overlay fits split over the devices' prepared references.
class MultiOverlayBatch final : public OverlayBatch {
public:
    MultiOverlayBatch(std::vector<std::unique_ptr<OverlayBatch>> parts, int chunksPerDevice)
        : parts_(std::move(parts)), chunksPerDevice_(chunksPerDevice) {}

    BatchStatus overlay(const std::vector<shape::ShapeModel>& fits, bool scoreOnly,
                        std::vector<shape::ShapeScores>& results, Progress* progress) override {
        std::vector<double> work(fits.size());
        for (size_t i = 0; i < fits.size(); ++i)
            work[i] = double(std::max<size_t>(1, fits[i].positions.size()));
        const std::vector<WorkChunk> chunks =
            splitByWork(work, parts_.size() * size_t(chunksPerDevice_));
        results.assign(fits.size(), {});
        ProgressSum sum(progress, chunks.size(), long(fits.size()));
        std::atomic<long> done{0};
        std::vector<BatchTiming> timing(parts_.size());
        ChunkQueue queue(parts_.size(), chunks.size(), progress);
        queue.run([&](size_t d, size_t c, Progress& child) {
            const WorkChunk& w = chunks[c];
            wire(child, progress, sum, c, w.begin);
            const std::vector<shape::ShapeModel> part(fits.begin() + long(w.begin),
                                                      fits.begin() + long(w.end));
            std::vector<shape::ShapeScores> scores;
            const BatchStatus s = parts_[d]->overlay(part, scoreOnly, scores, progress ? &child : nullptr);
            std::move(scores.begin(), scores.end(), results.begin() + long(w.begin));
            done += s.done;
            const BatchTiming t = parts_[d]->lastTiming();
            timing[d].deviceSeconds += t.deviceSeconds;
            timing[d].hostSeconds += t.hostSeconds;
            timing[d].uploadSeconds += t.uploadSeconds;
        });
        // The devices work at once: the batch's device time is the busiest device's.
        timing_ = {};
        for (const BatchTiming& t : timing) {
            timing_.deviceSeconds = std::max(timing_.deviceSeconds, t.deviceSeconds);
            timing_.hostSeconds = std::max(timing_.hostSeconds, t.hostSeconds);
            timing_.uploadSeconds = std::max(timing_.uploadSeconds, t.uploadSeconds);
        }
        BatchStatus status;
        status.total = long(fits.size());
        status.done = done;
        status.cancelled = queue.cancelled() || done < status.total;
        return status;
    }
    BatchTiming lastTiming() const override { return timing_; }

private:
    std::vector<std::unique_ptr<OverlayBatch>> parts_;
    int chunksPerDevice_;
    BatchTiming timing_;
};

} // namespace

MultiDeviceBackend::MultiDeviceBackend(std::vector<std::unique_ptr<Backend>> devices,
                                       int chunksPerDevice)
    : devices_(std::move(devices)), chunksPerDevice_(std::max(1, chunksPerDevice)) {}

std::string MultiDeviceBackend::description() const {
    std::string d = std::to_string(devices_.size()) + " devices: ";
    for (size_t i = 0; i < devices_.size(); ++i)
        d += (i ? "; " : "") + devices_[i]->description();
    return d;
}

bool MultiDeviceBackend::isGpu() const {
    return std::all_of(devices_.begin(), devices_.end(), [](const auto& b) { return b->isGpu(); });
}

// The pieces of a minimize batch: a GPU is kept busy by a few thousand poses per batch (the
// minimize command's chunk is 8,192 per device): the queue's finer cut applies only where each
// piece keeps that size, else each device gets one share (a 16,384-pose chunk on two GPUs: two
// halves, not six pieces of 2,730 that each leave the GPU half idle).
std::vector<WorkChunk> MultiDeviceBackend::minimizePieces(const std::vector<Molecule>& ligands) const {
    constexpr size_t kMinPosesPerPiece = 8192;
    const size_t parts = std::max(devices_.size(),
                                  std::min(devices_.size() * size_t(chunksPerDevice_),
                                           ligands.size() / kMinPosesPerPiece));
    return splitByWork(workOf(ligands), parts);
}

void MultiDeviceBackend::minimize(const DockingTarget& target, const std::vector<Molecule>& ligands,
                                  const MinimizeBatchOptions& options,
                                  std::vector<RefinementResult>& results, Progress* progress) {
    // One copy of the batch, lent piece by piece (the same work as a copy per piece).
    std::vector<Molecule> copy(ligands);
    minimizeLent(target, copy, options, results, progress);
}

void MultiDeviceBackend::minimizeLent(const DockingTarget& target, std::vector<Molecule>& ligands,
                                      const MinimizeBatchOptions& options,
                                      std::vector<RefinementResult>& results, Progress* progress) {
    PhaseTimer piecesTimer(options.timings, "pieces", "split");
    const std::vector<WorkChunk> chunks = minimizePieces(ligands);
    piecesTimer.stop();
    // The batch's results are made (672 bytes each: 1.3 GB for 2,000,000 poses, one thread, and
    // the previous batch's freed) while the devices minimize their first pieces; a worker waits
    // for them only to move a finished piece in.
    const size_t n = ligands.size();
    std::shared_future<void> sized =
        std::async(std::launch::async, [&results, n, timings = options.timings] {
            PhaseTimer timer(timings, "make_results", "split");
            results.assign(n, {});
        }).share();
    struct WaitForSizing { // also when a device throws: `results` is not touched after return
        std::shared_future<void>& f;
        ~WaitForSizing() { f.wait(); }
    } waitForSizing{sized};
    // Each device's piece results, in two buffers kept from piece to piece (their memory is
    // reused, not faulted in again for every piece): a finished piece is moved into the batch's
    // results on a thread of its own while the device minimizes its next piece into the other
    // buffer (the move of 333,000 results is ~0.1 s that the GPU would otherwise wait for).
    struct PieceResults {
        std::vector<RefinementResult> out[2];
        std::future<void> moving[2]; // after `out`: destroyed (waited for) first
        int next = 0;
    };
    std::vector<PieceResults> outs(devices_.size());
    ProgressSum sum(progress, chunks.size(), long(n));
    ChunkQueue queue(devices_.size(), chunks.size(), progress);
    queue.run([&](size_t d, size_t c, Progress& child) {
        const WorkChunk& w = chunks[c];
        wire(child, progress, sum, c, w.begin);
        // Each worker moves its own range (distinct elements of `ligands`), and back in the
        // destructor: also when the device throws.
        struct Lent {
            std::vector<Molecule>& from;
            const WorkChunk& w;
            std::vector<Molecule> part;
            Lent(std::vector<Molecule>& f, const WorkChunk& c)
                : from(f), w(c),
                  part(std::make_move_iterator(f.begin() + long(c.begin)),
                       std::make_move_iterator(f.begin() + long(c.end))) {}
            ~Lent() { std::move(part.begin(), part.end(), from.begin() + long(w.begin)); }
        } lent(ligands, w);
        PieceResults& mine = outs[d];
        const int b = mine.next;
        mine.next ^= 1;
        if (mine.moving[b].valid())
            mine.moving[b].get(); // the piece before last is in place: its buffer is free
        std::vector<RefinementResult>& out = mine.out[b];
        devices_[d]->minimize(target, lent.part, options, out, progress ? &child : nullptr);
        sized.get(); // rethrows a failed sizing (out of memory) in this worker
        mine.moving[b] = std::async(std::launch::async, [&out, &results, begin = w.begin] {
            std::move(out.begin(), out.end(), results.begin() + long(begin));
        });
    });
    for (PieceResults& p : outs)
        for (std::future<void>& m : p.moving)
            if (m.valid())
                m.get();
    sized.get();
}

void MultiDeviceBackend::scoreExact(const DockingTarget& target,
                                    const std::vector<Molecule>& ligands,
                                    std::vector<VinaScore>& results) {
    const std::vector<WorkChunk> chunks =
        splitByWork(workOf(ligands), devices_.size() * size_t(chunksPerDevice_));
    results.assign(ligands.size(), {});
    ChunkQueue queue(devices_.size(), chunks.size(), nullptr);
    queue.run([&](size_t d, size_t c, Progress&) {
        const WorkChunk& w = chunks[c];
        const std::vector<Molecule> part(ligands.begin() + long(w.begin),
                                         ligands.begin() + long(w.end));
        std::vector<VinaScore> out;
        devices_[d]->scoreExact(target, part, out);
        std::move(out.begin(), out.end(), results.begin() + long(w.begin));
    });
}

BatchStatus MultiDeviceBackend::dock(const dock::DockTarget& target,
                                     const std::vector<Molecule>& ligands,
                                     const dock::DockOptions& options,
                                     std::vector<dock::LigandDockResult>& results,
                                     Progress* progress, const Molecule* reference,
                                     dock::LigandKeys keys) {
    // The Vina grid readied for the whole batch here, once: each lane's batch start asks for
    // its ligands' types (DockingTarget::gridFor), which must then find them all and only read.
    std::vector<Molecule> dockable;
    for (const Molecule& m : ligands) {
        try {
            dock::checkDockable(m, target.box);
            dockable.push_back(m);
        } catch (const InputError&) {
            // refused again, with its message, by the lane that gets it
        }
    }
    dock::prepareTargetFor(target, dockable);

    readyDockLanes();
    const std::vector<Backend*>& lanes = dockLanes_;
    const std::vector<std::string>& laneSuffix = dockLaneSuffix_;
    const long batchNumber = dockBatches_++;

    // Chunks of equal estimated work (budget included), handed out longest first.
    std::vector<double> work(ligands.size());
    for (size_t i = 0; i < ligands.size(); ++i)
        work[i] = dockWork(ligands[i], options);
    const long totalRuns = long(ligands.size()) * std::max(options.runs, 1);
    const size_t parts =
        std::clamp<size_t>(size_t(totalRuns / std::max(1L, dockMinRunsPerChunk_)), lanes.size(),
                           lanes.size() * size_t(dockChunksPerLane_));
    const std::vector<WorkChunk> cut = splitByWork(work, parts);
    std::vector<WorkChunk> chunks;
    for (size_t c : longestFirst(cut, work))
        chunks.push_back(cut[c]);

    results.assign(ligands.size(), {});
    // Progress in runs (as the engines report it).
    ProgressSum sum(progress, chunks.size(), long(ligands.size()) * options.runs);
    std::atomic<long> done{0}, total{0};
    std::atomic<bool> cancelled{false};
    // An extra lane's timings are collected apart and added under its own group at the end.
    std::vector<PhaseTimings> laneTimings(lanes.size());
    ChunkQueue queue(lanes.size(), chunks.size(), progress);
    queue.run([&](size_t, size_t c, Progress& child) {
        const WorkChunk& w = chunks[c];
        wire(child, progress, sum, c, w.begin);
        const LanePool::Lease lease = lanePool_->acquire(batchNumber);
        const size_t l = lease.lane();
        const std::vector<Molecule> part(ligands.begin() + long(w.begin),
                                         ligands.begin() + long(w.end));
        std::vector<dock::LigandDockResult> out;
        dock::DockOptions o = options;
        if (o.timings && !laneSuffix[l].empty())
            o.timings = &laneTimings[l];
        // The chunk's ligands keep their indices in the input: the same random streams.
        const BatchStatus s = lanes[l]->dock(target, part, o, out, progress ? &child : nullptr,
                                             reference, keys.from(w.begin));
        std::move(out.begin(), out.end(), results.begin() + long(w.begin));
        done += s.done, total += s.total;
        if (s.cancelled)
            cancelled = true;
    });
    if (options.timings)
        for (size_t l = 0; l < lanes.size(); ++l)
            for (const PhaseTimings::Entry& e : laneTimings[l].entries())
                options.timings->add(e.phase, e.seconds,
                                     (e.group.empty() ? std::string("lane") : e.group) +
                                         laneSuffix[l]);
    BatchStatus status;
    status.done = done;
    status.total = total;
    status.cancelled = cancelled || queue.cancelled();
    // Chunks never started (a cancel) leave default results: name them as cancelled.
    for (size_t i = 0; i < results.size(); ++i)
        if (results[i].runs.empty() && results[i].error.empty() && status.cancelled) {
            results[i].ligand = int(keys[i]);
            results[i].name = ligands[i].name;
            results[i].cancelled = true;
        }
    return status;
}

void MultiDeviceBackend::readyDockLanes() {
    std::lock_guard lock(lanesMutex_);
    if (makeLane_) { // the factory's lanes, once
        for (size_t d = 0; d < devices_.size(); ++d)
            for (int k = 1; k < factoryLanes_; ++k)
                addDockLane(d, makeLane_(d));
        makeLane_ = nullptr;
    }
    if (lanePool_ && lanePool_->size() == dockLaneCount())
        return;
    dockLanes_.clear();
    dockLaneSuffix_.clear();
    std::vector<size_t> laneDevice;
    for (size_t d = 0; d < devices_.size(); ++d) {
        dockLanes_.push_back(devices_[d].get());
        dockLaneSuffix_.emplace_back();
        laneDevice.push_back(d);
    }
    std::vector<int> lanesOf(devices_.size(), 1);
    for (Lane& l : extraLanes_) {
        dockLanes_.push_back(l.backend.get());
        dockLaneSuffix_.push_back(" lane " + std::to_string(++lanesOf[l.device]));
        laneDevice.push_back(l.device);
    }
    lanePool_ = std::make_unique<LanePool>(std::move(laneDevice));
}

void MultiDeviceBackend::addDockLane(size_t device, std::unique_ptr<Backend> lane) {
    if (device < devices_.size() && lane)
        extraLanes_.push_back({device, std::move(lane)});
}

void MultiDeviceBackend::setDockLaneFactory(
    int lanesPerDevice, std::function<std::unique_ptr<Backend>(size_t device)> make) {
    factoryLanes_ = std::max(1, lanesPerDevice);
    makeLane_ = std::move(make);
}

void MultiDeviceBackend::setDockChunking(long minRunsPerChunk, int chunksPerLane) {
    dockMinRunsPerChunk_ = std::max(1L, minRunsPerChunk);
    dockChunksPerLane_ = std::max(1, chunksPerLane);
}

std::unique_ptr<OverlayBatch> MultiDeviceBackend::prepareOverlay(const shape::ShapeModel& reference,
                                                                 const shape::OverlayOptions& options) {
    std::vector<std::unique_ptr<OverlayBatch>> parts;
    for (auto& d : devices_)
        parts.push_back(d->prepareOverlay(reference, options));
    return std::make_unique<MultiOverlayBatch>(std::move(parts), chunksPerDevice_);
}

std::unique_ptr<LingoComparison> MultiDeviceBackend::prepareLingo(const lingo::LingoSet& queries,
                                                                  const lingo::LingoSet& database,
                                                                  bool allVsAll) {
    // A LINGO search is memory-bound and takes seconds for millions of pairs on one GPU; it is
    // not split (yet): the first device runs it.
    return devices_.front()->prepareLingo(queries, database, allVsAll);
}

int backendDeviceCount(const Backend& backend) {
    const auto* multi = dynamic_cast<const MultiDeviceBackend*>(&backend);
    return multi ? multi->deviceCount() : 1;
}

std::vector<Backend*> deviceBackends(Backend& backend) {
    auto* multi = dynamic_cast<MultiDeviceBackend*>(&backend);
    if (!multi)
        return {&backend};
    std::vector<Backend*> out;
    for (int d = 0; d < multi->deviceCount(); ++d)
        out.push_back(&multi->device(size_t(d)));
    return out;
}

void minimizeBatch(Backend& backend, const DockingTarget& target, std::vector<Molecule>& ligands,
                   const MinimizeBatchOptions& options, std::vector<RefinementResult>& results,
                   Progress* progress) {
    if (auto* multi = dynamic_cast<MultiDeviceBackend*>(&backend))
        multi->minimizeLent(target, ligands, options, results, progress);
    else
        backend.minimize(target, ligands, options, results, progress);
}

} // namespace pw
