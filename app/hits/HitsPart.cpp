#include "HitsPart.h"

#include "Document.h"
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

    connect(table_, &HitTableView::selectionChanged, this, &HitsPart::showPoses);
    connect(table_, &HitTableView::storeFilterRequested, this, &HitsPart::runStoreFilter);
    connect(table_, &HitTableView::exportRequested, this, [this](const QList<qint64>& ids) {
        const QString path = QFileDialog::getSaveFileName(context_->window(), tr("Export selected hits"),
                                                          context_->lastDirectory(), tr("SDF (*.sdf)"));
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
        table_->setColumns(std::move(opened.columns));
        table_->setResidues(opened.residues);
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
    const std::string file = storePath_.toStdString();
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
    // Its own connection on the worker: a SMARTS over a million rows must not hold the GUI.
    watcher->setFuture(QtConcurrent::run([file, where] {
        MatchedIds out;
        try {
            hits::HitStore store(file, hits::HitStore::Mode::ReadOnly);
            out.ids = matchingHitIds(store, where);
        } catch (const std::exception& e) {
            out.error = QString::fromStdString(e.what());
        }
        return out;
    }));
}

void HitsPart::showPoses(const QList<qint64>& ids) {
    if (!store_ || ids.isEmpty())
        return;
    const qsizetype shown = std::min<qsizetype>(ids.size(), kMaxShownPoses);
    std::vector<Molecule> poses;
    QStringList paths;
    try {
        // The molblock lives beside the scores (schema 2: its own table); the store says where.
        hits::Statement q = store_->prepare("SELECT poses.name, " + store_->blockColumns() +
                                            " FROM " + store_->blocksFrom() +
                                            " WHERE poses.id = ?");
        for (qsizetype i = 0; i < shown; ++i) {
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
            paths << storePath_;
        }
    } catch (const std::exception& e) {
        context_->showError(QString::fromStdString(e.what()));
        return;
    }
    if (poses.empty())
        return;
    context_->jobs().cancelLigandJobs(); // their molecules are about to go
    context_->undoStack()->clear();      // the commands refer to the old ligands
    context_->document().setLigands(std::move(poses), paths);
    if (ids.size() > shown)
        context_->statusBar()->showMessage(
            tr("Showing the first %1 of %2 selected poses").arg(shown).arg(ids.size()), 5000);
}

long HitsPart::exportSelection(const QList<qint64>& ids, const QString& path) {
    if (!store_)
        return -1;
    try {
        const long n = exportHitIdsToSdf(*store_, ids, path.toStdString());
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
