#include "BatchRefineJob.h"

#include "PostToGui.h"
#include "backend/DeviceSelection.h"
#include "chem/LigandPreparation.h"
#include "core/InputError.h"
#include "core/ParallelFor.h"

#include <QPointer>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <chrono>
#include <exception>
#include <optional>

namespace pw {
namespace {

constexpr std::chrono::milliseconds kMinProgressInterval{16}; // one 60 Hz display refresh

QString ligandLabel(const Molecule& m, size_t i) {
    return m.name.empty() ? QStringLiteral("ligand %1").arg(i + 1) : QString::fromStdString(m.name);
}

} // namespace

BatchRefineResult runBatchRefinement(const ScoringTarget& target,
                                     const std::vector<Molecule>& ligands, const QString& device,
                                     int cpuThreads, Progress* progress) {
    BatchRefineResult out;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        std::string note;
        std::unique_ptr<Backend> backend =
            createBackend(parseDeviceRequest(device.toStdString()), cpuThreads, note);
        out.device = QString::fromStdString(backend->description());
        out.note = QString::fromStdString(note);

        // The same preparation as runMinimization (hydrogens, types, torsion tree), in parallel:
        // RDKit's share of a batch is not small.
        std::vector<std::optional<Molecule>> prepared(ligands.size());
        std::vector<std::string> errors(ligands.size());
        parallelFor(static_cast<long>(ligands.size()), std::max(1, cpuThreads), [&](long i) {
            if (progress && progress->cancelled())
                return;
            try {
                prepared[static_cast<size_t>(i)] = prepareLigand(ligands[static_cast<size_t>(i)]);
            } catch (const std::exception& e) {
                errors[static_cast<size_t>(i)] = e.what();
            }
        });
        if (progress && progress->cancelled()) {
            out.cancelled = true;
            return out;
        }
        for (size_t i = 0; i < ligands.size(); ++i) {
            if (prepared[i]) {
                out.indices.push_back(static_cast<int>(i));
                out.ligands.push_back(std::move(*prepared[i]));
            } else {
                out.skipped << QStringLiteral("%1: %2").arg(ligandLabel(ligands[i], i),
                                                            QString::fromStdString(errors[i]));
            }
        }
        MinimizeBatchOptions options;
        options.refinement = appRefinementOptions(); // exactly what "Minimize pose" runs
        options.exact = false;                       // moved on the grid, reported exactly
        backend->minimize(*target.target, out.ligands, options, out.results, progress);
        if (progress && progress->cancelled())
            out.cancelled = true;
        for (size_t k = 0; k < out.ligands.size() && k < out.results.size(); ++k) {
            Molecule& m = out.ligands[k];
            const std::vector<Vec3>& c = out.results[k].coordinates;
            for (size_t a = 0; a < m.atoms.size() && a < c.size(); ++a)
                m.atoms[a].position = c[a];
        }
    } catch (const std::exception& e) {
        out.error = QString::fromStdString(e.what());
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

BatchRefineJob::BatchRefineJob(std::shared_ptr<const ScoringTarget> target,
                               std::vector<Molecule> ligands, QString device, int cpuThreads,
                               QObject* parent)
    : QObject(parent), target_(std::move(target)), ligands_(std::move(ligands)),
      device_(std::move(device)), cpuThreads_(cpuThreads), progress_(std::make_shared<Progress>()) {
    qRegisterMetaType<BatchRefineResult>();
}

BatchRefineJob::~BatchRefineJob() {
    progress_->cancel.store(true);
    future_.waitForFinished();
}

void BatchRefineJob::cancel() {
    progress_->cancel.store(true);
}

void BatchRefineJob::start() {
    running_ = true;
    QPointer<BatchRefineJob> self(this);
    auto target = target_;
    auto progress = progress_;
    auto lastPosted = std::make_shared<std::atomic<long long>>(0);
    // Called from the backend's worker threads: post at most one update per display refresh
    // (plus the last), so that thousands of poses never flood the GUI thread.
    progress->onProgress = [self, lastPosted](long done, long total) {
        const long long now = std::chrono::duration_cast<std::chrono::milliseconds>(
                                  std::chrono::steady_clock::now().time_since_epoch())
                                  .count();
        long long last = lastPosted->load();
        if (done < total && (now - last < kMinProgressInterval.count() ||
                             !lastPosted->compare_exchange_strong(last, now)))
            return;
        postToGui(self, [done, total](BatchRefineJob& job) { emit job.progress(done, total); });
    };
    future_ = QtConcurrent::run(
        [self, target, progress, ligands = ligands_, device = device_, threads = cpuThreads_] {
            BatchRefineResult result =
                runBatchRefinement(*target, ligands, device, threads, progress.get());
            postToGui(self, [result = std::move(result)](BatchRefineJob& job) {
                job.running_ = false;
                emit job.finished(result);
            });
        });
}

} // namespace pw
