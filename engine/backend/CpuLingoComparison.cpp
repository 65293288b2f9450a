// The CPU reference LINGO comparison behind the Backend: lingo::similarityRows for matrix rows;
// searches one query row at a time per thread (the row's similarities, then lingo::selectHits),
// which is lingo::search's result with a progress report and a cancel check per row, and memory
// bounded by one database row per thread.
#include "CpuBatches.h"

#include "core/ParallelFor.h"

#include <atomic>
#include <chrono>

namespace pw {
namespace {

class CpuLingoComparison final : public LingoComparison {
public:
    CpuLingoComparison(const lingo::LingoSet& queries, const lingo::LingoSet& database, int threads)
        : q_(queries), db_(database), threads_(lingo::resolveThreads(threads)) {}

    void similarityRows(size_t r0, size_t r1, float* out) override {
        const auto t0 = std::chrono::steady_clock::now();
        lingo::similarityRows(q_, db_, r0, r1, out, threads_);
        timing_.deviceSeconds = since(t0);
    }

    BatchStatus search(const lingo::SearchOptions& options, lingo::HitLists& hits,
                       Progress* progress) override {
        const auto t0 = std::chrono::steady_clock::now();
        hits.assign(q_.size(), {});
        BatchStatus status;
        status.total = long(q_.size());
        // Progress about a thousand times per search at most: cheap for the caller's callback.
        const long every = std::max<long>(1, status.total / 1000);
        std::atomic<long> done{0};
        std::atomic<bool> stopped{false};
        const size_t n = db_.size();
        parallelFor(status.total, threads_, [&](long r) {
            if (progress && progress->cancelled()) {
                stopped = true;
                return;
            }
            thread_local std::vector<float> row;
            row.resize(n);
            lingo::similarityRows(q_, db_, size_t(r), size_t(r) + 1, row.data(), 1);
            lingo::selectHits(row.data(), n, size_t(r), options, hits[r]);
            const long d = ++done;
            if (progress && progress->onProgress && (d % every == 0 || d == status.total))
                progress->onProgress(d, status.total);
        });
        status.done = done;
        status.cancelled = stopped;
        timing_.deviceSeconds = since(t0);
        return status;
    }

    BatchTiming lastTiming() const override { return timing_; }

private:
    static double since(std::chrono::steady_clock::time_point t0) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    const lingo::LingoSet& q_;
    const lingo::LingoSet& db_;
    int threads_;
    BatchTiming timing_;
};

} // namespace

std::unique_ptr<LingoComparison> makeCpuLingoComparison(const lingo::LingoSet& queries,
                                                        const lingo::LingoSet& database,
                                                        int threads) {
    return std::make_unique<CpuLingoComparison>(queries, database, threads);
}

} // namespace pw
