// The CPU backend: each worker thread takes the next ligand (fit, query); results land in input
// order.
#include "Backend.h"
#include "CpuBatches.h"

#include "core/ParallelFor.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <stdexcept>
#include <thread>

namespace pw {
namespace {

class CpuBackend final : public Backend {
public:
    explicit CpuBackend(int threads)
        : threads_(threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency())) {}

    std::string description() const override {
        return "CPU (" + std::to_string(threads_) + (threads_ == 1 ? " thread)" : " threads)");
    }
    bool isGpu() const override { return false; }

    void minimize(const DockingTarget& target, const std::vector<Molecule>& ligands,
                  const MinimizeBatchOptions& options, std::vector<RefinementResult>& results,
                  Progress* progress) override {
        if (options.flex)
            throw std::invalid_argument("the CPU backend minimizes flexible side chains through "
                                        "refineWithFlex (minimize/FlexRefinement.h), not a batch");
        PhaseTimer timer(options.timings, "minimize_and_rescore", "cpu");
        results.assign(ligands.size(), {});
        std::atomic<long> done{0};
        const long total = static_cast<long>(ligands.size());
        parallelFor(total, threads_, [&](long i) {
            const Molecule& lig = ligands[i];
            LigandScorer exact(lig, target.scoring(), target.receptor());
            RefinementOptions ro = options.refinement;
            if (progress)
                ro.minimize.cancel = &progress->cancel;
            const bool onGrid = !options.exact && target.grid();
            // The grid scorer's set-up (the ligand's typing again) is paid only when it is used.
            std::optional<LigandScorer> grid;
            if (onGrid)
                grid.emplace(lig, target.scoring(), target.receptor(), target.grid());
            results[i] = refinePose(lig, onGrid ? *grid : exact,
                                    onGrid && options.gridReport ? *grid : exact, ro);
            const long d = ++done;
            if (progress && progress->onProgress)
                progress->onProgress(d, total);
        });
    }

    void scoreExact(const DockingTarget& target, const std::vector<Molecule>& ligands,
                    std::vector<VinaScore>& results) override {
        results.assign(ligands.size(), {});
        parallelFor(static_cast<long>(ligands.size()), threads_,
                    [&](long i) { results[i] = scoreExactOne(target, ligands[i]); });
    }

    BatchStatus dock(const dock::DockTarget& target, const std::vector<Molecule>& ligands,
                     const dock::DockOptions& options, std::vector<dock::LigandDockResult>& results,
                     Progress* progress, const Molecule* reference,
                     dock::LigandKeys keys) override {
        dock::DockOptions o = options;
        if (o.threads <= 0)
            o.threads = threads_;
        return dock::dockLigands(target, ligands, o, results, progress, reference, keys);
    }

    std::unique_ptr<OverlayBatch> prepareOverlay(const shape::ShapeModel& reference,
                                                 const shape::OverlayOptions& options) override {
        return makeCpuOverlayBatch(reference, options, threads_);
    }

    std::unique_ptr<LingoComparison> prepareLingo(const lingo::LingoSet& queries,
                                                  const lingo::LingoSet& database, bool) override {
        return makeCpuLingoComparison(queries, database, threads_);
    }

private:
    int threads_;
};

} // namespace

std::unique_ptr<Backend> makeCpuBackend(int threads) {
    return std::make_unique<CpuBackend>(threads);
}

} // namespace pw
