#include "TargetBuilder.h"

#include "Document.h"
#include "JobRunner.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace pw {

TargetBuilder::TargetBuilder(Document& document, JobRunner& jobs, QObject* parent)
    : QObject(parent), document_(document), jobs_(jobs) {}

bool TargetBuilder::ready() const {
    return target_ && document_.hasReceptor() && document_.box() &&
           target_->matches(document_.receptorGeneration(), *document_.box(), document_.scoring());
}

TargetBuilder::~TargetBuilder() {
    // The build in flight reads nothing of this object, but it counts in the process's grid store
    // (and holds a CPU): let it end here rather than behind the next window's back.
    if (inFlight_)
        inFlight_->waitForFinished();
}

void TargetBuilder::request() {
    if (!document_.hasReceptor() || !document_.box())
        return;
    if (ready()) {
        if (inFlight_)
            ++generation_; // back to what the current target matches: the build's result is dropped
        return;
    }
    ++generation_;
    if (!building_) {
        building_ = true;
        job_ = jobs_.begin(tr("Preparing the receptor and its grid maps..."), false,
                           JobRunner::Kind::Background, [this] { cancelBuild(); });
    }
    // One build at a time: requests that come while one runs (a box dragged face by face) are
    // folded into one build of the newest state, started when the running one ends.
    if (!inFlight_)
        startBuild();
}

void TargetBuilder::startBuild() {
    const int generation = generation_;
    const Molecule receptor = document_.receptor();
    const int receptorGeneration = document_.receptorGeneration();
    const SearchBox box = *document_.box();
    const ScoringKind kind = document_.scoring();
    const double pH = document_.receptorPH();
    const int threads = workerCpuThreads();
    auto* watcher = new QFutureWatcher<TargetBuild>(this);
    inFlight_ = watcher;
    connect(watcher, &QFutureWatcher<TargetBuild>::finished, this, [this, watcher, generation] {
        TargetBuild b = watcher->result();
        watcher->deleteLater();
        inFlight_ = nullptr;
        onBuilt(b.target, b.error, generation);
    });
    watcher->setFuture(QtConcurrent::run([=] {
        TargetBuild b;
        try {
            b.target = buildScoringTarget(receptor, receptorGeneration, box, kind, threads, pH);
        } catch (const std::exception& e) {
            b.error = QString::fromStdString(e.what());
        }
        return b;
    }));
}

void TargetBuilder::whenReady(QObject* owner, std::function<void(bool ok)> then) {
    if (ready()) {
        then(true);
        return;
    }
    waiters_.push_back({owner, std::move(then)});
    request();
    if (!building_) // nothing to build (no receptor or box): nothing to wait for
        notifyWaiters(false);
}

void TargetBuilder::onBuilt(std::shared_ptr<const ScoringTarget> target, const QString& error,
                            int generation) {
    if (generation != generation_) { // superseded (new receptor, box or scoring) or cancelled
        if (!building_)
            return; // cancelled
        if (!ready()) {
            startBuild(); // the newest state, asked for while this one ran
            return;
        }
        building_ = false; // the document went back to what the current target matches
        jobs_.end(job_);
        notifyWaiters(true);
        return;
    }
    building_ = false;
    jobs_.end(job_);
    if (!error.isEmpty()) {
        emit built(false, error);
        notifyWaiters(false);
        return;
    }
    target_ = std::move(target);
    emit built(true, QString());
    notifyWaiters(true);
}

void TargetBuilder::cancelBuild() {
    if (!building_)
        return;
    ++generation_; // the build runs to its end; its result is dropped
    building_ = false;
    jobs_.end(job_);
    emit cancelled();
    notifyWaiters(false);
}

void TargetBuilder::notifyWaiters(bool ok) {
    std::vector<Waiter> waiters = std::exchange(waiters_, {});
    for (const Waiter& w : waiters)
        if (w.owner)
            w.then(ok);
}

} // namespace pw
