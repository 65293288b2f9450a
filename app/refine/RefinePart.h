// RefinePart: the watched minimization workflow: Refine > Minimize pose runs the CPU reference on
// the active ligand on a worker, streaming its steps into the view and the Energy dock (the energy
// plot, the trajectory player and Vina's terms), one undo step; the ligand's last trajectory is
// replayed whenever it is active again, and kept in sessions by the Document.
#pragma once

#include "FlexResidues.h"
#include "MinimizeJob.h"
#include "Trajectory.h"
#include "parts/WorkflowPart.h"

#include <map>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QLabel;
class QTableWidget;

namespace pw {

class EnergyPlot;
class FlexResiduePanel;
class TrajectoryPlayer;
struct VinaScore;

class RefinePart : public WorkflowPart {
    Q_OBJECT
public:
    ~RefinePart() override;
    QString name() const override { return QStringLiteral("refine"); }
    void install(PartContext& context) override;
    // "minimize": the active ligand, as Refine > Minimize pose.
    bool runStep(const QString& step, const std::function<void(bool ok)>& done) override;

    // Minimizes the active ligand on a worker thread, streaming frames into the view and the plot;
    // waits for the grid maps when they are still being built. Undoable as one step.
    void minimize();
    bool running() const { return job_ != nullptr; }

    QAction* minimizeAction() const { return minimizeAction_; }
    EnergyPlot* energyPlot() const { return plot_; }
    QTableWidget* termTable() const { return termTable_; }
    TrajectoryPlayer* player() const { return player_; }
    // Above the energy plot: what the curve is (a watched minimization, a batch result).
    QLabel* trajectoryNote() const { return trajectoryNote_; }
    // Frames of the active ligand's last watched minimization (live, then replayed by the
    // player; restored from sessions).
    const std::vector<TrajectoryPoint>& trajectory() const { return trajectory_; }
    // The status bar's line for the last minimization that finished (kept after the status bar
    // moves on): its energies, which side-chain start was kept, why a kept start was not used.
    const QString& lastMessage() const { return lastMessage_; }

    // Flexible side chains (issue 18): the residues whose side chains move with the ligand in
    // Minimize pose (on the CPU). Sets the choice from text as --flex-residues takes it, checked
    // against the receptor when its scoring target is ready (else when minimizing); one undo
    // step. false (the error shown, the choice unchanged) when it does not fit.
    bool setFlexResidues(const QString& text);
    QString flexResidueText() const { return flexChoiceText(flexSpecs_); }
    const std::vector<FlexResidueSpec>& flexResidues() const { return flexSpecs_; }
    FlexResiduePanel* flexPanel() const { return flexPanel_; }
    // A ligand's last minimization with side chains while its pose is still that result (null
    // when it has none, or was moved or undone since).
    const FlexOutcome* flexResult(int ligand) const;
    // The active ligand's side chains (its flexResult) as a PDBQT file in Vina's --flex format
    // (BEGIN_RES blocks at the minimized positions); false with the error shown.
    bool exportFlexResidues(const QString& path);
    QAction* exportFlexAction() const { return exportFlexAction_; }

    QJsonObject saveState(const QDir& sessionDir) const override;
    void restoreState(const QJsonObject& state, const QDir& sessionDir) override;

signals:
    // ok: committed to the document; false: cancelled or failed (the document is unchanged).
    void minimizationFinished(bool ok);

private:
    void createEnergyDock();
    void startMinimization();
    void onJobPrepared(const Molecule& ligand);
    void onJobFrame(const TrajectoryPoint& point);
    void onJobFinished(const MinimizeJobResult& result);
    void showTrajectoryFrame(int frame);
    // The active ligand's recorded trajectory (or batch mark) into the plot, player and note.
    void showActiveTrajectory();
    // The active ligand's score in the term table (unless a minimization shows its steps).
    void showActiveScore();
    void showPose(const Molecule& ligand, const std::vector<Vec3>* coordinates);
    void showTerms(const VinaScore* score, const TrajectoryPoint* point);
    void updateDeviceTips();
    friend class FlexChoiceCommand;
    // Sets the choice as it is (undo/redo, sessions) and redraws its highlights.
    void applyFlexChoice(const std::vector<FlexResidueSpec>& specs, const QStringList& labels);
    // A double-click on a receptor atom (or a highlighted side chain) toggles its residue.
    void toggleResidueAt(int kind, int atom);
    // The chosen side chains, highlighted: where the active ligand's result or the shown frame
    // put them, else as in the receptor.
    void updateFlexHighlights(const std::vector<Vec3>* frameFlex = nullptr);
    void forgetFlexResults();
    // Results read from a session wait for the prepared receptor (their side chains' model).
    void restorePendingFlexResults();
    struct PendingFlexResult {
        int ligand = -1;
        std::vector<FlexResidueSpec> specs;
        FlexOutcome outcome; // without its setup
    };
    std::vector<PendingFlexResult> pendingFlexResults_;
    int pendingReceptorGeneration_ = -1, pendingLigandsGeneration_ = -1;
    void chooseFlexExportFile();

    FlexResiduePanel* flexPanel_ = nullptr;
    QAction* exportFlexAction_ = nullptr;
    std::vector<FlexResidueSpec> flexSpecs_;
    QStringList flexLabels_;
    // By ligand index, oldest first: every flexible minimization's outcome, so that undo and redo
    // back to any of its poses find its side chains (flexResult picks the one at the pose shown).
    std::map<int, std::vector<FlexOutcome>> flexResults_;
    static constexpr size_t kKeptFlexResults = 32; // per ligand; older ones are dropped
    std::shared_ptr<const FlexSetup> jobFlex_; // the running minimization's side chains
    // Where a docked pose's side chains were (PartContext::handSideChains): a flexible
    // minimization of that ligand starts them there (and from the receptor's, keeping the better
    // end) while the ligand is still at that pose and the choice is the one it was docked with.
    struct SideChainStart {
        int ligand = -1;
        std::vector<Vec3> ligandCoordinates;
        QString choice;
        std::vector<Vec3> sideChains;
    };
    std::optional<SideChainStart> sideChainStart_;
    // Where the side chains start when minimizing `ligand` now with the chosen residues: where
    // its previous flexible minimization left them, else where docking left them (while the
    // ligand is still at that pose), each followed by the receptor's side chains as a second
    // start (the better end is kept); empty: the receptor's alone. note: set when a kept start
    // is not used because the choice of residues changed since (one line for the status bar).
    std::vector<FlexStart> sideChainStartsFor(int ligand, QString* note) const;
    QString lastMessage_;
    QString jobNote_; // the running minimization's sideChainStartsFor note

    PartContext* context_ = nullptr;
    QAction* minimizeAction_ = nullptr;
    EnergyPlot* plot_ = nullptr;
    QTableWidget* termTable_ = nullptr;
    TrajectoryPlayer* player_ = nullptr;
    QLabel* trajectoryNote_ = nullptr;
    std::unique_ptr<MinimizeJob> job_;
    int jobId_ = 0; // the JobRunner's id of the running minimization
    int jobLigand_ = -1;
    Molecule trajectoryLigand_; // the prepared molecule the trajectory's coordinates belong to
    std::vector<TrajectoryPoint> trajectory_;
};

} // namespace pw
