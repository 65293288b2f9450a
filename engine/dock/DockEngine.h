// DockEngine: the CPU reference of docking: checks each ligand, runs the LGA options.runs times
// per ligand (all runs of all ligands spread over the threads), re-scores the final poses
// exactly, and clusters them.
#pragma once

#include "DockOptions.h"
#include "DockResult.h"
#include "DockTarget.h"
#include "LigandKeys.h"

#include "core/BatchStatus.h"
#include "core/Progress.h"
#include "core/Molecule.h"

#include <vector>

namespace pw::dock {

// Throws InputError (file, record, what the engine accepts) when the ligand cannot be docked:
// more than kMaxDockAtoms atoms, more than kMaxDockTorsions torsions, or a ligand longer than
// the box's diagonal (no pose fits).
void checkDockable(const Molecule& ligand, const SearchBox& box);

// The first step of a docking batch on any device: results sized and named (ligand index, name,
// seed), each ligand checked (checkDockable; a refused one gets LigandDockResult::error), and the
// target's maps made ready for the accepted ones. Returns which ligands were accepted.
std::vector<char> startDockBatch(const DockTarget& target, const std::vector<Molecule>& ligands,
                                 const DockOptions& options,
                                 std::vector<LigandDockResult>& results, LigandKeys keys);

// Docks ligands (prepared, with their torsion trees) into target. results[i] belongs to
// ligands[i]; its random streams are keyed by (options.seed, keys[i], run), so a ligand
// docks the same whatever batch or thread it lands in. A ligand that cannot be docked gets
// LigandDockResult::error and the batch goes on. reference (optional): the crystal ligand for
// each cluster's rmsdToReference, set for the ligands that are the same molecule (any atom
// order). progress counts runs.
BatchStatus dockLigands(const DockTarget& target, const std::vector<Molecule>& ligands,
                        const DockOptions& options, std::vector<LigandDockResult>& results,
                        Progress* progress = nullptr, const Molecule* reference = nullptr,
                        LigandKeys keys = 0);

} // namespace pw::dock
