// DockJob: one docking of a ligand on a worker thread (§4): the target's maps (built when needed,
// reused otherwise), the ligand prepared, then the backend's LGA runs with progress and cancel.
// While it runs, the CPU engine's generation observer fills a DockWatch that the GUI reads at
// screen rate (coalesced: never one signal per generation).
#pragma once

#include "DockMaps.h"
#include "DockResults.h"
#include "DockSettings.h"
#include "FlexResidues.h"

#include "backend/Progress.h"
#include "core/Molecule.h"

#include <QFuture>
#include <QObject>
#include <QString>

#include <atomic>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

namespace pw {

// What the search has done so far, written by the engine's workers, read by the GUI's timer.
class DockWatch {
public:
    struct Snapshot {
        long version = 0;
        // One point per generation reported by any run, in increasing order (the GPU reports
        // what it sees every ~30 ms, so generations may be missing there).
        std::vector<long> generation;
        std::vector<double> best; // the lowest population best over the runs that reported it
        std::vector<double> mean; // the mean population energy over those runs
        double bestEnergy = std::numeric_limits<double>::infinity();
        std::vector<Vec3> bestCoordinates; // the pose of bestEnergy (prepared ligand's atoms)
        Molecule ligand;                   // the prepared ligand the coordinates move
    };
    void setLigand(const Molecule& prepared);
    void record(const dock::GenerationReport& report);
    // A copy when something changed since `version`, else nothing.
    bool changedSince(long version, Snapshot* out) const;

    std::atomic<long> runsDone{0}, runsTotal{0};
    std::atomic<bool> mapsReady{false};

private:
    mutable std::mutex mutex_;
    Snapshot s_;
    std::vector<double> meanSum_;
    std::vector<int> meanCount_;
};

struct DockJobInput {
    Molecule receptor; // as loaded
    int receptorGeneration = 0;
    double receptorPH = 7.4; // Document::receptorPH (a new value is a new receptorGeneration)
    SearchBox box;
    Molecule ligand; // the active ligand as the document has it (also the RMSD reference)
    DockSettings settings;
    int threads = 1;
    // The side chains that move (the user's choice, when the settings dock with it); empty: the
    // receptor is rigid.
    std::vector<FlexResidueSpec> flexResidues;
};

struct DockJobResult {
    DockOutcome outcome;
    Molecule prepared; // the molecule the poses move (hydrogens, types, torsion tree)
    bool cancelled = false;
    QString error;      // empty on success
    QString deviceNote; // why the device asked for was not used (no GPU: the CPU), else empty
    // Docked with flexible side chains: their model, for drawing the poses' side chains.
    std::shared_ptr<const FlexSetup> flexSetup;
    double seconds = 0;
    bool ok() const { return error.isEmpty() && !cancelled; }
};

// Runs the docking now, on the calling thread (the job's worker; tests). watch may be null.
DockJobResult runDocking(const DockJobInput& input, DockMaps& maps, Progress& progress,
                         DockWatch* watch);

class DockJob : public QObject {
    Q_OBJECT
public:
    DockJob(DockJobInput input, std::shared_ptr<DockMaps> maps, QObject* parent = nullptr);
    ~DockJob() override; // cancels and waits: the worker never outlives its job

    void start();
    void cancel();
    const DockWatch& watch() const { return *watch_; }

signals:
    void finished(const pw::DockJobResult& result);

private:
    DockJobInput input_;
    std::shared_ptr<DockMaps> maps_;
    std::shared_ptr<Progress> progress_;
    std::shared_ptr<DockWatch> watch_;
    QFuture<void> future_;
};

} // namespace pw

Q_DECLARE_METATYPE(pw::DockJobResult)
