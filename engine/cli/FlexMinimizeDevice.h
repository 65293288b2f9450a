// FlexMinimizeDevice: `minimize --flex` on a GPU backend. The descents refineWithFlex makes on
// the CPU (minimize/FlexRefinement.h) -- the main one on the exact energy and, with the Vina
// guard, the Armijo and uncapped ones, Vina's own path on the maps and the three polishes from
// its end -- each run as one batch of every ligand on the device (MinimizeBatchOptions::flex);
// then Vina's numbers of every end on the CPU (FlexScorer::finalScore) and the lowest kept, the
// start included, in refineWithFlex's order. One pose, one number: the reported scores are the
// CPU's for the returned coordinates, whatever the device.
#pragma once

#include "backend/Backend.h"
#include "minimize/FlexRefinement.h"
#include "score/flex/FlexModel.h"

#include <string>
#include <vector>

namespace pw::cli {

struct FlexDeviceItem {
    FlexRefinementResult result; // pose is left empty: the device's poses use its own frames
    std::string error;           // the ligand's own message (nothing else stopped)
};

// The ligand's atoms followed by the side chains' at flexCoords (FlexModel's flat order): a
// start of a batch with side chains (MinimizeBatchOptions::flex, cuda::CudaDocker's flex mode).
Molecule withSideChains(const Molecule& ligand, const FlexModel& flex,
                        const std::vector<Vec3>& flexCoords);

// ligands: prepared. grid: the target's maps holding the ligands' and the moving side-chain
// atoms' XS types (the guard's Vina path moves on them, the unbound energy reads them).
// Ligands with a macrocycle's ring closure go to refineWithFlex on the CPU (said on stderr).
std::vector<FlexDeviceItem> refineWithFlexOnDevice(Backend& backend, const DockingTarget& target,
                                                   const FlexModel& flex,
                                                   const ReceptorGrid& grid,
                                                   const std::vector<Molecule>& ligands,
                                                   const MinimizeOptions& options, bool vinaGuard,
                                                   int threads);

} // namespace pw::cli
