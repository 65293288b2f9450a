// FlexDockDevice: `dock --flex` on a GPU. The Lamarckian GA of every run of every ligand on the
// device (cuda::CudaDocker with the side chains' torsions as genes, its own local search and
// AutoStop, as `dock` without side chains), each run's best pose then minimized on the exact
// energy in one batch on the same device (MinimizeBatchOptions::flex, refineWithFlex's main
// descent), and Vina's numbers of every end from the CPU (FlexScorer::finalScore).
#pragma once

#include "backend/Backend.h"
#include "dock/FlexDock.h"

#include <vector>

namespace pw::cli {

// ligands: prepared (one with no atoms was refused: its result stays empty); backend: the GPU
// `device` (the exact minimizations run there). Each ligand's runs best first by affinity.
// Throws std::runtime_error in a build without CUDA.
std::vector<std::vector<dock::FlexDockRun>>
dockWithFlexOnGpu(int device, Backend& backend, const DockingTarget& target, const FlexModel& flex,
                  const ReceptorGrid& grid, const std::vector<Molecule>& ligands,
                  const dock::DockOptions& options);

} // namespace pw::cli
