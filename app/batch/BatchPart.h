// BatchPart: the batch refinement workflow: Refine > Refine all ligands minimizes every loaded
// ligand's pose in one batch through the Backend the Device setting chooses (ARCHITECTURE §3), on
// a worker thread with done/total and cancel; the results land as one undo step and the list
// re-ranks.
#pragma once

#include "BatchRefineJob.h"
#include "parts/WorkflowPart.h"

#include <memory>

class QAction;

namespace pw {

class BatchPart : public WorkflowPart {
    Q_OBJECT
public:
    ~BatchPart() override;
    QString name() const override { return QStringLiteral("batch"); }
    void install(PartContext& context) override;
    // "refine-all": every loaded ligand, as Refine > Refine all ligands.
    bool runStep(const QString& step, const std::function<void(bool ok)>& done) override;

    // Minimizes every loaded ligand's pose in one batch on the Device setting's backend (CPU
    // or GPU), on a worker thread with progress; one undo step. No per-step frames.
    void refineAll();
    bool running() const { return job_ != nullptr; }
    QAction* refineAllAction() const { return refineAllAction_; }

signals:
    // ok: the refined poses are in the document; false: cancelled, failed or dropped.
    void batchRefinementFinished(bool ok);

private:
    void start();
    void onProgress(long done, long total);
    void onFinished(const BatchRefineResult& result);
    void updateDeviceTips();

    PartContext* context_ = nullptr;
    QAction* refineAllAction_ = nullptr;
    std::unique_ptr<BatchRefineJob> job_;
    int jobId_ = 0;                              // the JobRunner's id of the running batch
    std::shared_ptr<const ScoringTarget> ranOn_; // what the batch ran on
    int ligandsGeneration_ = 0;                  // the document's ligandsGeneration() at its start
};

} // namespace pw
