#include "HitsPart.h"

#include "Document.h"
#include "HitContacts.h"
#include "MoleculeDrawings.h"
#include "MoleculeView.h"
#include "HitTableModel.h"
#include "HitTableSource.h"
#include "HitTableView.h"
#include "JobRunner.h"
#include "chem/SdfReader.h"
#include "hits/HitStore.h"
#include "parts/PartContext.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>
#include <QMainWindow>
#include <QStatusBar>
#include <QUndoStack>

#include <algorithm>

POSEWRIGHT_REGISTER_PART(hits, pw::HitsPart)

namespace pw {

HitsPart::HitsPart() = default;
HitsPart::~HitsPart() = default;

void HitsPart::install(PartContext& context) {
    context_ = &context;
    QWidget* window = context.window();
    table_ = new HitTableView(window);
    table_->setObjectName(QStringLiteral("hitTableView"));
    table_->setDepictor(hitDepictor());
    dock_ = new QDockWidget(tr("Hits"), window);
    dock_->setObjectName(QStringLiteral("hitsDock"));
    dock_->setWidget(table_);
    context.addDock(dock_, Qt::BottomDockWidgetArea, true);

    auto* open = new QAction(tr("Open hit &store..."), window);
    open->setObjectName(QStringLiteral("openHitStoreAction"));
    open->setStatusTip(tr("The hits of a Posewright hit store (posewright-cli hits import) in a table"));
    connect(open, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(context_->window(), tr("Open hit store"),
                                                          context_->lastDirectory(),
                                                          tr("Hit stores (*.db *.sqlite);;All (*)"));
        if (!path.isEmpty())
            openStore(path);
    });
    context.addAction(PartMenu::File, open);
    // Columns a command added after the store was opened (`hits rescore`'s exact energies, a
    // later import) and changed values appear when the store is read again; the sort and the
    // range and text filters are kept (by column name), the store's structure filter is not.
    reloadAction_ = new QAction(tr("&Reload hit store"), window);
    reloadAction_->setObjectName(QStringLiteral("reloadHitStoreAction"));
    reloadAction_->setStatusTip(tr("Read the open hit store again: columns and values written "
                                   "since it was opened (posewright-cli hits rescore) appear"));
    reloadAction_->setEnabled(false);
    connect(reloadAction_, &QAction::triggered, this, [this] {
        if (storePath_.isEmpty())
            return;
        auto state = std::make_shared<HitTableState>(table_->tableState());
        openStore(storePath_);
        reloadState_ = std::move(state);
        reloadGeneration_ = openGeneration_;
    });
    context.addAction(PartMenu::File, reloadAction_);

    connect(table_, &HitTableView::selectionChanged, this, [this](const QList<qint64>& ids) {
        showPoses(ids);
        updateActions(ids);
    });
    // Actions on the selection: a reference for the overlay, and hand-offs to other parts.
    auto selectionAction = [&](const QString& text, const char* objectName, const QString& tip) {
        auto* a = new QAction(text, window);
        a->setObjectName(QLatin1String(objectName));
        a->setToolTip(tip);
        a->setEnabled(false);
        table_->addSelectionAction(a);
        return a;
    };
    referenceAction_ = selectionAction(tr("Set reference"), "hitSetReferenceAction",
                                       tr("The first selected pose becomes the reference: shown "
                                          "with every selection, and what Overlay fits on"));
    refineAction_ = selectionAction(tr("Refine"), "hitRefineAction",
                                    tr("Minimize the selected poses in the pocket (batch)"));
    overlayAction_ = selectionAction(tr("Overlay"), "hitOverlayAction",
                                     tr("Overlay the selected poses on the reference by shape "
                                        "(no reference: on the first selected)"));
    dockAction_ = selectionAction(tr("Dock again"), "hitDockAction",
                                  tr("Dock the selected molecules again"));
    connect(referenceAction_, &QAction::triggered, this, &HitsPart::setReferenceFromSelection);
    connect(refineAction_, &QAction::triggered, this, [this] { handSelection(QStringLiteral("refine")); });
    connect(overlayAction_, &QAction::triggered, this, [this] { handSelection(QStringLiteral("overlay")); });
    connect(dockAction_, &QAction::triggered, this, [this] { handSelection(QStringLiteral("dock")); });
    connect(table_, &HitTableView::storeFilterRequested, this, &HitsPart::runStoreFilter);
    connect(table_, &HitTableView::exportRequested, this, [this](const QList<qint64>& ids) {
        const QString path = QFileDialog::getSaveFileName(context_->window(), tr("Export selected hits"),
                                                          context_->lastDirectory(),
                                                          tr("SDF (*.sdf);;CSV (*.csv)"));
        if (!path.isEmpty())
            exportSelection(ids, path);
    });
}

namespace {

// What the worker hands back: the store's columns, or the error.
struct OpenedStore {
    HitColumns columns;
    QStringList residues;
    QString error;
};

struct MatchedIds {
    std::vector<std::int64_t> ids;
    QString error;
};

} // namespace

void HitsPart::openStore(const QString& path) {
    const int generation = ++openGeneration_;
    const std::string file = path.toStdString();
    auto* watcher = new QFutureWatcher<OpenedStore>(this);
    connect(watcher, &QFutureWatcher<OpenedStore>::finished, this, [this, watcher, generation, path] {
        watcher->deleteLater();
        if (generation != openGeneration_)
            return; // a newer open was asked for
        OpenedStore opened = watcher->result();
        if (!opened.error.isEmpty()) {
            context_->showError(opened.error);
            emit storeOpened(false);
            return;
        }
        // The GUI thread keeps its own connection (for poses and export): opening checks the
        // schema and reads the column list, which is quick; the worker's connection is closed.
        try {
            store_ = std::make_unique<hits::HitStore>(path.toStdString(), hits::HitStore::Mode::ReadOnly);
        } catch (const std::exception& e) {
            context_->showError(QString::fromStdString(e.what()));
            emit storeOpened(false);
            return;
        }
        storePath_ = QFileInfo(path).absoluteFilePath();
        reloadAction_->setEnabled(true);
        filterConnection_ = std::make_shared<StoreFilterConnection>(storePath_.toStdString());
        table_->setColumns(std::move(opened.columns));
        if (reloadState_ && reloadGeneration_ == generation)
            table_->restoreTableState(*reloadState_);
        reloadState_.reset();
        table_->setResidues(opened.residues);
        storeHasContacts_ = !opened.residues.isEmpty();
        context_->setLastDirectory(QFileInfo(path).absolutePath());
        dock_->show();
        dock_->raise();
        context_->statusBar()->showMessage(
            tr("Hit store %1: %2 poses").arg(QFileInfo(path).fileName()).arg(table_->model()->rowCount()), 5000);
        emit storeOpened(true);
    });
    context_->statusBar()->showMessage(tr("Reading hit store %1...").arg(QFileInfo(path).fileName()));
    watcher->setFuture(QtConcurrent::run([file] {
        OpenedStore out;
        try {
            hits::HitStore store(file, hits::HitStore::Mode::ReadOnly);
            out.columns = loadHitColumns(store);
            out.residues = contactResidues(store);
        } catch (const std::exception& e) {
            out.error = QString::fromStdString(e.what());
        }
        return out;
    }));
}

void HitsPart::runStoreFilter(int request, const HitStoreFilter& filter) {
    if (storePath_.isEmpty()) {
        table_->setStoreFilterError(request, tr("no hit store is open"));
        return;
    }
    const std::string where = storeFilterExpression(filter);
    auto* watcher = new QFutureWatcher<MatchedIds>(this);
    connect(watcher, &QFutureWatcher<MatchedIds>::finished, this, [this, watcher, request] {
        watcher->deleteLater();
        const MatchedIds matched = watcher->result();
        if (matched.error.isEmpty())
            table_->setStoreFilterResult(request, matched.ids);
        else
            table_->setStoreFilterError(request, matched.error);
    });
    // On the worker, through the filter's kept connection: a SMARTS over a million rows must
    // not hold the GUI, and the next pattern reuses what this one loaded.
    watcher->setFuture(QtConcurrent::run([connection = filterConnection_, where] {
        MatchedIds out;
        try {
            out.ids = connection->matchingIds(where);
        } catch (const std::exception& e) {
            out.error = QString::fromStdString(e.what());
        }
        return out;
    }));
}

std::vector<Molecule> HitsPart::readPoses(const QList<qint64>& ids, qsizetype limit,
                                         std::vector<long long>* readIds) {
    std::vector<Molecule> poses;
    if (!store_)
        return poses;
    // The molblock lives beside the scores (schema 2: its own table); the store says where.
    hits::Statement q = store_->prepare("SELECT poses.name, " + store_->blockColumns() + " FROM " +
                                        store_->blocksFrom() + " WHERE poses.id = ?");
    const qsizetype n = std::min<qsizetype>(ids.size(), limit);
    for (qsizetype i = 0; i < n; ++i) {
        q.reset();
        q.bind(1, static_cast<long long>(ids[i]));
        if (!q.step())
            continue;
        SdfRecordText record;
        record.text = q.text(1) + "$$$$\n";
        record.record = ids[i];
        Molecule m;
        std::string warning;
        if (!parseSdfRecord(record, storePath_.toStdString(), {}, m, warning))
            continue; // a pose the store could not keep as a molecule: no row to show
        m.name = q.text(0);
        poses.push_back(std::move(m));
        if (readIds)
            readIds->push_back(ids[i]);
    }
    return poses;
}

void HitsPart::showPoses(const QList<qint64>& ids) {
    if (!store_ || ids.isEmpty())
        return;
    std::vector<Molecule> poses;
    std::vector<long long> shownIds;
    try {
        poses = readPoses(ids, kMaxShownPoses, &shownIds);
    } catch (const std::exception& e) {
        context_->showError(QString::fromStdString(e.what()));
        return;
    }
    if (poses.empty())
        return;
    QStringList paths;
    for (size_t i = 0; i < poses.size(); ++i)
        paths << storePath_;
    context_->jobs().cancelLigandJobs(); // their molecules are about to go
    context_->undoStack()->clear();      // the commands refer to the old ligands
    context_->document().setLigands(poses, paths);
    drawShown(poses, shownIds);
    if (ids.size() > qsizetype(poses.size()))
        context_->statusBar()->showMessage(
            tr("Showing the first %1 of %2 selected poses").arg(poses.size()).arg(ids.size()), 5000);
}

void HitsPart::drawShown(const std::vector<Molecule>& poses, const std::vector<long long>& ids) {
    // Every selected pose in the pocket (the frame shows only the active ligand): the reference
    // in the frame's reference colour, the poses as its rivals; without a reference the first
    // pose takes that colour.
    std::vector<MoleculeDrawing> drawings;
    if (reference_)
        drawings.push_back(toDrawing(*reference_, DrawStyle::Ligand));
    for (size_t i = 0; i < poses.size(); ++i)
        drawings.push_back(toDrawing(poses[i], !reference_ && i == 0 ? DrawStyle::Ligand
                                                                     : DrawStyle::LigandAlternate));
    context_->view()->setLigands(drawings);
    shownDrawings_ = static_cast<int>(drawings.size());
    // The polar contacts the store recorded, when the receptor they were measured on is loaded
    // (the lines find its atoms by chain, residue and name; another receptor gives none). A store
    // imported without a receptor has none: the frame's own lines (the scoring function's H-bonds
    // and clashes of the active ligand) stay then.
    shownContactLines_ = 0;
    if (!storeHasContacts_)
        return;
    std::vector<DrawLine> lines;
    if (context_->document().hasReceptor() && store_) {
        std::vector<ShownHitPose> shown;
        for (size_t i = 0; i < poses.size() && i < size_t(kMaxContactPoses); ++i)
            shown.push_back({ids[i], &poses[i]});
        try {
            lines = hitContactLines(*store_, shown, context_->document().receptor());
        } catch (const std::exception& e) {
            context_->showError(QString::fromStdString(e.what()));
        }
    }
    context_->view()->setInteractionLines(lines);
    shownContactLines_ = static_cast<int>(lines.size());
}

void HitsPart::setReferenceFromSelection() {
    const QList<qint64> ids = table_->selectedRowIds();
    if (ids.isEmpty())
        return;
    try {
        std::vector<Molecule> poses = readPoses(ids, 1);
        if (poses.empty())
            return;
        reference_ = std::move(poses.front());
    } catch (const std::exception& e) {
        context_->showError(QString::fromStdString(e.what()));
        return;
    }
    context_->statusBar()->showMessage(
        tr("Reference: %1").arg(QString::fromStdString(reference_->name)), 5000);
    updateActions(ids);
}

void HitsPart::clearReference() {
    reference_.reset();
    updateActions(table_->selectedRowIds());
}

bool HitsPart::handSelection(const QString& kind) {
    const QList<qint64> ids = table_->selectedRowIds();
    if (ids.isEmpty() || !context_->hasPoseTaker(kind))
        return false;
    std::vector<Molecule> poses;
    try {
        poses = readPoses(ids, kMaxHandedPoses);
    } catch (const std::exception& e) {
        context_->showError(QString::fromStdString(e.what()));
        return false;
    }
    if (kind == QLatin1String("overlay") && reference_)
        poses.insert(poses.begin(), *reference_);
    if (poses.empty() || (kind == QLatin1String("overlay") && poses.size() < 2))
        return false;
    if (ids.size() > kMaxHandedPoses)
        context_->statusBar()->showMessage(
            tr("Handing the first %1 of %2 selected poses").arg(kMaxHandedPoses).arg(ids.size()), 5000);
    return context_->handPoses(kind, std::move(poses));
}

void HitsPart::updateActions(const QList<qint64>& ids) {
    const bool any = !ids.isEmpty();
    referenceAction_->setEnabled(any);
    refineAction_->setEnabled(any && context_->hasPoseTaker(QStringLiteral("refine")));
    overlayAction_->setEnabled(context_->hasPoseTaker(QStringLiteral("overlay")) &&
                               ids.size() >= (reference_ ? 1 : 2));
    dockAction_->setEnabled(any && context_->hasPoseTaker(QStringLiteral("dock")));
    const QString none = tr(" (no part of this build takes it)");
    for (auto [action, kind] : {std::pair{refineAction_, "refine"}, {overlayAction_, "overlay"},
                                {dockAction_, "dock"}}) {
        QString tip = action->toolTip();
        tip.remove(none);
        if (!context_->hasPoseTaker(QLatin1String(kind)))
            tip += none;
        action->setToolTip(tip);
    }
}

long HitsPart::exportSelection(const QList<qint64>& ids, const QString& path) {
    if (!store_)
        return -1;
    try {
        const bool csv = QFileInfo(path).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) == 0;
        const long n = csv ? exportHitIdsToCsv(*store_, ids, path.toStdString())
                           : exportHitIdsToSdf(*store_, ids, path.toStdString());
        context_->setLastDirectory(QFileInfo(path).absolutePath());
        context_->statusBar()->showMessage(tr("Exported %n hit(s) to %1", nullptr, int(n)).arg(path), 5000);
        return n;
    } catch (const std::exception& e) {
        context_->showError(QString::fromStdString(e.what()));
        return -1;
    }
}

QJsonObject HitsPart::saveState(const QDir& sessionDir) const {
    if (storePath_.isEmpty())
        return {};
    // Relative to the session's folder, as the other parts write their files.
    return {{"store", sessionDir.relativeFilePath(storePath_)}};
}

void HitsPart::restoreState(const QJsonObject& state, const QDir& sessionDir) {
    const QString path = state.value(QStringLiteral("store")).toString();
    if (!path.isEmpty())
        openStore(QDir::cleanPath(sessionDir.absoluteFilePath(path)));
}

} // namespace pw
