// MainWindow: the application's main window: menus, tool bar, the 3D view of the document, the
// ligand list, settings, the energy plot and trajectory player, and a status bar with the compute
// device, what is loaded and the progress of the running job (which can be cancelled).
#pragma once

#include "BatchRefineJob.h"
#include "Document.h"
#include "MinimizeJob.h"
#include "MoleculeLoader.h"
#include "ScoringTarget.h"
#include "parts/WorkflowPart.h"

#include <QMainWindow>

#include <functional>
#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QListWidget;
class QMenu;
class QProgressBar;
class QTableWidget;
class QToolBar;
class QToolButton;
class QUndoStack;

namespace pw {

class EnergyPlot;
class MoleculeView;
class PartContext;
class SettingsPanel;
class TrajectoryPlayer;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    Document& document() { return document_; }
    MoleculeView* moleculeView() const { return view_; }
    QListWidget* ligandList() const { return ligandList_; }
    EnergyPlot* energyPlot() const { return plot_; }
    QTableWidget* termTable() const { return termTable_; }
    TrajectoryPlayer* player() const { return player_; }
    SettingsPanel* settingsPanel() const { return settings_; }
    QUndoStack* undoStack() const { return undo_; }
    QAction* minimizeAction() const { return minimizeAction_; }
    QAction* refineAllAction() const { return refineAllAction_; }
    // Keeps the ligand list ordered by affinity (scored ligands best first, then the unscored in
    // file order); a batch refinement turns it on.
    QAction* rankAction() const { return rankAction_; }
    QMenu* viewMenu() const { return viewMenu_; }
    QProgressBar* progressBar() const { return progress_; }
    // Above the energy plot: what the curve is (a watched minimization, a batch result).
    QLabel* trajectoryNote() const { return trajectoryNote_; }
    // The document ligand shown in a row of the ligand list, and back (-1 when none).
    int ligandOfRow(int row) const;
    int rowOfLigand(int index) const;
    QAction* cancelAction() const { return cancelAction_; }
    QAction* editModeAction() const { return editModeAction_; }
    QAction* editBoxAction() const { return editBoxAction_; }
    // The workflow parts installed (app/CMakeLists.txt's POSEWRIGHT_APP_PARTS, in that order).
    const std::vector<std::unique_ptr<WorkflowPart>>& parts() const { return parts_; }
    // The installed part of that name or type; nullptr when this build leaves it out.
    WorkflowPart* part(const QString& name) const;
    template <class Part> Part* part() const {
        for (const auto& p : parts_)
            if (auto* found = dynamic_cast<Part*>(p.get()))
                return found;
        return nullptr;
    }
    // Runs a part's scripted step (the command line's --minimize is "minimize"): false when no
    // installed part has it; otherwise done(ok) is called once the step has ended.
    bool runStep(const QString& step, const std::function<void(bool ok)>& done);

    // Start loading a file on a worker thread; the document changes only when it has been read
    // completely. A newer request of the same kind supersedes an older one still running.
    void openReceptor(const QString& path);
    void openLigands(const QStringList& paths);
    void openLigands(const QString& path) { openLigands(QStringList{path}); }
    // Reads a Vina box config (center_x ... size_z) into the document; false (and the error
    // shown) when it cannot be read.
    bool openBoxConfig(const QString& path);
    // Loads still running.
    int pendingLoads() const { return pending_; }

    // Minimizes the active ligand on a worker thread, streaming frames into the view and the plot;
    // waits for the grid maps when they are still being built. Undoable as one step.
    void minimize();
    // Minimizes every loaded ligand's pose in one batch on the Device setting's backend (CPU
    // or GPU), on a worker thread with progress; one undo step. No per-step frames.
    void refineAll();
    void cancelJob();
    // A minimization, grid build or session restore is running.
    bool busy() const;
    bool targetReady() const;
    // Frames of the active ligand's last watched minimization (live, then replayed by the
    // player; restored from sessions).
    const std::vector<TrajectoryPoint>& trajectory() const { return trajectory_; }

    bool saveSession(const QString& path);
    void openSession(const QString& path);
    // Current poses of all ligands as SDF with their scores as SD tags; false (error shown) when
    // the file cannot be written.
    bool exportPoses(const QString& path);
    bool exportImage(const QString& path);

    // The last error shown to the user (file:line: what was expected); empty when none.
    const QString& lastError() const { return lastError_; }
    QLabel* deviceLabel() const { return deviceLabel_; }
    // Errors are shown in a (non-blocking, window-modal) message box unless this is turned off,
    // e.g. for unattended --screenshot runs; they are always recorded and signalled.
    void setErrorDialogsEnabled(bool enabled) { errorDialogs_ = enabled; }

signals:
    // After every load, successful or not.
    void loadFinished(bool ok);
    void errorOccurred(const QString& message);
    void targetBuilt(bool ok);
    // ok: committed to the document; false: cancelled or failed (the document is unchanged).
    void minimizationFinished(bool ok);
    // The same for a batch refinement (refineAll).
    void batchRefinementFinished(bool ok);
    void sessionOpened(bool ok);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    // MainWindow.cpp: window, files, sessions, export.
    void createActions();
    void createDocks();
    void createStatusBar();
    void startLoad(const QStringList& paths, LoadKind kind);
    void finishLoad(LoadResult result, int generation);
    void showError(const QString& message);
    void onReceptorChanged();

    // MainWindowLigandList.cpp: the ligand (hit) list, its ranking and the shown ligands.
    void onLigandsChanged();
    void onLigandChanged(int index);
    void onLigandsUpdated();
    void updateLigandItem(int index);
    void updateLigandRow(int row);
    void sortLigandList();
    void showSelectedLigands();
    // Receptor as pocket sticks plus backbone tube (or all sticks, or all when no ligand shown).
    void updateReceptorDrawing();
    void updateStatus();
    void updateDeviceLabel();
    void chooseReceptor();
    void chooseLigands();
    void chooseSession();
    void chooseSaveSession();
    void chooseExportPoses();
    void chooseExportImage();
    void chooseBoxConfig();
    void addRecentFile(const QString& path);
    void updateRecentMenu();
    void openAny(const QStringList& paths);
    void about();

    // MainWindowRefinement.cpp: grids, live score, minimization, trajectory, energy panel.
    void requestTarget();
    void onTargetBuilt(std::shared_ptr<const ScoringTarget> target, QString error, int generation);
    void startMinimization();
    void onJobPrepared(const Molecule& ligand);
    void onJobFrame(const TrajectoryPoint& point);
    void onJobFinished(const MinimizeJobResult& result);
    void showTrajectoryFrame(int frame);
    // The active ligand's recorded trajectory (or batch mark) into the plot, player and note.
    void showActiveTrajectory();
    void rescoreActiveLigand();
    void showPose(const Molecule& ligand, const std::vector<Vec3>* coordinates);
    void showTerms(const VinaScore* score, const TrajectoryPoint* point);
    void setBoxAroundLigand(double margin);
    // "A:23, A:27, 43" (chain optional): the residues' atoms plus a margin.
    void setBoxAroundResidues(const QString& residues, double margin);
    void onBoxChanged();
    void setBusy(const QString& message, bool determinate);
    void clearBusy();
    void initEnergyPlot();
    // Tool tips that say where each kind of minimization runs (the Device setting).
    void updateDeviceTips(const QString& backend);

    // MainWindowBatch.cpp: batch refinement of all ligands through the Backend.
    void onBatchProgress(long done, long total);
    void onBatchFinished(const BatchRefineResult& result);

    // MainWindowEditing.cpp: dragging the ligand and its bonds, hover information.
    void connectEditing();
    void onDragStarted();
    void applyLigandEdit(const std::function<bool(Molecule&)>& edit, const QString& text);
    void onAtomHovered(int kind, int atom, QPoint globalPos);

    Document document_;
    QUndoStack* undo_ = nullptr;
    MoleculeView* view_ = nullptr;
    QListWidget* ligandList_ = nullptr;
    EnergyPlot* plot_ = nullptr;
    QTableWidget* termTable_ = nullptr;
    TrajectoryPlayer* player_ = nullptr;
    SettingsPanel* settings_ = nullptr;
    QLabel* deviceLabel_ = nullptr;
    QLabel* contentsLabel_ = nullptr;
    QLabel* scoreLabel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QToolButton* cancelButton_ = nullptr;
    QAction* resetViewAction_ = nullptr;
    QAction* minimizeAction_ = nullptr;
    QAction* refineAllAction_ = nullptr;
    QAction* rankAction_ = nullptr;
    QLabel* trajectoryNote_ = nullptr;
    QAction* cancelAction_ = nullptr;
    QAction* editModeAction_ = nullptr;
    QAction* wholeReceptorAction_ = nullptr;
    QAction* editBoxAction_ = nullptr;
    // MainWindowParts.cpp: installing the workflow parts and their session pieces.
    class Context;
    friend class Context;
    void installParts();
    QJsonObject partStates() const;
    void restorePartStates(const QJsonObject& states);
    std::unique_ptr<PartContext> partContext_;
    std::vector<std::unique_ptr<WorkflowPart>> parts_;
    QMenu* fileMenu_ = nullptr;
    QMenu* refineMenu_ = nullptr;
    QAction* fileWorkflowEnd_ = nullptr; // parts' File actions go above it
    QToolBar* toolBar_ = nullptr;
    int dragId_ = 0;
    bool dragScorable_ = false;
    QMenu* viewMenu_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QString lastError_;
    QString lastDirectory_;
    bool errorDialogs_ = true;
    int pending_ = 0;
    int receptorGeneration_ = 0;
    int ligandsGeneration_ = 0;
    int ligandLoadsPending_ = 0; // the receptor waits for them: its pocket is what is drawn

    std::shared_ptr<const ScoringTarget> target_;
    int targetGeneration_ = 0; // increases with every requested build; older results are dropped
    bool targetBuilding_ = false;
    bool minimizeWhenReady_ = false;
    bool refineWhenReady_ = false;
    bool restoringSession_ = false;
    int sessionGeneration_ = 0;
    std::unique_ptr<MinimizeJob> job_;
    std::unique_ptr<BatchRefineJob> batchJob_;
    std::shared_ptr<const ScoringTarget> batchTarget_; // what the batch ran on
    int batchLigandsGeneration_ = 0; // the document's ligandsGeneration() at its start
    int jobLigand_ = -1;
    Molecule trajectoryLigand_; // the prepared molecule the trajectory's coordinates belong to
    std::vector<TrajectoryPoint> trajectory_;
};

} // namespace pw
