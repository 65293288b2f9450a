// The CUDA backend: batched grid minimization (CudaMinimizer) reported with exact pair sums
// (PairScorer), exact scoring of many poses, shape overlay (ShapeOverlayGpu) and LINGO (LingoGpu)
// on one GPU; exact (grid-free) minimization with the pair kernel's cell list in the minimizer.
// Work the kernels do not cover (macrocycle ring closures, a shape reference too large for the
// kernel) goes to the CPU reference, said once.
#include "CudaMinimizer.h"
#include "DockBatchCuda.h"
#include "LingoCuda.h"
#include "PairRescore.h"
#include "ShapeOverlayCuda.h"
#include "backend/CpuBatches.h"
#include "backend/DeviceMemoryBudget.h"
#include "backend/DeviceSelection.h"
#include "core/PhaseTimings.h"
#include "core/RingClosure.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <thread>

namespace pw {
namespace {

// Overlay batches on the GPU. Without a Progress the whole batch is one ShapeOverlayGpu call (the
// benchmark's figure); with one, fits go in chunks so that progress and cancel have a granularity
// (a chunk still fills an H100: kOverlayChunk x starts warps).
class CudaOverlayBatch final : public OverlayBatch {
public:
    CudaOverlayBatch(const shape::ShapeModel& reference, const shape::OverlayOptions& options,
                     int device)
        : cpu_(reference, options), gpu_(cpu_, device) {}

    BatchStatus overlay(const std::vector<shape::ShapeModel>& fits, bool scoreOnly,
                        std::vector<shape::ShapeScores>& results, Progress* progress) override {
        static constexpr size_t kOverlayChunk = 8192;
        BatchStatus status;
        status.total = long(fits.size());
        timing_ = {};
        if (!progress) {
            cuda::ShapeGpuTiming t;
            results = gpu_.overlayAll(fits, scoreOnly, &t);
            add(t);
            status.done = status.total;
            return status;
        }
        results.assign(fits.size(), {});
        std::vector<shape::ShapeModel> chunk;
        for (size_t a = 0; a < fits.size(); a += kOverlayChunk) {
            if (progress->cancelled()) {
                status.cancelled = true;
                break;
            }
            const size_t b = std::min(fits.size(), a + kOverlayChunk);
            chunk.assign(fits.begin() + long(a), fits.begin() + long(b));
            cuda::ShapeGpuTiming t;
            std::vector<shape::ShapeScores> part = gpu_.overlayAll(chunk, scoreOnly, &t);
            add(t);
            std::move(part.begin(), part.end(), results.begin() + long(a));
            status.done = long(b);
            if (progress->onProgress)
                progress->onProgress(status.done, status.total);
        }
        return status;
    }

    BatchTiming lastTiming() const override { return timing_; }

private:
    void add(const cuda::ShapeGpuTiming& t) {
        timing_.deviceSeconds += t.device;
        timing_.hostSeconds += t.pack + t.finish;
    }

    shape::ShapeOverlay cpu_; // before gpu_, which keeps a reference to it
    cuda::ShapeOverlayGpu gpu_;
    BatchTiming timing_;
};

// LINGO on the GPU: the profiles are itemised and uploaded once (LingoGpu's constructor); rows
// and searches reuse them. The search is one LingoGpu call (chunked inside), so progress comes
// once at its end and a cancel is seen only before it starts: a GPU search takes seconds.
class CudaLingoComparison final : public LingoComparison {
public:
    CudaLingoComparison(const lingo::LingoSet& queries, const lingo::LingoSet& database,
                        bool allVsAll, int device)
        : gpu_(queries, database, allVsAll, device), queries_(long(queries.size())) {
        timing_.uploadSeconds = gpu_.stats().uploadSeconds;
    }

    void similarityRows(size_t r0, size_t r1, float* out) override {
        gpu_.similarityRows(r0, r1, out);
        timing_.deviceSeconds = gpu_.stats().kernelSeconds;
    }

    BatchStatus search(const lingo::SearchOptions& options, lingo::HitLists& hits,
                       Progress* progress) override {
        BatchStatus status;
        status.total = queries_;
        if (progress && progress->cancelled()) {
            hits.assign(size_t(queries_), {});
            status.cancelled = true;
            return status;
        }
        hits = gpu_.search(options);
        timing_.deviceSeconds = gpu_.stats().kernelSeconds;
        status.done = queries_;
        if (progress && progress->onProgress)
            progress->onProgress(status.done, status.total);
        return status;
    }

    BatchTiming lastTiming() const override { return timing_; }

private:
    lingo::gpu::LingoGpu gpu_;
    long queries_;
    BatchTiming timing_;
};

bool anyRingClosures(const std::vector<Molecule>& ligands) {
    for (const Molecule& m : ligands)
        if (hasRingClosures(m))
            return true;
    return false;
}

class CudaBackend final : public Backend {
public:
    CudaBackend(const CudaDeviceInfo& info) : info_(info), minimizer_(info.index) {
        // Tuning knobs for the benchmark sweeps (poses per block, poses per streamed chunk).
        if (const char* w = std::getenv("POSEWRIGHT_CUDA_WARPS"))
            minimizer_.setWarpsPerBlock(std::clamp(std::atoi(w), 1, 4));
        if (const char* c = std::getenv("POSEWRIGHT_CUDA_CHUNK"))
            minimizer_.setChunkSize(std::max(1, std::atoi(c)));
    }

    std::string description() const override {
        return "CUDA " + std::to_string(info_.index) + ": " + info_.name + " (sm_" +
               std::to_string(info_.major * 10 + info_.minor) + ")";
    }
    bool isGpu() const override { return true; }

    void minimize(const DockingTarget& target, const std::vector<Molecule>& ligands,
                  const MinimizeBatchOptions& options, std::vector<RefinementResult>& results,
                  Progress* progress) override {
        // The CUDA kernels have no macrocycle ring-closure term (score/RingClosureTerm.h).
        if (options.flex && anyRingClosures(ligands))
            throw std::invalid_argument("flexible side chains with a macrocycle's ring closure "
                                        "minimize on the CPU (refineWithFlex)");
        if (anyRingClosures(ligands)) {
            if (!cpu_) {
                cpu_ = makeCpuBackend(0);
                std::cerr << "note: macrocycle (ring-closure) minimization runs on the "
                          << cpu_->description()
                          << "; the CUDA kernels have no ring-closure term\n";
            }
            cpu_->minimize(target, ligands, options, results, progress);
            return;
        }
        // Exact (grid-free) minimization, as the CPU backend runs it for options.exact or a
        // target without grid: the kernel sums the intermolecular term over the receptor atoms
        // of the pair kernel's cell list (PairScorer's device copies).
        const bool exact = options.exact || !target.grid();
        cuda::Reduction reduction = defaultReduction_;
        if (!options.gpuReduction.empty() &&
            !cuda::parseReduction(options.gpuReduction.c_str(), reduction))
            throw std::invalid_argument("unknown GPU reduction '" + options.gpuReduction +
                                        "' (expected shuffle, shared or wmma)");
        minimizer_.setReduction(reduction);
        minimizer_.minimize(target, ligands, options, results, progress,
                            exact ? &pairScorer(target) : nullptr);
        if (options.timings) {
            const cuda::MinimizeTiming& t = minimizer_.lastTiming();
            options.timings->add("grid_upload", t.gridUpload, group());
            options.timings->add("templates", t.templateSeconds, group());
            options.timings->add("pack", t.pack, group());
            options.timings->add("gpu_wait", t.gpu, group());
            options.timings->add("unpack", t.unpack, group());
        }
        // The CPU reports an exact mover exactly too; a batch with side chains is reported by
        // its caller (FlexScorer's split).
        if (!options.flex && (!options.gridReport || exact)) {
            PhaseTimer timer(options.timings, "exact_rescore", group());
            reportExactly(target, ligands, results);
        }
        if (std::getenv("POSEWRIGHT_CUDA_TIMING")) {
            // Where the wall time went (benchmarks): host packing, waiting for the GPU (what
            // the overlap did not hide), unpacking into results.
            const cuda::MinimizeTiming& t = minimizer_.lastTiming();
            std::cerr << "{\"cuda_timing\":true,\"poses\":" << ligands.size() << ",\"reduction\":\""
                      << cuda::reductionName(minimizer_.reduction()) << "\",\"pack\":" << t.pack
                      << ",\"gpu_wait\":" << t.gpu << ",\"unpack\":" << t.unpack
                      << ",\"total\":" << t.total << ",\"grid_upload\":" << t.gridUpload << "}\n";
        }
    }

    // Vina --score_only's numbers from the exact pair kernel (PairScorer), in double.
    void scoreExact(const DockingTarget& target, const std::vector<Molecule>& ligands,
                    std::vector<VinaScore>& results) override {
        // The pair kernel has no macrocycle ring-closure pairs (score/RingClosureTerm.h).
        if (anyRingClosures(ligands)) {
            Backend::scoreExact(target, ligands, results);
            return;
        }
        results.assign(ligands.size(), {});
        std::vector<std::vector<Vec3>> coords(ligands.size());
        std::vector<cuda::ExactPose> poses;
        poses.reserve(ligands.size());
        for (size_t i = 0; i < ligands.size(); ++i) {
            for (const Atom& a : ligands[i].atoms)
                coords[i].push_back(a.position);
            poses.push_back({int(i), &coords[i], &results[i]});
        }
        cuda::scoreExactPoses(pairScorer(target), target.scoring(), target.receptor(), ligands,
                              poses);
    }

    std::unique_ptr<OverlayBatch> prepareOverlay(const shape::ShapeModel& reference,
                                                 const shape::OverlayOptions& options) override {
        if (int(reference.positions.size()) > cuda::kShapeMaxRefAtoms) {
            std::cerr << "note: the shape reference has " << reference.positions.size()
                      << " centres, more than the CUDA kernel takes (" << cuda::kShapeMaxRefAtoms
                      << "); overlaying on the CPU\n";
            return makeCpuOverlayBatch(reference, options, 0);
        }
        return std::make_unique<CudaOverlayBatch>(reference, options, info_.index);
    }

    std::unique_ptr<LingoComparison> prepareLingo(const lingo::LingoSet& queries,
                                                  const lingo::LingoSet& database,
                                                  bool allVsAll) override {
        return std::make_unique<CudaLingoComparison>(queries, database, allVsAll, info_.index);
    }

    // Docking (Vina, Vinardo or AD4 scoring) with ADADELTA or BFGS runs on the GPU; Solis-Wets
    // goes to the CPU reference engine, said once.
    BatchStatus dock(const dock::DockTarget& target, const std::vector<Molecule>& ligands,
                     const dock::DockOptions& options, std::vector<dock::LigandDockResult>& results,
                     Progress* progress, const Molecule* reference,
                     dock::LigandKeys keys) override {
        // The CUDA search has no macrocycle ring-closure term yet (score/RingClosureTerm.h).
        const char* cpuOnly = options.lga.localSearch == dock::LocalSearchMethod::SolisWets
                                  ? "the Solis-Wets local search"
                              : anyRingClosures(ligands) ? "macrocycle ring closures (CG/G atoms)"
                                                         : nullptr;
        if (cpuOnly) {
            if (!dockNoteGiven_) {
                std::cerr << "note: docking with " << cpuOnly
                          << " runs on the CPU reference engine; the CUDA search takes ADADELTA or "
                             "BFGS, without a ring-closure term\n";
                dockNoteGiven_ = true;
            }
            return Backend::dock(target, ligands, options, results, progress, reference, keys);
        }
        if (!docker_) {
            docker_ = std::make_unique<cuda::CudaDocker>(info_.index);
            // Tuning knob for the benchmark sweeps (warps per run's block).
            if (const char* w = std::getenv("POSEWRIGHT_DOCK_WARPS"))
                docker_->setWarpsPerBlock(std::clamp(std::atoi(w), 1, 32));
            // Tuning knobs for the benchmark sweeps: the split local search's warps per block
            // (0: never split) and the live runs below which a launch splits
            // (CudaDocker::setLocalSearchWarps).
            if (const char* w = std::getenv("POSEWRIGHT_DOCK_LS_WARPS"))
                docker_->setLocalSearchWarps(std::clamp(std::atoi(w), 0, 16));
            if (const char* n = std::getenv("POSEWRIGHT_DOCK_SPLIT_BELOW"))
                docker_->setSplitBelowRuns(std::atol(n));
            // The benchmark's comparison: runs launched in input order instead of longest first.
            if (const char* order = std::getenv("POSEWRIGHT_DOCK_ORDER"))
                docker_->setLongestFirst(std::strcmp(order, "input") != 0);
        }
        const BatchStatus status = cuda::dockBatchOnGpu(*docker_, target, ligands, options, results,
                                                        progress, reference, keys, group());
        if (std::getenv("POSEWRIGHT_CUDA_TIMING")) {
            const cuda::DockGpuTiming& t = docker_->lastTiming();
            std::cerr << "{\"cuda_dock_timing\":true,\"pack\":" << t.pack << ",\"gpu\":" << t.gpu
                      << ",\"unpack\":" << t.unpack << ",\"total\":" << t.total
                      << ",\"grid_upload\":" << t.gridUpload << "}\n";
        }
        return status;
    }

    cuda::CudaMinimizer& minimizer() { return minimizer_; }

private:
    // This device's group in PhaseTimings ("cuda:0").
    std::string group() const { return "cuda:" + std::to_string(info_.index); }

private:
    // The start and minimized poses re-scored by the exact pair kernel, so that the GPU reports
    // the numbers the CPU backend reports for the same pose (its reporter is the exact scorer);
    // the grid numbers the kernel moved by are replaced. Poses never minimized (cancelled before
    // their chunk ran) keep their empty result.
    void reportExactly(const DockingTarget& target, const std::vector<Molecule>& ligands,
                       std::vector<RefinementResult>& results) {
        cuda::PairScorerEnergies pairs(pairScorer(target));
        cuda::reportStartAndMinimizedExactly(pairs, target.scoring(), target.receptor(), ligands,
                                             results);
    }

    // The pair kernel's receptor and tables stay on the device between calls for one target
    // (`minimize` calls once per chunk); another target, or one made anew at the same address
    // with other receptor atoms, box or scoring, uploads again.
    cuda::PairScorer& pairScorer(const DockingTarget& target) {
        const ReceptorModel& rec = target.receptor();
        const ScoringFunction& sf = target.scoring();
        double checksum = 0; // the receptor's atoms themselves (a few thousand: microseconds)
        for (const ReceptorModel::Site& site : rec.sites())
            checksum += site.x + 3 * site.y + 7 * site.z + 11 * site.type;
        PairKey key{&target,
                    &rec,
                    rec.sites().size(),
                    rec.cellSites().size(),
                    checksum,
                    rec.region().begin,
                    rec.region().voxels,
                    rec.penalizeOutside(),
                    sf.kind(),
                    sf.weights()};
        if (!pair_ || !(key == pairKey_)) {
            pair_.reset();
            pair_ = std::make_unique<cuda::PairScorer>(sf, rec, info_.index);
            pairKey_ = key;
        }
        return *pair_;
    }
    struct PairKey {
        const DockingTarget* target = nullptr;
        const ReceptorModel* receptor = nullptr;
        size_t sites = 0, cellSites = 0;
        double checksum = 0;
        Vec3 begin = Vec3::Zero();
        std::array<int, 3> voxels{};
        bool penalize = false;
        ScoringKind kind = ScoringKind::Vina;
        TermArray weights{};
        bool operator==(const PairKey&) const = default;
    };
    std::unique_ptr<cuda::PairScorer> pair_;
    PairKey pairKey_;

    CudaDeviceInfo info_;
    cuda::CudaMinimizer minimizer_;
    // What an empty MinimizeBatchOptions::gpuReduction means.
    const cuda::Reduction defaultReduction_ = minimizer_.reduction(); // after minimizer_
    std::unique_ptr<Backend> cpu_;
    std::unique_ptr<cuda::CudaDocker> docker_; // made at the first docking batch
    bool dockNoteGiven_ = false;
};

} // namespace

std::unique_ptr<Backend> makeCudaBackend(int deviceIndex, std::string& why) {
    std::vector<CudaDeviceInfo> devices = cudaDevices(&why);
    if (devices.empty())
        return nullptr;
    if (deviceIndex < 0 || deviceIndex >= static_cast<int>(devices.size())) {
        why = "no CUDA device " + std::to_string(deviceIndex) + " (" +
              std::to_string(devices.size()) + " found)";
        return nullptr;
    }
    try {
        return std::make_unique<CudaBackend>(devices[deviceIndex]);
    } catch (const DeviceMemoryError&) {
        throw; // the device is there but full: createBackend decides
    } catch (const std::exception& e) {
        why = e.what();
        return nullptr;
    }
}

} // namespace pw
