// DockResults: what the docking panel keeps of a run: the best pose of each cluster in rank
// order, with its score, cluster size and RMSD to the loaded ligand, as `posewright-cli dock`
// writes them (DockOutput's posed molecules with their SD tags); kept in the session file and
// exported as the CLI's ranked SDF.
#pragma once

#include "core/Molecule.h"
#include "dock/DockOptions.h"
#include "dock/DockResult.h"
#include "dock/FlexDock.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <vector>

namespace pw {

struct DockedPose {
    int rank = 0; // 1 = best cluster
    double score = 0;
    int clusterSize = 0;
    std::optional<double> rmsdToLoaded; // Å, when the loaded ligand is the same molecule
    int run = 0;
    Molecule molecule; // the ligand at this pose with dock's SD tags (dock_score, cluster, ...)
    // Docked with flexible side chains: where they ended (FlexModel's flat atom order of the
    // outcome's flexResidues); empty for a rigid receptor.
    std::vector<Vec3> flexCoordinates;
};

struct DockOutcome {
    QString ligandName;
    QString device; // the backend that docked ("CPU (1 thread)")
    int runs = 0;
    long evaluationsPerRun = 0;
    std::vector<DockedPose> poses; // rank order
    // The side chains that moved ("A:THR315", as --flex-residues), empty: a rigid receptor. With
    // them the rows are the runs best first, as `dock --flex-residues` writes them (no clusters).
    QString flexResidues;
    bool empty() const { return poses.empty(); }
};

// The runs of a docking with flexible side chains (dock::dockLigandWithFlex, best first) as the
// panel shows them; reference: the loaded ligand for the RMSD column, or null.
DockOutcome flexOutcomeOf(const Molecule& prepared, const std::vector<dock::FlexDockRun>& runs,
                          const QString& flexResidues, long evaluationsPerRun,
                          const QString& device, const Molecule* reference);

// The clusters of one ligand's result: prepared is the molecule that was docked.
DockOutcome outcomeOf(const Molecule& prepared, const dock::LigandDockResult& result,
                      const dock::DockOptions& options, const QString& device);

// The outcome as the session keeps it (the poses as SDF text, the numbers beside them).
QJsonObject outcomeToJson(const DockOutcome& outcome);
// Throws InputError(source, 0, what was expected) for a piece that is not a docking outcome.
DockOutcome outcomeFromJson(const QJsonObject& o, const QString& source);

// The ranked SDF of the outcome (as `dock --out` writes it), atomically: nothing is left behind
// when it fails. Throws InputError naming path.
void exportRankedSdf(const DockOutcome& outcome, const QString& path);

} // namespace pw
