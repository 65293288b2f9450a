// Document: what the user has open (one receptor, a list of ligands with their poses and scores,
// the search box and scoring settings). Views listen to its signals; loading and jobs happen
// elsewhere and land here whole, through undoable commands where the user expects undo.
#pragma once

#include "Trajectory.h"
#include "core/Molecule.h"
#include "score/BoxConfig.h"
#include "score/ScoreBreakdown.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace pw {

// How the search box was set: read from a Vina config, around the ligand plus a margin, or typed.
enum class BoxSource { None, File, Ligand, Typed };

class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(QObject* parent = nullptr);

    bool hasReceptor() const { return receptor_.has_value(); }
    // Only valid when hasReceptor().
    const Molecule& receptor() const { return *receptor_; }
    const QString& receptorPath() const { return receptorPath_; }
    // Increases with every new receptor: caches built on one (grids) know when they are stale.
    int receptorGeneration() const { return receptorGeneration_; }
    const std::vector<Molecule>& ligands() const { return ligands_; }
    const QStringList& ligandPaths() const { return ligandPaths_; }
    // Increases with every new ligand list: results computed for an older list are dropped.
    int ligandsGeneration() const { return ligandsGeneration_; }

    // Replace the receptor / the ligand list in one step: the document is never half-loaded.
    void setReceptor(Molecule receptor, const QString& path);
    void setLigands(std::vector<Molecule> ligands, const QStringList& paths);
    void clear();

    // One ligand's molecule (a new pose, or its prepared form) and its score, in one step.
    void replaceLigand(int index, Molecule ligand, std::optional<VinaScore> score);
    // The Vina score of a ligand's current pose; empty until scored.
    const std::optional<VinaScore>& score(int index) const;
    void setScore(int index, std::optional<VinaScore> score);

    // Many ligands' molecules and scores in one step (a batch refinement): one ligandsUpdated()
    // signal instead of one ligandChanged() per ligand.
    struct LigandUpdate {
        int index = -1;
        Molecule ligand;
        std::optional<VinaScore> score;
    };
    void replaceLigands(const std::vector<LigandUpdate>& updates);
    // Forgets every score (a new receptor grid, box or scoring function), with ligandsUpdated().
    void clearScores();

    // The recorded steps of a ligand's last watched minimization; empty when none (never
    // minimized, or its pose came from a batch, which records no steps).
    const LigandTrajectory& trajectory(int index) const;
    void setTrajectory(int index, LigandTrajectory trajectory);

    // The ligand the tools act on (minimize, drag, energy panel); -1 when there is none.
    int activeLigand() const;
    void setActiveLigand(int index);

    const std::optional<SearchBox>& box() const { return box_; }
    BoxSource boxSource() const { return boxSource_; }
    void setBox(std::optional<SearchBox> box, BoxSource source);

    ScoringKind scoring() const { return scoring_; }
    void setScoring(ScoringKind kind);
    // The pH at which a receptor without polar hydrogens (a PDB as the archive gives it) gets
    // them (ReceptorPreparationOptions::pH). A change makes every prepared receptor stale: it
    // starts a new receptor generation (the molecule itself is unchanged).
    double receptorPH() const { return receptorPH_; }
    void setReceptorPH(double pH);
    // "auto", "cpu", "cuda", "cuda:N" (DeviceSelection's syntax).
    const QString& device() const { return device_; }
    void setDevice(const QString& device);

    // One line for the status bar: "Receptor receptor.pdbqt: 1116 atoms · 1 ligand".
    QString summary() const;

signals:
    void receptorChanged();
    void ligandsChanged();
    void ligandChanged(int index); // pose or score of one ligand
    void ligandsUpdated();         // poses or scores of several ligands (replaceLigands)
    void trajectoryChanged(int index);
    void activeLigandChanged(int index);
    void boxChanged();
    void scoringChanged();
    void receptorPHChanged();
    void deviceChanged();

private:
    std::optional<Molecule> receptor_;
    QString receptorPath_;
    int receptorGeneration_ = 0;
    std::vector<Molecule> ligands_;
    std::vector<std::optional<VinaScore>> scores_;
    std::vector<LigandTrajectory> trajectories_;
    QStringList ligandPaths_;
    int ligandsGeneration_ = 0;
    int active_ = -1;
    std::optional<SearchBox> box_;
    BoxSource boxSource_ = BoxSource::None;
    ScoringKind scoring_ = ScoringKind::Vina;
    double receptorPH_ = 7.4;
    QString device_ = QStringLiteral("auto");
};

} // namespace pw
