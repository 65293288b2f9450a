// OverlayPanel: the engine's CPU overlay (ShapeOverlay::overlayAll) runs on a worker thread and
// reports through a Progress whose callbacks are queued to the GUI thread; the isosurfaces use
// the engine's own Gaussians (p and per-class alpha), contoured at density 1.
#include "OverlayPanel.h"

#include "GaussianSurface.h"
#include "MoleculeDrawings.h"
#include "MoleculeView.h"
#include "TrajectoryPlayer.h"
#include "chem/MoleculeReader.h"
#include "shape/ShapeConstants.h"
#include "shape/ShapeModel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <vtkActor.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <numeric>

namespace pw {

namespace {

constexpr double kIsoLevel = 1.0; // density contour drawn (one atom: about its radius)

std::vector<GaussianCentre> centresOf(const Molecule& m) {
    const shape::ShapeModel model = shape::makeShapeModel(m, {});
    std::vector<GaussianCentre> c;
    for (size_t i = 0; i < model.positions.size(); ++i)
        c.push_back({{model.positions[i].x(), model.positions[i].y(), model.positions[i].z()},
                     shape::classAlpha(model.cls[i])});
    return c;
}

OverlayResult overlayAll(Molecule reference, std::vector<Molecule> fits, Progress& progress) {
    OverlayResult r;
    try {
        r.engine = std::make_shared<const shape::ShapeOverlay>(shape::makeShapeModel(reference, {}),
                                                               shape::OverlayOptions{});
        std::vector<shape::ShapeModel> models;
        models.reserve(fits.size());
        for (const Molecule& f : fits)
            models.push_back(shape::makeShapeModel(f, {}));
        r.scores = r.engine->overlayAll(models, /*scoreOnly=*/false, 0, &progress);
    } catch (const std::exception& e) {
        r.error = QString::fromStdString(e.what());
        return r;
    }
    if (progress.cancelled() && r.scores.size() != fits.size()) {
        r.cancelled = true;
        return r;
    }
    r.ranking.resize(fits.size());
    std::iota(r.ranking.begin(), r.ranking.end(), 0);
    std::stable_sort(r.ranking.begin(), r.ranking.end(), [&](int a, int b) {
        return r.scores[size_t(a)].tanimoto > r.scores[size_t(b)].tanimoto;
    });
    r.reference = std::move(reference);
    r.fits = std::move(fits);
    return r;
}

} // namespace

OverlayPanel::OverlayPanel(QWidget* parent) : QWidget(parent) {
    view_ = new MoleculeView;
    table_ = new QTableWidget(0, 4);
    table_->setHorizontalHeaderLabels(
        {tr("Fit"), tr("Shape Tanimoto"), tr("Tversky (ref)"), tr("Tversky (fit)")});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    status_ = new QLabel;
    status_->setWordWrap(true);
    progress_ = new QProgressBar;
    progress_->setObjectName(QStringLiteral("overlayProgress"));
    progress_->setFormat(tr("%v / %m fits"));
    progress_->hide();
    cancelButton_ = new QPushButton(tr("Cancel"));
    cancelButton_->setObjectName(QStringLiteral("cancelOverlayButton"));
    cancelButton_->setToolTip(tr("Stop the overlay; the result shown now stays"));
    cancelButton_->hide();
    player_ = new TrajectoryPlayer;
    player_->setObjectName(QStringLiteral("overlayPlayer"));
    player_->setToolTip(tr("Replay the optimization of the chosen fit, from its start pose"));
    stepLabel_ = new QLabel;

    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(view_, 1);
    auto* replayRow = new QHBoxLayout;
    replayRow->addWidget(player_, 1);
    replayRow->addWidget(stepLabel_);
    rightLayout->addLayout(replayRow);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(table_);
    split->addWidget(right);
    split->setStretchFactor(1, 2);
    auto* statusRow = new QHBoxLayout;
    statusRow->addWidget(status_, 1);
    statusRow->addWidget(progress_);
    statusRow->addWidget(cancelButton_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addLayout(statusRow);
    // Translucent surfaces in both colours need order-independent transparency.
    view_->renderer()->SetUseDepthPeeling(true);
    view_->renderer()->SetMaximumNumberOfPeels(8);
    view_->renderer()->SetOcclusionRatio(0.0);
    connect(&watcher_, &QFutureWatcher<OverlayResult>::finished, this, &OverlayPanel::onFinished);
    connect(&pathWatcher_, &QFutureWatcher<OverlayPath>::finished, this,
            &OverlayPanel::onPathFinished);
    connect(cancelButton_, &QPushButton::clicked, this, &OverlayPanel::cancel);
    connect(player_, &TrajectoryPlayer::frameChanged, this, &OverlayPanel::showStep);
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (row >= 0 && row < int(result_.ranking.size()))
            showFit(result_.ranking[size_t(row)]);
    });
}

OverlayPanel::~OverlayPanel() {
    if (running_)
        running_->cancel = true;
    watcher_.waitForFinished();
    pathWatcher_.waitForFinished();
}

void OverlayPanel::start(Job job) {
    if (watcher_.isRunning()) {
        // Never wait here: the running job stops at its next fit, then this one starts.
        pending_ = std::move(job);
        running_->cancel = true;
        return;
    }
    userCancelled_ = false;
    running_ = std::make_shared<Progress>();
    // Called on the workers: hand the numbers to the GUI thread (dropped if the panel is gone,
    // or if this job is no longer the running one when they arrive).
    // Workers report concurrently, so their queued counts can arrive out of order: the GUI
    // thread keeps the highest it has shown and drops any lower one (the bar never goes back).
    const Progress* self = running_.get();
    auto shown = std::make_shared<long>(-1); // touched on the GUI thread only
    running_->onProgress = [this, self, shown](long done, long total) {
        QMetaObject::invokeMethod(
            this,
            [this, self, shown, done, total] {
                if (running_.get() != self || done < *shown)
                    return;
                *shown = done;
                progress_->setRange(0, int(total));
                progress_->setValue(int(done));
                emit progressChanged(done, total);
            },
            Qt::QueuedConnection);
    };
    progress_->setRange(0, 0); // busy until the first count arrives
    progress_->show();
    cancelButton_->show();
    cancelButton_->setEnabled(true);
    watcher_.setFuture(QtConcurrent::run([job = std::move(job), p = running_] { return job(*p); }));
}

void OverlayPanel::cancel() {
    if (!watcher_.isRunning())
        return;
    pending_ = nullptr;
    userCancelled_ = true;
    running_->cancel = true;
    cancelButton_->setEnabled(false);
    messages_ = tr("Cancelling the overlay...");
    status_->setText(messages_);
}

void OverlayPanel::setMolecules(Molecule reference, std::vector<Molecule> fits) {
    messages_ = tr("Overlaying %n fit(s)...", nullptr, int(fits.size()));
    status_->setText(messages_);
    start([ref = std::move(reference), f = std::move(fits)](Progress& p) mutable {
        return overlayAll(std::move(ref), std::move(f), p);
    });
}

void OverlayPanel::openFile(const QString& path) {
    const std::string file = path.toStdString();
    messages_ = tr("Reading %1...").arg(path);
    status_->setText(messages_);
    start([file](Progress& p) {
        std::vector<Molecule> all;
        QStringList notes; // skipped records and repairs, shown with the result
        ReadOptions options;
        options.warn = [&notes](const std::string& m) { notes << QString::fromStdString(m); };
        try {
            all = readMolecules(file, options);
        } catch (const std::exception& e) {
            OverlayResult r;
            r.error = QString::fromStdString(e.what());
            return r;
        }
        if (all.size() < 2) {
            OverlayResult r;
            r.error = QString::fromStdString(file) +
                      QObject::tr(": expected a reference and at least one fit molecule");
            if (!notes.isEmpty()) // why there are too few: the first skipped record
                r.error += QStringLiteral(" (") + notes.first() + QStringLiteral(")");
            return r;
        }
        Molecule ref = std::move(all.front());
        all.erase(all.begin());
        OverlayResult r = overlayAll(std::move(ref), std::move(all), p);
        r.readerNotes = std::move(notes);
        return r;
    });
}

void OverlayPanel::onFinished() {
    OverlayResult r = watcher_.result();
    running_.reset();
    if (pending_) { // superseded: whatever this run gave, the newer request wins
        Job next = std::move(pending_);
        pending_ = nullptr;
        start(std::move(next));
        return;
    }
    progress_->hide();
    cancelButton_->hide();
    if (r.cancelled || userCancelled_) {
        messages_ =
            result_.fits.empty()
                ? tr("Overlay cancelled.")
                : tr("Overlay cancelled: the previous result (%n fit(s) on %1) stays shown.",
                     nullptr, int(result_.fits.size()))
                      .arg(QString::fromStdString(result_.reference.name));
        status_->setText(messages_);
        emit finished(false);
        return;
    }
    if (!r.error.isEmpty()) {
        messages_ = r.error;
        status_->setText(messages_);
        emit finished(false);
        return;
    }
    result_ = std::move(r);
    showResult();
    emit finished(true);
}

void OverlayPanel::showResult() {
    shown_ = -1;
    ++generation_;
    table_->blockSignals(true);
    table_->setRowCount(int(result_.ranking.size()));
    for (int row = 0; row < int(result_.ranking.size()); ++row) {
        const int fit = result_.ranking[size_t(row)];
        const shape::ShapeScores& s = result_.scores[size_t(fit)];
        const std::string& name = result_.fits[size_t(fit)].name;
        table_->setItem(row, 0,
                        new QTableWidgetItem(name.empty() ? tr("fit %1").arg(fit + 1)
                                                          : QString::fromStdString(name)));
        table_->setItem(row, 1, new QTableWidgetItem(QString::number(s.tanimoto, 'f', 3)));
        table_->setItem(row, 2, new QTableWidgetItem(QString::number(s.tverskyRef, 'f', 3)));
        table_->setItem(row, 3, new QTableWidgetItem(QString::number(s.tverskyFit, 'f', 3)));
    }
    table_->blockSignals(false);
    messages_ = tr("%n fit(s) overlaid on %1", nullptr, int(result_.fits.size()))
                    .arg(QString::fromStdString(result_.reference.name));
    // What the reader skipped or repaired is said, not dropped: the first notes under the
    // result, all of them in the tooltip.
    const QStringList& notes = result_.readerNotes;
    constexpr int kNotesShown = 3;
    for (int i = 0; i < std::min(int(notes.size()), kNotesShown); ++i)
        messages_ += QStringLiteral("\n") + notes[i];
    if (notes.size() > kNotesShown)
        messages_ += QStringLiteral("\n") +
                     tr("... and %n more note(s) from the reader", nullptr,
                        int(notes.size()) - kNotesShown);
    status_->setText(messages_);
    status_->setToolTip(notes.join(QStringLiteral("\n")));
    if (!result_.ranking.empty())
        table_->setCurrentCell(0, 0);
}

void OverlayPanel::showFit(int fit) {
    if (fit < 0 || fit >= int(result_.fits.size()))
        return;
    shown_ = fit;
    const shape::ShapeScores& s = result_.scores[size_t(fit)];
    shownFitMolecule_ = shape::transformed(result_.fits[size_t(fit)], s.rotation, s.translation);
    view_->setLigands({toDrawing(result_.reference, DrawStyle::Ligand),
                       toDrawing(shownFitMolecule_, DrawStyle::LigandAlternate)});
    vtkRenderer* ren = view_->renderer();
    for (vtkActor* a : surfaces_)
        ren->RemoveActor(a);
    surfaces_.clear();
    for (const auto& [mol, colour] :
         {std::pair<const Molecule*, QColor>{&result_.reference, referenceColour()},
          std::pair<const Molecule*, QColor>{&shownFitMolecule_, fitColour()}}) {
        vtkSmartPointer<vtkActor> actor =
            makeGaussianSurfaceActor(centresOf(*mol), shape::kGaussianP, colour, 0.45, kIsoLevel);
        actor->SetVisibility(surfacesVisible_);
        ren->AddActor(actor);
        surfaces_.push_back(actor);
    }
    view_->resetCamera();
    view_->update();
    path_ = {};
    step_ = -1;
    player_->setFrameCount(0);
    stepLabel_->setText(tr("Computing the optimization path..."));
    pathWanted_ = fit;
    if (!pathWatcher_.isRunning())
        startPath(); // else onPathFinished starts it
}

void OverlayPanel::setSurfacesVisible(bool visible) {
    surfacesVisible_ = visible;
    for (vtkActor* a : surfaces_)
        a->SetVisibility(visible);
    view_->update();
}

} // namespace pw
