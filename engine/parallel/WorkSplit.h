// WorkSplit: cuts a batch into contiguous chunks of about equal work (not equal count), for the
// devices of a MultiDeviceBackend to take from a shared queue: a device that finishes early takes
// the next chunk, so GPUs of different speed, or ligands of very different size, stay balanced.
#pragma once

#include "core/Molecule.h"
#include "dock/DockOptions.h"

#include <cstddef>
#include <utility>
#include <vector>

namespace pw {

struct WorkChunk {
    size_t begin = 0, end = 0; // [begin, end) of the batch
};

// Contiguous chunks covering [0, work.size()) in order, at most `parts`, none empty, each holding
// about total / parts of the work (a chunk closes once the running sum reaches its share).
std::vector<WorkChunk> splitByWork(const std::vector<double>& work, size_t parts);

// The order to hand `chunks` out in: the chunk holding the heaviest item first, then by total
// work, both descending (ties: input order). A docking launch lasts at least as long as its
// longest run, so the chunks with the longest runs start first and the others fill in beside
// and after them.
std::vector<size_t> longestFirst(const std::vector<WorkChunk>& chunks,
                                 const std::vector<double>& work);

// The work of one ligand for a minimization or a docking run: atoms x (torsions + 1), the cost of
// one energy and gradient evaluation (pair terms per atom, one chain of frames per torsion).
double ligandWork(const Molecule& ligand);

// The work of docking one ligand: ligandWork x its evaluation budget per run x the runs. The
// budget grows exponentially with the torsion count (dock::heuristicEvaluations), so a ligand
// with 10 torsions costs ~10x one with 4 of the same size.
double dockWork(const Molecule& ligand, const dock::DockOptions& options);

} // namespace pw
