// The exact receptor-ligand pair kernel: one warp per pose. For each typed ligand atom the warp's
// lanes stride over the receptor atoms of its cell (the cell list of ReceptorModel), sum the pair
// energies within the cutoff, reduce, and apply Vina's curl per atom, as LigandScorer does; then
// the lanes stride over the intramolecular pairs. The arithmetic mirrors the CPU reference line by
// line, in double, with the squared distances rounded as the CPU rounds them (no fused
// multiply-add), so that Vina's tabulated bins are the same bins.
#include "PairScoreTypes.h"

#include <cuda_runtime.h>

namespace pw::cuda {
namespace {

constexpr double kCurlV = 1000.0;       // VinaConstants.h kCurlV
constexpr double kOutOfBoxSlope = 1e6;  // VinaConstants.h kOutOfBoxSlope
constexpr double kSamplesPerA2 = 32.0;  // ScoringFunction::kTableSamplesPerA2
constexpr int kWarpsPerBlock = 4;

__device__ inline double warpSum(double v) {
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__device__ inline double curl(double e, double* scale) {
    if (e > 0.0) {
        const double tmp = kCurlV / (kCurlV + e);
        *scale = tmp * tmp;
        return e * tmp;
    }
    *scale = 1.0;
    return e;
}

// dx*dx + dy*dy + dz*dz rounded after every operation, as the CPU computes it.
__device__ inline double squaredNorm(double dx, double dy, double dz) {
    return __dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz));
}

__device__ inline double slopeStep(double bad, double good, double x, double* dx) {
    const double t = (x - bad) / (good - bad);
    if (t <= 0.0) {
        *dx = 0.0;
        return 0.0;
    }
    if (t >= 1.0) {
        *dx = 0.0;
        return 1.0;
    }
    *dx = 1.0 / (good - bad);
    return t;
}

// ScoringFunction::tabulatedEnergy (r2 below the squared cutoff).
__device__ inline double tabulated(const PairScoringDev& s, const PairTypeInfo& p, double r2) {
    const int i = static_cast<int>(__dmul_rn(kSamplesPerA2, r2));
    if (i >= s.tableSize - 1)
        return 0.0;
    return __ldg(s.table + static_cast<long long>(p.row) * s.tableSize + i);
}

// ScoringFunction::splineEnergy (r2 below the squared cutoff): energy and dE/d(r^2).
__device__ inline double splineEnergy(const PairScoringDev& s, const PairTypeInfo& p, double r2,
                                      double* dEdr2) {
    const double sr = __dmul_rn(r2, kSamplesPerA2);
    const int k = static_cast<int>(sr);
    const double t = sr - k;
    const double* c = s.spline + (static_cast<long long>(p.row) * s.tableSize + k) * 2;
    const double f0 = __ldg(c), m0 = __ldg(c + 1), f1 = __ldg(c + 2), m1 = __ldg(c + 3);
    const double tt = t * t, ttt = tt * t;
    double e = (2 * ttt - 3 * tt + 1) * f0 + (ttt - 2 * tt + t) * m0 + (-2 * ttt + 3 * tt) * f1 +
               (ttt - tt) * m1;
    const double de = (6 * tt - 6 * t) * f0 + (3 * tt - 4 * t + 1) * m0 +
                      (-6 * tt + 6 * t) * f1 + (3 * tt - 2 * t) * m1;
    double d2 = de * kSamplesPerA2;
    if (p.hydrophobic || p.hbond) {
        const double r = sqrt(r2);
        const double d = r - p.optimal;
        double dEdr = 0.0, ds;
        if (p.hydrophobic) {
            e += s.wHydrophobic * slopeStep(s.hydBad, s.hydGood, d, &ds);
            dEdr += s.wHydrophobic * ds;
        }
        if (p.hbond) {
            e += s.wHbond * slopeStep(s.hbBad, s.hbGood, d, &ds);
            dEdr += s.wHbond * ds;
        }
        if (r > 0)
            d2 += dEdr / (2 * r);
    }
    *dEdr2 = d2;
    return e;
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
        double p[3] = {X[3 * a], X[3 * a + 1], X[3 * a + 2]};
        // LigandScorer::clampToRegion: scored at the nearest point of the box, 1e6 per Å outside.
        double pen = 0.0, penGrad[3] = {0.0, 0.0, 0.0};
        bool clamped[3] = {false, false, false};
        bool inside = true;
        for (int d = 0; d < 3; ++d) {
            if (rec.penalizeOutside) {
                if (p[d] < rec.begin[d]) {
                    pen += kOutOfBoxSlope * (rec.begin[d] - p[d]);
                    penGrad[d] = -kOutOfBoxSlope;
                    p[d] = rec.begin[d];
                    clamped[d] = true;
                } else if (p[d] > rec.end[d]) {
                    pen += kOutOfBoxSlope * (p[d] - rec.end[d]);
                    penGrad[d] = kOutOfBoxSlope;
                    p[d] = rec.end[d];
                    clamped[d] = true;
                }
            } else {
                inside = inside && p[d] >= rec.begin[d] && p[d] <= rec.end[d];
            }
        }
        const PairSite* b;
        const PairSite* e;
        if (rec.penalizeOutside || inside) {
            int idx = 0;
            for (int d = 0; d < 3; ++d) {
                int c = static_cast<int>((p[d] - rec.begin[d]) * rec.invCell[d]);
                c = c < 0 ? 0 : (c >= rec.cells[d] ? rec.cells[d] - 1 : c);
                idx = idx * rec.cells[d] + c;
            }
            b = rec.cellSites + __ldg(rec.cellStart + idx);
            e = rec.cellSites + __ldg(rec.cellStart + idx + 1);
        } else {
            b = rec.allSites;
            e = rec.allSites + rec.allCount;
        }
        const PairTypeInfo* row = sc.types + t * sc.typeCount;
        double en = 0.0, gx = 0.0, gy = 0.0, gz = 0.0;
        for (const PairSite* s = b + lane; s < e; s += 32) {
            const double2 xy = __ldg(reinterpret_cast<const double2*>(s));
            const double2 zt = __ldg(reinterpret_cast<const double2*>(s) + 1);
            const int st = __double2loint(zt.y);
            const double dx = p[0] - xy.x, dy = p[1] - xy.y, dz = p[2] - zt.x;
            const double r2 = squaredNorm(dx, dy, dz);
            if (r2 >= sc.cutoff2)
                continue;
            const PairTypeInfo& pt = row[st];
            if (kMode == PairMode::Tabulated) {
                en += tabulated(sc, pt, r2);
            } else {
                double dEdr2;
                en += splineEnergy(sc, pt, r2, &dEdr2);
                if (kGrad) {
                    const double f = 2.0 * dEdr2;
                    gx += f * dx;
                    gy += f * dy;
                    gz += f * dz;
                }
            }
        }
        en = warpSum(en);
        double scale;
        en = curl(en, &scale);
        inter += en + pen;
        penalty += pen;
        if (kGrad) {
            gx = warpSum(gx);
            gy = warpSum(gy);
            gz = warpSum(gz);
            if (lane == 0) {
                G[3 * a] += scale * (clamped[0] ? 0.0 : gx) + penGrad[0];
                G[3 * a + 1] += scale * (clamped[1] ? 0.0 : gy) + penGrad[1];
                G[3 * a + 2] += scale * (clamped[2] ? 0.0 : gz) + penGrad[2];
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
