// DockPart: docking in the app (issue 14, item 2): the Docking dock (DockPanel) docks the active
// ligand into the document's box on a worker (DockJob), shows the best pose so far moving in the
// pocket and the energy per generation while the LGA runs, then the clusters; a pose can be
// refined (handed to minimization), exported as the CLI's ranked SDF, or added to the ligands.
// Its piece of the session keeps the settings and the clusters. Scripted step: "dock".
#pragma once

#include "DockJob.h"
#include "DockResults.h"
#include "parts/WorkflowPart.h"

#include <QTimer>

#include <iosfwd>
#include <memory>

class QAction;
class QDockWidget;
class QLabel;

namespace pw {

class DockPanel;

class DockPart : public WorkflowPart {
    Q_OBJECT
public:
    ~DockPart() override;
    QString name() const override { return QStringLiteral("dock"); }
    void install(PartContext& context) override;
    QJsonObject saveState(const QDir& sessionDir) const override;
    void restoreState(const QJsonObject& state, const QDir& sessionDir) override;
    // "dock": the active ligand with the panel's settings; done(ok) when it has ended.
    bool runStep(const QString& step, const std::function<void(bool ok)>& done) override;

    // Docks the active ligand (waits for nothing: the maps are built by the job when needed).
    void dock();
    void cancel();
    bool running() const { return job_ != nullptr; }

    const DockOutcome& outcome() const { return outcome_; }
    const DockMaps& maps() const { return *maps_; }
    DockPanel* panel() const { return panel_; }
    QDockWidget* dockWidget() const { return dock_; }
    QAction* dockAction() const { return dockAction_; }
    QLabel* mapsStatusLabel() const { return mapsStatus_; }
    // The ligand pose the part last drew in the view (a live best or a selected cluster).
    const Molecule& shownPose() const { return shownPose_; }
    // The docked side chains the part last drew (a flexible docking's selected pose).
    const std::vector<Vec3>& shownSideChains() const { return shownSideChains_; }
    // Live redraws of the best pose during the current or last run (at most one per tick).
    int liveRedraws() const { return liveRedraws_; }

    // Export and Add to ligands without their file dialogs (tests; the buttons ask first).
    // Export of a flexible docking writes the side chains beside: sideChainsPathFor(path).
    bool exportTo(const QString& path);
    static QString sideChainsPathFor(const QString& sdfPath);
    bool addToLigands(const QString& path);

signals:
    // ok: new results are shown; false: cancelled (the previous results stay) or failed.
    void dockingFinished(bool ok);

private:
    void onTick();
    void onFinished(const DockJobResult& result);
    void showCluster(int row);
    void showPose(const Molecule& ligand, bool withInteractions);
    void showSideChains(const DockedPose& pose);
    // Every pose's side chains as PDBQT MODELs (Vina's --flex format), rank order.
    void writeSideChains(std::ostream& out, const FlexModel& flex) const;
    // The side chains' model of the outcome's flexible residues (null: rigid, or not yet known).
    const FlexSetup* flexSetup();
    void refine(int row);
    void updateMapsText();

    PartContext* context_ = nullptr;
    DockPanel* panel_ = nullptr;
    QDockWidget* dock_ = nullptr;
    QAction* dockAction_ = nullptr;
    QLabel* mapsStatus_ = nullptr; // the status bar's "Docking maps ready"
    std::shared_ptr<DockMaps> maps_ = std::make_shared<DockMaps>(DockMaps::appAd4CacheDirectory());
    std::unique_ptr<DockJob> job_;
    int jobId_ = 0;
    QTimer tick_; // the live view's pace: one redraw per display frame at most
    long shownVersion_ = 0;
    bool mapsAnnounced_ = false;
    int liveRedraws_ = 0;
    DockOutcome outcome_;
    Molecule shownPose_;
    std::vector<Vec3> shownSideChains_;
    std::shared_ptr<const FlexSetup> flexSetup_;
};

} // namespace pw
