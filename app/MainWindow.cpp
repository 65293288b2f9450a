#include "MainWindow.h"

#include "MoleculeDrawings.h"
#include "MoleculeView.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>

// The resources live in a static library: name them once so the linker keeps them.
static void initResources() {
    Q_INIT_RESOURCE(posewright);
}

namespace pw {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    initResources();
    setWindowTitle(tr("Posewright"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/posewright.png")));
    view_ = new MoleculeView(this);
    setCentralWidget(view_);
    createActions();
    createDock();
    createStatusBar();
    connect(&document_, &Document::receptorChanged, this, &MainWindow::onReceptorChanged);
    connect(&document_, &Document::ligandsChanged, this, &MainWindow::onLigandsChanged);
    resize(1280, 800);
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions() {
    QStyle* s = style();
    auto* openReceptor = new QAction(
        QIcon::fromTheme(QStringLiteral("document-open"), s->standardIcon(QStyle::SP_DirOpenIcon)),
        tr("Open &receptor..."), this);
    openReceptor->setShortcut(QKeySequence(tr("Ctrl+R")));
    openReceptor->setStatusTip(tr("Open a receptor (PDBQT or PDB)"));
    connect(openReceptor, &QAction::triggered, this, &MainWindow::chooseReceptor);

    auto* openLigands = new QAction(
        QIcon::fromTheme(QStringLiteral("list-add"), s->standardIcon(QStyle::SP_FileIcon)),
        tr("Open &ligands..."), this);
    openLigands->setShortcut(QKeySequence::Open);
    openLigands->setStatusTip(tr("Open ligands (SDF, MOL2, PDBQT, PDB, SMILES)"));
    connect(openLigands, &QAction::triggered, this, &MainWindow::chooseLigands);

    auto* quit = new QAction(tr("&Quit"), this);
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    resetViewAction_ = new QAction(QIcon::fromTheme(QStringLiteral("zoom-fit-best"),
                                                    s->standardIcon(QStyle::SP_BrowserReload)),
                                   tr("&Reset view"), this);
    resetViewAction_->setStatusTip(tr("Frame the ligands in their pocket"));
    connect(resetViewAction_, &QAction::triggered, view_, &MoleculeView::resetCamera);

    auto* about = new QAction(tr("&About Posewright"), this);
    connect(about, &QAction::triggered, this, &MainWindow::about);

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(openReceptor);
    file->addAction(openLigands);
    file->addSeparator();
    file->addAction(quit);
    viewMenu_ = menuBar()->addMenu(tr("&View"));
    viewMenu_->addAction(resetViewAction_);
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(about);

    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->addAction(openReceptor);
    bar->addAction(openLigands);
    bar->addSeparator();
    bar->addAction(resetViewAction_);
}

void MainWindow::createDock() {
    auto* dock = new QDockWidget(tr("Ligands"), this);
    dock->setObjectName(QStringLiteral("ligandsDock"));
    ligandList_ = new QListWidget(dock);
    ligandList_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    ligandList_->setToolTip(tr("Selected ligands are shown in the view (first in green)"));
    connect(ligandList_, &QListWidget::itemSelectionChanged, this,
            &MainWindow::showSelectedLigands);
    dock->setWidget(ligandList_);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    viewMenu_->addAction(dock->toggleViewAction());
}

void MainWindow::createStatusBar() {
    // The compute device: CPU until the backend layer picks a GPU (ARCHITECTURE.md §3).
    deviceLabel_ = new QLabel(tr("Device: CPU"), this);
    contentsLabel_ = new QLabel(this);
    statusBar()->addPermanentWidget(contentsLabel_);
    statusBar()->addPermanentWidget(deviceLabel_);
    updateStatus();
}

void MainWindow::openReceptor(const QString& path) {
    startLoad({path}, LoadKind::Receptor);
}

void MainWindow::openLigands(const QStringList& paths) {
    startLoad(paths, LoadKind::Ligands);
}

void MainWindow::startLoad(const QStringList& paths, LoadKind kind) {
    const int generation =
        kind == LoadKind::Receptor ? ++receptorGeneration_ : ++ligandsGeneration_;
    ++pending_;
    statusBar()->showMessage(tr("Reading %1...").arg(QFileInfo(paths.value(0)).fileName()));
    auto* watcher = new QFutureWatcher<LoadResult>(this);
    connect(watcher, &QFutureWatcher<LoadResult>::finished, this, [this, watcher, generation] {
        LoadResult result = watcher->result();
        watcher->deleteLater();
        finishLoad(std::move(result), generation);
    });
    watcher->setFuture(loadMoleculesAsync(paths, kind));
}

void MainWindow::finishLoad(LoadResult result, int generation) {
    --pending_;
    const bool receptor = result.kind == LoadKind::Receptor;
    const int current = receptor ? receptorGeneration_ : ligandsGeneration_;
    if (generation != current) {
        emit loadFinished(result.ok()); // superseded by a newer request: drop it
        return;
    }
    if (!result.ok()) {
        statusBar()->clearMessage();
        showError(result.error);
        emit loadFinished(false);
        return;
    }
    const QString first = result.paths.value(0);
    lastDirectory_ = QFileInfo(first).absolutePath();
    std::vector<Molecule>& molecules = result.molecules;
    if (receptor)
        document_.setReceptor(std::move(molecules.front()), first);
    else
        document_.setLigands(std::move(molecules), result.paths);
    QString message = tr("Read %1").arg(QFileInfo(first).fileName());
    if (!result.warnings.isEmpty())
        message += tr(" (%n record(s) skipped)", nullptr, result.warnings.size());
    statusBar()->showMessage(message, 5000);
    emit loadFinished(true);
}

void MainWindow::showError(const QString& message) {
    lastError_ = message;
    emit errorOccurred(message);
    if (!errorDialogs_)
        return;
    // open(), not exec(): the window stays responsive and loads in flight still land.
    auto* box = new QMessageBox(QMessageBox::Critical, tr("Could not open file"), message,
                                QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("loadErrorBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::onReceptorChanged() {
    view_->setReceptor(document_.hasReceptor()
                           ? toDrawing(document_.receptor(), DrawStyle::Receptor)
                           : MoleculeDrawing{});
    // Frame again (the receptor decides the side to look from) unless the user has taken the
    // camera since the last framing.
    if (!view_->cameraMovedByUser())
        view_->resetCamera();
    QString title = tr("Posewright");
    if (document_.hasReceptor())
        title += QStringLiteral(" — ") + QFileInfo(document_.receptorPath()).fileName();
    setWindowTitle(title);
    updateStatus();
}

void MainWindow::onLigandsChanged() {
    const QSignalBlocker blocker(ligandList_);
    ligandList_->clear();
    const auto& ligands = document_.ligands();
    for (size_t i = 0; i < ligands.size(); ++i) {
        const Molecule& m = ligands[i];
        const QString name =
            m.name.empty() ? tr("ligand %1").arg(i + 1) : QString::fromStdString(m.name);
        auto* item = new QListWidgetItem(QStringLiteral("%1  %2").arg(i + 1).arg(name));
        item->setToolTip(
            tr("%1 heavy atoms, %2 atoms").arg(m.heavyAtomCount()).arg(m.atoms.size()));
        ligandList_->addItem(item);
    }
    if (ligandList_->count() > 0)
        ligandList_->item(0)->setSelected(true);
    showSelectedLigands();
    view_->resetCamera();
    updateStatus();
}

void MainWindow::showSelectedLigands() {
    std::vector<MoleculeDrawing> drawings;
    const auto& ligands = document_.ligands();
    for (int row = 0; row < ligandList_->count(); ++row) {
        if (!ligandList_->item(row)->isSelected() || row >= static_cast<int>(ligands.size()))
            continue;
        // The first selected ligand in green, the others in cyan: a reference and its rivals.
        drawings.push_back(
            toDrawing(ligands[static_cast<size_t>(row)],
                      drawings.empty() ? DrawStyle::Ligand : DrawStyle::LigandAlternate));
    }
    view_->setLigands(drawings);
}

void MainWindow::updateStatus() {
    contentsLabel_->setText(document_.summary());
}

void MainWindow::chooseReceptor() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open receptor"), lastDirectory_,
                                     tr("Receptors (*.pdbqt *.pdb *.ent);;All files (*)"));
    if (!path.isEmpty())
        openReceptor(path);
}

void MainWindow::chooseLigands() {
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open ligands"), lastDirectory_,
        tr("Molecules (*.sdf *.sd *.mol *.mol2 *.pdbqt *.pdb *.smi *.smiles);;All files (*)"));
    if (!paths.isEmpty())
        openLigands(paths);
}

void MainWindow::about() {
    QMessageBox::about(
        this, tr("About Posewright"),
        tr("<h3>Posewright %1</h3><p>Pose refinement, docking, shape overlay and similarity "
           "for hit triage, on a CUDA GPU when one is present and on the CPU otherwise.</p>")
            .arg(QCoreApplication::applicationVersion()));
}

} // namespace pw
