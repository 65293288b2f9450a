#include "BatchPart.h"

#include "BatchRefineCommand.h"
#include "Document.h"
#include "JobRunner.h"
#include "TargetBuilder.h"
#include "parts/PartContext.h"

#include <QAction>
#include <QIcon>
#include <QMainWindow>
#include <QStatusBar>
#include <QStyle>
#include <QUndoStack>

POSEWRIGHT_REGISTER_PART(batch, pw::BatchPart)

namespace pw {

BatchPart::~BatchPart() {
    job_.reset(); // cancels and waits for the worker before the document goes
}

void BatchPart::install(PartContext& context) {
    context_ = &context;
    QMainWindow* window = context.window();
    const QIcon icon = QIcon::fromTheme(QStringLiteral("media-seek-forward"),
                                        window->style()->standardIcon(QStyle::SP_MediaSeekForward));
    refineAllAction_ = new QAction(icon, tr("Refine &all ligands"), window);
    refineAllAction_->setObjectName(QStringLiteral("refineAllAction"));
    refineAllAction_->setShortcut(QKeySequence(tr("Ctrl+Shift+M")));
    connect(refineAllAction_, &QAction::triggered, this, &BatchPart::refineAll);
    context.addAction(PartMenu::Refine, refineAllAction_, true);
    context.addAction(PartMenu::LigandList, refineAllAction_);
    connect(&context.jobs(), &JobRunner::ligandsLockedChanged, refineAllAction_,
            [this](bool locked) { refineAllAction_->setEnabled(!locked); });
    connect(&context.document(), &Document::deviceChanged, this, &BatchPart::updateDeviceTips);
    updateDeviceTips();
    // Poses another part hands over (the Hits panel's selection) become the ligands and are
    // refined as one batch.
    context.setPoseTaker(QStringLiteral("refine"), [this](std::vector<Molecule> poses) {
        if (context_->jobs().ligandsLocked()) {
            context_->showError(tr("A refinement is running: wait for it or cancel it first."));
            return;
        }
        context_->replaceLigandsWith(std::move(poses));
        refineAll();
    });
}

bool BatchPart::runStep(const QString& step, const std::function<void(bool ok)>& done) {
    if (step != QLatin1String("refine-all"))
        return false;
    connect(
        this, &BatchPart::batchRefinementFinished, this, [done](bool ok) { done(ok); },
        Qt::SingleShotConnection);
    refineAll();
    return true;
}

void BatchPart::refineAll() {
    const Document& document = context_->document();
    if (context_->jobs().ligandsLocked())
        return; // one at a time; the actions are disabled meanwhile
    if (document.ligands().empty()) {
        context_->showError(tr("Open ligands to refine."));
        emit batchRefinementFinished(false);
        return;
    }
    if (!document.hasReceptor() || !document.box()) {
        context_->showError(tr("Refining needs a receptor and a search box."));
        emit batchRefinementFinished(false);
        return;
    }
    // Starts when the grid maps are built (at once when they are); cancelled with them.
    context_->targets().whenReady(this, [this](bool ok) {
        if (ok)
            start();
        else
            emit batchRefinementFinished(false);
    });
}

void BatchPart::start() {
    const Document& document = context_->document();
    if (!context_->targets().ready() || context_->jobs().ligandsLocked()) {
        emit batchRefinementFinished(false);
        return;
    }
    ranOn_ = context_->targets().current();
    ligandsGeneration_ = document.ligandsGeneration();
    job_ = std::make_unique<BatchRefineJob>(ranOn_, document.ligands(), document.device(),
                                            workerCpuThreads());
    connect(job_.get(), &BatchRefineJob::progress, this, &BatchPart::onProgress);
    connect(job_.get(), &BatchRefineJob::finished, this, &BatchPart::onFinished);
    const int n = static_cast<int>(document.ligands().size());
    jobId_ = context_->jobs().begin(tr("Refining %1 ligands in one batch...").arg(n), true,
                                    JobRunner::Kind::MovesLigands, [this] {
                                        if (job_)
                                            job_->cancel(); // finished() arrives, cancelled
                                    });
    context_->jobs().setProgress(jobId_, 0, n);
    job_->start();
}

void BatchPart::onProgress(long done, long total) {
    if (!job_)
        return;
    context_->jobs().setProgress(jobId_, done, total);
    context_->statusBar()->showMessage(tr("Refining: %1 of %2 ligands").arg(done).arg(total));
}

void BatchPart::onFinished(const BatchRefineResult& result) {
    // The job object must not be deleted from inside its own signal.
    job_.release()->deleteLater();
    context_->jobs().end(jobId_);
    const std::shared_ptr<const ScoringTarget> ranOn = std::move(ranOn_);
    QStatusBar* status = context_->statusBar();
    if (!result.error.isEmpty()) {
        context_->showError(result.error);
        emit batchRefinementFinished(false);
        return;
    }
    if (result.cancelled) {
        status->showMessage(tr("Batch refinement cancelled: the poses are unchanged"), 5000);
        emit batchRefinementFinished(false);
        return;
    }
    Document& document = context_->document();
    // A new ligand list, receptor, box or scoring since the start: the results belong to it.
    if (ligandsGeneration_ != document.ligandsGeneration() ||
        ranOn != context_->targets().current()) {
        status->showMessage(tr("Batch refinement dropped: the ligands or the receptor "
                               "changed while it ran"),
                            8000);
        emit batchRefinementFinished(false);
        return;
    }
    std::vector<Document::LigandUpdate> updates;
    for (size_t k = 0; k < result.indices.size() && k < result.results.size(); ++k)
        updates.push_back({result.indices[k], result.ligands[k], result.results[k].score});
    if (!updates.empty()) {
        context_->undoStack()->push(new BatchRefineCommand(
            document, std::move(updates), result.device, tr("Refine all ligands")));
        // A hit list is read best first once every pose is refined.
        context_->rankLigandsByAffinity();
    }
    const qsizetype n = static_cast<qsizetype>(result.indices.size());
    QString message = tr("Refined %1 on %2 in %3 s")
                          .arg(n == 1 ? tr("1 ligand") : tr("%1 ligands").arg(n), result.device)
                          .arg(result.seconds, 0, 'f', 2);
    if (!result.skipped.isEmpty())
        message += tr("; %1 skipped (%2)").arg(result.skipped.size()).arg(result.skipped.front());
    if (!result.note.isEmpty() && result.note != QStringLiteral("device: ") + result.device)
        message += QStringLiteral(" · ") + result.note;
    status->showMessage(message, 15000);
    if (result.indices.empty()) {
        context_->showError(tr("No ligand could be refined: %1").arg(result.skipped.value(0)));
        emit batchRefinementFinished(false);
        return;
    }
    emit batchRefinementFinished(true);
}

void BatchPart::updateDeviceTips() {
    refineAllAction_->setStatusTip(
        tr("Minimize every loaded ligand in one batch on %1 (the Device setting)")
            .arg(context_->deviceDescription()));
    refineAllAction_->setToolTip(refineAllAction_->statusTip());
}

} // namespace pw
