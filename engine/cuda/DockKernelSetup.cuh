// DockKernelSetup.cuh: what the docking kernel (DockKernel.cu) sets up in each of its launches,
// the search-only ones included: the shared-memory layout of a warp, a warp's view of its run's
// ligand (WarpState), and the ligand's kinematics from its reference coordinates.
#pragma once

#include "DockKernel.cuh"
#include "DockLocalSearch.cuh"

namespace pw::cuda::mk {

// Floats of the ligand's kinematics (shared by a block's warps): local atom offsets, the
// fragments' relative origins and axes.
__host__ __device__ inline int kinematicsFloats(int maxAtoms, int maxNodes) {
    return 3 * maxAtoms + 6 * maxNodes;
}

// Floats of one warp's part: coordinates, gradients, frames and the search's vectors (BFGS's
// inverse Hessian when hessian).
__host__ __device__ inline int warpFloats(int maxAtoms, int maxNodes, int maxTorsions,
                                          bool hessian) {
    const int P = 7 + maxTorsions, D = 6 + maxTorsions;
    int f = 6 * maxAtoms + 21 * maxNodes + 3 * P + 5 * D + (hessian ? D * D : 0) + 4;
    return (f + 7) / 8 * 8;
}

__device__ inline float3* take3(float*& m, int n) {
    float3* p = reinterpret_cast<float3*>(m);
    m += 3 * n;
    return p;
}

// The ligand's kinematics in shared memory, laid out from m on.
struct Kinematics {
    float3 *local, *relOrigin, *relAxis;
};

__device__ inline Kinematics takeKinematics(float*& m, const DockBatchGpu& b) {
    Kinematics k;
    k.local = take3(m, b.maxAtoms);
    k.relOrigin = take3(m, b.maxNodes);
    k.relAxis = take3(m, b.maxNodes);
    return k;
}

// Points w at template tp's arrays, the block's kinematics and the warp's part at m.
__device__ inline void bindWarp(WarpState& w, const DockBatchGpu& b, const TemplateGpu& tp,
                                const DockParamsGpu& dp, const Kinematics& k, float* m) {
    w.lane = threadIdx.x & 31;
    w.A = tp.atomCount, w.N = tp.nodeCount, w.nPairs = tp.pairCount;
    w.T = tp.torsionCount, w.D = 6 + w.T;
    w.movingNodes = tp.movingNodes;
    w.atoms = b.atoms + tp.atomBegin;
    w.nodes = b.nodes + tp.nodeBegin;
    w.pairs = b.pairs + tp.pairBegin;
    w.charge = b.charges ? b.charges + tp.atomBegin : nullptr;
    w.ad4Pairs = b.ad4Pairs ? b.ad4Pairs + tp.pairBegin : nullptr;
    w.misc = m, m += 4;
    w.mma = nullptr;
    const int P = 7 + b.maxTorsions, D = 6 + b.maxTorsions;
    w.coords = take3(m, b.maxAtoms), w.grad = take3(m, b.maxAtoms);
    w.origin = take3(m, b.maxNodes), w.axis = take3(m, b.maxNodes);
    w.force = take3(m, b.maxNodes), w.moment = take3(m, b.maxNodes);
    w.rot = m, m += 9 * b.maxNodes;
    w.x = m, m += P;
    w.trial = m, m += P;
    w.start = m, m += P;
    w.g = m, m += D;
    w.gT = m, m += D;
    w.p = m, m += D;
    w.y = m, m += D;
    w.hy = m, m += D;
    w.H = dp.localSearch == static_cast<int>(DockLocalSearch::Bfgs) ? m : nullptr;
    w.local = k.local, w.relOrigin = k.relOrigin, w.relAxis = k.relAxis;
}

// The kinematics from the ligand's reference coordinates (as the minimizer takes its start), by
// one warp (w bound by bindWarp; its coordinates and origins are scratch here). The root's origin
// is its fragment's centroid (dock::DockRun's genotype: rotations turn the ligand about it); the
// other fragments' origins are their bond's child atom.
__device__ inline void buildKinematics(WarpState& w, const float3* ref, const Kinematics& k) {
    for (int i = w.lane; i < w.A; i += 32)
        w.coords[i] = ref[i];
    __syncwarp();
    float3 c = make_float3(0, 0, 0);
    const int r0 = w.nodes[0].atomBegin, r1 = w.nodes[0].atomEnd;
    for (int i = r0 + w.lane; i < r1; i += 32)
        c = c + w.coords[i];
    c = make_float3(warpSum(c.x), warpSum(c.y), warpSum(c.z));
    c = (1.0f / (r1 - r0)) * c;
    for (int n = w.lane; n < w.N; n += 32) {
        const NodeGpu& nd = w.nodes[n];
        const float3 o = n == 0 ? c : w.coords[nd.originAtom];
        w.origin[n] = o;
        if (n > 0 && nd.parent >= 0) {
            const float3 ax = o - w.coords[nd.axisParentAtom];
            k.relAxis[n] = rsqrtf(dot3(ax, ax)) * ax;
        } else {
            k.relAxis[n] = make_float3(0, 0, 0);
        }
    }
    __syncwarp();
    // A side chain's fixed root: relOrigin is its absolute reference origin (setFixedFrames).
    for (int n = w.lane; n < w.N; n += 32) {
        const int parent = w.nodes[n].parent;
        k.relOrigin[n] = n == 0        ? make_float3(0, 0, 0)
                         : parent >= 0 ? w.origin[n] - w.origin[parent]
                                       : w.origin[n];
    }
    for (int i = w.lane; i < w.A; i += 32)
        k.local[i] = w.coords[i] - w.origin[w.atoms[i] >> 8];
}

// Each warp's frames of the side chains' fixed roots (after buildKinematics and a barrier): at
// their reference origin, unrotated; placeAtoms never moves them.
__device__ inline void setFixedFrames(WarpState& w) {
    for (int n = w.movingNodes + w.lane; n < w.N; n += 32) {
        w.origin[n] = w.relOrigin[n];
        for (int e = 0; e < 9; ++e)
            w.rot[9 * n + e] = (e % 4 == 0) ? 1.0f : 0.0f;
    }
    __syncwarp();
}

// The run's population of its current generation (the halves of its slice swap every
// generation: the current one is the first after an even number).
__device__ inline float* currentPopulation(const DockBatchGpu& b, int run, int population,
                                           int generation) {
    float* slice = b.population + static_cast<size_t>(run) * 2 * population * b.genes;
    return (generation & 1) ? slice + static_cast<size_t>(population) * b.genes : slice;
}

} // namespace pw::cuda::mk
