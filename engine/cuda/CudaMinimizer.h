// CudaMinimizer: batched flexible minimization on one GPU: packs prepared ligands into flat
// templates, uploads the receptor maps once, streams chunks of poses through two CUDA streams
// (pinned staging, copies of one chunk overlapping the kernel of the other).
#pragma once

#include "MinimizeTypes.h"
#include "PairScorer.h"
#include "backend/Backend.h"

#include <memory>

namespace pw::cuda {

struct MinimizeTiming {
    double pack = 0, gpu = 0, unpack = 0, total = 0; // seconds of the last minimize()
    double gridUpload = 0;                           // seconds, when the maps were (re)uploaded
    double templateSeconds = 0; // the batch's templates built and uploaded (before the chunks)
    int templates = 0;
};

class CudaMinimizer {
public:
    // Throws std::runtime_error when the device cannot be used.
    explicit CudaMinimizer(int device);
    ~CudaMinimizer();
    CudaMinimizer(const CudaMinimizer&) = delete;
    CudaMinimizer& operator=(const CudaMinimizer&) = delete;

    // Grid-based minimization of every ligand (coordinates = start pose) on target's grid, which
    // must hold the ligands' XS types. Reported numbers (score, start) are Vina's grid-mode
    // numbers: inter from the maps (read with options' gridInterpolation, as the minimizer reads
    // them), intra from the tabulated potential, unbound = own intra;
    // terms breakdowns are left zero. Throws InputError for a ligand the kernel cannot take.
    // With a progress: onProgress (at most ~30 times a second) follows the poses as the kernel
    // finishes them, and progress->cancel reaches a device flag that every pose polls before each
    // BFGS step, so the call returns within a few ms of a cancel at full chunk size. Poses stopped
    // that way keep their pose at that step (scored, reason Cancelled); poses finished before keep
    // their full results (the same as without a progress); poses of chunks never launched get
    // only reason Cancelled (no coordinates).
    // Exact (grid-free) minimization when options.exact or the target has no grid: exact must
    // then be the target's PairScorer on this device (its receptor cell list and tables), and the
    // kernel sums the intermolecular energy and gradient over the receptor atoms as the CPU's
    // exact LigandScorer does; the reported inter is Vina's tabulated sum over them.
    void minimize(const DockingTarget& target, const std::vector<Molecule>& ligands,
                  const MinimizeBatchOptions& options, std::vector<RefinementResult>& results,
                  Progress* progress = nullptr, const PairScorer* exact = nullptr);

    void setReduction(Reduction r) { reduction_ = r; }
    Reduction reduction() const { return reduction_; }
    void setWarpsPerBlock(int w) { warpsPerBlock_ = w; }
    void setChunkSize(int poses) { chunk_ = poses; }
    void setHostThreads(int n) { hostThreads_ = n; }
    const MinimizeTiming& lastTiming() const { return timing_; }

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    Reduction reduction_ = Reduction::WarpShuffle;
    int warpsPerBlock_ = 1; // measured fastest on the H200 (tests/bench/RESULTS.md)
    int chunk_ = 32768;
    int hostThreads_ = 0;
    MinimizeTiming timing_;
};

} // namespace pw::cuda
