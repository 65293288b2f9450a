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

// A ligand's finished runs clustered (clusterRuns) and, when a reference ligand is given and is
// the same molecule (any atom order), every placed run's and cluster's RMSD to it. The one
// finishing step of the CPU engine and of the GPU batch.
void clusterAndMeasure(LigandDockResult& result, const Molecule& ligand,
                       const Molecule* reference, double tolerance);

} // namespace pw::dock
