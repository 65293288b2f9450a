// MinimizeJob: one flexible minimization of the active ligand on a worker thread, through the
// engine's refinePose, streaming every accepted step as a frame and honouring cancel (§4).
#pragma once

#include "FlexResidues.h"
#include "ScoringTarget.h"
#include "Trajectory.h"
#include "minimize/PoseRefinement.h"

#include <QFuture>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace pw {

// A place the side chains start from: `sideChains` in FlexModel's flat order (a docked pose's,
// or a previous minimization's result), or empty for where the receptor has them; `name` says
// which in the status bar ("the docked side chains").
struct FlexStart {
    QString name;
    std::vector<Vec3> sideChains;
};

struct MinimizeJobResult {
    Molecule ligand; // prepared, at the minimized coordinates
    RefinementResult refinement;
    bool cancelled = false;
    QString error; // empty on success
    // Every accepted step (the start included) with its terms; frame() showed some of them.
    std::vector<TrajectoryPoint> trajectory;
    // With flexible residues: the side chains' result (refinement then holds the ligand's part
    // and Vina's flexible numbers as a VinaScore: flexAsVinaScore).
    std::optional<FlexOutcome> flex;
    // With several side-chain starts (runFlexMinimization): each start's name and Vina's numbers
    // at its start and end, in the order run; flexStartKept indexes the one kept (-1: one start).
    struct FlexStartEnd {
        QString name;
        FlexScore start, end;
    };
    std::vector<FlexStartEnd> flexStarts;
    int flexStartKept = -1;
    bool ok() const { return error.isEmpty() && !cancelled; }
};

// Runs the job now (on the calling thread): prepares the ligand, moves it on the target's grid,
// reports exactly. onFrame (may be empty) sees every accepted step; returning false stops.
MinimizeJobResult runMinimization(const ScoringTarget& target, const Molecule& ligand,
                                  const RefinementOptions& options,
                                  const std::function<bool(TrajectoryPoint&&)>& onFrame,
                                  const std::function<void(const Molecule&)>& onPrepared = {});

class MinimizeJob : public QObject {
    Q_OBJECT
public:
    // paceMs: the least time between two steps, so that a fast minimization is still seen
    // moving (0: full speed).
    // flex: the flexible residues (none: the rigid receptor, as before). starts: where the side
    // chains start (runFlexMinimization: empty for the receptor's side chains alone).
    MinimizeJob(std::shared_ptr<const ScoringTarget> target, Molecule ligand, int paceMs,
                std::vector<FlexResidueSpec> flex = {}, std::vector<FlexStart> starts = {},
                QObject* parent = nullptr);
    ~MinimizeJob() override; // cancels and waits: the worker never outlives its job

    void start();
    void cancel();
    bool running() const { return running_; }

signals:
    // The ligand as the engine moves it (prepared: hydrogens, types), before the first frame.
    void prepared(const pw::Molecule& ligand);
    // With flexible residues, after prepared(): what the side chains' coordinates belong to.
    void flexPrepared(std::shared_ptr<const pw::FlexSetup> setup);
    // A step to show now: every step when paced, else at most one per display refresh.
    void frame(const pw::TrajectoryPoint& point);
    void finished(const pw::MinimizeJobResult& result);

private:
    std::shared_ptr<const ScoringTarget> target_;
    Molecule ligand_;
    int paceMs_;
    std::vector<FlexResidueSpec> flex_;
    std::vector<FlexStart> starts_;
    std::shared_ptr<std::atomic<bool>> cancel_;
    QFuture<void> future_;
    bool running_ = false;
};

} // namespace pw

Q_DECLARE_METATYPE(pw::Molecule)
Q_DECLARE_METATYPE(pw::MinimizeJobResult)
