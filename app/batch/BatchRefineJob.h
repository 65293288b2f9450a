// BatchRefineJob: minimizes every loaded ligand's pose in one batch through the Backend chosen
// by the Device setting (CPU reference or CUDA), on a worker thread, with done/total and cancel.
#pragma once

#include "ScoringTarget.h"
#include "core/Progress.h"
#include "minimize/PoseRefinement.h"

#include <QFuture>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace pw {

struct BatchRefineResult {
    // Parallel arrays over the ligands that were minimized, in input order.
    std::vector<int> indices;      // positions in the input list
    std::vector<Molecule> ligands; // prepared, at the minimized coordinates
    std::vector<RefinementResult> results;
    QStringList skipped; // one message per ligand that could not be prepared
    QString device;      // the backend that ran it: "CPU (2 threads)", "CUDA 0: ..."
    QString note;        // createBackend's line (why a GPU request fell back to the CPU)
    double seconds = 0;  // preparation and minimization, wall time
    bool cancelled = false;
    QString error; // the whole batch failed (bad device string, backend error)
    bool ok() const { return error.isEmpty() && !cancelled; }
};

// Runs the batch now (on the calling thread): prepares every ligand as the single-pose
// minimization does, then Backend::minimize with the same options (appRefinementOptions) on the
// target's grid. device: "auto", "cpu", "cuda", "cuda:N". progress may be null.
BatchRefineResult runBatchRefinement(const ScoringTarget& target,
                                     const std::vector<Molecule>& ligands, const QString& device,
                                     int cpuThreads, Progress* progress);

class BatchRefineJob : public QObject {
    Q_OBJECT
public:
    BatchRefineJob(std::shared_ptr<const ScoringTarget> target, std::vector<Molecule> ligands,
                   QString device, int cpuThreads, QObject* parent = nullptr);
    ~BatchRefineJob() override; // cancels and waits: the worker never outlives its job

    void start();
    void cancel();
    bool running() const { return running_; }

signals:
    // Ligands minimized so far (at most one signal per display refresh, and the last one).
    void progress(long done, long total);
    void finished(const pw::BatchRefineResult& result);

private:
    std::shared_ptr<const ScoringTarget> target_;
    std::vector<Molecule> ligands_;
    QString device_;
    int cpuThreads_;
    std::shared_ptr<Progress> progress_;
    QFuture<void> future_;
    bool running_ = false;
};

} // namespace pw

Q_DECLARE_METATYPE(pw::BatchRefineResult)
