// DockFinish: the one finishing step of a docking batch, on the CPU engine and the GPU batch
// alike: each ligand's finished runs clustered, the best pose of each reported cluster polished
// (Vina and Vinardo scoring), clusters re-ranked, and every run measured against a reference.
#pragma once

#include "DockOptions.h"
#include "DockResult.h"
#include "DockTarget.h"

#include <string_view>
#include <vector>

namespace pw::dock {

// Vina refines each pose it reports with a local optimization before scoring it; the LGA's
// final poses are the best individuals of searches that ended on their budget, often a little
// above the nearest minimum (1iep: 0.2 kcal/mol). So, when options.polish is on and the scoring
// is Vina or Vinardo, the best pose of each of the first options.maxPosesOut clusters (every
// cluster with allRuns) is minimized as `minimize` does by default (grid search, exact report,
// the Vina guard) and replaces the run's pose, score and terms when its score is lower; the
// clusters are then ranked again by their best score. AD4 scoring keeps the searched poses and
// AutoDock's numbers for them, as AutoDock-GPU reports. ok[i] == 0: ligand i was refused (left
// as it is). cancelled: no polish (a cancel should end the batch quickly). Deterministic: the
// same runs give the same result whatever `threads`.
void finishDockBatch(const DockTarget& target, const std::vector<Molecule>& ligands,
                     const std::vector<char>& ok, const DockOptions& options,
                     std::vector<LigandDockResult>& results, const Molecule* reference,
                     bool cancelled, int threads, std::string_view timingGroup);

} // namespace pw::dock
