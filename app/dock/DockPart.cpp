#include "DockPart.h"

#include "BoxEditor.h"
#include "DockPanel.h"
#include "Document.h"
#include "EnergyPlot.h"
#include "FlexDrawings.h"
#include "FlexResidues.h"
#include "InteractionLines.h"
#include "JobRunner.h"
#include "LigandEditCommand.h"
#include "LigandListCommand.h"
#include "MoleculeDrawings.h"
#include "MoleculeLoader.h"
#include "MoleculeView.h"
#include "ScoringTarget.h"
#include "TargetBuilder.h"
#include "chem/AtomicFile.h"
#include "core/InputError.h"
#include "dock/SymmetryRmsd.h"
#include "parts/PartContext.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QPushButton>
#include <QScrollArea>
#include <QStatusBar>
#include <QUndoStack>

#include <cmath>
#include <optional>
#include <ostream>

POSEWRIGHT_REGISTER_PART(dock, pw::DockPart)

namespace pw {
namespace {

constexpr int kLiveTickMs = 33; // ~30 redraws a second at most, whatever the generation rate

QString scoringTitle(dock::DockScoring s) {
    switch (s) {
    case dock::DockScoring::Vina:
        return QStringLiteral("Vina");
    case dock::DockScoring::Vinardo:
        return QStringLiteral("Vinardo");
    case dock::DockScoring::Ad4:
        return QStringLiteral("AutoDock 4");
    }
    return {};
}

} // namespace

DockPart::~DockPart() {
    job_.reset(); // cancels and waits for the worker before the document goes
}

void DockPart::install(PartContext& context) {
    context_ = &context;
    QMainWindow* window = context.window();
    dock_ = new QDockWidget(tr("Docking"), window);
    dock_->setObjectName(QStringLiteral("dockingDock"));
    auto* scroll = new QScrollArea(dock_);
    scroll->setWidgetResizable(true);
    panel_ = new DockPanel(scroll);
    scroll->setWidget(panel_);
    dock_->setWidget(scroll);
    context.addDock(dock_, Qt::RightDockWidgetArea, true);
    // Beside the Energy dock when the watched minimization is installed: one click apart.
    if (auto* energy = window->findChild<QDockWidget*>(QStringLiteral("energyDock")))
        window->tabifyDockWidget(energy, dock_);
    context.connectBoxEditor(panel_->boxEditor());

    dockAction_ = new QAction(tr("&Dock ligand..."), window);
    dockAction_->setObjectName(QStringLiteral("dockAction"));
    dockAction_->setShortcut(QKeySequence(tr("Ctrl+Shift+D"))); // Ctrl+D is Edit pose
    dockAction_->setStatusTip(tr("Show the Docking panel: dock the active ligand into the box"));
    connect(dockAction_, &QAction::triggered, this, [this] {
        dock_->show();
        dock_->raise();
    });
    context.addAction(PartMenu::Refine, dockAction_);
    // Poses another part hands over (the Hits panel's Dock again) become the ligands; the first
    // is docked with the panel's settings, the others wait in the ligand list.
    context.setPoseTaker(QStringLiteral("dock"), [this](std::vector<Molecule> poses) {
        if (job_ || context_->jobs().ligandsLocked()) {
            context_->showError(tr("A job is running: wait for it or cancel it first."));
            return;
        }
        context_->replaceLigandsWith(std::move(poses));
        dock_->show();
        dock_->raise();
        dock();
    });

    connect(panel_, &DockPanel::scoringChanged, this, &DockPart::updateMapsText);
    connect(panel_, &DockPanel::runRequested, this, &DockPart::dock);
    connect(panel_, &DockPanel::cancelRequested, this, &DockPart::cancel);
    connect(panel_, &DockPanel::clusterSelected, this, &DockPart::showCluster);
    connect(panel_, &DockPanel::refineRequested, this, &DockPart::refine);
    connect(panel_, &DockPanel::exportRequested, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            context_->window(), tr("Export docked poses"),
            context_->lastDirectory() + QStringLiteral("/docked.sdf"), tr("SDF (*.sdf)"));
        if (!path.isEmpty())
            exportTo(path);
    });
    connect(panel_, &DockPanel::addToLigandsRequested, this, [this] {
        const QString stem =
            outcome_.ligandName.isEmpty() ? QStringLiteral("ligand") : outcome_.ligandName;
        const QString path = QFileDialog::getSaveFileName(
            context_->window(), tr("Save the docked poses to add them"),
            context_->lastDirectory() + QStringLiteral("/%1_docked.sdf").arg(stem),
            tr("SDF (*.sdf)"));
        if (!path.isEmpty())
            addToLigands(path);
    });
    connect(&context.jobs(), &JobRunner::ligandsLockedChanged, this,
            [this](bool locked) { panel_->runButton()->setEnabled(!locked); });
    Document& document = context.document();
    connect(&document, &Document::receptorChanged, this, &DockPart::updateMapsText);
    // The results stay (a pose may still be worth a look) but say where they were docked.
    connect(&document, &Document::receptorChanged, this, [this] {
        if (!outcome_.empty() && !job_)
            panel_->setProgressText(
                tr("These results were docked into the receptor open before; Dock again for "
                   "this one"));
    });
    connect(&document, &Document::boxChanged, this, &DockPart::updateMapsText);
    auto showBox = [this] { panel_->setBoxSummary(context_->document().box()); };
    connect(&document, &Document::boxChanged, this, showBox);
    showBox();
    // Whether the next docking reuses its maps, in the status bar as long as it holds.
    mapsStatus_ = new QLabel(window);
    mapsStatus_->setObjectName(QStringLiteral("dockMapsStatus"));
    mapsStatus_->setToolTip(tr("The docking maps of this receptor, box and scoring are built: "
                               "the next docking starts searching at once"));
    context.statusBar()->addPermanentWidget(mapsStatus_);
    // The side chains chosen for minimization, offered to docking (the Flexible box).
    context.onFlexResidueChoiceChanged(
        [this] { panel_->setFlexChoice(context_->flexResidueChoice()); });
    panel_->setFlexChoice(context.flexResidueChoice());
    tick_.setInterval(kLiveTickMs);
    connect(&tick_, &QTimer::timeout, this, &DockPart::onTick);
    updateMapsText();
}

void DockPart::updateMapsText() {
    const Document& d = context_->document();
    const DockSettings s = panel_->settings();
    const bool ready =
        d.hasReceptor() && d.box() && maps_->readyFor(d.receptorGeneration(), *d.box(), s.scoring);
    if (!d.hasReceptor() || !d.box())
        panel_->setMapsText(tr("Maps: open a receptor and set a box"));
    else if (ready)
        panel_->setMapsText(tr("Maps ready (%1): reused while the receptor and box stay")
                                .arg(scoringTitle(s.scoring)));
    else
        panel_->setMapsText(tr("Maps: computed at the next run"));
    mapsStatus_->setText(ready ? tr("Docking maps ready (%1)").arg(scoringTitle(s.scoring))
                               : QString());
    mapsStatus_->setVisible(ready);
}

bool DockPart::runStep(const QString& step, const std::function<void(bool ok)>& done) {
    if (step != QLatin1String("dock"))
        return false;
    connect(
        this, &DockPart::dockingFinished, this, [done](bool ok) { done(ok); },
        Qt::SingleShotConnection);
    dock_->show();
    dock_->raise();
    dock();
    return true;
}

void DockPart::dock() {
    Document& document = context_->document();
    if (job_ || context_->jobs().ligandsLocked())
        return; // one such job at a time; the button is off meanwhile
    const int active = document.activeLigand();
    if (active < 0 || !document.hasReceptor() || !document.box()) {
        context_->showError(tr("Docking needs a receptor, a ligand and a search box."));
        emit dockingFinished(false);
        return;
    }
    DockJobInput in;
    in.receptor = document.receptor();
    in.receptorGeneration = document.receptorGeneration();
    in.receptorPH = document.receptorPH();
    in.box = *document.box();
    in.ligand = document.ligands()[static_cast<size_t>(active)];
    in.settings = panel_->settings();
    in.threads = workerCpuThreads();
    if (in.settings.flexible) {
        try {
            in.flexResidues = parseFlexChoice(context_->flexResidueChoice());
        } catch (const InputError& e) {
            context_->showError(QString::fromStdString(e.what()));
            emit dockingFinished(false);
            return;
        }
    }
    job_ = std::make_unique<DockJob>(std::move(in), maps_);
    connect(job_.get(), &DockJob::finished, this, &DockPart::onFinished);
    const bool reuse =
        maps_->readyFor(document.receptorGeneration(), *document.box(), panel_->settings().scoring);
    jobId_ = context_->jobs().begin(reuse ? tr("Docking (maps ready)...")
                                          : tr("Docking: computing the maps..."),
                                    true, JobRunner::Kind::MovesLigands, [this] {
                                        if (job_)
                                            job_->cancel(); // finished() arrives, cancelled
                                    });
    mapsAnnounced_ = false;
    shownVersion_ = 0;
    liveRedraws_ = 0;
    panel_->plot()->clearPoints();
    panel_->setRunning(true);
    panel_->setProgressText(tr("Starting..."));
    context_->view()->setInteractionLines({});
    job_->start();
    tick_.start();
}

void DockPart::cancel() {
    if (job_)
        job_->cancel();
}

void DockPart::onTick() {
    if (!job_)
        return;
    const DockWatch& w = job_->watch();
    const long done = w.runsDone, total = w.runsTotal;
    if (w.mapsReady && !mapsAnnounced_) {
        mapsAnnounced_ = true;
        context_->statusBar()->showMessage(tr("Docking: maps ready"), 3000);
        updateMapsText();
    }
    if (total > 0)
        context_->jobs().setProgress(jobId_, done, total);
    DockWatch::Snapshot s;
    if (!w.changedSince(shownVersion_, &s))
        return;
    shownVersion_ = s.version;
    panel_->plot()->clearPoints();
    for (size_t g = 0; g < s.best.size(); ++g)
        panel_->plot()->addPoint(static_cast<double>(s.generation[g]), {s.best[g], s.mean[g]});
    panel_->setProgressText(tr("%1 of %2 runs done; best so far %3 kcal/mol (searched energy)")
                                .arg(done)
                                .arg(total)
                                .arg(s.bestEnergy, 0, 'f', 3));
    if (s.ligand.atoms.size() == s.bestCoordinates.size() && !s.bestCoordinates.empty()) {
        Molecule m = s.ligand;
        for (size_t i = 0; i < m.atoms.size(); ++i)
            m.atoms[i].position = s.bestCoordinates[i];
        showPose(m, false);
        ++liveRedraws_;
    }
}

void DockPart::onFinished(const DockJobResult& result) {
    onTick(); // the last generations on show
    tick_.stop();
    job_.release()->deleteLater(); // not deleted from inside its own signal
    context_->jobs().end(jobId_);
    panel_->setRunning(false);
    updateMapsText();
    if (!result.ok()) {
        // The previous results stay, shown as before.
        panel_->showOutcome(outcome_);
        if (!result.error.isEmpty()) {
            panel_->setProgressText(tr("Failed: %1").arg(result.error));
            context_->showError(result.error);
        } else {
            panel_->setProgressText(tr("Cancelled: the previous results stay"));
            context_->statusBar()->showMessage(tr("Docking cancelled: the previous results stay"),
                                               5000);
        }
        if (outcome_.empty())
            context_->showDocumentLigands();
        emit dockingFinished(false);
        return;
    }
    outcome_ = result.outcome;
    flexSetup_ = result.flexSetup;
    const QString summary =
        outcome_.empty() ? tr("Docked: no pose")
                         : tr("Docked on %1 in %2 s: best %3 kcal/mol, %4 clusters of %5 runs")
                               .arg(outcome_.device)
                               .arg(result.seconds, 0, 'f', 1)
                               .arg(outcome_.poses.front().score, 0, 'f', 3)
                               .arg(outcome_.poses.size())
                               .arg(outcome_.runs);
    // A GPU asked for but not usable: the CPU docked, and the line says why.
    const QString shown = result.deviceNote.isEmpty()
                              ? summary
                              : summary + QStringLiteral(" (%1)").arg(result.deviceNote);
    panel_->setProgressText(shown);
    context_->statusBar()->showMessage(shown, 8000);
    panel_->showOutcome(outcome_); // selects the best cluster: its pose is drawn
    emit dockingFinished(true);
}

void DockPart::showCluster(int row) {
    if (job_)
        return; // the live view owns the pose while a run goes
    if (row < 0 || row >= static_cast<int>(outcome_.poses.size())) {
        context_->showDocumentLigands();
        return;
    }
    const DockedPose& pose = outcome_.poses[static_cast<size_t>(row)];
    showPose(pose.molecule, true);
    showSideChains(pose);
}

const FlexSetup* DockPart::flexSetup() {
    if (outcome_.flexResidues.isEmpty())
        return nullptr;
    if (flexSetup_ && flexChoiceText(flexSetup_->specs) == outcome_.flexResidues)
        return flexSetup_.get();
    // Results read from a session: the side chains' model from the prepared receptor, once the
    // frame has it.
    const auto& target = context_->targets().current();
    if (!target || !context_->targets().ready())
        return nullptr;
    try {
        flexSetup_ = flexModelSetup(*target, parseFlexChoice(outcome_.flexResidues));
    } catch (const InputError& e) {
        context_->showError(
            tr("The docked side chains cannot be drawn: %1").arg(flexMessage(e.what())));
        return nullptr;
    }
    return flexSetup_.get();
}

void DockPart::showSideChains(const DockedPose& pose) {
    if (pose.flexCoordinates.empty())
        return; // a rigid docking leaves the view's highlights (the chosen residues) alone
    const FlexSetup* setup = flexSetup();
    if (!setup || static_cast<size_t>(setup->flex->atomCount()) != pose.flexCoordinates.size())
        return;
    context_->view()->setHighlights({flexSideChainsDrawing(*setup->flex, pose.flexCoordinates,
                                                           context_->document().receptor())});
    shownSideChains_ = pose.flexCoordinates;
}

void DockPart::showPose(const Molecule& ligand, bool withInteractions) {
    shownPose_ = ligand;
    MoleculeView* view = context_->view();
    view->setLigands({toDrawing(ligand, DrawStyle::Ligand)});
    if (!withInteractions)
        return;
    const auto& target = context_->targets().current();
    if (!target || !context_->targets().ready()) {
        view->setInteractionLines({});
        return;
    }
    // Poses read back from a session carry no XS types: type them as the scorer does.
    const bool typed = !ligand.atoms.empty() && ligand.atoms.front().xs != XsType::None;
    const Molecule m = typed ? ligand : preparedInPlace(ligand).value_or(ligand);
    view->setInteractionLines(interactionLines(*target, m));
}

void DockPart::refine(int row) {
    Document& document = context_->document();
    const int index = document.activeLigand();
    if (row < 0 || row >= static_cast<int>(outcome_.poses.size()) || index < 0 ||
        context_->jobs().ligandsLocked())
        return;
    const Molecule before = document.ligands()[static_cast<size_t>(index)];
    // The pose replaces the active ligand: only when that is the molecule that was docked (the
    // user may have picked another ligand since), else the list would hold a molecule twice
    // and lose one. The heavy-atom graphs decide, as the RMSD column's match does.
    const Molecule& pose = outcome_.poses[static_cast<size_t>(row)].molecule;
    try {
        const dock::SymmetryRmsd sameMolecule(pose, before);
    } catch (const std::exception&) { // InputError: not the same heavy-atom graph
        context_->showError(
            tr("The active ligand (%1) is not the docked molecule (%2): select the ligand that "
               "was docked, or use Add to ligands.")
                .arg(QString::fromStdString(before.name), outcome_.ligandName.isEmpty()
                                                              ? QString::fromStdString(pose.name)
                                                              : outcome_.ligandName));
        return;
    }
    context_->undoStack()->push(new LigandEditCommand(
        document, index, before, document.score(index),
        outcome_.poses[static_cast<size_t>(row)].molecule, std::nullopt, tr("Docked pose")));
    // Flexible side chains: minimization goes on from where this run left them, not from the
    // receptor's positions (a docked pose is only as good as its side chains).
    const std::vector<Vec3>& sideChains = outcome_.poses[static_cast<size_t>(row)].flexCoordinates;
    if (!sideChains.empty())
        context_->handSideChains(index, outcome_.flexResidues, sideChains);
    if (!context_->runStep(QStringLiteral("minimize"), [](bool) {}))
        context_->statusBar()->showMessage(
            tr("The docked pose is the ligand's now (this build has no minimization)"), 5000);
}

QString DockPart::sideChainsPathFor(const QString& sdfPath) {
    const QFileInfo info(sdfPath);
    return info.dir().filePath(info.completeBaseName() + QStringLiteral("_flex.pdbqt"));
}

bool DockPart::exportTo(const QString& path) {
    const bool withSideChains = !outcome_.flexResidues.isEmpty();
    try {
        // Flexible side chains go beside the SDF as `dock --flex-residues --out` puts them
        // (OUT_flex.pdbqt, one MODEL per pose in the SDF's order); both files or neither.
        std::optional<AtomicFile> sideChains;
        if (withSideChains) {
            const FlexSetup* setup = flexSetup();
            if (!setup)
                throw InputError(path.toStdString(), 0,
                                 "the docked side chains are not known yet (the receptor is "
                                 "being prepared): try again in a moment");
            sideChains.emplace(sideChainsPathFor(path).toStdString());
            writeSideChains(sideChains->stream(), *setup->flex);
        }
        exportRankedSdf(outcome_, path);
        if (sideChains)
            sideChains->commit();
    } catch (const InputError& e) {
        context_->showError(QString::fromStdString(e.what()));
        return false;
    }
    context_->setLastDirectory(QFileInfo(path).absolutePath());
    context_->statusBar()->showMessage(
        withSideChains ? tr("Wrote %1 docked poses to %2, their side chains to %3")
                             .arg(outcome_.poses.size())
                             .arg(path, sideChainsPathFor(path))
                       : tr("Wrote %1 docked poses to %2").arg(outcome_.poses.size()).arg(path),
        5000);
    return true;
}

void DockPart::writeSideChains(std::ostream& out, const FlexModel& flex) const {
    for (size_t k = 0; k < outcome_.poses.size(); ++k) {
        const DockedPose& p = outcome_.poses[k];
        if (static_cast<int>(p.flexCoordinates.size()) != flex.atomCount())
            throw InputError(outcome_.ligandName.toStdString(), 0,
                             "docked pose " + std::to_string(k + 1) +
                                 ": its side chains do not match " +
                                 outcome_.flexResidues.toStdString());
        out << "MODEL " << k + 1 << "\n";
        out << "REMARK posewright Docking panel: " << outcome_.ligandName.toStdString() << ", run "
            << p.run << ", affinity " << QString::number(p.score, 'f', 3).toStdString() << "\n";
        for (int r = 0; r < flex.residueCount(); ++r) {
            const FlexResidue& residue = flex.residue(r);
            const auto begin = p.flexCoordinates.begin() + flex.atomOffset(r);
            out << residue.blockWith(
                std::vector<Vec3>(begin, begin + static_cast<long>(residue.mol.atoms.size())));
        }
        out << "ENDMDL\n";
    }
}

bool DockPart::addToLigands(const QString& path) {
    Document& document = context_->document();
    if (context_->jobs().ligandsLocked() || !exportTo(path))
        return false;
    // Read back as any ligand file is: a session reopens them from this file.
    const LoadResult r = loadMolecules({path}, LoadKind::Ligands);
    if (!r.ok()) {
        context_->showError(r.error);
        return false;
    }
    // One undo step, as every change of the document: the ligands already there keep their
    // places, scores and recorded minimizations; the first docked pose becomes the active one.
    LigandListCommand::State before = LigandListCommand::stateOf(document);
    LigandListCommand::State after = before;
    after.active = static_cast<int>(after.ligands.size());
    for (const Molecule& m : r.molecules) {
        after.ligands.push_back(m);
        after.scores.emplace_back();
        after.trajectories.emplace_back();
    }
    after.paths << path;
    context_->undoStack()->push(new LigandListCommand(
        document, std::move(before), std::move(after),
        tr("Add %n docked pose(s)", nullptr, static_cast<int>(r.molecules.size()))));
    return true;
}

QJsonObject DockPart::saveState(const QDir& sessionDir) const {
    Q_UNUSED(sessionDir);
    // Nothing to keep (the panel as it starts, no results): no piece at all.
    QJsonObject o;
    if (const QJsonObject settings = panel_->settings().toJson();
        settings != DockSettings{}.toJson())
        o["settings"] = settings;
    if (!outcome_.empty())
        o["results"] = outcomeToJson(outcome_);
    return o;
}

void DockPart::restoreState(const QJsonObject& state, const QDir& sessionDir) {
    cancel();
    // The frame puts a session's box in place with the document's signals held (one target
    // build): the panel's fields and folded line show it from here.
    if (const auto& box = context_->document().box())
        panel_->boxEditor()->showBox(*box);
    panel_->setBoxSummary(context_->document().box());
    panel_->setSettings(DockSettings::fromJson(state["settings"].toObject()));
    outcome_ = {};
    flexSetup_.reset();
    if (state.contains("results")) {
        try {
            outcome_ = outcomeFromJson(state["results"].toObject(), sessionDir.absolutePath());
        } catch (const InputError& e) {
            context_->showError(QString::fromStdString(e.what()));
        }
    }
    panel_->setProgressText(outcome_.empty() ? QString() : tr("Docking results from the session"));
    {
        // The session's ligands are drawn by the frame; a cluster is drawn when selected.
        const QSignalBlocker block(panel_);
        panel_->showOutcome(outcome_);
        panel_->selectRow(-1);
    }
    if (!outcome_.empty()) {
        dock_->show();
        dock_->raise();
    }
    updateMapsText();
}

} // namespace pw
