// DockKernel: the batched Lamarckian GA on the GPU: one block per run (every live run of every
// ligand of a batch in one launch, up to the next AutoStop checkpoint), one warp per individual
// being evaluated or locally searched; the population lives in global memory, the energies and
// the run's kinematics in shared memory.
#pragma once

#include "DockTypes.h"
#include "MinimizeKernel.cuh"

namespace pw::cuda {

struct DockBatchGpu {
    const TemplateGpu* templates;
    const int* atoms; // packAtom values
    const NodeGpu* nodes;
    const PairGpu* pairs;       // Vina/Vinardo internal pairs (TemplateGpu::pairBegin)
    const float* charges;       // AD4: per template atom (TemplateGpu::atomBegin); else null
    const Ad4PairGpu* ad4Pairs; // AD4: internal pairs (TemplateGpu::pairBegin); else null
    const RunInputGpu* runs;
    int runCount; // blocks of this launch
    // Block j continues run live[j] (indices into runs, state, results, population); null: block
    // j runs run j.
    const int* live;
    RunStateGpu* state;      // per run: where it paused (zeroed before its first launch)
    float* energies;         // per run: populationSize energies of its paused population
    int untilGeneration;     // the launch pauses every run after this many generations (in all)
    const float3* reference; // per ligand, kinematic atom order, relative to the box centre
    float3* final;           // per run: the best individual's atoms
    RunResultGpu* results;
    float* population; // per run: 2 x populationSize x genes (the block's own slice)
    int genes;         // floats per individual: 7 + maxTorsions
    int maxAtoms, maxNodes, maxTorsions; // size shared memory
    const int* cancel;      // != 0: every run stops at its next generation (null: not polled)
    unsigned int* finished; // runs finished (progress)
    // Live view: runs [0, watchCount) of this launch publish every generation into watch[run]
    // (mapped host memory); null: nobody watches (the only cost is this test per generation).
    DockWatchSlotGpu* watch;
    int watchCount;
    // The split search (launchDockStep). breedOnly 1: the launch breeds and evaluates one
    // generation of each live run and leaves its local searches to a search-only launch;
    // searchSlices > 0: a search-only launch, searchSlices blocks per live run (runCount counts
    // the blocks), each searching its share of the run's bred generation.
    int breedOnly;
    int searchSlices;
};

// Shared memory of one block (the run's part plus warpsPerBlock warps).
std::size_t dockSharedBytes(const DockBatchGpu& batch, const DockParamsGpu& params,
                            int warpsPerBlock);

// Launches every run of the batch on stream.
cudaError_t launchDock(const DockBatchGpu& batch, const ScoringParamsGpu& scoring,
                       const DockParamsGpu& params, const SearchParamsGpu& search,
                       int warpsPerBlock, cudaStream_t stream);

// One generation of every live run (batch.untilGeneration one past their generation) in three
// launches of dockKernel on stream: breed and evaluate (breedOnly), the local searches
// (searchSlices: searchWarps warps per block, one per individual, several blocks per run) and
// the generation's close (the stop decision, the best individual, the run's result). The output
// equals launchDock's for the same generation, bit for bit.
cudaError_t launchDockStep(const DockBatchGpu& batch, const ScoringParamsGpu& scoring,
                           const DockParamsGpu& params, const SearchParamsGpu& search,
                           int warpsPerBlock, int searchWarps, cudaStream_t stream);

} // namespace pw::cuda
