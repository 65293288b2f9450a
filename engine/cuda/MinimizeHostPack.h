// MinimizeHostPack: the host side of one CudaMinimizer batch, apart from the device: the batch's
// templates (one per distinct structure, flattened), packing a chunk's start poses into the
// staging arrays and unpacking the kernel's results into RefinementResults. Plain C++ on host
// memory (pinned or not), so that tests/bench/multi_device_overhead.cpp can run the same work on
// a machine without a GPU and show what of it grows with the number of device threads.
#pragma once

#include "MinimizeTemplates.h"
#include "MinimizeTypes.h"

#include <cuda_runtime_api.h> // float3

#include <algorithm>
#include <thread>
#include <utility>
#include <vector>

namespace pw::cuda {

// Runs f(i) for i in [0, n) on `threads` workers in contiguous blocks (cheap per-pose work).
template <class F> void blockParallelFor(long n, int threads, F&& f) {
    threads = static_cast<int>(std::clamp<long>(threads, 1, std::max<long>(1, n / 256)));
    if (threads <= 1) {
        for (long i = 0; i < n; ++i)
            f(i);
        return;
    }
    std::vector<std::thread> pool;
    const long per = (n + threads - 1) / threads;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            const long b = t * per, e = std::min(n, b + per);
            for (long i = b; i < e; ++i)
                f(i);
        });
    for (auto& th : pool)
        th.join();
}

// The templates of one batch: one per distinct structure (structureKey), their flat arrays as
// the device reads them, and each ligand's template.
struct BatchTemplates {
    std::vector<HostTemplate> templates;
    std::vector<int> templateOf; // per ligand
    std::vector<TemplateGpu> tg;
    std::vector<int> atoms;
    std::vector<NodeGpu> nodes;
    std::vector<PairGpu> pairs;
    int maxAtoms = 1, maxNodes = 1, maxTorsions = 0;
};
BatchTemplates buildBatchTemplates(const std::vector<Molecule>& ligands,
                                   const DockingTarget& target,
                                   const MinimizeBatchOptions& options, int threads);

// Where each pose of ligands [first, first + count) starts in the chunk's coordinate and torsion
// arrays, and their sizes.
struct ChunkLayout {
    std::vector<std::pair<int, int>> offsets; // (coordinate, torsion) per pose
    size_t coords = 0, torsions = 0;
};
ChunkLayout chunkLayout(const BatchTemplates& bt, long first, long count);

// The chunk's pose records and start coordinates (relative to the box centre, in float).
void packChunk(const std::vector<Molecule>& ligands, const BatchTemplates& bt,
               const ChunkLayout& layout, long first, long count, const Vec3& centre,
               PoseInputGpu* in, float3* start, int threads);

// The kernel's results of the chunk into results[first, first + count).
void unpackChunk(const std::vector<Molecule>& ligands, const BatchTemplates& bt, long first,
                 long count, const Vec3& centre, const PoseInputGpu* in,
                 const PoseResultGpu* out, const float3* final, const float* torsions,
                 std::vector<RefinementResult>& results, int threads);

} // namespace pw::cuda
