#include "DockJob.h"

#include "PostToGui.h"
#include "backend/Backend.h"
#include "backend/DeviceSelection.h"
#include "chem/LigandPreparation.h"
#include "core/InputError.h"
#include "core/LigandKinematics.h"
#include "dock/FlexDock.h"
#include "score/LigandScorer.h"

#include <QFileInfo>
#include <QPointer>
#include <QtConcurrent>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace pw {

void DockWatch::record(const dock::GenerationReport& r) {
    std::lock_guard lock(mutex_);
    const long generation = std::max(r.generation, 1L);
    auto& gens = s_.generation;
    const auto at = std::lower_bound(gens.begin(), gens.end(), generation); // mostly the end
    const auto g = static_cast<size_t>(at - gens.begin());
    if (at == gens.end() || *at != generation) {
        gens.insert(at, generation);
        s_.best.insert(s_.best.begin() + g, std::numeric_limits<double>::infinity());
        s_.mean.insert(s_.mean.begin() + g, 0.0);
        meanSum_.insert(meanSum_.begin() + g, 0.0);
        meanCount_.insert(meanCount_.begin() + g, 0);
    }
    s_.best[g] = std::min(s_.best[g], r.bestEnergy);
    meanSum_[g] += r.meanEnergy;
    s_.mean[g] = meanSum_[g] / ++meanCount_[g];
    if (r.bestEnergy < s_.bestEnergy && r.best && r.kinematics) {
        s_.bestEnergy = r.bestEnergy;
        s_.bestCoordinates = r.kinematics->coordinates(*r.best);
    }
    ++s_.version;
}

void DockWatch::setLigand(const Molecule& prepared) {
    std::lock_guard lock(mutex_);
    s_.ligand = prepared;
}

bool DockWatch::changedSince(long version, Snapshot* out) const {
    std::lock_guard lock(mutex_);
    if (s_.version == version)
        return false;
    *out = s_;
    return true;
}

namespace {

// Whether the ligand's coordinates were read from a file (a crystal pose, a pose docked or drawn
// before) rather than made up: a SMILES record is embedded by RDKit and a 2D drawing is flat, and
// an RMSD to either says nothing about the docked poses.
bool hasLoadedPose(const Molecule& ligand) {
    const QString suffix = QFileInfo(QString::fromStdString(ligand.sourceFile)).suffix().toLower();
    if (suffix == QLatin1String("smi") || suffix == QLatin1String("smiles") ||
        suffix == QLatin1String("ism"))
        return false;
    const auto flat = [&](int k) {
        return std::all_of(ligand.atoms.begin(), ligand.atoms.end(), [&](const Atom& a) {
            return std::abs(a.position[k] - ligand.atoms.front().position[k]) < 1e-6;
        });
    };
    return !ligand.atoms.empty() && !flat(0) && !flat(1) && !flat(2);
}

} // namespace

namespace {

// Docking with flexible side chains (dock::dockLigandWithFlex, the CPU engine of `dock
// --flex-residues`): the scoring target's receptor split as minimization splits it, the same
// maps, the same search options as the rigid docking; every run reported to the watch.
void dockWithFlex(const DockJobInput& in, Progress& progress, DockWatch* watch,
                  const Molecule* reference, DockJobResult& out) {
    if (in.settings.scoring == dock::DockScoring::Ad4)
        throw InputError(in.ligand.sourceFile, 0,
                         "flexible side chains dock with Vina or Vinardo scoring, not AutoDock 4: "
                         "choose Vina or Vinardo, or untick Flexible");
    const ScoringKind kind = in.settings.scoring == dock::DockScoring::Vinardo
                                 ? ScoringKind::Vinardo
                                 : ScoringKind::Vina;
    const auto target = buildScoringTarget(in.receptor, in.receptorGeneration, in.box, kind,
                                           in.threads, in.receptorPH);
    std::shared_ptr<const FlexSetup> setup;
    try {
        setup = buildFlexSetup(*target, in.flexResidues, out.prepared, in.threads);
    } catch (const InputError& e) {
        throw InputError(in.ligand.sourceFile, 0, flexMessage(e.what()).toStdString());
    }
    out.flexSetup = setup;
    if (watch) {
        watch->setLigand(out.prepared);
        watch->mapsReady = true;
    }
    if (in.settings.device != QLatin1String("cpu"))
        out.deviceNote = QStringLiteral("flexible side chains dock on the CPU");
    const dock::DockOptions options = in.settings.options(in.threads);
    const LigandScorer exactLigand(out.prepared, setup->target->scoring(),
                                   setup->target->receptor());
    const LigandScorer gridLigand(out.prepared, setup->target->scoring(), setup->target->receptor(),
                                  setup->grid);
    const FlexScorer scorer(exactLigand, *setup->flex, setup->grid);
    dock::FlexDockSetup s;
    s.exact = &scorer;
    s.gridLigand = &gridLigand;
    s.grid = setup->grid;
    s.box = in.box;
    s.lga = options.lga;
    s.runs = options.runs;
    s.evaluationsPerRun = options.lga.maxEvaluations;
    s.seed = options.seed;
    s.ligandIndex = 0; // one ligand, as the CLI's first
    s.threads = in.threads;
    s.cancel = &progress.cancel;
    if (watch) {
        watch->runsTotal = options.runs;
        s.onGeneration = [watch](const dock::GenerationReport& r) { watch->record(r); };
        s.onRunDone = [watch](long done) { watch->runsDone = done; };
    }
    const std::vector<dock::FlexDockRun> runs = dock::dockLigandWithFlex(out.prepared, s);
    out.cancelled = progress.cancelled();
    if (out.cancelled)
        return;
    if (runs.empty())
        throw InputError(in.ligand.sourceFile, 0, "the docking returned no result");
    long evaluations = 0;
    for (const dock::FlexDockRun& r : runs)
        evaluations = std::max(evaluations, r.evaluations);
    out.outcome =
        flexOutcomeOf(out.prepared, runs, flexChoiceText(in.flexResidues),
                      options.lga.maxEvaluations > 0 ? options.lga.maxEvaluations : evaluations,
                      in.threads == 1 ? QStringLiteral("CPU (1 thread)")
                                      : QStringLiteral("CPU (%1 threads)").arg(in.threads),
                      reference);
}

} // namespace

DockJobResult runDocking(const DockJobInput& in, DockMaps& maps, Progress& progress,
                         DockWatch* watch) {
    DockJobResult out;
    const auto t0 = std::chrono::steady_clock::now();
    try {
        out.prepared = prepareLigand(in.ligand);
        if (!in.flexResidues.empty()) {
            dockWithFlex(in, progress, watch, hasLoadedPose(in.ligand) ? &in.ligand : nullptr, out);
            out.seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            return out;
        }
        const auto target =
            maps.targetFor(in.receptor, in.receptorGeneration, in.box, in.settings.scoring,
                           out.prepared, in.threads, in.receptorPH);
        if (watch) {
            watch->setLigand(out.prepared);
            watch->mapsReady = true;
        }
        std::string note;
        const std::unique_ptr<Backend> backend =
            createBackend(parseDeviceRequest(in.settings.device.toStdString()), in.threads, note);
        if (in.settings.device != QLatin1String("cpu") && !backend->isGpu())
            out.deviceNote = QString::fromStdString(note); // "device: no CUDA device found; ..."
        dock::DockOptions options = in.settings.options(in.threads);
        if (watch) {
            watch->runsTotal = options.runs;
            options.onGeneration = [watch](const dock::GenerationReport& r) { watch->record(r); };
            progress.onProgress = [watch](long done, long) { watch->runsDone = done; };
        }
        std::vector<dock::LigandDockResult> results;
        const BatchStatus status =
            backend->dock(*target, {out.prepared}, options, results, &progress,
                          hasLoadedPose(in.ligand) ? &in.ligand : nullptr);
        out.cancelled = status.cancelled || progress.cancelled();
        if (!out.cancelled) {
            if (results.empty())
                throw InputError(in.ligand.sourceFile, 0, "the docking returned no result");
            if (!results.front().error.empty())
                throw InputError(in.ligand.sourceFile, 0, results.front().error);
            out.outcome = outcomeOf(out.prepared, results.front(), options,
                                    QString::fromStdString(backend->description()));
        }
    } catch (const std::exception& e) {
        out.error = QString::fromStdString(e.what());
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

DockJob::DockJob(DockJobInput input, std::shared_ptr<DockMaps> maps, QObject* parent)
    : QObject(parent), input_(std::move(input)), maps_(std::move(maps)),
      progress_(std::make_shared<Progress>()), watch_(std::make_shared<DockWatch>()) {
    qRegisterMetaType<DockJobResult>();
}

DockJob::~DockJob() {
    progress_->cancel.store(true);
    future_.waitForFinished();
}

void DockJob::cancel() {
    progress_->cancel.store(true);
}

void DockJob::start() {
    QPointer<DockJob> self(this);
    future_ = QtConcurrent::run([self, input = input_, maps = maps_, progress = progress_,
                                 watch = watch_] {
        DockJobResult result = runDocking(input, *maps, *progress, watch.get());
        postToGui(self, [result = std::move(result)](DockJob& job) { emit job.finished(result); });
    });
}

} // namespace pw
