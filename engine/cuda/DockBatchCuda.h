// DockBatchCuda: the CUDA backend's docking batch: the CPU reference's steps around the search
// (checks, target maps, exact re-scoring, clustering, RMSD to a reference), the search on the GPU.
#pragma once

#include "DockGpu.h"
#include "dock/DockEngine.h"

#include <string_view>

namespace pw::cuda {

// Backend::dock's contract (engine/backend/Backend.h) with the Vina/Vinardo search on docker's
// GPU: every run of every dockable ligand in one launch. Ligands the engine refuses get
// LigandDockResult::error, as on the CPU. target.vina must be set (the caller sends AD4 to the
// CPU reference). options.timings, when set, gets the batch's phases under `group`.
BatchStatus dockBatchOnGpu(CudaDocker& docker, const dock::DockTarget& target,
                           const std::vector<Molecule>& ligands, const dock::DockOptions& options,
                           std::vector<dock::LigandDockResult>& results, Progress* progress,
                           const Molecule* reference, dock::LigandKeys keys,
                           std::string_view group = "cuda");

} // namespace pw::cuda
