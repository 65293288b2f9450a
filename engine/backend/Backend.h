// Backend: the engine's batch operations behind one interface (ARCHITECTURE.md §3): the CPU
// backend is the double-precision reference; the CUDA backend does the same work in float.
#pragma once

#include "Progress.h"
#include "minimize/PoseRefinement.h"
#include "score/DockingTarget.h"

#include <memory>
#include <string>
#include <vector>

namespace pw {

struct MinimizeBatchOptions {
    RefinementOptions refinement;
    bool exact = false; // grid-free pair sums (smina --minimize); else Vina's grid
};

class Backend {
public:
    virtual ~Backend() = default;
    // "CPU (2 threads)", "CUDA 0: NVIDIA H100 80GB HBM3".
    virtual std::string description() const = 0;
    virtual bool isGpu() const = 0;

    // Minimizes every ligand (prepared, coordinates = start pose) against target. results[i]
    // belongs to ligands[i]. The target's grid must already hold the ligands' XS types
    // (DockingTarget::gridFor). Cancelled items keep their partial result (reason Cancelled).
    virtual void minimize(const DockingTarget& target, const std::vector<Molecule>& ligands,
                          const MinimizeBatchOptions& options, std::vector<RefinementResult>& results,
                          Progress* progress = nullptr) = 0;
};

// The CPU reference: plain loops, double precision, one ligand per thread.
std::unique_ptr<Backend> makeCpuBackend(int threads);

} // namespace pw
