// The split local search (DockBatchGpu::breedOnly): after a launch of dockKernel has bred and
// evaluated a generation of every live run, this kernel runs the generation's local searches with
// one warp per individual and several blocks per run, so that a few runs' searches spread over
// every SM (one block per run leaves SMs idle when there are fewer runs than SMs, and each block
// waits for its slowest warp's share). Each search depends only on its individual, as in
// dockKernel's own loop: the results are the same either way.
#include "DockKernel.cuh"
#include "DockKernelSetup.cuh"

#include <algorithm>

namespace pw::cuda {
namespace {

using namespace mk;

__host__ __device__ int searchBlockFloats(int maxAtoms, int maxNodes) {
    return (kinematicsFloats(maxAtoms, maxNodes) + 7) / 8 * 8;
}

// Block j searches individuals [slice * warps, (slice + 1) * warps) of live run j / slices.
// minBlocks picks the register budget (blocks of 8 warps: 2 gives up to 128 per thread, 4: 64,
// 6: 40; smaller blocks take the same budget and fit more of them per SM).
template <int minBlocks>
__global__ void __launch_bounds__(256, minBlocks)
    dockLocalSearchKernel(DockBatchGpu b, ScoringParamsGpu s, DockParamsGpu dp, SearchParamsGpu sp,
                          int slices, int floatsPerBlock, int floatsPerWarp) {
    extern __shared__ __align__(128) float smem[];
    const int liveIndex = blockIdx.x / slices, slice = blockIdx.x % slices;
    const int run = b.live ? b.live[liveIndex] : liveIndex;
    RunStateGpu* state = b.state + run;
    if (state->ended)
        return; // ended at the breeding launch's decision: nothing was bred
    const int warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    const RunInputGpu in = b.runs[run];
    const TemplateGpu tp = b.templates[in.templ];
    const int pop = dp.populationSize;
    const int lsCount = min(dp.lsPerGeneration, pop);
    const int i = slice * warps + warp;

    float* m = smem;
    const Kinematics kin = takeKinematics(m, b);
    WarpState w;
    bindWarp(w, b, tp, dp, kin, smem + floatsPerBlock + static_cast<size_t>(warp) * floatsPerWarp);
    if (warp == 0)
        buildKinematics(w, b.reference + in.refOffset, kin);
    __syncthreads();
    if (i >= lsCount)
        return;

    float* current = currentPopulation(b, run, pop, state->generation);
    float* energy = b.energies + static_cast<size_t>(run) * pop;
    const int genes = 7 + w.T;
    for (int f = w.lane; f < genes; f += 32)
        w.x[f] = current[i * b.genes + f];
    __syncwarp();
    int evaluations = 0;
    const float e0 = energy[i];
    const float e =
        dp.localSearch == static_cast<int>(DockLocalSearch::Bfgs)
            ? bfgsSearch(w, s, sp, dp, dp.lsMaxIterations, dp.lsTolerance, e0, evaluations)
            : adadeltaSearch(w, s, dp, e0, evaluations);
    for (int f = w.lane; f < genes; f += 32)
        current[i * b.genes + f] = w.x[f];
    if (w.lane == 0) {
        energy[i] = e;
        atomicAdd(&state->evaluations, evaluations);
    }
}

} // namespace

cudaError_t launchDockLocalSearch(const DockBatchGpu& batch, const ScoringParamsGpu& scoring,
                                  const DockParamsGpu& params, const SearchParamsGpu& search,
                                  int warpsPerBlock, int minBlocks, cudaStream_t stream) {
    const int lsCount = std::min(params.lsPerGeneration, params.populationSize);
    if (batch.runCount == 0 || lsCount == 0)
        return cudaSuccess;
    const bool hessian = params.localSearch == static_cast<int>(DockLocalSearch::Bfgs);
    int device = 0, maxBytes = 48 * 1024;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&maxBytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    const int floatsPerBlock = searchBlockFloats(batch.maxAtoms, batch.maxNodes);
    const int floatsPerWarp =
        warpFloats(batch.maxAtoms, batch.maxNodes, batch.maxTorsions, hessian);
    warpsPerBlock = std::clamp(warpsPerBlock, 1, 8);
    auto bytesFor = [&](int warps) {
        return static_cast<std::size_t>(floatsPerBlock + warps * floatsPerWarp) * sizeof(float);
    };
    while (warpsPerBlock > 1 && bytesFor(warpsPerBlock) > static_cast<std::size_t>(maxBytes))
        --warpsPerBlock;
    const std::size_t bytes = bytesFor(warpsPerBlock);
    const int slices = (lsCount + warpsPerBlock - 1) / warpsPerBlock;
    const long blocks = static_cast<long>(batch.runCount) * slices;
    if (blocks > 0x7fffffffL)
        return cudaErrorInvalidConfiguration;
    auto launch = [&](auto kernel) {
        if (bytes > 48 * 1024) {
            // The device's opt-in limit, as launchDock sets it: concurrent launches share it.
            const cudaError_t e = cudaFuncSetAttribute(
                kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, maxBytes);
            if (e != cudaSuccess)
                return e;
        }
        kernel<<<static_cast<unsigned>(blocks), 32 * warpsPerBlock, bytes, stream>>>(
            batch, scoring, params, search, slices, floatsPerBlock, floatsPerWarp);
        return cudaGetLastError();
    };
    return minBlocks >= 6   ? launch(dockLocalSearchKernel<6>)
           : minBlocks >= 4 ? launch(dockLocalSearchKernel<4>)
                            : launch(dockLocalSearchKernel<2>);
}

cudaError_t launchDockStep(const DockBatchGpu& batch, const ScoringParamsGpu& scoring,
                           const DockParamsGpu& params, const SearchParamsGpu& search,
                           int warpsPerBlock, int searchWarps, int searchMinBlocks,
                           cudaStream_t stream) {
    DockBatchGpu breed = batch;
    breed.breedOnly = 1;
    cudaError_t e = launchDock(breed, scoring, params, search, warpsPerBlock, stream);
    if (e == cudaSuccess)
        e = launchDockLocalSearch(batch, scoring, params, search, searchWarps, searchMinBlocks,
                                  stream);
    if (e == cudaSuccess) {
        DockBatchGpu close = batch;
        close.breedOnly = 0;
        e = launchDock(close, scoring, params, search, warpsPerBlock, stream);
    }
    return e;
}

} // namespace pw::cuda
