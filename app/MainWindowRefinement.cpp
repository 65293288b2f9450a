// MainWindow's refinement side: grid maps on a worker, live scoring of the shown pose, the
// minimization job with its live frames, the energy plot and table, and the trajectory player.
#include "MainWindow.h"

#include "EnergyPlot.h"
#include "InteractionLines.h"
#include "LigandEditCommand.h"
#include "MoleculeDrawings.h"
#include "MoleculeView.h"
#include "SettingsPanel.h"
#include "TrajectoryPlayer.h"
#include "core/InputError.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QStatusBar>
#include <QTableWidget>
#include <QThread>
#include <QToolButton>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

namespace pw {
namespace {

// Series of the energy plot: the objective, then Vina's weighted intermolecular terms, then the
// intramolecular energy.
const QStringList& seriesNames() {
    static const QStringList names = {QStringLiteral("inter + intra"), QStringLiteral("gauss1"),
                                      QStringLiteral("gauss2"),        QStringLiteral("repulsion"),
                                      QStringLiteral("hydrophobic"),   QStringLiteral("hbond"),
                                      QStringLiteral("intra")};
    return names;
}

std::vector<double> seriesValues(const TrajectoryPoint& p) {
    std::vector<double> v{p.energy};
    for (int t = 0; t < kScoreTermCount; ++t)
        v.push_back(p.interTerms[t]);
    v.push_back(p.intra);
    return v;
}

struct TargetBuild {
    std::shared_ptr<const ScoringTarget> target;
    QString error;
};

} // namespace

void MainWindow::initEnergyPlot() {
    plot_->setSeries(seriesNames(),
                     {QColor(250, 250, 250), QColor(90, 170, 255), QColor(120, 120, 255),
                      QColor(255, 90, 90), QColor(120, 220, 120), QColor(255, 210, 60),
                      QColor(200, 130, 255)});
    // The total alone at first: the terms are one click away in the table.
    for (int i = 1; i < plot_->seriesCount(); ++i)
        plot_->setSeriesVisible(i, false);
    connect(termTable_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        const int series = item->data(Qt::UserRole).toInt();
        if (item->column() == 0 && series > 0)
            plot_->setSeriesVisible(series, item->checkState() == Qt::Checked);
    });
}

bool MainWindow::busy() const {
    return job_ != nullptr || batchJob_ != nullptr || targetBuilding_ || restoringSession_;
}

bool MainWindow::targetReady() const {
    return target_ && document_.hasReceptor() && document_.box() &&
           target_->matches(document_.receptorGeneration(), *document_.box(), document_.scoring());
}

void MainWindow::setBusy(const QString& message, bool determinate) {
    statusBar()->showMessage(message);
    progress_->setRange(0, determinate ? 100 : 0);
    progress_->setVisible(true);
    cancelButton_->setVisible(true);
    cancelAction_->setEnabled(true);
}

void MainWindow::clearBusy() {
    if (busy())
        return;
    progress_->setVisible(false);
    cancelButton_->setVisible(false);
    cancelAction_->setEnabled(false);
    statusBar()->clearMessage();
}

void MainWindow::requestTarget() {
    if (!document_.hasReceptor() || !document_.box() || targetReady())
        return;
    const int generation = ++targetGeneration_;
    targetBuilding_ = true;
    setBusy(tr("Preparing the receptor and its grid maps..."), false);
    const Molecule receptor = document_.receptor();
    const int receptorGeneration = document_.receptorGeneration();
    const SearchBox box = *document_.box();
    const ScoringKind kind = document_.scoring();
    // Leave one core to the GUI.
    const int threads = std::max(1, QThread::idealThreadCount() - 1);
    auto* watcher = new QFutureWatcher<TargetBuild>(this);
    connect(watcher, &QFutureWatcher<TargetBuild>::finished, this, [this, watcher, generation] {
        TargetBuild b = watcher->result();
        watcher->deleteLater();
        onTargetBuilt(b.target, b.error, generation);
    });
    watcher->setFuture(QtConcurrent::run([=] {
        TargetBuild b;
        try {
            b.target = buildScoringTarget(receptor, receptorGeneration, box, kind, threads);
        } catch (const std::exception& e) {
            b.error = QString::fromStdString(e.what());
        }
        return b;
    }));
}

void MainWindow::onTargetBuilt(std::shared_ptr<const ScoringTarget> target, QString error,
                               int generation) {
    if (generation != targetGeneration_)
        return; // superseded (new receptor, box or scoring) or cancelled
    targetBuilding_ = false;
    clearBusy();
    if (!error.isEmpty()) {
        const bool batchWaited = refineWhenReady_;
        minimizeWhenReady_ = refineWhenReady_ = false;
        showError(error);
        emit targetBuilt(false);
        if (batchWaited)
            emit batchRefinementFinished(false);
        return;
    }
    target_ = std::move(target);
    // Scores of the old target no longer hold (one update for the whole list; the active
    // ligand is rescored as it is shown again).
    document_.clearScores();
    rescoreActiveLigand();
    emit targetBuilt(true);
    if (minimizeWhenReady_) {
        minimizeWhenReady_ = false;
        startMinimization();
    } else if (refineWhenReady_) {
        refineWhenReady_ = false;
        refineAll();
    }
}

void MainWindow::onBoxChanged() {
    const auto& box = document_.box();
    if (box) {
        view_->setBox(DrawBox{{box->center.x(), box->center.y(), box->center.z()},
                              {box->size.x(), box->size.y(), box->size.z()}});
        settings_->showBox(*box);
    } else {
        view_->setBox(std::nullopt);
    }
    requestTarget();
}

void MainWindow::setBoxAroundLigand(double margin) {
    const int active = document_.activeLigand();
    if (active < 0)
        return;
    document_.setBox(autoboxSmina(document_.ligands()[static_cast<size_t>(active)], margin),
                     BoxSource::Ligand);
}

void MainWindow::setBoxAroundResidues(const QString& residues, double margin) {
    if (!document_.hasReceptor())
        return;
    const Molecule& receptor = document_.receptor();
    Molecule selection;
    QStringList missing;
    for (QString item : residues.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        item = item.trimmed();
        QChar chain;
        if (item.size() > 2 && item[1] == QLatin1Char(':')) {
            chain = item[0];
            item = item.mid(2);
        }
        bool ok = false;
        const int number = item.toInt(&ok);
        int found = 0;
        for (const Atom& a : receptor.atoms) {
            if (!ok || a.residue < 0)
                continue;
            const Residue& r = receptor.residues[static_cast<size_t>(a.residue)];
            if (r.number == number && (chain.isNull() || QChar(r.chain) == chain)) {
                selection.atoms.push_back(a);
                ++found;
            }
        }
        if (found == 0)
            missing << (chain.isNull() ? QString() : QString(chain) + QLatin1Char(':')) + item;
    }
    if (!missing.isEmpty() || selection.atoms.empty()) {
        showError(tr("No residue %1 in %2: residues are given as numbers with an optional "
                     "chain, e.g. \"A:23, A:27, 43\".")
                      .arg(missing.isEmpty() ? residues : missing.join(QStringLiteral(", ")),
                           QFileInfo(document_.receptorPath()).fileName()));
        return;
    }
    document_.setBox(autoboxSmina(selection, margin), BoxSource::Typed);
}

void MainWindow::rescoreActiveLigand() {
    const int active = document_.activeLigand();
    if (active < 0 || job_ || active >= static_cast<int>(document_.ligands().size())) {
        showTerms(nullptr, nullptr);
        return;
    }
    const Molecule& ligand = document_.ligands()[static_cast<size_t>(active)];
    if (targetReady()) {
        if (std::optional<Molecule> prepared = preparedInPlace(ligand)) {
            if (!document_.score(active)) {
                // Emits ligandChanged, which calls back here with the score set.
                document_.setScore(active, scorePose(*target_, *prepared));
                return;
            }
            view_->setInteractionLines(interactionLines(*target_, *prepared));
        }
    } else {
        view_->setInteractionLines({});
    }
    const auto& s = document_.score(active);
    showTerms(s ? &*s : nullptr, nullptr);
}

void MainWindow::showTerms(const VinaScore* score, const TrajectoryPoint* point) {
    const QSignalBlocker block(termTable_);
    termTable_->setRowCount(0);
    auto add = [this](const QString& name, double value, int series) {
        const int row = termTable_->rowCount();
        termTable_->insertRow(row);
        auto* item = new QTableWidgetItem(name);
        item->setData(Qt::UserRole, series);
        if (series > 0) {
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(plot_->seriesVisible(series) ? Qt::Checked : Qt::Unchecked);
        }
        termTable_->setItem(row, 0, item);
        termTable_->setItem(row, 1, new QTableWidgetItem(QString::number(value, 'f', 3)));
    };
    if (point) {
        add(tr("Energy (inter + intra)"), point->energy, -1);
        for (int t = 0; t < kScoreTermCount; ++t)
            add(tr("  %1 (inter)").arg(QString::fromLatin1(scoreTermName(t).data())),
                point->interTerms[t], t + 1);
        add(tr("Intramolecular"), point->intra, kScoreTermCount + 1);
        return;
    }
    if (!score)
        return;
    add(tr("Affinity"), score->affinity, -1);
    add(tr("Intermolecular"), score->inter, -1);
    for (int t = 0; t < kScoreTermCount; ++t)
        add(tr("  %1").arg(QString::fromLatin1(scoreTermName(t).data())),
            score->terms.interWeighted[t], t + 1);
    add(tr("Intramolecular"), score->intra, kScoreTermCount + 1);
    add(tr("Torsional"), score->torsional, -1);
}

void MainWindow::minimize() {
    if (job_ || batchJob_)
        return; // one at a time; the actions are disabled meanwhile
    if (document_.activeLigand() < 0) {
        showError(tr("Open a ligand to minimize."));
        emit minimizationFinished(false);
        return;
    }
    if (!document_.hasReceptor() || !document_.box()) {
        showError(tr("Minimizing needs a receptor and a search box."));
        emit minimizationFinished(false);
        return;
    }
    if (!targetReady()) {
        minimizeWhenReady_ = true;
        refineWhenReady_ = false;
        requestTarget();
        return;
    }
    startMinimization();
}

void MainWindow::startMinimization() {
    jobLigand_ = document_.activeLigand();
    if (jobLigand_ < 0 || !targetReady()) {
        emit minimizationFinished(false);
        return;
    }
    trajectory_.clear();
    trajectoryLigand_ = document_.ligands()[static_cast<size_t>(jobLigand_)];
    plot_->clearPoints();
    player_->setFrameCount(0);
    trajectoryNote_->setText(tr("Watched minimization (CPU reference, every accepted step)"));
    job_ = std::make_unique<MinimizeJob>(target_, trajectoryLigand_, settings_->livePaceMs());
    connect(job_.get(), &MinimizeJob::prepared, this, &MainWindow::onJobPrepared);
    connect(job_.get(), &MinimizeJob::frame, this, &MainWindow::onJobFrame);
    connect(job_.get(), &MinimizeJob::finished, this, &MainWindow::onJobFinished);
    minimizeAction_->setEnabled(false);
    refineAllAction_->setEnabled(false);
    // Said every time: the Device setting is for batches, this one is watched on the CPU.
    setBusy(tr("Minimizing on the CPU reference (watched step by step)..."), false);
    view_->setInteractionLines({});
    job_->start();
}

void MainWindow::onJobPrepared(const Molecule& ligand) {
    trajectoryLigand_ = ligand;
}

void MainWindow::onJobFrame(const TrajectoryPoint& point) {
    if (point.coordinates.size() != trajectoryLigand_.atoms.size())
        return;
    trajectory_.push_back(point);
    plot_->addPoint(point.iteration, seriesValues(point));
    showPose(trajectoryLigand_, &point.coordinates);
    showTerms(nullptr, &point);
    statusBar()->showMessage(
        tr("Minimizing: step %1, %2 kcal/mol").arg(point.iteration).arg(point.energy, 0, 'f', 3));
}

void MainWindow::onJobFinished(const MinimizeJobResult& result) {
    // The job object must not be deleted from inside its own signal.
    job_.release()->deleteLater();
    minimizeAction_->setEnabled(true);
    refineAllAction_->setEnabled(true);
    clearBusy();
    const int index = jobLigand_;
    jobLigand_ = -1;
    if (!result.ok() || index < 0 || index >= static_cast<int>(document_.ligands().size())) {
        // The partial run stays on show (not in the document: it does not lead to its pose).
        trajectory_ = result.trajectory;
        plot_->clearPoints();
        for (const TrajectoryPoint& p : trajectory_)
            plot_->addPoint(p.iteration, seriesValues(p));
        player_->setFrameCount(static_cast<int>(trajectory_.size()));
        if (!result.error.isEmpty())
            showError(result.error);
        else
            statusBar()->showMessage(tr("Minimization cancelled: the pose is unchanged"), 5000);
        showSelectedLigands(); // back to the document's pose
        emit minimizationFinished(false);
        return;
    }
    // The whole trajectory (the live frames were a sample of it when unpaced) is the ligand's
    // now: the plot and player show it whenever the ligand is active, and sessions keep it.
    document_.setTrajectory(index, LigandTrajectory{trajectoryLigand_, result.trajectory, {}});
    if (index != document_.activeLigand())
        showActiveTrajectory();
    else
        player_->setFrameCount(static_cast<int>(trajectory_.size())); // shows the last frame
    const Molecule before = document_.ligands()[static_cast<size_t>(index)];
    const std::optional<VinaScore> beforeScore = document_.score(index);
    undo_->push(new LigandEditCommand(document_, index, before, beforeScore, result.ligand,
                                      result.refinement.score, tr("Minimize")));
    statusBar()->showMessage(
        tr("Minimized on the CPU in %1 steps: %2 kcal/mol (from %3), RMSD %4 Å")
            .arg(result.refinement.iterations)
            .arg(result.refinement.score.affinity, 0, 'f', 3)
            .arg(result.refinement.start.affinity, 0, 'f', 3)
            .arg(result.refinement.rmsdFromStart, 0, 'f', 2),
        8000);
    emit minimizationFinished(true);
}

void MainWindow::cancelJob() {
    if (refineWhenReady_) {
        refineWhenReady_ = false;
        emit batchRefinementFinished(false);
    }
    minimizeWhenReady_ = false;
    if (job_) {
        job_->cancel(); // finished() arrives with cancelled set
        return;
    }
    if (batchJob_) {
        batchJob_->cancel(); // the same, for every pose of the batch
        return;
    }
    if (restoringSession_) {
        ++sessionGeneration_; // the files are read to their end; the session is not applied
        restoringSession_ = false;
        clearBusy();
        statusBar()->showMessage(tr("Opening the session cancelled"), 5000);
    }
    if (targetBuilding_) {
        ++targetGeneration_; // the build runs to its end; its result is dropped
        targetBuilding_ = false;
        clearBusy();
        statusBar()->showMessage(tr("Grid building cancelled"), 5000);
    }
}

void MainWindow::showTrajectoryFrame(int frame) {
    if (frame < 0 || frame >= static_cast<int>(trajectory_.size()) || job_)
        return;
    const TrajectoryPoint& p = trajectory_[static_cast<size_t>(frame)];
    plot_->setMarker(frame);
    if (p.coordinates.size() != trajectoryLigand_.atoms.size())
        return;
    showPose(trajectoryLigand_, &p.coordinates);
    showTerms(nullptr, &p);
}

void MainWindow::showActiveTrajectory() {
    if (job_)
        return; // the running minimization owns the plot until it ends
    const int active = document_.activeLigand();
    const LigandTrajectory& t = document_.trajectory(active);
    trajectory_ = t.points;
    trajectoryLigand_ = t.ligand;
    plot_->clearPoints();
    for (const TrajectoryPoint& p : trajectory_)
        plot_->addPoint(p.iteration, seriesValues(p));
    {
        // The document's pose stays on show (the last frame is that pose when nothing moved it).
        const QSignalBlocker block(player_);
        player_->setFrameCount(static_cast<int>(trajectory_.size()));
    }
    plot_->setMarker(static_cast<int>(trajectory_.size()) - 1);
    if (!t.batchDevice.isEmpty())
        trajectoryNote_->setText(tr("Batch result (%1): a batch records no steps; Minimize pose "
                                    "watches one on the CPU")
                                     .arg(t.batchDevice));
    else if (!t.points.empty())
        trajectoryNote_->setText(
            t.points.size() == 2
                ? tr("Watched minimization (CPU reference): 1 step")
                : tr("Watched minimization (CPU reference): %1 steps").arg(t.points.size() - 1));
    else
        trajectoryNote_->clear();
}

void MainWindow::updateDeviceTips(const QString& backend) {
    minimizeAction_->setStatusTip(tr("Minimize the active ligand in the pocket, watched step by "
                                     "step on the CPU reference (batch refinement uses %1)")
                                      .arg(backend));
    minimizeAction_->setToolTip(minimizeAction_->statusTip());
    refineAllAction_->setStatusTip(
        tr("Minimize every loaded ligand in one batch on %1 (the Device setting)").arg(backend));
    refineAllAction_->setToolTip(refineAllAction_->statusTip());
}

void MainWindow::showPose(const Molecule& ligand, const std::vector<Vec3>* coordinates) {
    Molecule m = ligand;
    if (coordinates)
        for (size_t i = 0; i < m.atoms.size() && i < coordinates->size(); ++i)
            m.atoms[i].position = (*coordinates)[i];
    view_->setLigands({toDrawing(m, DrawStyle::Ligand)});
    if (target_ && !job_)
        view_->setInteractionLines(interactionLines(*target_, m));
}

} // namespace pw
