#include "MinimizeJob.h"

#include "FlexMinimization.h"
#include "PostToGui.h"

#include "chem/LigandPreparation.h"
#include "core/InputError.h"

#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <exception>
#include <thread>

namespace pw {
namespace {

constexpr std::chrono::milliseconds kMinFrameInterval{16}; // one 60 Hz display refresh

} // namespace

MinimizeJobResult runMinimization(const ScoringTarget& target, const Molecule& ligand,
                                  const RefinementOptions& options,
                                  const std::function<bool(TrajectoryPoint&&)>& onFrame,
                                  const std::function<void(const Molecule&)>& onPrepared) {
    MinimizeJobResult out;
    try {
        out.ligand = prepareLigand(ligand);
        if (onPrepared)
            onPrepared(out.ligand);
        const DockingTarget& t = *target.target;
        LigandScorer mover(out.ligand, t.scoring(), t.receptor(), t.grid());
        LigandScorer exact(out.ligand, t.scoring(), t.receptor());
        RefinementOptions o = options;
        if (onFrame) {
            o.minimize.progress = [&](const MinimizeProgress& p) {
                TrajectoryPoint point;
                point.iteration = p.iteration;
                point.energy = p.energy;
                if (p.coordinates) {
                    point.coordinates = *p.coordinates;
                    ScoreBreakdown terms;
                    exact.evaluate(point.coordinates, nullptr, &terms);
                    point.interTerms = terms.interWeighted;
                    point.intra = terms.intra;
                }
                return onFrame(std::move(point));
            };
        }
        out.refinement = refinePose(out.ligand, mover, exact, o);
        out.cancelled = out.refinement.reason == StopReason::Cancelled;
        for (size_t i = 0; i < out.ligand.atoms.size(); ++i)
            out.ligand.atoms[i].position = out.refinement.coordinates[i];
    } catch (const InputError& e) {
        out.error = QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        out.error = QString::fromStdString(InputError::format(ligand.sourceFile, 0, e.what()));
    }
    return out;
}

MinimizeJob::MinimizeJob(std::shared_ptr<const ScoringTarget> target, Molecule ligand, int paceMs,
                         std::vector<FlexResidueSpec> flex, std::vector<FlexStart> starts,
                         QObject* parent)
    : QObject(parent), target_(std::move(target)), ligand_(std::move(ligand)), paceMs_(paceMs),
      flex_(std::move(flex)), starts_(std::move(starts)), cancel_(std::make_shared<std::atomic<bool>>(false)) {
    qRegisterMetaType<TrajectoryPoint>();
    qRegisterMetaType<MinimizeJobResult>();
    qRegisterMetaType<Molecule>();
}

MinimizeJob::~MinimizeJob() {
    cancel_->store(true);
    future_.waitForFinished();
}

void MinimizeJob::cancel() {
    cancel_->store(true);
}

void MinimizeJob::start() {
    running_ = true;
    QPointer<MinimizeJob> self(this);
    auto target = target_;
    auto cancel = cancel_;
    const Molecule ligand = ligand_;
    const int pace = paceMs_;
    const std::vector<FlexResidueSpec> flex = flex_;
    const std::vector<FlexStart> starts = starts_;
    future_ = QtConcurrent::run([self, target, cancel, ligand, pace, flex, starts] {
        RefinementOptions options = appRefinementOptions();
        options.minimize.cancel = cancel.get();
        auto last = std::chrono::steady_clock::now();
        auto lastShown = last - kMinFrameInterval;
        std::vector<TrajectoryPoint> points;
        auto onFrame = [&](TrajectoryPoint&& p) {
            // The destructor waits for this thread, so self is alive while cancel is unset.
            if (cancel->load())
                return false;
            points.push_back(p);
            // Unpaced, a step takes microseconds: the view gets at most one frame per display
            // refresh, the rest arrive with the result (the GUI is never flooded).
            const auto now = std::chrono::steady_clock::now();
            if (pace > 0 || now - lastShown >= kMinFrameInterval) {
                lastShown = now;
                postToGui(self, [p = std::move(p)](MinimizeJob& job) { emit job.frame(p); });
            }
            if (pace > 0) {
                std::this_thread::sleep_until(last + std::chrono::milliseconds(pace));
                last = std::chrono::steady_clock::now();
            }
            return !cancel->load();
        };
        auto onPrepared = [&](const Molecule& m) {
            postToGui(self, [m](MinimizeJob& job) { emit job.prepared(m); });
        };
        auto onFlexPrepared = [&](std::shared_ptr<const FlexSetup> setup) {
            postToGui(self, [setup](MinimizeJob& job) { emit job.flexPrepared(setup); });
        };
        MinimizeJobResult result =
            flex.empty() ? runMinimization(*target, ligand, options, onFrame, onPrepared)
                         : runFlexMinimization(*target, ligand, flex, cancel.get(), onFrame,
                                               onPrepared, onFlexPrepared, starts);
        if (cancel->load())
            result.cancelled = true;
        if (flex.empty())
            result.trajectory = std::move(points); // the flexible run keeps the descent it chose
        postToGui(self, [result = std::move(result)](MinimizeJob& job) {
            job.running_ = false;
            emit job.finished(result);
        });
    });
}

} // namespace pw
