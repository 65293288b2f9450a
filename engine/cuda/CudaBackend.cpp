// The CUDA backend: batched grid minimization on one GPU (CudaMinimizer). Work the kernels do not
// cover (exact grid-free scoring, a target without grid) goes to the CPU reference, said once.
#include "CudaMinimizer.h"
#include "backend/DeviceSelection.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <thread>

namespace pw {
namespace {

class CudaBackend final : public Backend {
public:
    CudaBackend(const CudaDeviceInfo& info) : info_(info), minimizer_(info.index) {
        // POSEWRIGHT_CUDA_REDUCTION=shared|shuffle picks the in-warp reduction (study; the
        // default is the faster one measured on the H100/H200, tests/bench/RESULTS.md).
        if (const char* r = std::getenv("POSEWRIGHT_CUDA_REDUCTION"))
            minimizer_.setReduction(std::strcmp(r, "shared") == 0 ? cuda::Reduction::SharedAtomics
                                                                  : cuda::Reduction::WarpShuffle);
        // Tuning knobs for the benchmark sweeps (poses per block, poses per streamed chunk).
        if (const char* w = std::getenv("POSEWRIGHT_CUDA_WARPS"))
            minimizer_.setWarpsPerBlock(std::clamp(std::atoi(w), 1, 4));
        if (const char* c = std::getenv("POSEWRIGHT_CUDA_CHUNK"))
            minimizer_.setChunkSize(std::max(1, std::atoi(c)));
    }

    std::string description() const override {
        return "CUDA " + std::to_string(info_.index) + ": " + info_.name;
    }
    bool isGpu() const override { return true; }

    void minimize(const DockingTarget& target, const std::vector<Molecule>& ligands,
                  const MinimizeBatchOptions& options, std::vector<RefinementResult>& results,
                  Progress* progress) override {
        if (options.exact || !target.grid()) {
            if (!cpu_) {
                cpu_ = makeCpuBackend(0);
                std::cerr << "note: exact (grid-free) minimization runs on the "
                          << cpu_->description() << "; the CUDA kernels use the grid\n";
            }
            cpu_->minimize(target, ligands, options, results, progress);
            return;
        }
        minimizer_.minimize(target, ligands, options, results, progress);
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

    cuda::CudaMinimizer& minimizer() { return minimizer_; }

private:
    CudaDeviceInfo info_;
    cuda::CudaMinimizer minimizer_;
    std::unique_ptr<Backend> cpu_;
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
    } catch (const std::exception& e) {
        why = e.what();
        return nullptr;
    }
}

} // namespace pw
