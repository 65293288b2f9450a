// DockGpu: the docking search (Lamarckian GA) of many ligands on one GPU: every run of every
// ligand in one launch (block per run); each run's best pose with the device's energies. The
// backend re-scores the poses exactly on the CPU (DockBatchCuda), as the CPU engine does.
#pragma once

#include "DockTypes.h"
#include "backend/Backend.h"
#include "dock/DockOptions.h"
#include "dock/DockResult.h"
#include "dock/DockTarget.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace pw::cuda {

struct GpuDockRun {
    int ligand = 0, run = 0;           // ligand: index in the batch given to dock()
    double energy = 0;                 // the search objective on the device (inter + intra, float)
    double gpuInter = 0, gpuIntra = 0; // the device's reported terms (grid inter, tabulated intra)
    Pose pose;                         // position: the root fragment's centroid (RootCentroid)
    std::vector<Vec3> coordinates;     // every atom of the ligand, molecule order
    int generations = 0;
    long evaluations = 0, budget = 0;
    bool autostopped = false;    // stopped with its ligand's other runs by AutoStop
    long autoStopGeneration = 0; // the generation its ligand stopped at (0: not stopped)
    bool finished = false;       // false: cancelled before or during the run (partial or no pose)
};

struct DockGpuTiming {
    double pack = 0, gpu = 0, unpack = 0, total = 0, gridUpload = 0; // seconds of the last dock()
};

class CudaDocker {
public:
    explicit CudaDocker(int device); // throws std::runtime_error when the device cannot be used
    ~CudaDocker();
    CudaDocker(const CudaDocker&) = delete;
    CudaDocker& operator=(const CudaDocker&) = delete;

    // Docks every ligand (prepared; coordinates = its reference conformation) options.runs times
    // with options.lga's search on target's grid (Vina or Vinardo), which must hold the ligands'
    // XS types; result k * runs + r is ligand k's run r. Each run's budget is
    // dock::evaluationBudget for its ligand. Throws InputError for a ligand the kernel cannot take
    // (more than dock::kMaxDockTorsions torsions, too many atoms) and std::invalid_argument for
    // options it does not run (Solis-Wets, a population below 2). A cancel stops every run at its
    // next generation (its best so far is kept).
    // ligandKeys (optional): ligand k's key in the random streams (dock::DockRandom's ligand;
    // default k). progress counts runs.
    std::vector<GpuDockRun> dock(const DockingTarget& target, const std::vector<Molecule>& ligands,
                                 const dock::DockOptions& options, Progress* progress = nullptr,
                                 const std::vector<long>* ligandKeys = nullptr);
    // The same on a docking target of any scoring: Vina/Vinardo (its grid, as above) or AD4 (its
    // maps: one per ligand atom type, "e" and "d"; gpuInter and gpuIntra are then the search's
    // inter and intra, ad4::Ad4LigandScorer::interAnalytic and intraAnalytic in float).
    std::vector<GpuDockRun> dock(const dock::DockTarget& target,
                                 const std::vector<Molecule>& ligands,
                                 const dock::DockOptions& options, Progress* progress = nullptr,
                                 const std::vector<long>* ligandKeys = nullptr);

    // Flexible side chains (dock --flex on a GPU): each ligand then carries flex's atoms after
    // its own (MinimizeBatchOptions::flex), its genotype the side chains' torsions after its own,
    // and a run's budget counts them (as dock::dockLigandWithFlex); Vina or Vinardo scoring, no
    // observer. Null (the default): ligands alone. flex must outlive the dock() calls.
    void setFlexibleSideChains(const FlexModel* flex) { flex_ = flex; }

    // Warps per block (one block per run): 1-32 (above 16 with 64 registers per thread).
    void setWarpsPerBlock(int w) { warpsPerBlock_ = w; }

    // The local searches: each run's own block searches its population, or (split) every
    // generation goes in three launches (launchDockStep) with the searches w warps (1-16) per
    // block, one warp per individual, several blocks per run. A launch splits when the live runs
    // of all launch groups are fewer than splitBelowRuns (default: twice the SMs; the runs' own
    // blocks then leave SMs idle). w = 0 never splits. The output is the same either way, bit for
    // bit (tests/gpu/test_dock_order_gpu.cpp).
    void setLocalSearchWarps(int w) { searchWarps_ = w; }
    void setSplitBelowRuns(long runs) { splitBelowRuns_ = runs; }

    // Launch the runs longest first (the default; launchOrder) or in input order (false: for
    // the benchmark's comparison and the test that the order changes no result).
    void setLongestFirst(bool on) { longestFirst_ = on; }

    const DockGpuTiming& lastTiming() const { return timing_; }
    // The last dock()'s AutoStop checkpoints, per ligand (dock::PooledAutoStop::trace).
    const std::vector<std::vector<dock::AutoStopCheck>>& lastAutoStopTraces() const {
        return traces_;
    }

private:
    // Exactly one of vina and ad4 is set.
    std::vector<GpuDockRun> dockOn(const DockingTarget* vina, const ad4::Ad4Maps* ad4,
                                   const SearchBox& box, const std::vector<Molecule>& ligands,
                                   const dock::DockOptions& options, Progress* progress,
                                   const std::vector<long>* ligandKeys);

    struct Impl;
    std::unique_ptr<Impl> impl_;
    DockGpuTiming timing_;
    std::vector<std::vector<dock::AutoStopCheck>> traces_;
    int warpsPerBlock_ = 32;   // fastest measured (tests/bench/RESULTS.md)
    int searchWarps_ = 2;      // fastest measured (tests/bench/RESULTS.md)
    long splitBelowRuns_ = -1; // -1: twice the device's SMs
    bool longestFirst_ = true;
    const FlexModel* flex_ = nullptr;
};

} // namespace pw::cuda
