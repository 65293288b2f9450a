// TargetBuilder: the scoring target (prepared receptor and grid maps) of the document's receptor,
// box and scoring function, built on a worker whenever they change, and shared by everything that
// scores: the live score of the shown pose, drags, the minimization and batch workflows.
#pragma once

#include "ScoringTarget.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

namespace pw {

class Document;
class JobRunner;

// What one build on a worker gives back.
struct TargetBuild {
    std::shared_ptr<const ScoringTarget> target;
    QString error;
};

class TargetBuilder : public QObject {
    Q_OBJECT
public:
    TargetBuilder(Document& document, JobRunner& jobs, QObject* parent = nullptr);
    ~TargetBuilder() override;

    // The last target built; it may belong to an older receptor, box or scoring (see ready()).
    const std::shared_ptr<const ScoringTarget>& current() const { return target_; }
    // The current target matches the document's receptor, box and scoring function.
    bool ready() const;
    bool building() const { return building_; }

    // Builds the target for the document unless it is ready (or has no receptor or box). A newer
    // request supersedes an older build still running: its result is dropped, and the newest
    // state is built when it ends (one build at a time, however many requests came meanwhile).
    void request();
    // Calls then(true) once the target for the document is ready (at once when it is), or
    // then(false) when its build fails or is cancelled. Requests the build when needed.
    void whenReady(QObject* owner, std::function<void(bool ok)> then);

signals:
    // A build ended: ok, or error says why. Emitted before the whenReady() callbacks run.
    void built(bool ok, const QString& error);
    // The build was cancelled (Cancel job); the last target stays.
    void cancelled();

private:
    struct Waiter {
        QPointer<QObject> owner;
        std::function<void(bool)> then;
    };
    void startBuild(); // of the document's current state, on a worker
    void onBuilt(std::shared_ptr<const ScoringTarget> target, const QString& error, int generation);
    void cancelBuild();
    void notifyWaiters(bool ok);

    Document& document_;
    JobRunner& jobs_;
    std::shared_ptr<const ScoringTarget> target_;
    int generation_ = 0; // increases with every requested build; older results are dropped
    bool building_ = false; // a build of the newest request is running or due
    QFutureWatcher<TargetBuild>* inFlight_ = nullptr; // the build running, if any (at most one)
    int job_ = 0; // the JobRunner's id of the build shown
    std::vector<Waiter> waiters_;
};

} // namespace pw
