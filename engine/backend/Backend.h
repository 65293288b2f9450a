// Backend: the engine's batch operations behind one interface (ARCHITECTURE.md §3): the CPU
// backend is the double-precision reference; the CUDA backend does the same work in float.
#pragma once

#include "core/BatchStatus.h"
#include "LingoComparison.h"
#include "OverlayBatch.h"
#include "core/PhaseTimings.h"
#include "core/Progress.h"
#include "dock/DockEngine.h"
#include "lingo/LingoSet.h"
#include "minimize/PoseRefinement.h"
#include "score/DockingTarget.h"
#include "shape/ShapeOverlay.h"

#include <memory>
#include <string>
#include <vector>

namespace pw {

class FlexModel;

struct MinimizeBatchOptions {
    RefinementOptions refinement;
    bool exact = false; // grid-free pair sums (smina --minimize); else Vina's grid
    // The CUDA kernel's fragment reduction: "shuffle", "shared" or "wmma" (Tensor Cores); empty
    // = the backend's default (the fastest measured, tests/bench/RESULTS.md). The CPU ignores it.
    std::string gpuReduction;
    // Device memory the batch may use beyond the receptor maps, in bytes (0 = all that is free);
    // larger batches go in smaller chunks (backend/DeviceMemoryBudget). The CPU ignores it.
    std::size_t maxDeviceBytes = 0;
    // Report start and minimized poses with the mover's grid (Vina's grid-mode numbers) instead
    // of the exact pair sums every device reports by default (one pose, one number). The tests
    // that compare the float GPU minimizer with the double CPU one on the same maps use it.
    bool gridReport = false;
    // Where the batch's time goes (core/PhaseTimings.h): the backend adds its phases under its
    // device's group. Null: not recorded.
    PhaseTimings* timings = nullptr;
    // Flexible side chains (Vina's --flex) that move with every ligand: each ligand's atoms are
    // followed by flex->atomCount() atoms (FlexModel's flat order, their start), the pose's
    // torsions by the side chains'. Results hold the descent only (energy, coordinates of all
    // atoms, iterations, reason); the reported scores are left to the caller (FlexScorer), and
    // gridReport is implied. The CUDA backend takes it (engine/cli/FlexMinimizeDevice.h is the
    // caller); the CPU backend refuses it, its flexible path being refineWithFlex.
    const FlexModel* flex = nullptr;
};

class Backend {
public:
    virtual ~Backend() = default;
    // "CPU (2 threads)", "CUDA 0: NVIDIA H100 80GB HBM3 (sm_90)".
    virtual std::string description() const = 0;
    virtual bool isGpu() const = 0;

    // Minimizes every ligand (prepared, coordinates = start pose) against target. results[i]
    // belongs to ligands[i]. The target's grid must already hold the ligands' XS types
    // (DockingTarget::gridFor). Cancelled items keep their partial result (reason Cancelled).
    virtual void minimize(const DockingTarget& target, const std::vector<Molecule>& ligands,
                          const MinimizeBatchOptions& options,
                          std::vector<RefinementResult>& results, Progress* progress = nullptr) = 0;

    // Docking (engine/dock): options.runs LGA runs per ligand (prepared, with its torsion tree),
    // results[i] for ligands[i], random streams keyed by (options.seed, keys[i], run): keys are
    // the ligands' indices in the input (a long: first, first + 1, ...).
    // Final poses are re-scored exactly on the CPU whatever the device. The default is the CPU
    // reference engine (dock::dockLigands); a GPU backend overrides it.
    virtual BatchStatus dock(const dock::DockTarget& target, const std::vector<Molecule>& ligands,
                             const dock::DockOptions& options,
                             std::vector<dock::LigandDockResult>& results,
                             Progress* progress = nullptr, const Molecule* reference = nullptr,
                             dock::LigandKeys keys = 0);

    // Vina's reported numbers for every ligand as posed (vina --score_only: exact pair sums over
    // the receptor atoms, unbound = own intra), results[i] for ligands[i]. The CPU also fills
    // the per-term breakdown (VinaScore::terms); a GPU fills inter, intra and the out-of-box
    // penalty only. The default runs LigandScorer::finalScore on the calling thread.
    virtual void scoreExact(const DockingTarget& target, const std::vector<Molecule>& ligands,
                            std::vector<VinaScore>& results);
    // One ligand's numbers as posed, on the calling thread (what the CPU paths run per ligand).
    static VinaScore scoreExactOne(const DockingTarget& target, const Molecule& ligand);

    // Gaussian shape overlay: the reference (and options) prepared once on the device, then
    // overlaid against as many batches of fits as the caller has (bounded memory for big files).
    virtual std::unique_ptr<OverlayBatch> prepareOverlay(const shape::ShapeModel& reference,
                                                         const shape::OverlayOptions& options) = 0;

    // LINGO similarity of queries against a database; allVsAll: the two are the same molecules
    // (a GPU may then compute symmetric tiles once). Both sets must outlive the comparison.
    virtual std::unique_ptr<LingoComparison> prepareLingo(const lingo::LingoSet& queries,
                                                          const lingo::LingoSet& database,
                                                          bool allVsAll) = 0;

    // One-shot forms of the operations above.
    BatchStatus overlay(const shape::ShapeModel& reference,
                        const std::vector<shape::ShapeModel>& fits,
                        const shape::OverlayOptions& options, bool scoreOnly,
                        std::vector<shape::ShapeScores>& results, Progress* progress = nullptr);
    // Query-vs-database top-k / threshold hits (all-vs-all when &queries == &database; set
    // options.excludeSelf to leave each molecule's own hit out).
    BatchStatus lingoSearch(const lingo::LingoSet& queries, const lingo::LingoSet& database,
                            const lingo::SearchOptions& options, lingo::HitLists& hits,
                            Progress* progress = nullptr);
    // All-vs-all similarity matrix (n x n, row-major), computed in row blocks: progress after
    // each block, and a cancel stops between blocks (rows not reached stay 0).
    BatchStatus lingoMatrix(const lingo::LingoSet& set, std::vector<float>& matrix,
                            Progress* progress = nullptr);
};

// The CPU reference: plain loops, double precision, one ligand (fit, query) per thread.
std::unique_ptr<Backend> makeCpuBackend(int threads);

} // namespace pw
