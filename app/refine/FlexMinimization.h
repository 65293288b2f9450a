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
// descent (iteration counts on across descents); onFlexPrepared receives the setup before the
// first frame. The result's trajectory holds the descent that was kept (after the start); its
// flex field holds the side chains and Vina's numbers. sideChains: where the side chains start
// (FlexModel's flat order: a docked pose's); empty: where the receptor has them.
MinimizeJobResult runFlexMinimization(
    const ScoringTarget& target, const Molecule& ligand, const std::vector<FlexResidueSpec>& specs,
    const std::atomic<bool>* cancel, const std::function<bool(TrajectoryPoint&&)>& onFrame,
    const std::function<void(const Molecule&)>& onPrepared = {},
    const std::function<void(std::shared_ptr<const FlexSetup>)>& onFlexPrepared = {},
    const std::vector<Vec3>& sideChains = {});

} // namespace pw
