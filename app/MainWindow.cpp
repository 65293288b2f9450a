#include "MainWindow.h"

#include "BoxEditor.h"
#include "JobRunner.h"
#include "MoleculeDrawings.h"
#include "MoleculeView.h"
#include "SettingsPanel.h"
#include "TargetBuilder.h"
#include "backend/DeviceSelection.h"
#include "parts/PartContext.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QIcon>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>

// The resources live in a static library: name them once so the linker keeps them.
static void initResources() {
    Q_INIT_RESOURCE(posewright);
}

namespace pw {
MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    initResources();
    setWindowTitle(tr("Posewright"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/posewright.png")));
    setAcceptDrops(true);
    undo_ = new QUndoStack(this);
    view_ = new MoleculeView(this);
    setCentralWidget(view_);
    createActions();
    createDocks();
    createStatusBar();
    connect(&document_, &Document::receptorChanged, this, &MainWindow::onReceptorChanged);
    connect(&document_, &Document::ligandsChanged, this, &MainWindow::onLigandsChanged);
    connect(&document_, &Document::ligandChanged, this, &MainWindow::onLigandChanged);
    connect(&document_, &Document::ligandsUpdated, this, &MainWindow::onLigandsUpdated);
    connect(&document_, &Document::boxChanged, this, &MainWindow::onBoxChanged);
    connect(&document_, &Document::scoringChanged, targets_, &TargetBuilder::request);
    connect(&document_, &Document::receptorPHChanged, targets_, &TargetBuilder::request);
    connectEditing();
    installParts();
    resize(1400, 860);
}

MainWindow::~MainWindow() {
    parts_.clear(); // their jobs cancel and wait for their workers before the document goes
}

void MainWindow::createActions() {
    QStyle* s = style();
    auto icon = [s](const char* theme, QStyle::StandardPixmap fallback) {
        return QIcon::fromTheme(QString::fromLatin1(theme), s->standardIcon(fallback));
    };
    auto* openReceptor =
        new QAction(icon("document-open", QStyle::SP_DirOpenIcon), tr("Open &receptor..."), this);
    openReceptor->setShortcut(QKeySequence(tr("Ctrl+R")));
    openReceptor->setStatusTip(tr("Open a receptor (PDBQT or PDB)"));
    connect(openReceptor, &QAction::triggered, this, &MainWindow::chooseReceptor);

    auto* openLigands =
        new QAction(icon("list-add", QStyle::SP_FileIcon), tr("Open &ligands..."), this);
    openLigands->setShortcut(QKeySequence::Open);
    openLigands->setStatusTip(tr("Open ligands (SDF, MOL2, PDBQT, PDB, SMILES)"));
    connect(openLigands, &QAction::triggered, this, &MainWindow::chooseLigands);

    auto* openBox = new QAction(tr("Open &box config..."), this);
    connect(openBox, &QAction::triggered, this, &MainWindow::chooseBoxConfig);
    auto* openSessionAction = new QAction(tr("Open &session..."), this);
    connect(openSessionAction, &QAction::triggered, this, &MainWindow::chooseSession);
    auto* saveSessionAction = new QAction(icon("document-save", QStyle::SP_DialogSaveButton),
                                          tr("&Save session..."), this);
    saveSessionAction->setShortcut(QKeySequence::Save);
    connect(saveSessionAction, &QAction::triggered, this, &MainWindow::chooseSaveSession);
    auto* exportPosesAction = new QAction(tr("&Export poses as SDF..."), this);
    exportPosesAction->setShortcut(QKeySequence(tr("Ctrl+E")));
    connect(exportPosesAction, &QAction::triggered, this, &MainWindow::chooseExportPoses);
    auto* exportImageAction = new QAction(tr("Export &view as PNG..."), this);
    connect(exportImageAction, &QAction::triggered, this, &MainWindow::chooseExportImage);
    auto* quit = new QAction(tr("&Quit"), this);
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QAction* undoAction = undo_->createUndoAction(this, tr("&Undo"));
    undoAction->setShortcut(QKeySequence::Undo);
    undoAction->setIcon(icon("edit-undo", QStyle::SP_ArrowBack));
    QAction* redoAction = undo_->createRedoAction(this, tr("&Redo"));
    redoAction->setShortcut(QKeySequence::Redo);
    redoAction->setIcon(icon("edit-redo", QStyle::SP_ArrowForward));

    // The workflow parts put their actions (Minimize pose, Refine all ligands) before it.
    cancelAction_ =
        new QAction(icon("process-stop", QStyle::SP_BrowserStop), tr("&Cancel job"), this);
    cancelAction_->setShortcut(QKeySequence(Qt::Key_Escape));
    cancelAction_->setEnabled(false);

    editModeAction_ =
        new QAction(icon("transform-move", QStyle::SP_ArrowUp), tr("&Edit pose"), this);
    editModeAction_->setCheckable(true);
    editModeAction_->setShortcut(QKeySequence(tr("Ctrl+D")));
    editModeAction_->setStatusTip(tr("Left-drag turns the ligand, Ctrl+drag slides it, "
                                     "Shift+drag on an atom turns its rotatable bond"));

    resetViewAction_ =
        new QAction(icon("zoom-fit-best", QStyle::SP_BrowserReload), tr("&Reset view"), this);
    resetViewAction_->setStatusTip(tr("Frame the ligands in their pocket"));
    connect(resetViewAction_, &QAction::triggered, view_, &MoleculeView::resetCamera);
    auto* about = new QAction(tr("&About Posewright"), this);
    connect(about, &QAction::triggered, this, &MainWindow::about);

    QMenu* file = fileMenu_ = menuBar()->addMenu(tr("&File"));
    file->addAction(openReceptor);
    file->addAction(openLigands);
    file->addAction(openBox);
    recentMenu_ = file->addMenu(tr("Open r&ecent"));
    file->addSeparator();
    file->addAction(openSessionAction);
    file->addAction(saveSessionAction);
    file->addSeparator();
    file->addAction(exportPosesAction);
    file->addAction(exportImageAction);
    file->addSeparator();
    // The workflow parts' File actions (open a hit list, a shape overlay) go here.
    fileWorkflowEnd_ = file->addSeparator();
    file->addAction(quit);
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(undoAction);
    edit->addAction(redoAction);
    QMenu* refine = refineMenu_ = menuBar()->addMenu(tr("&Refine"));
    refine->addAction(cancelAction_);
    refine->addSeparator();
    refine->addAction(editModeAction_);
    viewMenu_ = menuBar()->addMenu(tr("&View"));
    viewMenu_->setObjectName(QStringLiteral("viewMenu"));
    viewMenu_->addAction(resetViewAction_);
    rankAction_ = new QAction(tr("&Rank ligands by affinity"), this);
    rankAction_->setObjectName(QStringLiteral("rankAction"));
    rankAction_->setCheckable(true);
    rankAction_->setStatusTip(tr("Order the ligand list best affinity first (the unscored "
                                 "after them, in file order)"));
    connect(rankAction_, &QAction::toggled, this, &MainWindow::onLigandsUpdated);
    viewMenu_->addAction(rankAction_);
    wholeReceptorAction_ = new QAction(tr("&Whole receptor as sticks"), this);
    wholeReceptorAction_->setCheckable(true);
    wholeReceptorAction_->setStatusTip(tr("Otherwise: the backbone as a tube and the residues "
                                          "within 6 Å of the ligands as sticks"));
    connect(wholeReceptorAction_, &QAction::toggled, this, &MainWindow::updateReceptorDrawing);
    viewMenu_->addAction(wholeReceptorAction_);
    auto* surfaceAction = new QAction(tr("Pocket &surface"), this);
    surfaceAction->setCheckable(true);
    surfaceAction->setObjectName(QStringLiteral("surfaceAction"));
    surfaceAction->setStatusTip(tr("A translucent molecular surface over the receptor atoms "
                                   "shown (the pocket)"));
    connect(surfaceAction, &QAction::toggled, view_, &MoleculeView::setSurfaceVisible);
    viewMenu_->addAction(surfaceAction);
    editBoxAction_ = new QAction(tr("Edit &box in the view"), this);
    editBoxAction_->setCheckable(true);
    editBoxAction_->setStatusTip(tr("Drag the box's face handles to resize it, its centre to "
                                    "move it"));
    connect(editBoxAction_, &QAction::toggled, view_, &MoleculeView::setBoxEditable);
    connect(view_, &MoleculeView::boxEdited, this, [this](const DrawBox& b) {
        document_.setBox(SearchBox{Vec3(b.center[0], b.center[1], b.center[2]),
                                   Vec3(b.size[0], b.size[1], b.size[2])},
                         BoxSource::Typed);
    });
    viewMenu_->addAction(editBoxAction_);
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(about);
    updateRecentMenu();

    QToolBar* bar = toolBar_ = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(openReceptor);
    bar->addAction(openLigands);
    bar->addAction(saveSessionAction);
    bar->addSeparator();
    bar->addAction(undoAction);
    bar->addAction(redoAction);
    bar->addSeparator();
    bar->addAction(cancelAction_);
    bar->addAction(editModeAction_);
    bar->addSeparator();
    bar->addAction(resetViewAction_);
}

void MainWindow::createDocks() {
    auto* dock = new QDockWidget(tr("Ligands"), this);
    dock->setObjectName(QStringLiteral("ligandsDock"));
    ligandList_ = new QListWidget(dock);
    ligandList_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    ligandList_->setToolTip(tr("Selected ligands are shown in the view; the active one (green) "
                               "is the one minimized and edited"));
    ligandList_->setContextMenuPolicy(Qt::ActionsContextMenu);
    ligandList_->addAction(rankAction_);
    connect(ligandList_, &QListWidget::itemSelectionChanged, this,
            &MainWindow::showSelectedLigands);
    dock->setWidget(ligandList_);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    auto* settingsDock = new QDockWidget(tr("Settings"), this);
    settingsDock->setObjectName(QStringLiteral("settingsDock"));
    settings_ = new SettingsPanel(settingsDock);
    settings_->boxEditor()->setDragAction(editBoxAction_);
    settingsDock->setWidget(settings_);
    addDockWidget(Qt::LeftDockWidgetArea, settingsDock);
    connect(settings_, &SettingsPanel::scoringChanged, &document_, &Document::setScoring);
    connect(settings_, &SettingsPanel::receptorPHChanged, &document_, &Document::setReceptorPH);
    connect(settings_, &SettingsPanel::deviceChanged, &document_, &Document::setDevice);
    connect(settings_, &SettingsPanel::boxFromLigandRequested, this,
            &MainWindow::setBoxAroundLigand);
    connect(settings_, &SettingsPanel::boxFromFileRequested, this, &MainWindow::chooseBoxConfig);
    connect(settings_, &SettingsPanel::boxAroundResidues, this, &MainWindow::setBoxAroundResidues);
    connect(settings_, &SettingsPanel::boxTyped, this,
            [this](const SearchBox& b) { document_.setBox(b, BoxSource::Typed); });

    // A short ligand list (one ligand in the common case), the settings below it in full.
    resizeDocks({dock, settingsDock}, {140, 520}, Qt::Vertical);

    // Every dock can be closed (its title bar's button) and brought back from the View menu.
    viewMenu_->addSection(tr("Panels"));
    for (QDockWidget* d : {dock, settingsDock})
        viewMenu_->addAction(d->toggleViewAction());
}

void MainWindow::createStatusBar() {
    deviceLabel_ = new QLabel(this);
    updateDeviceLabel();
    connect(&document_, &Document::deviceChanged, this, &MainWindow::updateDeviceLabel);
    contentsLabel_ = new QLabel(this);
    scoreLabel_ = new QLabel(this);
    scoreLabel_->setObjectName(QStringLiteral("scoreLabel"));
    progress_ = new QProgressBar(this);
    progress_->setMaximumWidth(180);
    progress_->setVisible(false);
    cancelButton_ = new QToolButton(this);
    cancelButton_->setDefaultAction(cancelAction_);
    cancelButton_->setVisible(false);
    jobs_ = new JobRunner(statusBar(), progress_, cancelButton_, cancelAction_, this);
    targets_ = new TargetBuilder(document_, *jobs_, this);
    connect(targets_, &TargetBuilder::built, this, &MainWindow::onTargetBuilt);
    connect(targets_, &TargetBuilder::cancelled, this,
            [this] { statusBar()->showMessage(tr("Grid building cancelled"), 5000); });
    statusBar()->addPermanentWidget(scoreLabel_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancelButton_);
    statusBar()->addPermanentWidget(contentsLabel_);
    statusBar()->addPermanentWidget(deviceLabel_);
    updateStatus();
}

void MainWindow::updateDeviceLabel() {
    // The compute device as the backend layer chooses it (ARCHITECTURE.md §3); the note says
    // why when a GPU was asked for and the CPU runs instead.
    std::string note;
    QString description = tr("CPU");
    try {
        std::unique_ptr<Backend> backend = createBackend(
            parseDeviceRequest(document_.device().toStdString()), workerCpuThreads(), note);
        description = QString::fromStdString(backend->description());
    } catch (const std::exception& e) {
        note = e.what();
    }
    deviceDescription_ = description;
    deviceLabel_->setText(tr("Device: %1").arg(description));
    deviceLabel_->setToolTip(QString::fromStdString(note));
    if (!note.empty())
        statusBar()->showMessage(QString::fromStdString(note), 8000);
}

void MainWindow::showError(const QString& message) {
    lastError_ = message;
    emit errorOccurred(message);
    if (!errorDialogs_)
        return;
    // open(), not exec(): the window stays responsive and loads in flight still land.
    auto* box =
        new QMessageBox(QMessageBox::Critical, tr("Posewright"), message, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("loadErrorBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::onReceptorChanged() {
    updateReceptorDrawing();
    // Frame again (the receptor decides the side to look from) unless the user has taken the
    // camera since the last framing.
    if (!view_->cameraMovedByUser())
        view_->resetCamera();
    QString title = tr("Posewright");
    if (document_.hasReceptor())
        title += QStringLiteral(" — ") + QFileInfo(document_.receptorPath()).fileName();
    setWindowTitle(title);
    updateStatus();
    targets_->request();
}

void MainWindow::updateReceptorDrawing() {
    if (!document_.hasReceptor()) {
        view_->setReceptor({});
        view_->setBackbone({});
        return;
    }
    std::vector<const Molecule*> shown;
    for (int row = 0; row < ligandList_->count(); ++row) {
        const int index = ligandOfRow(row);
        if (ligandList_->item(row)->isSelected() && index >= 0 &&
            index < static_cast<int>(document_.ligands().size()))
            shown.push_back(&document_.ligands()[static_cast<size_t>(index)]);
    }
    if (shown.empty() && ligandLoadsPending_ > 0 && !wholeReceptorAction_->isChecked()) {
        // Ligands are on their way: drawing all 1000+ atoms now would be replaced by the pocket
        // a moment later (and a software renderer takes ~0.1 s over the first frame).
        view_->setReceptor({});
        view_->setBackbone({});
        return;
    }
    MoleculeDrawing pocket;
    if (!wholeReceptorAction_->isChecked() && !shown.empty())
        pocket = pocketDrawing(document_.receptor(), shown);
    if (pocket.empty()) {
        view_->setReceptor(toDrawing(document_.receptor(), DrawStyle::Receptor));
        view_->setBackbone({});
        return;
    }
    view_->setReceptor(pocket);
    view_->setBackbone(backboneTraces(document_.receptor()));
}

void MainWindow::updateStatus() {
    contentsLabel_->setText(document_.summary());
    const int active = document_.activeLigand();
    const auto& s = document_.score(active);
    scoreLabel_->setText(s ? tr("Affinity %1 kcal/mol").arg(s->affinity, 0, 'f', 3) : QString());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    jobs_->cancelAll();
    QMainWindow::closeEvent(event);
}

void MainWindow::cancelJob() {
    jobs_->cancelAll();
}

bool MainWindow::busy() const {
    return jobs_->busy();
}

bool MainWindow::targetReady() const {
    return targets_->ready();
}

void MainWindow::about() {
    QMessageBox::about(
        this, tr("About Posewright"),
        tr("<h3>Posewright %1</h3><p>Pose refinement, docking, shape overlay and similarity "
           "for hit triage, on a CUDA GPU when one is present and on the CPU otherwise.</p>")
            .arg(QCoreApplication::applicationVersion()));
}

} // namespace pw
