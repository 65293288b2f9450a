// FlexMinimization: the watched minimization with flexible side chains: the ligand and the chosen
// residues' torsions in one search, exactly as `posewright-cli minimize --flex-residues` runs it
// (engine/minimize/FlexRefinement with the Vina guard), every accepted step a frame with the side
// chains where they are.
#pragma once

#include "MinimizeJob.h"

#include <atomic>
#include <functional>

namespace pw {

// Runs now, on the calling thread. specs: non-empty. onFrame sees every accepted step of every
// descent of the first start (iterations count on across its descents); onFlexPrepared receives
// that start's setup before its first frame. starts: empty for one start from the receptor; else
// the first is minimized here and the others at the same time on threads of their own, unseen
// (the ligand at the same pose), and the end with the lowest inter + intra (Vina's reported
// numbers, as refineWithFlex picks among its descents) is kept, the first on a tie. The result's
// trajectory holds the descent that was kept (after its start); its flex field holds the side
// chains and Vina's numbers; flexStarts every start's. A cancel stops every start; the result is
// then the first start's partial run.
MinimizeJobResult runFlexMinimization(
    const ScoringTarget& target, const Molecule& ligand, const std::vector<FlexResidueSpec>& specs,
    const std::atomic<bool>* cancel, const std::function<bool(TrajectoryPoint&&)>& onFrame,
    const std::function<void(const Molecule&)>& onPrepared = {},
    const std::function<void(std::shared_ptr<const FlexSetup>)>& onFlexPrepared = {},
    const std::vector<FlexStart>& starts = {});

} // namespace pw
