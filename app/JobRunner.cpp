#include "JobRunner.h"

#include <QAction>
#include <QProgressBar>
#include <QStatusBar>
#include <QThread>
#include <QToolButton>

#include <algorithm>
#include <utility>
#include <vector>

namespace pw {

int workerCpuThreads() {
    return std::max(1, QThread::idealThreadCount() - 1);
}

JobRunner::JobRunner(QStatusBar* statusBar, QProgressBar* progress, QToolButton* cancelButton,
                     QAction* cancelAction, QObject* parent)
    : QObject(parent), statusBar_(statusBar), progress_(progress), cancelButton_(cancelButton),
      cancelAction_(cancelAction) {
    connect(cancelAction_, &QAction::triggered, this, &JobRunner::cancelAll);
    showIdle();
}

int JobRunner::begin(const QString& message, bool determinate, Kind kind,
                     std::function<void()> cancel) {
    const bool wasLocked = ligandsLocked();
    const int id = nextId_++;
    jobs_[id] = Job{kind, std::move(cancel)};
    statusBar_->showMessage(message);
    progress_->setRange(0, determinate ? 100 : 0);
    progress_->setValue(0);
    progress_->setFormat(QStringLiteral("%p%"));
    progress_->setVisible(true);
    cancelButton_->setVisible(true);
    cancelAction_->setEnabled(true);
    if (!wasLocked && ligandsLocked())
        emit ligandsLockedChanged(true);
    return id;
}

void JobRunner::setProgress(int id, long done, long total) {
    if (!jobs_.count(id))
        return;
    progress_->setFormat(QStringLiteral("%v/%m"));
    progress_->setRange(0, static_cast<int>(total));
    progress_->setValue(static_cast<int>(done));
}

void JobRunner::end(int id) {
    const bool wasLocked = ligandsLocked();
    if (jobs_.erase(id) == 0)
        return;
    if (jobs_.empty()) {
        showIdle();
        statusBar_->clearMessage();
    }
    if (wasLocked && !ligandsLocked())
        emit ligandsLockedChanged(false);
}

bool JobRunner::ligandsLocked() const {
    for (const auto& [id, job] : jobs_)
        if (job.kind == Kind::MovesLigands)
            return true;
    return false;
}

void JobRunner::cancelAll() {
    cancel(false);
}

void JobRunner::cancelLigandJobs() {
    cancel(true);
}

void JobRunner::cancel(bool onlyLigandJobs) {
    // The callbacks may end their jobs (and so change the map): collect them first.
    std::vector<std::function<void()>> calls;
    for (auto it = jobs_.rbegin(); it != jobs_.rend(); ++it) {
        if (onlyLigandJobs && it->second.kind != Kind::MovesLigands)
            continue;
        if (it->second.cancel)
            calls.push_back(std::exchange(it->second.cancel, {}));
    }
    for (const auto& call : calls)
        call();
}

void JobRunner::showIdle() {
    progress_->setVisible(false);
    progress_->setFormat(QStringLiteral("%p%"));
    cancelButton_->setVisible(false);
    cancelAction_->setEnabled(false);
}

} // namespace pw
