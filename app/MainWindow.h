// MainWindow: the application's main window: menus, tool bar, the 3D view of the document, the
// ligand list, settings, the energy plot and trajectory player, and a status bar with the compute
// device, what is loaded and the progress of the running job (which can be cancelled).
#pragma once

#include "Document.h"
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

class JobRunner;
class MoleculeView;
class PartContext;
class SettingsPanel;
class TargetBuilder;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    Document& document() { return document_; }
    MoleculeView* moleculeView() const { return view_; }
    QListWidget* ligandList() const { return ligandList_; }
    SettingsPanel* settingsPanel() const { return settings_; }
    QUndoStack* undoStack() const { return undo_; }
    // Keeps the ligand list ordered by affinity (scored ligands best first, then the unscored in
    // file order); a batch refinement turns it on.
    QAction* rankAction() const { return rankAction_; }
    QMenu* viewMenu() const { return viewMenu_; }
    QProgressBar* progressBar() const { return progress_; }
    // The jobs on workers (status bar, Cancel) and the shared scoring target (grid maps).
    JobRunner& jobs() const { return *jobs_; }
    TargetBuilder& targets() const { return *targets_; }
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

    // Cancels every job (Cancel job, Esc).
    void cancelJob();
    // A job runs: a minimization, a batch, a grid build or a session being opened.
    bool busy() const;
    bool targetReady() const;

    bool saveSession(const QString& path);
    void openSession(const QString& path);
    // Current poses of all ligands as SDF with their scores as SD tags; false (error shown) when
    // the file cannot be written.
    bool exportPoses(const QString& path);
    bool exportImage(const QString& path);

    // The last error shown to the user (file:line: what was expected); empty when none.
    const QString& lastError() const { return lastError_; }
    // What preparing the current receptor added ("... added N polar hydrogens ... at pH X ..."),
    // shown in the status bar; empty when it added nothing (a PDBQT, hydrogens present).
    const QString& receptorPreparationNote() const { return receptorPreparationNote_; }
    QLabel* deviceLabel() const { return deviceLabel_; }
    // Errors are shown in a (non-blocking, window-modal) message box unless this is turned off,
    // e.g. for unattended --screenshot runs; they are always recorded and signalled.
    void setErrorDialogsEnabled(bool enabled) { errorDialogs_ = enabled; }

signals:
    // After every load, successful or not.
    void loadFinished(bool ok);
    void errorOccurred(const QString& message);
    void targetBuilt(bool ok);
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

    // MainWindowScoring.cpp: the grid maps as they land, the live score of the shown pose, the box.
    void onTargetBuilt(bool ok, const QString& error);
    void rescoreActiveLigand();
    void setBoxAroundLigand(double margin);
    // "A:23, A:27, 43" (chain optional): the residues' atoms plus a margin.
    void setBoxAroundResidues(const QString& residues, double margin);
    void onBoxChanged();

    // MainWindowEditing.cpp: dragging the ligand and its bonds, hover information.
    void connectEditing();
    void onDragStarted();
    void applyLigandEdit(const std::function<bool(Molecule&)>& edit, const QString& text);
    void onAtomHovered(int kind, int atom, QPoint globalPos);

    Document document_;
    QUndoStack* undo_ = nullptr;
    MoleculeView* view_ = nullptr;
    QListWidget* ligandList_ = nullptr;
    SettingsPanel* settings_ = nullptr;
    QLabel* deviceLabel_ = nullptr;
    QLabel* contentsLabel_ = nullptr;
    QLabel* scoreLabel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QToolButton* cancelButton_ = nullptr;
    QAction* resetViewAction_ = nullptr;
    QAction* rankAction_ = nullptr;
    QAction* cancelAction_ = nullptr;
    QAction* editModeAction_ = nullptr;
    QAction* wholeReceptorAction_ = nullptr;
    QAction* editBoxAction_ = nullptr;
    // MainWindowParts.cpp: installing the workflow parts and their session pieces.
    class Context;
    friend class Context;
    void installParts();
    QJsonObject partStates(const QDir& sessionDir) const;
    void restorePartStates(const QJsonObject& states, const QDir& sessionDir);
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
    QString receptorPreparationNote_; // of the current scoring target (receptorPreparationNote)
    QString lastDirectory_;
    bool errorDialogs_ = true;
    int pending_ = 0;
    int receptorGeneration_ = 0;
    int ligandsGeneration_ = 0;
    int ligandLoadsPending_ = 0; // the receptor waits for them: its pocket is what is drawn

    JobRunner* jobs_ = nullptr;
    TargetBuilder* targets_ = nullptr;
    QString deviceDescription_; // the Device setting's backend, as the status bar names it
    int sessionJob_ = 0;        // the JobRunner's id of the session being opened, 0 when none
    int sessionGeneration_ = 0;
};

} // namespace pw
