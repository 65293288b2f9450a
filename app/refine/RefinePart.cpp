#include "RefinePart.h"

#include "Document.h"
#include "EnergyPlot.h"
#include "FlexDrawings.h"
#include "FlexResiduePanel.h"
#include "InteractionLines.h"
#include "JobRunner.h"
#include "LigandEditCommand.h"
#include "MoleculeDrawings.h"
#include "MoleculeView.h"
#include "SettingsPanel.h"
#include "TargetBuilder.h"
#include "TrajectoryPlayer.h"
#include "parts/PartContext.h"

#include "chem/AtomicFile.h"
#include "core/InputError.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QHeaderView>
#include <QIcon>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QStatusBar>
#include <QStyle>
#include <QTableWidget>
#include <QUndoCommand>
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

// A session's numbers: x, y, z of each point, and Vina's parts of a flexible score.
QJsonArray pointsToJson(const std::vector<Vec3>& points) {
    QJsonArray a;
    for (const Vec3& p : points)
        a << p.x() << p.y() << p.z();
    return a;
}

std::vector<Vec3> pointsFromJson(const QJsonValue& v, const char* what) {
    const QJsonArray a = v.toArray();
    if (!v.isArray() || a.isEmpty() || a.size() % 3 != 0)
        throw InputError("session", 0,
                         std::string("\"flexResults\": ") + what +
                             ": expected x, y, z numbers of every atom");
    std::vector<Vec3> out;
    for (qsizetype i = 0; i + 2 < a.size(); i += 3) {
        if (!a[i].isDouble() || !a[i + 1].isDouble() || !a[i + 2].isDouble())
            throw InputError("session", 0,
                             std::string("\"flexResults\": ") + what + ": expected numbers");
        out.emplace_back(a[i].toDouble(), a[i + 1].toDouble(), a[i + 2].toDouble());
    }
    return out;
}

QJsonArray flexScoreToJson(const FlexScore& s) {
    return {s.affinity,     s.ligandReceptor, s.ligandFlex, s.ligandIntra,
            s.flexReceptor, s.flexFlex,       s.torsional,  s.unbound};
}

FlexScore flexScoreFromJson(const QJsonValue& v) {
    const QJsonArray a = v.toArray();
    if (a.size() != 8)
        throw InputError("session", 0,
                         "\"flexResults\": a score: expected 8 numbers (affinity, "
                         "ligand-receptor, ligand-flex, ligand, flex-receptor, flex-flex, "
                         "torsional, unbound)");
    for (const QJsonValue& x : a)
        if (!x.isDouble())
            throw InputError("session", 0, "\"flexResults\": a score: expected numbers");
    FlexScore s;
    s.affinity = a[0].toDouble();
    s.ligandReceptor = a[1].toDouble();
    s.ligandFlex = a[2].toDouble();
    s.ligandIntra = a[3].toDouble();
    s.flexReceptor = a[4].toDouble();
    s.flexFlex = a[5].toDouble();
    s.torsional = a[6].toDouble();
    s.unbound = a[7].toDouble();
    return s;
}

} // namespace

// One undo step: the flexible residues before and after a change of the choice.
class FlexChoiceCommand : public QUndoCommand {
public:
    FlexChoiceCommand(RefinePart& part, std::vector<FlexResidueSpec> after, QStringList labels)
        : part_(part), before_(part.flexSpecs_), beforeLabels_(part.flexLabels_),
          after_(std::move(after)), afterLabels_(std::move(labels)) {
        setText(QObject::tr("Flexible residues"));
    }
    void undo() override { part_.applyFlexChoice(before_, beforeLabels_); }
    void redo() override { part_.applyFlexChoice(after_, afterLabels_); }

private:
    RefinePart& part_;
    std::vector<FlexResidueSpec> before_;
    QStringList beforeLabels_;
    std::vector<FlexResidueSpec> after_;
    QStringList afterLabels_;
};

RefinePart::~RefinePart() {
    job_.reset(); // cancels and waits for the worker before the document goes
}

void RefinePart::install(PartContext& context) {
    context.setFlexResidueSource([this] { return flexResidueText(); });
    context.setSideChainsTaker(
        [this](int ligand, const QString& choice, const std::vector<Vec3>& sideChains) {
            const Document& document = context_->document();
            if (ligand < 0 || ligand >= static_cast<int>(document.ligands().size()))
                return;
            SideChainStart start{ligand, {}, choice, sideChains};
            for (const Atom& a : document.ligands()[static_cast<size_t>(ligand)].atoms)
                start.ligandCoordinates.push_back(a.position);
            sideChainStart_ = std::move(start);
        });
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
    exportFlexAction_ = new QAction(tr("Export &flexible side chains..."), window);
    exportFlexAction_->setObjectName(QStringLiteral("exportFlexAction"));
    exportFlexAction_->setStatusTip(tr("Write the active ligand's flexible side chains, where its "
                                       "minimization left them, as a PDBQT file in Vina's --flex "
                                       "format"));
    connect(exportFlexAction_, &QAction::triggered, this, &RefinePart::chooseFlexExportFile);
    context.addAction(PartMenu::File, exportFlexAction_);
    connect(context.view(), &MoleculeView::atomDoubleClicked, this, &RefinePart::toggleResidueAt);

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
        forgetFlexResults();
        trajectory_.clear();
        showActiveTrajectory();
        showActiveScore();
    });
    connect(&document, &Document::ligandChanged, this, &RefinePart::showActiveScore);
    connect(&document, &Document::ligandsUpdated, this, &RefinePart::showActiveScore);
    connect(&document, &Document::deviceChanged, this, &RefinePart::updateDeviceTips);
    // A result with side chains belongs to the receptor, box and scoring it was computed on.
    for (auto signal : {&Document::receptorChanged, &Document::boxChanged,
                        &Document::scoringChanged, &Document::receptorPHChanged})
        connect(&document, signal, this, [this] {
            forgetFlexResults();
            updateFlexHighlights();
        });
    connect(&document, &Document::activeLigandChanged, this, [this] { updateFlexHighlights(); });
    connect(&document, &Document::ligandChanged, this, [this] { updateFlexHighlights(); });
    // The residues' labels (torsions) once the prepared receptor is there to count them.
    connect(&context.targets(), &TargetBuilder::built, this, [this](bool ok) {
        if (ok)
            restorePendingFlexResults();
        if (!ok || flexSpecs_.empty() || !flexLabels_.isEmpty() || !context_->targets().ready())
            return;
        try {
            flexLabels_ = checkFlexChoice(*context_->targets().current(), flexSpecs_);
            flexPanel_->showChoice(flexResidueText(), flexLabels_);
        } catch (const InputError&) {
            // Said when the user minimizes with it (the choice is kept as the session gave it).
        }
    });
}

void RefinePart::createEnergyDock() {
    QMainWindow* window = context_->window();
    auto* energyDock = new QDockWidget(tr("Energy"), window);
    energyDock->setObjectName(QStringLiteral("energyDock"));
    auto* energy = new QWidget(energyDock);
    auto* layout = new QVBoxLayout(energy);
    layout->setContentsMargins(2, 2, 2, 2);
    flexPanel_ = new FlexResiduePanel(energy);
    layout->addWidget(flexPanel_);
    connect(flexPanel_, &FlexResiduePanel::applyRequested, this,
            [this](const QString& text) { setFlexResidues(text); });
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
    // What the field shows is what moves: a typed choice not yet applied is applied (and checked)
    // now; a bad one refines nothing.
    if (flexPanel_->field()->text().trimmed() != flexResidueText() &&
        !setFlexResidues(flexPanel_->field()->text())) {
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
    const bool flex = !flexSpecs_.empty();
    trajectoryNote_->setText(
        flex ? tr("Watched minimization with flexible side chains (CPU reference, every accepted "
                  "step of each descent)")
             : tr("Watched minimization (CPU reference, every accepted step)"));
    jobFlex_.reset();
    jobNote_.clear();
    std::vector<FlexStart> starts;
    starts = sideChainStartsFor(jobLigand_, &jobNote_); // (rigid: only its note)
    if (!flex)
        starts.clear();
    const int startCount = std::max<int>(1, static_cast<int>(starts.size()));
    if (startCount > 1) // the other starts run beside the one on show
        trajectoryNote_->setText(
            tr("Watched minimization with flexible side chains from %1 starts at once: %2 on "
               "show, %3 beside it (CPU reference, every accepted step of the descent on show; "
               "the lower end is kept)")
                .arg(startCount)
                .arg(starts.front().name, starts.back().name));
    job_ = std::make_unique<MinimizeJob>(context_->targets().current(), trajectoryLigand_,
                                         context_->settings()->livePaceMs(), flexSpecs_,
                                         std::move(starts));
    connect(job_.get(), &MinimizeJob::prepared, this, &RefinePart::onJobPrepared);
    connect(job_.get(), &MinimizeJob::flexPrepared, this,
            [this](std::shared_ptr<const FlexSetup> setup) { jobFlex_ = std::move(setup); });
    connect(job_.get(), &MinimizeJob::frame, this, &RefinePart::onJobFrame);
    connect(job_.get(), &MinimizeJob::finished, this, &RefinePart::onJobFinished);
    // Said every time: the Device setting is for batches, this one is watched on the CPU.
    // Flexible residues run on the CPU whatever the Device setting (the CLI's --flex runs on a
    // GPU only with --device cuda; the app has no GPU path for them yet).
    QString what =
        flex ? tr("Minimizing with flexible side chains (%1) on the CPU: flexible residues run "
                  "on the CPU whatever the Device setting...")
                   .arg(flexResidueText())
             : tr("Minimizing on the CPU reference (watched step by step)...");
    if (startCount > 1)
        what += tr(" (2 starts of the side chains, the better kept)");
    if (!jobNote_.isEmpty())
        what = jobNote_ + QLatin1Char(' ') + what;
    jobId_ = context_->jobs().begin(what, false, JobRunner::Kind::MovesLigands, [this] {
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
    if (!point.flexCoordinates.empty())
        updateFlexHighlights(&point.flexCoordinates);
    context_->statusBar()->showMessage(
        (point.flexCoordinates.empty()
             ? tr("Minimizing: step %1, %2 kcal/mol")
             : tr("Minimizing with side chains on the CPU: step %1, %2 kcal/mol"))
            .arg(point.iteration)
            .arg(point.energy, 0, 'f', 3));
}

void RefinePart::onJobFinished(const MinimizeJobResult& result) {
    // The job object must not be deleted from inside its own signal.
    job_.release()->deleteLater();
    context_->jobs().end(jobId_);
    Document& document = context_->document();
    const int index = jobLigand_;
    jobLigand_ = -1;
    jobFlex_.reset();
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
        updateFlexHighlights();
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
    // Kept before the pose lands: the views it updates find the side chains with it.
    // A rigid result keeps the earlier outcomes: undo goes back to their poses.
    if (result.flex) {
        std::vector<FlexOutcome>& kept = flexResults_[index];
        kept.push_back(*result.flex);
        if (kept.size() > kKeptFlexResults)
            kept.erase(kept.begin());
    }
    context_->undoStack()->push(new LigandEditCommand(document, index, before, beforeScore,
                                                      result.ligand, result.refinement.score,
                                                      tr("Minimize")));
    updateFlexHighlights();
    if (result.flex) {
        QString message =
            tr("Minimized with flexible side chains (%1) on the CPU in %2 steps: %3 kcal/mol "
               "(from %4; ligand-flex %5), RMSD %6 Å")
                .arg(result.flex->setup->labels.join(QStringLiteral(", ")))
                .arg(result.refinement.iterations)
                .arg(result.flex->score.affinity, 0, 'f', 3)
                .arg(result.flex->start.affinity, 0, 'f', 3)
                .arg(result.flex->score.ligandFlex, 0, 'f', 3)
                .arg(result.refinement.rmsdFromStart, 0, 'f', 2);
        // Which start won, and where the other ended.
        if (result.flexStartKept >= 0) {
            QStringList others;
            for (int i = 0; i < static_cast<int>(result.flexStarts.size()); ++i)
                if (i != result.flexStartKept)
                    others << tr("from %1: %2")
                                  .arg(result.flexStarts[static_cast<size_t>(i)].name)
                                  .arg(result.flexStarts[static_cast<size_t>(i)].end.affinity, 0,
                                       'f', 3);
            message += tr("; started from %1 (better than %2)")
                           .arg(result.flexStarts[static_cast<size_t>(result.flexStartKept)].name,
                                others.join(QStringLiteral(", ")));
        }
        if (!jobNote_.isEmpty())
            message = jobNote_ + QLatin1Char(' ') + message;
        lastMessage_ = message;
        context_->statusBar()->showMessage(message, 8000);
        emit minimizationFinished(true);
        return;
    }
    lastMessage_ = tr("Minimized on the CPU in %1 steps: %2 kcal/mol (from %3), RMSD %4 Å")
                       .arg(result.refinement.iterations)
                       .arg(result.refinement.score.affinity, 0, 'f', 3)
                       .arg(result.refinement.start.affinity, 0, 'f', 3)
                       .arg(result.refinement.rmsdFromStart, 0, 'f', 2);
    if (!jobNote_.isEmpty())
        lastMessage_ = jobNote_ + QLatin1Char(' ') + lastMessage_;
    context_->statusBar()->showMessage(lastMessage_, 8000);
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
    if (!p.flexCoordinates.empty())
        updateFlexHighlights(&p.flexCoordinates);
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
    if (const FlexOutcome* flex = valid ? flexResult(active) : nullptr) {
        // Vina's split with side chains, as `score --flex` prints it.
        const QSignalBlocker block(termTable_);
        termTable_->setRowCount(0);
        const FlexScore& f = flex->score;
        const std::pair<QString, double> rows[] = {
            {tr("Affinity (flexible side chains)"), f.affinity},
            {tr("Intermolecular"), f.inter()},
            {tr("  ligand-receptor"), f.ligandReceptor},
            {tr("  ligand-flex"), f.ligandFlex},
            {tr("Intramolecular"), f.intra()},
            {tr("  ligand"), f.ligandIntra},
            {tr("  flex-receptor"), f.flexReceptor},
            {tr("  flex-flex"), f.flexFlex},
            {tr("Torsional"), f.torsional},
            {tr("Unbound"), -f.unbound}};
        for (const auto& [name, value] : rows) {
            const int row = termTable_->rowCount();
            termTable_->insertRow(row);
            termTable_->setItem(row, 0, new QTableWidgetItem(name));
            termTable_->setItem(row, 1, new QTableWidgetItem(QString::number(value, 'f', 3)));
        }
        return;
    }
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
        if (!point->flexCoordinates.empty())
            add(tr("Ligand-flex (inter)"), point->ligandFlex, -1);
        add(point->flexCoordinates.empty() ? tr("Intramolecular")
                                           : tr("Intramolecular (ligand + side chains)"),
            point->intra, kScoreTermCount + 1);
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

bool RefinePart::setFlexResidues(const QString& text) {
    std::vector<FlexResidueSpec> specs;
    QStringList labels;
    try {
        specs = parseFlexChoice(text);
        // Checked now when the prepared receptor is there; else when minimizing.
        if (const auto& target = context_->targets().current();
            target && context_->targets().ready())
            labels = checkFlexChoice(*target, specs);
    } catch (const InputError& e) {
        context_->showError(flexMessage(e.what()));
        flexPanel_->field()->setText(text); // left as typed, to be corrected
        return false;
    }
    if (flexChoiceText(specs) == flexResidueText()) {
        applyFlexChoice(flexSpecs_, labels.isEmpty() ? flexLabels_ : labels);
        return true;
    }
    context_->undoStack()->push(new FlexChoiceCommand(*this, std::move(specs), labels));
    return true;
}

void RefinePart::applyFlexChoice(const std::vector<FlexResidueSpec>& specs,
                                 const QStringList& labels) {
    flexSpecs_ = specs;
    flexLabels_ = labels;
    flexPanel_->showChoice(flexResidueText(), flexLabels_);
    updateFlexHighlights();
    context_->flexResidueChoiceChanged(); // docking searches with the same side chains
}

void RefinePart::toggleResidueAt(int kind, int atom) {
    const Document& document = context_->document();
    if ((kind != 1 && kind != 2) || !document.hasReceptor() || context_->jobs().ligandsLocked())
        return;
    const QString spec = residueSpecOfAtom(document.receptor(), atom);
    if (spec.isEmpty())
        return;
    setFlexResidues(flexChoiceText(toggledFlexChoice(flexSpecs_, spec)));
}

namespace {

bool samePositions(const Molecule& m, const std::vector<Vec3>& c) {
    if (m.atoms.size() != c.size())
        return false;
    for (size_t i = 0; i < c.size(); ++i)
        if ((m.atoms[i].position - c[i]).norm() > 1e-6)
            return false;
    return true;
}

} // namespace

const FlexOutcome* RefinePart::flexResult(int ligand) const {
    const auto it = flexResults_.find(ligand);
    const Document& document = context_->document();
    if (it == flexResults_.end() || ligand < 0 ||
        ligand >= static_cast<int>(document.ligands().size()))
        return nullptr;
    // The newest outcome whose pose the ligand still has (not dragged or replaced since; undo
    // and redo return to earlier ones).
    const Molecule& m = document.ligands()[static_cast<size_t>(ligand)];
    for (auto o = it->second.rbegin(); o != it->second.rend(); ++o)
        if (samePositions(m, o->ligandCoordinates))
            return &*o;
    return nullptr;
}

void RefinePart::forgetFlexResults() {
    flexResults_.clear();
    sideChainStart_.reset();
}

namespace {

// The choice as the Energy panel writes it ("A:THR315,A:LYS271"); empty for text it cannot read.
QString normalizedChoice(const QString& text) {
    try {
        return flexChoiceText(parseFlexChoice(text));
    } catch (const std::exception&) {
        return {};
    }
}

} // namespace

std::vector<FlexStart> RefinePart::sideChainStartsFor(int ligand, QString* note) const {
    const Document& document = context_->document();
    note->clear();
    if (ligand < 0 || ligand >= static_cast<int>(document.ligands().size()))
        return {};
    const QString now = flexResidueText();
    const FlexStart receptor{tr("the receptor's side chains"), {}};
    // The last flexible minimization's result, while the ligand is still at its pose.
    if (const FlexOutcome* previous = flexResult(ligand)) {
        const QString before = flexChoiceText(previous->setup->specs);
        if (before == now)
            return {FlexStart{tr("the previous result's side chains"), previous->flexCoordinates},
                    receptor};
        *note = now.isEmpty()
                    ? tr("No flexible residues are chosen now (the last minimization moved %1): "
                         "the receptor is rigid.")
                          .arg(before)
                    : tr("The flexible residues changed since the last minimization (%1, now "
                         "%2): the side chains start from the receptor.")
                          .arg(before, now);
        return {};
    }
    // A docked pose handed over with its side chains, while the ligand is still at that pose.
    if (!sideChainStart_ || sideChainStart_->ligand != ligand ||
        !samePositions(document.ligands()[static_cast<size_t>(ligand)],
                       sideChainStart_->ligandCoordinates))
        return {};
    const QString docked = normalizedChoice(sideChainStart_->choice);
    if (now.isEmpty()) {
        *note = tr("No flexible residues are chosen now (docked with %1): the receptor is rigid, "
                   "the docked side chains are not used.")
                    .arg(docked.isEmpty() ? sideChainStart_->choice : docked);
        return {};
    }
    if (docked != now) {
        *note = tr("The flexible residues changed since docking (docked with %1, now %2): the "
                   "side chains start from the receptor, not from the docked pose.")
                    .arg(docked.isEmpty() ? sideChainStart_->choice : docked, now);
        return {};
    }
    return {FlexStart{tr("the docked side chains"), sideChainStart_->sideChains}, receptor};
}

void RefinePart::updateFlexHighlights(const std::vector<Vec3>* frameFlex) {
    MoleculeView* view = context_->view();
    const Document& document = context_->document();
    if (!document.hasReceptor() || (flexSpecs_.empty() && !job_)) {
        if (!view->highlights().empty()) // nothing to redraw on every step of a rigid drag
            view->setHighlights({});
        return;
    }
    const int active = document.activeLigand();
    if (frameFlex) {
        // A frame of the running minimization, or of the active ligand's replayed trajectory.
        const FlexSetup* setup = job_ ? jobFlex_.get() : nullptr;
        if (!job_) // the replayed trajectory is the newest minimization's
            if (const auto it = flexResults_.find(active);
                it != flexResults_.end() && !it->second.empty())
                setup = it->second.back().setup.get();
        if (setup && static_cast<int>(frameFlex->size()) == setup->flex->atomCount()) {
            view->setHighlights(
                {flexSideChainsDrawing(*setup->flex, *frameFlex, document.receptor())});
            return;
        }
    }
    if (job_)
        return; // the running minimization's frames draw them
    if (const FlexOutcome* result = flexResult(active)) {
        view->setHighlights({flexSideChainsDrawing(*result->setup->flex, result->flexCoordinates,
                                                   document.receptor())});
        return;
    }
    view->setHighlights({chosenResiduesDrawing(document.receptor(), flexSpecs_)});
}

bool RefinePart::exportFlexResidues(const QString& path) {
    const Document& document = context_->document();
    const int active = document.activeLigand();
    const FlexOutcome* result = flexResult(active);
    if (!result) {
        context_->showError(tr("%1: nothing to export; expected the active ligand minimized with "
                               "flexible side chains (choose residues, then Minimize pose)")
                                .arg(path));
        return false;
    }
    try {
        AtomicFile file(path.toStdString());
        const FlexModel& flex = *result->setup->flex;
        const Molecule& ligand = document.ligands()[static_cast<size_t>(active)];
        file.stream() << "REMARK posewright: flexible side chains of " << ligand.name
                      << " after Minimize pose, affinity " << result->score.affinity
                      << " kcal/mol\n";
        for (int r = 0; r < flex.residueCount(); ++r) {
            const FlexResidue& res = flex.residue(r);
            const auto begin = result->flexCoordinates.begin() + flex.atomOffset(r);
            file.stream() << res.blockWith(
                std::vector<Vec3>(begin, begin + static_cast<long>(res.mol.atoms.size())));
        }
        if (!file.stream())
            throw InputError(path.toStdString(), 0, "could not be written");
        file.commit();
    } catch (const std::exception& e) {
        context_->showError(QString::fromStdString(e.what()));
        return false;
    }
    context_->statusBar()->showMessage(tr("Flexible side chains written to %1").arg(path), 5000);
    return true;
}

void RefinePart::chooseFlexExportFile() {
    const QString path =
        QFileDialog::getSaveFileName(context_->window(), tr("Export flexible side chains"),
                                     context_->lastDirectory(), tr("PDBQT (*.pdbqt)"));
    if (!path.isEmpty())
        exportFlexResidues(path);
}

QJsonObject RefinePart::saveState(const QDir& sessionDir) const {
    Q_UNUSED(sessionDir);
    QJsonObject state;
    if (!flexSpecs_.empty())
        state[QStringLiteral("flexResidues")] = flexResidueText();
    // The side chains of each ligand whose pose is still its flexible minimization's result.
    QJsonArray results;
    for (const auto& entry : flexResults_) {
        const int ligand = entry.first;
        const FlexOutcome* shown = flexResult(ligand);
        if (!shown)
            continue;
        const FlexOutcome& outcome = *shown;
        results << QJsonObject{
            {QStringLiteral("ligand"), ligand},
            {QStringLiteral("residues"), flexChoiceText(outcome.setup->specs)},
            {QStringLiteral("ligandCoordinates"), pointsToJson(outcome.ligandCoordinates)},
            {QStringLiteral("flexCoordinates"), pointsToJson(outcome.flexCoordinates)},
            {QStringLiteral("start"), flexScoreToJson(outcome.start)},
            {QStringLiteral("score"), flexScoreToJson(outcome.score)},
            {QStringLiteral("path"), outcome.path}};
    }
    if (!results.isEmpty())
        state[QStringLiteral("flexResults")] = results;
    return state;
}

void RefinePart::restoreState(const QJsonObject& state, const QDir& sessionDir) {
    Q_UNUSED(sessionDir);
    forgetFlexResults();
    std::vector<FlexResidueSpec> specs;
    const QJsonValue value = state.value(QStringLiteral("flexResidues"));
    if (!value.isUndefined()) {
        try {
            if (!value.isString())
                throw InputError("session", 0,
                                 "\"flexResidues\" of the refine part: expected a text such as "
                                 "\"A:THR315,A:LYS271\"");
            specs = parseFlexChoice(value.toString());
        } catch (const InputError& e) {
            context_->showError(tr("The session's flexible residues were not restored: %1")
                                    .arg(flexMessage(e.what())));
            specs.clear();
        }
    }
    pendingFlexResults_.clear();
    const QJsonValue results = state.value(QStringLiteral("flexResults"));
    if (!results.isUndefined()) {
        try {
            if (!results.isArray())
                throw InputError("session", 0, "\"flexResults\": expected a list");
            const int ligands = static_cast<int>(context_->document().ligands().size());
            for (const QJsonValue& v : results.toArray()) {
                const QJsonObject o = v.toObject();
                PendingFlexResult r;
                r.ligand = o.value(QStringLiteral("ligand")).toInt(-1);
                if (!v.isObject() || r.ligand < 0 || r.ligand >= ligands)
                    throw InputError("session", 0,
                                     "\"flexResults\": expected the index of a ligand of the "
                                     "session");
                r.specs = parseFlexChoice(o.value(QStringLiteral("residues")).toString());
                r.outcome.ligandCoordinates =
                    pointsFromJson(o.value(QStringLiteral("ligandCoordinates")), "ligand");
                r.outcome.flexCoordinates =
                    pointsFromJson(o.value(QStringLiteral("flexCoordinates")), "side chains");
                r.outcome.start = flexScoreFromJson(o.value(QStringLiteral("start")));
                r.outcome.score = flexScoreFromJson(o.value(QStringLiteral("score")));
                r.outcome.path = o.value(QStringLiteral("path")).toString();
                pendingFlexResults_.push_back(std::move(r));
            }
        } catch (const InputError& e) {
            pendingFlexResults_.clear();
            context_->showError(tr("The session's flexible side chains were not restored: %1")
                                    .arg(flexMessage(e.what())));
        }
    }
    pendingReceptorGeneration_ = context_->document().receptorGeneration();
    pendingLigandsGeneration_ = context_->document().ligandsGeneration();
    QStringList labels;
    if (const auto& target = context_->targets().current();
        target && context_->targets().ready() && !specs.empty()) {
        try {
            labels = checkFlexChoice(*target, specs);
        } catch (const InputError&) {
            // Said when the user minimizes with it.
        }
    }
    applyFlexChoice(specs, labels);
    restorePendingFlexResults(); // now when the receptor is prepared, else when it is
}

void RefinePart::restorePendingFlexResults() {
    const Document& document = context_->document();
    if (pendingFlexResults_.empty() || !context_->targets().ready())
        return;
    std::vector<PendingFlexResult> pending = std::move(pendingFlexResults_);
    pendingFlexResults_.clear();
    if (document.receptorGeneration() != pendingReceptorGeneration_ ||
        document.ligandsGeneration() != pendingLigandsGeneration_)
        return; // the session's molecules are gone
    for (PendingFlexResult& r : pending) {
        try {
            r.outcome.setup = flexModelSetup(*context_->targets().current(), r.specs);
            if (static_cast<int>(r.outcome.flexCoordinates.size()) !=
                r.outcome.setup->flex->atomCount())
                throw InputError("session", 0,
                                 "\"flexResults\": " + flexChoiceText(r.specs).toStdString() +
                                     ": expected " +
                                     std::to_string(r.outcome.setup->flex->atomCount()) +
                                     " side-chain atoms, got " +
                                     std::to_string(r.outcome.flexCoordinates.size()));
            flexResults_[r.ligand] = {std::move(r.outcome)};
        } catch (const InputError& e) {
            context_->showError(tr("The session's flexible side chains were not restored: %1")
                                    .arg(flexMessage(e.what())));
        }
    }
    updateFlexHighlights();
    showActiveScore();
}

} // namespace pw
