// PartContext: what a workflow part sees of the application frame: the shared Document, the 3D
// view, the status bar, the settings, the job runner, the grid maps, the undo stack, and the places
// its docks and actions go.
#pragma once

#include <Qt>

#include <functional>

class QAction;
class QDockWidget;
class QMainWindow;
class QStatusBar;
class QString;
class QUndoStack;

#include <functional> // the pose hand-off between parts
#include <vector>

#include <Eigen/Core> // Vec3: the side chains handed with a pose

namespace pw {

class BoxEditor;
class Document;
class JobRunner;
class MoleculeView;
class SettingsPanel;
class TargetBuilder;
struct Molecule;
using Vec3 = Eigen::Vector3d;

// The frame's menus a part may add actions to.
enum class PartMenu {
    File,   // the workflow section, above Quit
    Refine, // above Cancel job
    View,
    LigandList, // the ligand list's context menu
};

class PartContext {
public:
    virtual ~PartContext() = default;

    virtual Document& document() = 0;
    virtual MoleculeView* view() = 0;
    virtual QStatusBar* statusBar() = 0;
    // The shared settings: scoring function, device, search box, live pace.
    virtual SettingsPanel* settings() = 0;
    virtual QUndoStack* undoStack() = 0;
    // Jobs on workers: the status bar's progress and Cancel, and the lock of the ligands that a
    // minimization or batch holds (one such job at a time).
    virtual JobRunner& jobs() = 0;
    // The scoring target (prepared receptor, grid maps) of the document, built when needed.
    virtual TargetBuilder& targets() = 0;
    // The main window: the parent of the part's widgets and dialogs.
    virtual QMainWindow* window() = 0;

    // Puts a dock in the window, with its toggle in View > Panels; hidden until the part shows it
    // when startHidden.
    virtual void addDock(QDockWidget* dock, Qt::DockWidgetArea area, bool startHidden) = 0;
    // Adds an action to a menu of the frame, and to the main tool bar when onToolBar.
    virtual void addAction(PartMenu menu, QAction* action, bool onToolBar = false) = 0;

    // Poses one part hands to another without either naming the other (the Hits panel's
    // selection to refinement, overlay or docking). The part that takes a kind registers its
    // taker at install: "refine" (minimize them), "overlay" (the first is the reference, the rest
    // are fitted on it), "dock" (dock them again). handPoses is false when no part takes the
    // kind; a giver disables its action then (hasPoseTaker).
    using PoseTaker = std::function<void(std::vector<Molecule> poses)>;
    virtual void setPoseTaker(const QString& kind, PoseTaker taker) = 0;
    virtual bool hasPoseTaker(const QString& kind) const = 0;
    virtual bool handPoses(const QString& kind, std::vector<Molecule> poses) = 0;
    // What a taker does first: the handed poses become the document's ligands (no source
    // files), and the undo history, whose commands refer to the old ligands, is cleared.
    void replaceLigandsWith(std::vector<Molecule> poses);

    // Shows an error the way the frame does (dialog unless turned off, lastError, errorOccurred).
    virtual void showError(const QString& message) = 0;
    // The folder of the last file opened, where file dialogs start; parts update it too.
    virtual QString lastDirectory() const = 0;
    virtual void setLastDirectory(const QString& directory) = 0;
    // The Device setting's backend as the status bar names it ("CPU (15 threads)"); it changes
    // with Document::deviceChanged.
    virtual QString deviceDescription() const = 0;
    // The document's poses of the selected ligands back in the view (after a replay or a run).
    virtual void showDocumentLigands() = 0;
    // The ligand list ordered best affinity first (View > Rank ligands by affinity).
    virtual void rankLigandsByAffinity() = 0;
    // A part's own box fields (e.g. docking's): they set the document's one search box the way
    // the settings panel's do (around the ligand, residues, a config file, typed, dragged with
    // the frame's Edit box toggle) and show it whenever it changes.
    virtual void connectBoxEditor(BoxEditor* editor) = 0;
    // The flexible receptor side chains the user chose (issue 18; the Energy panel's choice when
    // the refine part is installed), as --flex-residues takes them ("A:THR315,A:LYS271"); empty
    // when none is chosen or no part offers a choice. The part that owns the choice sets the
    // source at install; flexResidueChoiceChanged() is called when it changes.
    virtual QString flexResidueChoice() const = 0;
    virtual void setFlexResidueSource(std::function<QString()> source) = 0;
    virtual void flexResidueChoiceChanged() = 0;
    // A part that searches with the choice listens here (called after each change).
    virtual void onFlexResidueChoiceChanged(std::function<void()> listener) = 0;
    // Another part's scripted step (e.g. "minimize" after docking), as the command line runs it:
    // false when no installed part has it.
    virtual bool runStep(const QString& step, const std::function<void(bool ok)>& done) = 0;
    // Side chains that go with a ligand's pose (issue 18): a docked pose handed to refinement
    // brings where docking left its flexible side chains (`choice` as flexResidueChoice() names
    // them, `sideChains` in FlexModel's flat order). The part that minimizes with side chains
    // takes them (setSideChainsTaker at install) and starts from them (besides the receptor's)
    // while the ligand stays at that pose with that choice; without a taker handSideChains does
    // nothing.
    using SideChainsTaker =
        std::function<void(int ligand, const QString& choice, const std::vector<Vec3>& sideChains)>;
    virtual void setSideChainsTaker(SideChainsTaker taker) = 0;
    virtual void handSideChains(int ligand, const QString& choice,
                                const std::vector<Vec3>& sideChains) = 0;
};

} // namespace pw
