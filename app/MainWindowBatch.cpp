// MainWindow's batch refinement: Refine > Refine all ligands minimizes every loaded ligand's pose
// in one batch through the Backend the Device setting chooses (ARCHITECTURE.md §3), on a worker
// thread with done/total and cancel; the results land as one undo step and the list re-ranks.
#include "MainWindow.h"

#include "BatchRefineCommand.h"

#include <QAction>
#include <QProgressBar>
#include <QStatusBar>
#include <QUndoStack>

namespace pw {

void MainWindow::refineAll() {
    if (job_ || batchJob_)
        return; // one at a time; the actions are disabled meanwhile
    if (document_.ligands().empty()) {
        showError(tr("Open ligands to refine."));
        emit batchRefinementFinished(false);
        return;
    }
    if (!document_.hasReceptor() || !document_.box()) {
        showError(tr("Refining needs a receptor and a search box."));
        emit batchRefinementFinished(false);
        return;
    }
    if (!targetReady()) {
        refineWhenReady_ = true; // starts when the grid maps are built (or cancelled with them)
        minimizeWhenReady_ = false;
        requestTarget();
        return;
    }
    batchTarget_ = target_;
    batchLigandsGeneration_ = document_.ligandsGeneration();
    batchJob_ = std::make_unique<BatchRefineJob>(target_, document_.ligands(), document_.device(),
                                                 batchCpuThreads());
    connect(batchJob_.get(), &BatchRefineJob::progress, this, &MainWindow::onBatchProgress);
    connect(batchJob_.get(), &BatchRefineJob::finished, this, &MainWindow::onBatchFinished);
    minimizeAction_->setEnabled(false);
    refineAllAction_->setEnabled(false);
    const int n = static_cast<int>(document_.ligands().size());
    setBusy(tr("Refining %1 ligands in one batch...").arg(n), true);
    progress_->setRange(0, n);
    progress_->setValue(0);
    progress_->setFormat(QStringLiteral("%v/%m"));
    batchJob_->start();
}

void MainWindow::onBatchProgress(long done, long total) {
    if (!batchJob_)
        return;
    progress_->setRange(0, static_cast<int>(total));
    progress_->setValue(static_cast<int>(done));
    statusBar()->showMessage(tr("Refining: %1 of %2 ligands").arg(done).arg(total));
}

void MainWindow::onBatchFinished(const BatchRefineResult& result) {
    // The job object must not be deleted from inside its own signal.
    batchJob_.release()->deleteLater();
    minimizeAction_->setEnabled(true);
    refineAllAction_->setEnabled(true);
    progress_->setFormat(QStringLiteral("%p%"));
    clearBusy();
    const std::shared_ptr<const ScoringTarget> ranOn = std::move(batchTarget_);
    if (!result.error.isEmpty()) {
        showError(result.error);
        emit batchRefinementFinished(false);
        return;
    }
    if (result.cancelled) {
        statusBar()->showMessage(tr("Batch refinement cancelled: the poses are unchanged"), 5000);
        emit batchRefinementFinished(false);
        return;
    }
    // A new ligand list, receptor, box or scoring since the start: the results belong to it.
    if (batchLigandsGeneration_ != document_.ligandsGeneration() || ranOn != target_) {
        statusBar()->showMessage(tr("Batch refinement dropped: the ligands or the receptor "
                                    "changed while it ran"),
                                 8000);
        emit batchRefinementFinished(false);
        return;
    }
    std::vector<Document::LigandUpdate> updates;
    for (size_t k = 0; k < result.indices.size() && k < result.results.size(); ++k)
        updates.push_back({result.indices[k], result.ligands[k], result.results[k].score});
    if (!updates.empty()) {
        undo_->push(new BatchRefineCommand(document_, std::move(updates), result.device,
                                           tr("Refine all ligands")));
        // A hit list is read best first once every pose is refined.
        rankAction_->setChecked(true);
    }
    const qsizetype n = static_cast<qsizetype>(result.indices.size());
    QString message = tr("Refined %1 on %2 in %3 s")
                          .arg(n == 1 ? tr("1 ligand") : tr("%1 ligands").arg(n), result.device)
                          .arg(result.seconds, 0, 'f', 2);
    if (!result.skipped.isEmpty())
        message += tr("; %1 skipped (%2)").arg(result.skipped.size()).arg(result.skipped.front());
    if (!result.note.isEmpty() && result.note != QStringLiteral("device: ") + result.device)
        message += QStringLiteral(" · ") + result.note;
    statusBar()->showMessage(message, 15000);
    if (result.indices.empty()) {
        showError(tr("No ligand could be refined: %1").arg(result.skipped.value(0)));
        emit batchRefinementFinished(false);
        return;
    }
    emit batchRefinementFinished(true);
}

} // namespace pw
