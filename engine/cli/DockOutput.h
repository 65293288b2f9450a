// DockOutput: how `dock` reports a ligand's result: the posed molecules with their SD tags
// (dock_score, its terms, run, cluster, cluster_size, rmsd_ref, seed), one text line, and the
// ligand's entry in the JSON summary.
#pragma once

#include "dock/DockOptions.h"
#include "dock/DockResult.h"

#include "core/Molecule.h"

#include <string>
#include <vector>

namespace pw::cli {

// The poses to write for a ligand: the best of each cluster in rank order (or every run,
// best first, with allRuns), at most options.maxPosesOut (0 = no limit); each a copy of
// `ligand` with the pose's coordinates and the SD tags.
std::vector<Molecule> dockedPoses(const Molecule& ligand, const dock::LigandDockResult& result,
                                  const dock::DockOptions& options);

// "name  best -7.123 kcal/mol  clusters 4 (largest 12)  rmsd_ref 0.84"
std::string dockSummaryLine(const dock::LigandDockResult& result);

// The ligand's JSON object: name, index, seed, budget, clusters (rank, size, best score, best
// run, members, rmsd_ref) and runs (score, search energy, evaluations, generations, autostop).
// For a refused ligand: name, index and error.
std::string dockJson(const dock::LigandDockResult& result);

} // namespace pw::cli
