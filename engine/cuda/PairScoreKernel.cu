// The exact receptor-ligand pair kernel: one warp per pose. For each typed ligand atom the warp's
// lanes stride over the receptor atoms of its cell (the cell list of ReceptorModel), sum the pair
// energies within the cutoff, reduce, and apply Vina's curl per atom, as LigandScorer does; then
// the lanes stride over the intramolecular pairs. The per-pair and per-atom arithmetic is
// PairMath.cuh's (shared with the minimizer's exact mode), in double, as the CPU reference.
#include "PairMath.cuh"
#include "PairScoreTypes.h"

#include <cuda_runtime.h>

namespace pw::cuda {
namespace {

using namespace pairmath;

constexpr int kWarpsPerBlock = 4;

__device__ inline double warpSum(double v) {
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

template <PairMode kMode>
__global__ void __launch_bounds__(kWarpsPerBlock * 32)
    pairKernel(PairReceptorDev rec, PairScoringDev sc, PairLigandsDev lig, int nPoses,
               const int* __restrict__ poseLigand, const long long* __restrict__ poseAtom,
               const double* __restrict__ coords, PairPoseEnergy* __restrict__ out,
               double* __restrict__ gradient) {
    constexpr bool kGrad = kMode == PairMode::SplineGradient;
    const int pose = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32;
    const int lane = threadIdx.x & 31;
    if (pose >= nPoses)
        return;
    const PairLigandDev L = lig.ligands[poseLigand[pose]];
    const double* X = coords + 3 * poseAtom[pose];
    double* G = kGrad ? gradient + 3 * poseAtom[pose] : nullptr;
    if (kGrad) {
        for (int k = lane; k < 3 * L.atomCount; k += 32)
            G[k] = 0.0;
        __syncwarp();
    }

    double inter = 0.0, penalty = 0.0;
    for (int h = 0; h < L.heavyCount; ++h) {
        const int a = lig.heavyAtom[L.heavyBegin + h];
        const int t = lig.heavyType[L.heavyBegin + h];
        const AtomSpot spot = locateAtom(rec, X[3 * a], X[3 * a + 1], X[3 * a + 2]);
        double en = 0.0, g[3] = {0.0, 0.0, 0.0};
        sumSites<kMode>(sc, t, spot, lane, 32, &en, g);
        en = warpSum(en);
        double scale;
        en = curl(en, &scale);
        inter += en + spot.penalty;
        penalty += spot.penalty;
        if (kGrad) {
            for (int d = 0; d < 3; ++d)
                g[d] = warpSum(g[d]);
            if (lane == 0) {
                double out[3];
                atomGradient(spot, scale, g, out);
                G[3 * a] += out[0];
                G[3 * a + 1] += out[1];
                G[3 * a + 2] += out[2];
            }
        }
    }
    if (kGrad)
        __syncwarp();

    double intra = 0.0;
    for (int k = lane; k < L.pairCount; k += 32) {
        const PairIntraPair pr = lig.pairs[L.pairBegin + k];
        const double dx = X[3 * pr.j] - X[3 * pr.i], dy = X[3 * pr.j + 1] - X[3 * pr.i + 1],
                     dz = X[3 * pr.j + 2] - X[3 * pr.i + 2];
        const double r2 = squaredNorm(dx, dy, dz);
        if (r2 >= sc.cutoff2)
            continue;
        const PairTypeInfo& pt = sc.types[pr.ti * sc.typeCount + pr.tj];
        double scale;
        if (kMode == PairMode::Tabulated) {
            intra += curl(tabulated(sc, pt, r2), &scale);
        } else {
            double dEdr2;
            intra += curl(splineEnergy(sc, pt, r2, &dEdr2), &scale);
            if (kGrad) {
                const double f = 2.0 * scale * dEdr2;
                atomicAdd(G + 3 * pr.j, f * dx);
                atomicAdd(G + 3 * pr.j + 1, f * dy);
                atomicAdd(G + 3 * pr.j + 2, f * dz);
                atomicAdd(G + 3 * pr.i, -f * dx);
                atomicAdd(G + 3 * pr.i + 1, -f * dy);
                atomicAdd(G + 3 * pr.i + 2, -f * dz);
            }
        }
    }
    intra = warpSum(intra);
    if (lane == 0)
        out[pose] = {inter, intra, penalty};
}

} // namespace

void launchPairKernel(PairMode mode, const PairReceptorDev& receptor, const PairScoringDev& scoring,
                      const PairLigandsDev& ligands, int nPoses, const int* poseLigand,
                      const long long* poseAtom, const double* coords, PairPoseEnergy* out,
                      double* gradient, void* stream) {
    if (nPoses <= 0)
        return;
    const dim3 grid((nPoses + kWarpsPerBlock - 1) / kWarpsPerBlock), block(kWarpsPerBlock * 32);
    cudaStream_t s = static_cast<cudaStream_t>(stream);
    switch (mode) {
    case PairMode::Tabulated:
        pairKernel<PairMode::Tabulated><<<grid, block, 0, s>>>(
            receptor, scoring, ligands, nPoses, poseLigand, poseAtom, coords, out, gradient);
        break;
    case PairMode::Spline:
        pairKernel<PairMode::Spline><<<grid, block, 0, s>>>(receptor, scoring, ligands, nPoses,
                                                             poseLigand, poseAtom, coords, out,
                                                             gradient);
        break;
    case PairMode::SplineGradient:
        pairKernel<PairMode::SplineGradient><<<grid, block, 0, s>>>(
            receptor, scoring, ligands, nPoses, poseLigand, poseAtom, coords, out, gradient);
        break;
    }
}

} // namespace pw::cuda
