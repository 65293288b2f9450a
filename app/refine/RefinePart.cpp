#include "RefinePart.h"

#include "Document.h"
#include "EnergyPlot.h"
#include "InteractionLines.h"
#include "JobRunner.h"
#include "LigandEditCommand.h"
#include "MoleculeDrawings.h"
#include "MoleculeView.h"
#include "SettingsPanel.h"
#include "TargetBuilder.h"
#include "TrajectoryPlayer.h"
#include "parts/PartContext.h"

#include <QAction>
#include <QDockWidget>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QMainWindow>
#include <QStatusBar>
#include <QStyle>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>

POSEWRIGHT_REGISTER_PART(refine, pw::RefinePart)

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

} // namespace

RefinePart::~RefinePart() {
    job_.reset(); // cancels and waits for the worker before the document goes
}

void RefinePart::install(PartContext& context) {
    context_ = &context;
    QMainWindow* window = context.window();
    const QIcon icon = QIcon::fromTheme(QStringLiteral("media-playback-start"),
                                        window->style()->standardIcon(QStyle::SP_MediaPlay));
    minimizeAction_ = new QAction(icon, tr("&Minimize pose"), window);
    minimizeAction_->setObjectName(QStringLiteral("minimizeAction"));
    minimizeAction_->setShortcut(QKeySequence(tr("Ctrl+M")));
    connect(minimizeAction_, &QAction::triggered, this, &RefinePart::minimize);
    context.addAction(PartMenu::Refine, minimizeAction_, true);
    connect(&context.jobs(), &JobRunner::ligandsLockedChanged, minimizeAction_,
            [this](bool locked) { minimizeAction_->setEnabled(!locked); });
    updateDeviceTips();
    createEnergyDock();

    Document& document = context.document();
    connect(&document, &Document::activeLigandChanged, this, [this] {
        showActiveTrajectory();
        showActiveScore();
    });
    connect(&document, &Document::trajectoryChanged, this, [this](int index) {
        if (index == context_->document().activeLigand())
            showActiveTrajectory();
    });
    connect(&document, &Document::ligandsChanged, this, [this] {
        trajectory_.clear();
        showActiveTrajectory();
        showActiveScore();
    });
    connect(&document, &Document::ligandChanged, this, &RefinePart::showActiveScore);
    connect(&document, &Document::ligandsUpdated, this, &RefinePart::showActiveScore);
    connect(&document, &Document::deviceChanged, this, &RefinePart::updateDeviceTips);
}

void RefinePart::createEnergyDock() {
    QMainWindow* window = context_->window();
    auto* energyDock = new QDockWidget(tr("Energy"), window);
    energyDock->setObjectName(QStringLiteral("energyDock"));
    auto* energy = new QWidget(energyDock);
    auto* layout = new QVBoxLayout(energy);
    layout->setContentsMargins(2, 2, 2, 2);
    trajectoryNote_ = new QLabel(energy);
    trajectoryNote_->setObjectName(QStringLiteral("trajectoryNote"));
    trajectoryNote_->setWordWrap(true);
    layout->addWidget(trajectoryNote_);
    plot_ = new EnergyPlot(energy);
    layout->addWidget(plot_, 3);
    player_ = new TrajectoryPlayer(energy);
    layout->addWidget(player_);
    termTable_ = new QTableWidget(0, 2, energy);
    termTable_->setObjectName(QStringLiteral("termTable"));
    termTable_->setHorizontalHeaderLabels({tr("Term"), tr("kcal/mol")});
    termTable_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    termTable_->horizontalHeader()->setStretchLastSection(true);
    termTable_->verticalHeader()->hide();
    termTable_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    termTable_->setToolTip(tr("Vina's terms for the pose shown (check a term to plot it)"));
    layout->addWidget(termTable_, 2);
    energyDock->setWidget(energy);
    context_->addDock(energyDock, Qt::RightDockWidgetArea, false);
    window->resizeDocks({energyDock}, {440}, Qt::Horizontal);

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
    connect(player_, &TrajectoryPlayer::frameChanged, this, &RefinePart::showTrajectoryFrame);
}

bool RefinePart::runStep(const QString& step, const std::function<void(bool ok)>& done) {
    if (step != QLatin1String("minimize"))
        return false;
    connect(
        this, &RefinePart::minimizationFinished, this, [done](bool ok) { done(ok); },
        Qt::SingleShotConnection);
    minimize();
    return true;
}

void RefinePart::minimize() {
    Document& document = context_->document();
    if (context_->jobs().ligandsLocked())
        return; // one at a time; the actions are disabled meanwhile
    if (document.activeLigand() < 0) {
        context_->showError(tr("Open a ligand to minimize."));
        emit minimizationFinished(false);
        return;
    }
    if (!document.hasReceptor() || !document.box()) {
        context_->showError(tr("Minimizing needs a receptor and a search box."));
        emit minimizationFinished(false);
        return;
    }
    // Starts when the grid maps are built (at once when they are); cancelled with them.
    context_->targets().whenReady(this, [this](bool ok) {
        if (ok)
            startMinimization();
        else
            emit minimizationFinished(false);
    });
}

void RefinePart::startMinimization() {
    Document& document = context_->document();
    jobLigand_ = document.activeLigand();
    if (jobLigand_ < 0 || !context_->targets().ready() || context_->jobs().ligandsLocked()) {
        emit minimizationFinished(false);
        return;
    }
    trajectory_.clear();
    trajectoryLigand_ = document.ligands()[static_cast<size_t>(jobLigand_)];
    plot_->clearPoints();
    player_->setFrameCount(0);
    trajectoryNote_->setText(tr("Watched minimization (CPU reference, every accepted step)"));
    job_ = std::make_unique<MinimizeJob>(context_->targets().current(), trajectoryLigand_,
                                         context_->settings()->livePaceMs());
    connect(job_.get(), &MinimizeJob::prepared, this, &RefinePart::onJobPrepared);
    connect(job_.get(), &MinimizeJob::frame, this, &RefinePart::onJobFrame);
    connect(job_.get(), &MinimizeJob::finished, this, &RefinePart::onJobFinished);
    // Said every time: the Device setting is for batches, this one is watched on the CPU.
    jobId_ = context_->jobs().begin(tr("Minimizing on the CPU reference (watched step by step)..."),
                                    false, JobRunner::Kind::MovesLigands, [this] {
                                        if (job_)
                                            job_->cancel(); // finished() arrives, cancelled
                                    });
    context_->view()->setInteractionLines({});
    job_->start();
}

void RefinePart::onJobPrepared(const Molecule& ligand) {
    trajectoryLigand_ = ligand;
}

void RefinePart::onJobFrame(const TrajectoryPoint& point) {
    if (point.coordinates.size() != trajectoryLigand_.atoms.size())
        return;
    trajectory_.push_back(point);
    plot_->addPoint(point.iteration, seriesValues(point));
    showPose(trajectoryLigand_, &point.coordinates);
    showTerms(nullptr, &point);
    context_->statusBar()->showMessage(
        tr("Minimizing: step %1, %2 kcal/mol").arg(point.iteration).arg(point.energy, 0, 'f', 3));
}

void RefinePart::onJobFinished(const MinimizeJobResult& result) {
    // The job object must not be deleted from inside its own signal.
    job_.release()->deleteLater();
    context_->jobs().end(jobId_);
    Document& document = context_->document();
    const int index = jobLigand_;
    jobLigand_ = -1;
    if (!result.ok() || index < 0 || index >= static_cast<int>(document.ligands().size())) {
        // The partial run stays on show (not in the document: it does not lead to its pose).
        trajectory_ = result.trajectory;
        plot_->clearPoints();
        for (const TrajectoryPoint& p : trajectory_)
            plot_->addPoint(p.iteration, seriesValues(p));
        player_->setFrameCount(static_cast<int>(trajectory_.size()));
        if (!result.error.isEmpty())
            context_->showError(result.error);
        else
            context_->statusBar()->showMessage(tr("Minimization cancelled: the pose is unchanged"),
                                               5000);
        context_->showDocumentLigands(); // back to the document's pose
        emit minimizationFinished(false);
        return;
    }
    // The whole trajectory (the live frames were a sample of it when unpaced) is the ligand's
    // now: the plot and player show it whenever the ligand is active, and sessions keep it.
    document.setTrajectory(index, LigandTrajectory{trajectoryLigand_, result.trajectory, {}});
    if (index != document.activeLigand())
        showActiveTrajectory();
    else
        player_->setFrameCount(static_cast<int>(trajectory_.size())); // shows the last frame
    const Molecule before = document.ligands()[static_cast<size_t>(index)];
    const std::optional<VinaScore> beforeScore = document.score(index);
    context_->undoStack()->push(new LigandEditCommand(document, index, before, beforeScore,
                                                      result.ligand, result.refinement.score,
                                                      tr("Minimize")));
    context_->statusBar()->showMessage(
        tr("Minimized on the CPU in %1 steps: %2 kcal/mol (from %3), RMSD %4 Å")
            .arg(result.refinement.iterations)
            .arg(result.refinement.score.affinity, 0, 'f', 3)
            .arg(result.refinement.start.affinity, 0, 'f', 3)
            .arg(result.refinement.rmsdFromStart, 0, 'f', 2),
        8000);
    emit minimizationFinished(true);
}

void RefinePart::showTrajectoryFrame(int frame) {
    if (frame < 0 || frame >= static_cast<int>(trajectory_.size()) || job_)
        return;
    const TrajectoryPoint& p = trajectory_[static_cast<size_t>(frame)];
    plot_->setMarker(frame);
    if (p.coordinates.size() != trajectoryLigand_.atoms.size())
        return;
    showPose(trajectoryLigand_, &p.coordinates);
    showTerms(nullptr, &p);
}

void RefinePart::showActiveTrajectory() {
    if (job_)
        return; // the running minimization owns the plot until it ends
    const Document& document = context_->document();
    const LigandTrajectory& t = document.trajectory(document.activeLigand());
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

void RefinePart::showActiveScore() {
    if (job_)
        return; // the running minimization shows its steps' terms
    const Document& document = context_->document();
    const int active = document.activeLigand();
    const bool valid = active >= 0 && active < static_cast<int>(document.ligands().size());
    const auto& s = document.score(valid ? active : -1);
    showTerms(valid && s ? &*s : nullptr, nullptr);
}

void RefinePart::showTerms(const VinaScore* score, const TrajectoryPoint* point) {
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

void RefinePart::showPose(const Molecule& ligand, const std::vector<Vec3>* coordinates) {
    Molecule m = ligand;
    if (coordinates)
        for (size_t i = 0; i < m.atoms.size() && i < coordinates->size(); ++i)
            m.atoms[i].position = (*coordinates)[i];
    MoleculeView* view = context_->view();
    view->setLigands({toDrawing(m, DrawStyle::Ligand)});
    if (const auto& target = context_->targets().current(); target && !job_)
        view->setInteractionLines(interactionLines(*target, m));
}

void RefinePart::updateDeviceTips() {
    minimizeAction_->setStatusTip(tr("Minimize the active ligand in the pocket, watched step by "
                                     "step on the CPU reference (batch refinement uses %1)")
                                      .arg(context_->deviceDescription()));
    minimizeAction_->setToolTip(minimizeAction_->statusTip());
}

} // namespace pw
