// SimilarityPanel: the worker canonicalises (RDKit), builds the LINGO profiles and has the
// Backend of the document's device fill the matrix in row blocks (Backend::lingoMatrix),
// reporting progress and stopping between blocks when cancelled; the GUI thread only swaps the
// finished matrix into the model.
#include "SimilarityPanel.h"

#include "SimilarityHeatDelegate.h"
#include "SimilarityMatrixModel.h"
#include "SimilarityOrder.h"
#include "StructureDepictionView.h"
#include "backend/DeviceSelection.h"
#include "chem/Depiction2D.h"
#include "chem/LingoSmiles.h"
#include "chem/MoleculeSmiles.h"
#include "core/InputError.h"
#include "lingo/LingoSet.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <numeric>

namespace pw {

namespace {

constexpr int kNeighbours = 10; // nearest neighbours listed for the chosen hit

// The matrix and clustered order of already canonical SMILES, computed by the backend of
// `device`; empty result when cancelled.
SimilarityResult computeMatrix(QPromise<SimilarityResult>& promise, SimilarityResult r,
                               const QString& device) {
    const size_t n = r.smiles.size();
    if (n == 0) {
        r.error = QObject::tr("no valid SMILES to compare");
        return r;
    }
    std::unique_ptr<Backend> backend;
    try {
        std::string note;
        backend = createBackend(parseDeviceRequest(device.toStdString()), 0, note);
        r.deviceNote = QString::fromStdString(note);
    } catch (const std::exception& e) {
        r.error = QString::fromStdString(e.what());
        return r;
    }
    const lingo::LingoSet set = lingo::LingoSet::fromCanonicalSmiles(r.smiles);
    auto matrix = std::make_shared<std::vector<float>>();
    promise.setProgressRange(0, int(n));
    // The backend computes row blocks and reports after each; the cancel flag it polls between
    // blocks follows the promise's.
    Progress progress;
    progress.cancel = promise.isCanceled();
    progress.onProgress = [&](long done, long) {
        promise.setProgressValue(int(done));
        if (promise.isCanceled())
            progress.cancel = true;
    };
    const BatchStatus status = backend->lingoMatrix(set, *matrix, &progress);
    if (status.cancelled || promise.isCanceled())
        return {};
    r.clustered = clusteredOrder(matrix->data(), int(n));
    r.matrix = std::move(matrix);
    return r;
}

StructureDrawing toDrawing(const Depiction2D& d, const QString& title) {
    StructureDrawing s;
    s.title = title;
    for (const auto& a : d.atoms)
        s.atoms.push_back({a.x, a.y, QString::fromStdString(a.symbol), a.charge, a.hydrogens});
    for (const auto& b : d.bonds)
        s.bonds.push_back({b.a, b.b, b.order});
    return s;
}

} // namespace

SimilarityPanel::SimilarityPanel(QWidget* parent) : QWidget(parent) {
    model_ = new SimilarityMatrixModel(this);
    table_ = new QTableView;
    table_->setModel(model_);
    table_->setItemDelegate(new SimilarityHeatDelegate(table_));
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setSelectionBehavior(QAbstractItemView::SelectItems);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setShowGrid(false);
    // Fixed sizes: the view never asks every cell for its size hint (N can be thousands).
    for (QHeaderView* h : {table_->horizontalHeader(), table_->verticalHeader()}) {
        h->setSectionResizeMode(QHeaderView::Fixed);
        h->setMinimumSectionSize(4);
    }
    table_->horizontalHeader()->setSectionsClickable(true);
    table_->horizontalHeader()->setToolTip(tr("Click a column to order by similarity to its hit"));

    threshold_ = new QDoubleSpinBox;
    threshold_->setRange(0.0, 1.0);
    threshold_->setSingleStep(0.05);
    threshold_->setDecimals(2);
    threshold_->setPrefix(tr("threshold "));
    threshold_->setToolTip(tr("Cells below this similarity are greyed out"));
    order_ = new QComboBox;
    order_->addItems({tr("Input order"), tr("Clustered order (single linkage)"),
                      tr("By similarity to the chosen hit")});
    progress_ = new QProgressBar;
    progress_->setVisible(false);
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setVisible(false);
    status_ = new QLabel;
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pairLabel_ = new QLabel;
    neighbours_ = new QListWidget;
    depictA_ = new StructureDepictionView;
    depictB_ = new StructureDepictionView;

    auto* controls = new QHBoxLayout;
    controls->addWidget(order_);
    controls->addWidget(threshold_);
    controls->addWidget(progress_, 1);
    controls->addWidget(cancel_);
    auto* side = new QWidget;
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(pairLabel_);
    auto* pictures = new QHBoxLayout;
    pictures->addWidget(depictA_);
    pictures->addWidget(depictB_);
    sideLayout->addLayout(pictures);
    sideLayout->addWidget(new QLabel(tr("Nearest neighbours of the row hit:")));
    sideLayout->addWidget(neighbours_, 1);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(table_);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(split, 1);
    layout->addWidget(status_);

    connect(&watcher_, &QFutureWatcher<SimilarityResult>::progressRangeChanged, progress_,
            &QProgressBar::setRange);
    connect(&watcher_, &QFutureWatcher<SimilarityResult>::progressValueChanged, progress_,
            &QProgressBar::setValue);
    connect(&watcher_, &QFutureWatcher<SimilarityResult>::finished, this,
            &SimilarityPanel::onFinished);
    connect(cancel_, &QPushButton::clicked, this, &SimilarityPanel::cancel);
    connect(threshold_, &QDoubleSpinBox::valueChanged, this, [this](double t) {
        model_->setThreshold(t);
        updateNeighbours();
    });
    connect(order_, &QComboBox::currentIndexChanged, this, [this] { applyOrder(); });
    connect(table_->horizontalHeader(), &QHeaderView::sectionClicked, this, [this](int section) {
        if (section < 0 || section >= model_->hitCount())
            return;
        const int hit = model_->hitAt(section);
        choosePair(hit, hit);
        if (order_->currentIndex() == ByChosenHit)
            applyOrder();
        else
            order_->setCurrentIndex(ByChosenHit);
    });
    connect(table_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    choosePair(model_->hitAt(current.row()), model_->hitAt(current.column()));
            });
    connect(neighbours_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        if (chosenA_ >= 0)
            choosePair(chosenA_, item->data(Qt::UserRole).toInt());
    });
}

SimilarityPanel::~SimilarityPanel() {
    watcher_.cancel();
    watcher_.waitForFinished();
}

bool SimilarityPanel::busy() const {
    return watcher_.isRunning();
}

void SimilarityPanel::cancel() {
    if (watcher_.isRunning())
        watcher_.cancel();
}

void SimilarityPanel::start(std::function<SimilarityResult(QPromise<SimilarityResult>&)> job,
                            const QString& what) {
    cancel();
    watcher_.waitForFinished();
    progress_->setRange(0, 0);
    progress_->setVisible(true);
    cancel_->setVisible(true);
    messages_ = tr("Computing the similarity of %1...").arg(what);
    status_->setText(messages_);
    watcher_.setFuture(QtConcurrent::run([job](QPromise<SimilarityResult>& promise) {
        SimilarityResult r = job(promise);
        if (!promise.isCanceled())
            promise.addResult(std::move(r));
    }));
}

void SimilarityPanel::openSmilesFile(const QString& path) {
    const std::string file = path.toStdString();
    start(
        [file, device = device()](QPromise<SimilarityResult>& promise) {
            SimilarityResult r;
            try {
                LingoMolecules mols = readLingoSmiles(file);
                for (size_t i = 0; i < mols.canonical.size(); ++i)
                    r.names << (mols.names[i].empty() ? QStringLiteral("line %1").arg(mols.lines[i])
                                                      : QString::fromStdString(mols.names[i]));
                r.smiles = std::move(mols.canonical);
                for (const auto& s : mols.skipped)
                    r.skipped << QString::fromStdString(s);
            } catch (const std::exception& e) {
                r.error = QString::fromStdString(e.what());
                return r;
            }
            return computeMatrix(promise, std::move(r), device);
        },
        QFileInfo(path).fileName());
}

void SimilarityPanel::setHits(const QStringList& names, const QStringList& smiles,
                              const QString& source) {
    const std::string where = source.toStdString();
    start(
        [names, smiles, where, device = device()](QPromise<SimilarityResult>& promise) {
            SimilarityResult r;
            for (qsizetype i = 0; i < smiles.size() && i < names.size(); ++i) {
                try {
                    r.smiles.push_back(
                        canonicalSmiles(smiles[i].toStdString(), where, long(i + 1)));
                    r.names << names[i];
                } catch (const InputError& e) {
                    r.skipped << QString::fromStdString(e.what());
                }
            }
            return computeMatrix(promise, std::move(r), device);
        },
        source);
}

void SimilarityPanel::setMolecules(std::vector<Molecule> molecules, const QString& source) {
    auto shared = std::make_shared<const std::vector<Molecule>>(std::move(molecules));
    start(
        [shared, device = device()](QPromise<SimilarityResult>& promise) {
            SimilarityResult r;
            for (size_t i = 0; i < shared->size(); ++i) {
                if (promise.isCanceled())
                    return r;
                const Molecule& m = (*shared)[i];
                try {
                    r.smiles.push_back(moleculeSmiles(m));
                    r.names << (m.name.empty() ? QStringLiteral("ligand %1").arg(i + 1)
                                               : QString::fromStdString(m.name));
                } catch (const std::exception& e) {
                    r.skipped << QString::fromStdString(e.what());
                }
            }
            return computeMatrix(promise, std::move(r), device);
        },
        source);
}

void SimilarityPanel::onFinished() {
    progress_->setVisible(false);
    cancel_->setVisible(false);
    if (watcher_.isCanceled() || watcher_.future().resultCount() == 0) {
        messages_ = tr("Similarity computation cancelled; the previous table is kept.");
        status_->setText(messages_);
        emit finished(false);
        return;
    }
    SimilarityResult r = watcher_.result();
    if (!r.error.isEmpty()) {
        messages_ = r.error;
        for (const QString& s : r.skipped)
            messages_ += "\n" + s;
        status_->setText(messages_);
        emit finished(false);
        return;
    }
    result_ = std::move(r);
    chosenA_ = chosenB_ = -1;
    const int n = int(result_.names.size());
    model_->setMatrix(result_.matrix, result_.names);
    // Readable numbers for small lists, a compact heat map for large ones.
    const int cell = n <= 40 ? 40 : n <= 200 ? 16 : 6;
    table_->horizontalHeader()->setDefaultSectionSize(cell);
    table_->verticalHeader()->setDefaultSectionSize(std::max(cell, n <= 40 ? 24 : cell));
    model_->setThreshold(threshold_->value());
    applyOrder();
    messages_ = tr("%n hit(s)", nullptr, n);
    if (!result_.skipped.isEmpty()) {
        messages_ += tr("; %n line(s) skipped:", nullptr, int(result_.skipped.size()));
        for (const QString& s : result_.skipped)
            messages_ += "\n" + s;
    }
    status_->setText(messages_);
    status_->setToolTip(result_.deviceNote);
    neighbours_->clear();
    depictA_->setDrawing({});
    depictB_->setDrawing({});
    pairLabel_->clear();
    emit finished(true);
}

void SimilarityPanel::applyOrder() {
    const int n = model_->hitCount();
    if (n == 0)
        return;
    std::vector<int> order(static_cast<size_t>(n));
    switch (order_->currentIndex()) {
    case ClusteredOrder:
        order = result_.clustered;
        break;
    case ByChosenHit:
        order = orderBySimilarityTo(result_.matrix->data(), n, std::max(chosenA_, 0));
        break;
    default:
        std::iota(order.begin(), order.end(), 0);
    }
    const int a = chosenA_, b = chosenB_;
    model_->setOrder(std::move(order));
    if (a >= 0 && b >= 0)
        table_->setCurrentIndex(model_->index(model_->positionOf(a), model_->positionOf(b)));
}

void SimilarityPanel::updateNeighbours() {
    neighbours_->clear();
    if (chosenA_ < 0 || !result_.matrix)
        return;
    const auto nn = nearestNeighbours(result_.matrix->data(), model_->hitCount(), chosenA_,
                                      kNeighbours, float(threshold_->value()));
    for (const auto& [hit, s] : nn) {
        auto* item = new QListWidgetItem(
            QStringLiteral("%1   %2").arg(double(s), 0, 'f', 3).arg(result_.names[hit]));
        item->setData(Qt::UserRole, hit);
        neighbours_->addItem(item);
    }
}

void SimilarityPanel::showDepiction(StructureDepictionView* view, int hit) {
    const QString title = result_.names[hit];
    try {
        view->setDrawing(toDrawing(depictSmiles(result_.smiles[size_t(hit)]), title));
    } catch (const std::exception& e) {
        StructureDrawing none;
        none.title = title + ": " + QString::fromStdString(e.what());
        view->setDrawing(none);
    }
}

void SimilarityPanel::choosePair(int hitA, int hitB) {
    const int n = model_->hitCount();
    if (hitA < 0 || hitB < 0 || hitA >= n || hitB >= n)
        return;
    const bool rowChanged = hitA != chosenA_;
    if (hitA != chosenA_ || hitB != chosenB_ || depictA_->drawing().atoms.isEmpty()) {
        chosenA_ = hitA;
        chosenB_ = hitB;
        showDepiction(depictA_, hitA);
        showDepiction(depictB_, hitB);
        pairLabel_->setText(tr("%1 / %2: similarity %3")
                                .arg(result_.names[hitA], result_.names[hitB])
                                .arg(double(model_->similarity(hitA, hitB)), 0, 'f', 3));
    }
    if (rowChanged || neighbours_->count() == 0)
        updateNeighbours();
    const QModelIndex cell = model_->index(model_->positionOf(hitA), model_->positionOf(hitB));
    if (table_->currentIndex() != cell)
        table_->setCurrentIndex(cell);
}

} // namespace pw
