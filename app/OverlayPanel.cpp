// OverlayPanel: the engine's CPU overlay (ShapeOverlay::overlayAll) runs on a worker thread; the
// isosurfaces use the engine's own Gaussians (p and per-class alpha), contoured at density 1.
#include "OverlayPanel.h"

#include "GaussianSurface.h"
#include "MoleculeDrawings.h"
#include "MoleculeView.h"
#include "chem/MoleculeReader.h"
#include "shape/ShapeConstants.h"
#include "shape/ShapeModel.h"
#include "shape/ShapeOverlay.h"

#include <QHeaderView>
#include <QLabel>
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

OverlayResult overlayAll(Molecule reference, std::vector<Molecule> fits) {
    OverlayResult r;
    try {
        const shape::ShapeOverlay overlay(shape::makeShapeModel(reference, {}), {});
        std::vector<shape::ShapeModel> models;
        models.reserve(fits.size());
        for (const Molecule& f : fits)
            models.push_back(shape::makeShapeModel(f, {}));
        r.scores = overlay.overlayAll(models, /*scoreOnly=*/false);
    } catch (const std::exception& e) {
        r.error = QString::fromStdString(e.what());
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
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(table_);
    split->addWidget(view_);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addWidget(status_);
    // Translucent surfaces in both colours need order-independent transparency.
    view_->renderer()->SetUseDepthPeeling(true);
    view_->renderer()->SetMaximumNumberOfPeels(8);
    view_->renderer()->SetOcclusionRatio(0.0);
    connect(&watcher_, &QFutureWatcher<OverlayResult>::finished, this, &OverlayPanel::onFinished);
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (row >= 0 && row < int(result_.ranking.size()))
            showFit(result_.ranking[size_t(row)]);
    });
}

OverlayPanel::~OverlayPanel() {
    watcher_.waitForFinished();
}

void OverlayPanel::setMolecules(Molecule reference, std::vector<Molecule> fits) {
    watcher_.waitForFinished();
    messages_ = tr("Overlaying %n fit(s)...", nullptr, int(fits.size()));
    status_->setText(messages_);
    watcher_.setFuture(
        QtConcurrent::run([ref = std::move(reference), f = std::move(fits)]() mutable {
            return overlayAll(std::move(ref), std::move(f));
        }));
}

void OverlayPanel::openFile(const QString& path) {
    const std::string file = path.toStdString();
    watcher_.waitForFinished();
    watcher_.setFuture(QtConcurrent::run([file] {
        std::vector<Molecule> all;
        try {
            all = readMolecules(file);
        } catch (const std::exception& e) {
            OverlayResult r;
            r.error = QString::fromStdString(e.what());
            return r;
        }
        if (all.size() < 2) {
            OverlayResult r;
            r.error = QString::fromStdString(file) +
                      QObject::tr(": expected a reference and at least one fit molecule");
            return r;
        }
        Molecule ref = std::move(all.front());
        all.erase(all.begin());
        return overlayAll(std::move(ref), std::move(all));
    }));
}

void OverlayPanel::onFinished() {
    OverlayResult r = watcher_.result();
    if (!r.error.isEmpty()) {
        messages_ = r.error;
        status_->setText(messages_);
        emit finished(false);
        return;
    }
    result_ = std::move(r);
    shown_ = -1;
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
    status_->setText(messages_);
    if (!result_.ranking.empty())
        table_->setCurrentCell(0, 0);
    emit finished(true);
}

void OverlayPanel::showFit(int fit) {
    if (fit < 0 || fit >= int(result_.fits.size()))
        return;
    shown_ = fit;
    const shape::ShapeScores& s = result_.scores[size_t(fit)];
    const Molecule aligned =
        shape::transformed(result_.fits[size_t(fit)], s.rotation, s.translation);
    view_->setLigands({toDrawing(result_.reference, DrawStyle::Ligand),
                       toDrawing(aligned, DrawStyle::LigandAlternate)});
    vtkRenderer* ren = view_->renderer();
    for (vtkActor* a : surfaces_)
        ren->RemoveActor(a);
    surfaces_.clear();
    for (const auto& [mol, colour] :
         {std::pair<const Molecule*, QColor>{&result_.reference, referenceColour()},
          std::pair<const Molecule*, QColor>{&aligned, fitColour()}}) {
        vtkSmartPointer<vtkActor> actor =
            makeGaussianSurfaceActor(centresOf(*mol), shape::kGaussianP, colour, 0.45, kIsoLevel);
        actor->SetVisibility(surfacesVisible_);
        ren->AddActor(actor);
        surfaces_.push_back(actor);
    }
    view_->resetCamera();
    view_->update();
}

} // namespace pw

namespace pw {

void OverlayPanel::setSurfacesVisible(bool visible) {
    surfacesVisible_ = visible;
    for (vtkActor* a : surfaces_)
        a->SetVisibility(visible);
    view_->update();
}

} // namespace pw
