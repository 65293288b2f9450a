// Clustering: groups a ligand's runs whose final poses lie within a tolerance of each other
// (AutoDock's scheme: in order of score, a pose joins the first cluster whose best pose is within
// the tolerance, else it starts a new one), ranked by their best score.
#pragma once

#include "DockResult.h"
#include "SymmetryRmsd.h"

#include <vector>

namespace pw::dock {

// runs with empty coordinates (not finished) are left out.
std::vector<DockCluster> clusterRuns(const std::vector<DockRun>& runs, const SymmetryRmsd& rmsd,
                                     double tolerance);

// When a reference ligand is given and is the same molecule as `ligand` (any atom order): every
// placed run's and cluster's RMSD to it (symmetry-aware, heavy atoms); else nothing.
void measureAgainstReference(LigandDockResult& result, const Molecule& ligand,
                             const Molecule* reference);

} // namespace pw::dock
