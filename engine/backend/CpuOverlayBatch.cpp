// The CPU reference overlay behind the Backend: shape::ShapeOverlay's per-fit functions (the
// ones its overlayAll runs), one fit per thread, with progress per fit and a cancel check
// before each fit.
#include "CpuBatches.h"

#include "core/ParallelFor.h"

#include <atomic>
#include <chrono>
#include <thread>

namespace pw {
namespace {

class CpuOverlayBatch final : public OverlayBatch {
public:
    CpuOverlayBatch(const shape::ShapeModel& reference, const shape::OverlayOptions& options,
                    int threads)
        : overlay_(reference, options),
          threads_(threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()))) {
    }

    BatchStatus overlay(const std::vector<shape::ShapeModel>& fits, bool scoreOnly,
                        std::vector<shape::ShapeScores>& results, Progress* progress) override {
        const auto t0 = std::chrono::steady_clock::now();
        results.assign(fits.size(), {});
        BatchStatus status;
        status.total = long(fits.size());
        std::atomic<long> done{0};
        std::atomic<bool> stopped{false};
        parallelFor(status.total, threads_, [&](long i) {
            if (progress && progress->cancelled()) {
                stopped = true;
                return;
            }
            results[i] = scoreOnly ? overlay_.scoreAsGiven(fits[i]) : overlay_.overlay(fits[i]);
            const long d = ++done;
            if (progress && progress->onProgress)
                progress->onProgress(d, status.total);
        });
        status.done = done;
        status.cancelled = stopped;
        timing_ = {};
        timing_.deviceSeconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return status;
    }

    BatchTiming lastTiming() const override { return timing_; }

private:
    shape::ShapeOverlay overlay_;
    int threads_;
    BatchTiming timing_;
};

} // namespace

std::unique_ptr<OverlayBatch> makeCpuOverlayBatch(const shape::ShapeModel& reference,
                                                  const shape::OverlayOptions& options,
                                                  int threads) {
    return std::make_unique<CpuOverlayBatch>(reference, options, threads);
}

} // namespace pw
