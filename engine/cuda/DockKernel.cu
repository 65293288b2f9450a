// One block runs one docking run's Lamarckian GA up to the launch's generation (the next AutoStop
// checkpoint, or the run's end when AutoStop is off): no launch per generation; between launches
// the run's state waits in global memory (RunStateGpu) while the host tests AutoStop over each
// ligand's runs. Its warps share the population's evaluations and its local searches. All warps of
// the block take the same decisions from shared values read after a barrier. When the live runs
// are too few to fill the GPU, the host splits each generation instead (launchDockStep): one
// launch breeds, a search-only launch of this same kernel spreads the local searches over many
// blocks, a third closes the generation.
#include "DockKernel.cuh"
#include "DockKernelSetup.cuh"
#include "DockRandom.h"

#include <algorithm>
#include <cfloat>

namespace pw::cuda {
namespace {

using namespace mk;

// evaluations, stop (1 ended, 2 paused), best, ended, (unused), cancelled, next individual to
// search
constexpr int kControlInts = 8;

// Floats of the block's own part: energies (two generations), control, kinematics.
__host__ __device__ int blockFloats(int population, int maxAtoms, int maxNodes) {
    int f = 2 * population + kControlInts + kinematicsFloats(maxAtoms, maxNodes);
    return (f + 7) / 8 * 8;
}

// A uniformly random unit quaternion (Shoemake 1992) from three uniform draws.
__device__ void randomQuaternion(float u1, float u2, float u3, float* q) {
    const float a = sqrtf(1.0f - u1), b = sqrtf(u1);
    float s2, c2, s3, c3;
    sincosf(2.0f * kPi * u2, &s2, &c2);
    sincosf(2.0f * kPi * u3, &s3, &c3);
    q[0] = b * c3, q[1] = a * s2, q[2] = a * c2, q[3] = b * s3;
}

// Tournament of two (AutoDock's): the better of two random individuals wins with probability
// rate, the worse one otherwise.
__device__ int tournament(const float* energy, int population, std::uint64_t key, int gen, int ind,
                          int k, float rate) {
    const int a = dockIndex(key, gen, ind, kDrawTournament, 3 * k, population);
    const int b = dockIndex(key, gen, ind, kDrawTournament, 3 * k + 1, population);
    const bool aBetter = energy[a] <= energy[b];
    const bool takeBetter = dockUniform(key, gen, ind, kDrawTournament, 3 * k + 2) < rate;
    return (aBetter == takeBetter) ? a : b;
}

// Gene blocks of an individual: 0 position (floats 0-2), 1 orientation (3-6), 2 + t torsion t.
__device__ __forceinline__ int geneBlock(int f) {
    return f < 3 ? 0 : f < 7 ? 1 : f - 5;
}

// The live view (DockWatchSlotGpu): one warp writes the generation's best individual and the
// population's best and mean energy into the run's slot in host memory, bracketed by the slot's
// sequence number; system-scope fences order the writes as the host reads them.
__device__ void publishGeneration(DockWatchSlotGpu* slot, const float* bestGenes, int genes,
                                  const float* energy, int pop, float best, int generation,
                                  int lane) {
    float sum = 0.0f;
    for (int i = lane; i < pop; i += 32)
        sum += energy[i];
    sum = warpSum(sum);
    volatile DockWatchSlotGpu* s = slot;
    if (lane == 0)
        s->sequence = 2u * static_cast<unsigned>(generation) - 1u;
    __threadfence_system();
    __syncwarp();
    for (int f = lane; f < genes; f += 32)
        s->genotype[f] = bestGenes[f];
    if (lane == 0) {
        s->generation = generation;
        s->best = best;
        s->mean = sum / static_cast<float>(pop);
    }
    __threadfence_system();
    __syncwarp();
    if (lane == 0)
        s->sequence = 2u * static_cast<unsigned>(generation);
}

// Three instances, one register budget each (KernelInstance): up to 16 warps per block with up to
// 128 registers per thread (one block of 16 warps fills an SM's registers), up to 32 warps with 64
// (more warps per run and per SM, at the price of spills), and the split search's 40 (48 warps per
// SM). The instances run the same PTX: ptxas only allocates registers differently, and every run
// ends the same in each (gpu_test_dock_order_gpu compares the split search with the runs' blocks).
template <int maxThreads, int minBlocks = 1>
__global__ void __launch_bounds__(maxThreads, minBlocks)
    dockKernel(DockBatchGpu b, ScoringParamsGpu s, DockParamsGpu dp, SearchParamsGpu sp,
               int floatsPerBlock, int floatsPerWarp) {
    extern __shared__ __align__(128) float smem[];
    // The run this block continues: its slot in the batch's arrays (b.live lists the runs still
    // going when AutoStop has ended some). A search-only launch (b.searchSlices > 0, the split
    // search of launchDockStep) gives each live run searchSlices blocks: block j searches
    // individuals [slice * warps, (slice + 1) * warps) of the run live[j / searchSlices].
    const int warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    const bool searchOnly = b.searchSlices > 0;
    const int liveIndex = searchOnly ? blockIdx.x / b.searchSlices : blockIdx.x;
    const int slice = searchOnly ? blockIdx.x % b.searchSlices : 0;
    const int run = b.live ? b.live[liveIndex] : liveIndex;
    const RunInputGpu in = b.runs[run];
    RunStateGpu* state = b.state + run;
    const TemplateGpu tp = b.templates[in.templ];
    const int pop = dp.populationSize;
    const std::uint64_t key = dockRunKey(dp.seed, in.ligandIndex, in.runIndex);

    // A run that ended in this step's breeding launch (its budget, or a cancel) has its result
    // already: the step's search and closing launches leave it (launchDockStep).
    if (state->ended)
        return;

    // The block's part.
    float* m = smem;
    float* energy = m;
    m += pop;
    float* nextEnergy = m;
    m += pop;
    int* control = reinterpret_cast<int*>(m);
    m += kControlInts;
    const Kinematics kin = takeKinematics(m, b);

    // This warp's part.
    WarpState w;
    bindWarp(w, b, tp, dp, kin, smem + floatsPerBlock + static_cast<size_t>(warp) * floatsPerWarp);

    if (warp == 0) {
        buildKinematics(w, b.reference + in.refOffset, kin);
        // control[0]: the run's evaluations (unused by a search-only block: its warps add theirs
        // to the run's state); control[6]: the next individual to search.
        if (w.lane == 0)
            control[0] = searchOnly       ? 0
                         : state->started ? state->evaluations
                                          : pop,
            control[1] = 0, control[2] = 0, control[3] = 0, control[4] = 0, control[5] = 0,
            control[6] = slice * warps;
    }
    __syncthreads();
    setFixedFrames(w);

    const bool resume = state->started != 0;
    int generation = resume ? state->generation : 0;
    // The current generation sits in the first half of the run's slice after an even number
    // of generations (the halves swap every generation).
    float* current = currentPopulation(b, run, pop, generation);
    float* next = currentPopulation(b, run, pop, generation + 1);
    float* savedEnergy = b.energies + static_cast<size_t>(run) * pop;
    if (searchOnly)
        energy = savedEnergy; // the searches read and write the bred generation's energies there
    const int genes = 7 + w.T;
    const int blocks = 2 + w.T;

    // Generation 0: random individuals in the box; or the energies of the paused population.
    for (int i = warp; i < pop && resume && !searchOnly; i += warps)
        if (w.lane == 0)
            energy[i] = savedEnergy[i];
    for (int i = warp; i < pop && !resume; i += warps) {
        for (int f = w.lane; f < genes; f += 32) {
            if (f < 3)
                w.x[f] = (2.0f * dockUniform(key, 0, i, kDrawInit, f) - 1.0f) * dp.boxHalf[f];
            else if (f >= 7)
                w.x[f] = (2.0f * dockUniform(key, 0, i, kDrawInit, f) - 1.0f) * kPi;
        }
        if (w.lane == 0)
            randomQuaternion(dockUniform(key, 0, i, kDrawInit, 3),
                             dockUniform(key, 0, i, kDrawInit, 4),
                             dockUniform(key, 0, i, kDrawInit, 5), w.x + 3);
        __syncwarp();
        const float e = evaluate(w, s, Reduction::WarpShuffle, w.x, w.g);
        for (int f = w.lane; f < genes; f += 32)
            current[i * b.genes + f] = w.x[f];
        if (w.lane == 0)
            energy[i] = e;
    }
    __syncthreads();

    const int lsCount = min(dp.lsPerGeneration, pop);
    const int lsEnd = searchOnly ? min(lsCount, (slice + 1) * warps) : lsCount;
    for (;;) {
        // A search-only block goes straight to the local searches, once: there is one call site of
        // the searches in this kernel, so that both ways of running them are the same compiled
        // instructions (inlined at two sites, the compiler fused multiplies and adds differently,
        // and BFGS runs ended elsewhere).
        if (!searchOnly) {
            // Warp 0: the stop decision (budget, generations, cancel) and the best individual.
            if (warp == 0) {
                float be = FLT_MAX;
                int bi = 0;
                for (int i = w.lane; i < pop; i += 32)
                    if (energy[i] < be)
                        be = energy[i], bi = i;
                for (int off = 16; off > 0; off >>= 1) {
                    const float oe = __shfl_xor_sync(kFull, be, off);
                    const int oi = __shfl_xor_sync(kFull, bi, off);
                    if (oe < be || (oe == be && oi < bi))
                        be = oe, bi = oi;
                }
                if (b.watch && run < b.watchCount && generation > 0)
                    publishGeneration(b.watch + run, current + static_cast<size_t>(bi) * b.genes,
                                      genes, energy, pop, be, generation, w.lane);
                if (w.lane == 0) {
                    // Ended (budget, cap, cancel) or paused at the launch's last generation; the
                    // budget and cap come first, so a run that spent its budget in the launch's
                    // last generation ends now (as dock::LgaRun::advance).
                    int stop = control[0] >= in.budget || generation >= dp.maxGenerations;
                    if (!stop && generation >= b.untilGeneration)
                        stop = 2;
                    if (!stop && b.cancel && *static_cast<const volatile int*>(b.cancel))
                        stop = 1, control[5] = 1;
                    control[1] = stop, control[2] = bi;
                    control[6] = 0; // the local searches below start at the first individual
                }
            }
            __syncthreads();
            if (control[1])
                break;
            const int best = control[2];

            // The next generation: the best kept (elitism 1), the others bred and evaluated.
            const int g1 = generation + 1;
            for (int i = warp; i < pop; i += warps) {
                if (i == 0) {
                    for (int f = w.lane; f < genes; f += 32)
                        next[f] = current[best * b.genes + f];
                    if (w.lane == 0)
                        nextEnergy[0] = energy[best];
                    continue;
                }
                const int p1 = tournament(energy, pop, key, g1, i, 0, dp.tournamentRate);
                const int p2 = tournament(energy, pop, key, g1, i, 1, dp.tournamentRate);
                int cut1 = blocks, cut2 = blocks; // blocks in [cut1, cut2) come from p2
                if (dockUniform(key, g1, i, kDrawCrossover, 0) < dp.crossoverRate) {
                    const int a = dockIndex(key, g1, i, kDrawCrossover, 1, blocks);
                    const int c = dockIndex(key, g1, i, kDrawCrossover, 2, blocks);
                    cut1 = min(a, c), cut2 = max(a, c) + 1;
                }
                for (int f = w.lane; f < genes; f += 32) {
                    const int gb = geneBlock(f);
                    const int parent = (gb >= cut1 && gb < cut2) ? p2 : p1;
                    float v = current[parent * b.genes + f];
                    // Position and torsion genes mutate one by one (the orientation below). Draws:
                    // 0-5 position, 6-9 orientation, 16 + 2t torsion t. Positions stay in the box.
                    const int d = gb == 0 ? 2 * f : 16 + 2 * (gb - 2);
                    if (gb != 1 && dockUniform(key, g1, i, kDrawMutation, d) < dp.mutationRate) {
                        const float u = 2.0f * dockUniform(key, g1, i, kDrawMutation, d + 1) - 1.0f;
                        v = gb == 0 ? fminf(fmaxf(v + u * dp.mutationPosition, -dp.boxHalf[f]),
                                            dp.boxHalf[f])
                                    : normalizeAngle(v + u * dp.mutationAngle);
                    }
                    w.x[f] = v;
                }
                __syncwarp();
                if (dockUniform(key, g1, i, kDrawMutation, 6) < dp.mutationRate) {
                    // Orientation: turned by a random angle in [-a, a] about a random axis.
                    for (int f = w.lane; f < 6 + w.T; f += 32)
                        w.p[f] = 0.0f;
                    __syncwarp();
                    if (w.lane == 0) {
                        const float z = 2.0f * dockUniform(key, g1, i, kDrawMutation, 7) - 1.0f;
                        const float phi = 2.0f * kPi * dockUniform(key, g1, i, kDrawMutation, 8);
                        const float angle =
                            (2.0f * dockUniform(key, g1, i, kDrawMutation, 9) - 1.0f) *
                            dp.mutationAngle;
                        const float r = sqrtf(fmaxf(0.0f, 1.0f - z * z));
                        w.p[3] = angle * r * cosf(phi), w.p[4] = angle * r * sinf(phi);
                        w.p[5] = angle * z;
                    }
                    __syncwarp();
                    applyStep(w, w.trial, w.x, w.p, 1.0f);
                    copyPose(w, w.x, w.trial);
                }
                const float e = evaluate(w, s, Reduction::WarpShuffle, w.x, w.g);
                for (int f = w.lane; f < genes; f += 32)
                    next[i * b.genes + f] = w.x[f];
                if (w.lane == 0)
                    nextEnergy[i] = e;
            }
            __syncthreads();
            float* t = current;
            current = next, next = t;
            t = energy;
            energy = nextEnergy, nextEnergy = t;
            if (threadIdx.x == 0)
                atomicAdd(&control[0], pop - 1); // the local searches below add theirs atomically
            if (b.breedOnly) {
                // The split search: a search-only launch searches this generation next.
                ++generation;
                break;
            }
        }

        // Lamarckian local search on the first lsCount individuals (as the CPU engine: the
        // offspring are in random order; the elite, index 0, is searched like the others). The
        // searches differ in length (ADADELTA's early stop), so a warp takes the next individual
        // when it is free, not a fixed share; each search depends only on its individual.
        for (;;) {
            int i = 0;
            if (w.lane == 0)
                i = atomicAdd(&control[6], 1);
            i = __shfl_sync(kFull, i, 0);
            if (i >= lsEnd)
                break;
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
                // A search-only warp counts into the run's state itself, so that it leaves as
                // soon as its searches are done, without waiting for the block's other warps.
                atomicAdd(searchOnly ? &state->evaluations : &control[0], evaluations);
            }
        }
        if (searchOnly)
            return;
        __syncthreads();
        ++generation;
    }

    // The paused (or ended) run's state, for the next launch and the host's AutoStop test.
    for (int i = threadIdx.x; i < pop; i += blockDim.x)
        savedEnergy[i] = energy[i];

    if (b.breedOnly && control[1] == 0) {
        // Bred, not searched: where the run is, for the local search and the closing launch.
        if (threadIdx.x == 0) {
            state->started = 1;
            state->generation = generation;
            state->evaluations = control[0];
        }
        return;
    }

    // The run's result so far: its best individual, placed and scored (Vina: as Vina reports;
    // AD4: the search's own terms) by warp 0.
    if (warp == 0) {
        const int best = control[2];
        for (int f = w.lane; f < genes; f += 32)
            w.x[f] = current[best * b.genes + f];
        __syncwarp();
        placeAtoms(w, w.x);
        float inter, intra;
        reportedTerms(w, s, inter, intra);
        float3* out = b.final + in.finalOffset;
        for (int i = w.lane; i < w.A; i += 32)
            out[i] = w.coords[i];
        RunResultGpu& r = b.results[run];
        for (int t = w.lane; t < w.T; t += 32)
            r.torsions[t] = w.x[7 + t];
        if (w.lane == 0) {
            r.energy = energy[best];
            r.inter = inter, r.intra = intra;
            for (int d = 0; d < 3; ++d)
                r.position[d] = w.x[d];
            for (int d = 0; d < 4; ++d)
                r.orientation[d] = w.x[3 + d];
            r.generations = generation;
            r.evaluations = control[0];
            r.cancelled = control[5];
            const bool ended = control[1] == 1;
            state->started = 1;
            state->generation = generation;
            state->evaluations = control[0];
            state->ended = ended;
            state->cancelled = control[5];
            state->best = energy[best];
            if (b.finished && ended)
                atomicAdd(b.finished, 1u);
        }
    }
}

} // namespace

std::size_t dockSharedBytes(const DockBatchGpu& batch, const DockParamsGpu& params,
                            int warpsPerBlock) {
    const bool hessian = params.localSearch == static_cast<int>(DockLocalSearch::Bfgs);
    const int floats =
        blockFloats(params.populationSize, batch.maxAtoms, batch.maxNodes) +
        warpsPerBlock * warpFloats(batch.maxAtoms, batch.maxNodes, batch.maxTorsions, hessian);
    return static_cast<std::size_t>(floats) * sizeof(float);
}

namespace {

// Big ligands (and BFGS's Hessians) take more shared memory per warp: fewer warps per block
// then, never a failed launch.
int warpsThatFit(const DockBatchGpu& batch, const DockParamsGpu& params, int warpsPerBlock,
                 int maxBytes) {
    while (warpsPerBlock > 1 &&
           dockSharedBytes(batch, params, warpsPerBlock) > static_cast<std::size_t>(maxBytes))
        --warpsPerBlock;
    return warpsPerBlock;
}

int sharedMemoryLimit() {
    int device = 0, maxBytes = 48 * 1024;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&maxBytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    return maxBytes;
}

// Which register budget a launch gets (see dockKernel).
enum class KernelInstance {
    Wide,   // 128 registers, up to 16 warps per block
    Narrow, // 64 registers, up to 32 warps per block
    Search, // 40 registers, the split search's small blocks: 48 warps per SM instead of 32; on the
            // race 1.05-1.09x faster than Narrow (1stp), 1.02-1.04x (3ce3), 32 and 48 registers
            // slower, 96 and 128 slower still (tests/bench/RESULTS.md, twenty-first session)
};

// batch.runCount blocks of warpsPerBlock warps (already fitted); Wide only up to 16 warps.
cudaError_t launchDockKernel(const DockBatchGpu& batch, const ScoringParamsGpu& scoring,
                             const DockParamsGpu& params, const SearchParamsGpu& search,
                             int warpsPerBlock, KernelInstance instance, int maxBytes,
                             cudaStream_t stream) {
    const bool hessian = params.localSearch == static_cast<int>(DockLocalSearch::Bfgs);
    const std::size_t bytes = dockSharedBytes(batch, params, warpsPerBlock);
    const int floatsPerBlock = blockFloats(params.populationSize, batch.maxAtoms, batch.maxNodes);
    const int floatsPerWarp =
        warpFloats(batch.maxAtoms, batch.maxNodes, batch.maxTorsions, hessian);
    auto launch = [&](auto kernel) {
        if (bytes > 48 * 1024) {
            // The device's whole opt-in limit, not this launch's bytes: the attribute belongs to
            // the kernel on the device, and another thread's launch (a second docking lane, a
            // concurrent launch group) must never find it lowered below its own size.
            const cudaError_t e =
                cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, maxBytes);
            if (e != cudaSuccess)
                return e;
        }
        kernel<<<batch.runCount, 32 * warpsPerBlock, bytes, stream>>>(
            batch, scoring, params, search, floatsPerBlock, floatsPerWarp);
        return cudaGetLastError();
    };
    if (instance == KernelInstance::Wide && warpsPerBlock > 16)
        instance = KernelInstance::Narrow;
    if (instance == KernelInstance::Search && warpsPerBlock > 24)
        instance = KernelInstance::Narrow;
    switch (instance) {
    case KernelInstance::Wide:
        return launch(dockKernel<512>);
    case KernelInstance::Search:
        return launch(dockKernel<768, 2>);
    case KernelInstance::Narrow:
        break;
    }
    return launch(dockKernel<1024>);
}

} // namespace

cudaError_t launchDock(const DockBatchGpu& batch, const ScoringParamsGpu& scoring,
                       const DockParamsGpu& params, const SearchParamsGpu& search,
                       int warpsPerBlock, cudaStream_t stream) {
    if (batch.runCount == 0)
        return cudaSuccess;
    const int maxBytes = sharedMemoryLimit();
    return launchDockKernel(batch, scoring, params, search,
                            warpsThatFit(batch, params, warpsPerBlock, maxBytes),
                            KernelInstance::Wide, maxBytes, stream);
}

cudaError_t launchDockStep(const DockBatchGpu& batch, const ScoringParamsGpu& scoring,
                           const DockParamsGpu& params, const SearchParamsGpu& search,
                           int warpsPerBlock, int searchWarps, cudaStream_t stream) {
    DockBatchGpu breed = batch;
    breed.breedOnly = 1;
    cudaError_t e = launchDock(breed, scoring, params, search, warpsPerBlock, stream);
    const int lsCount = std::min(params.lsPerGeneration, params.populationSize);
    if (e == cudaSuccess && lsCount > 0 && batch.runCount > 0) {
        // The search-only launch: the same kernel with searchWarps warps per block (40 registers
        // per thread: the fastest measured) and ceil(lsCount / searchWarps) blocks per run.
        const int maxBytes = sharedMemoryLimit();
        searchWarps = warpsThatFit(batch, params, std::clamp(searchWarps, 1, 16), maxBytes);
        DockBatchGpu searchOnly = batch;
        searchOnly.searchSlices = (lsCount + searchWarps - 1) / searchWarps;
        if (static_cast<long>(batch.runCount) * searchOnly.searchSlices > 0x7fffffffL)
            return cudaErrorInvalidConfiguration;
        searchOnly.runCount = batch.runCount * searchOnly.searchSlices;
        e = launchDockKernel(searchOnly, scoring, params, search, searchWarps,
                             KernelInstance::Search, maxBytes, stream);
    }
    if (e == cudaSuccess)
        e = launchDock(batch, scoring, params, search, warpsPerBlock, stream);
    return e;
}

} // namespace pw::cuda
