// DockAd4Scoring.cuh: AutoDock 4 energy of one warp's pose on the device, the float twin of the
// CPU search objective ad4::Ad4LigandScorer::energyAndGradient (interAnalytic + intraAnalytic):
// per atom, the trilinear interpolant of its type's map + q * "e" + |q| * "d" (autodock4's
// penalty outside the grid); per internal pair, Mehler-Solmajer electrostatics, the desolvation
// Gaussian and the smoothed 12-6 / 12-10 potential within the cutoff.
#pragma once

#include "DockAd4Types.h"
#include "MinimizePose.cuh"

namespace pw::cuda::mk {

// Mehler-Solmajer dielectric eps(r) and d eps/dr (ad4::mehlerSolmajerDielectric). The pair terms
// use the fast exponential and division intrinsics (a few ulp: far below the 0.01 kcal/mol the
// GPU search is held to against the CPU's doubles; IEEE division and expf were a quarter of the
// docking kernel's instructions).
__device__ __forceinline__ float ad4Dielectric(float r, float& dEps) {
    constexpr float lambda = 0.003627f, A = -8.5525f, k = 7.7839f, B = 78.4f - A;
    const float x = k * __expf(-lambda * B * r);
    const float eps = A + __fdividef(B, 1.0f + x);
    if (eps < 1e-6f) {
        dEps = 0.0f;
        return 1.0f;
    }
    dEps = __fdividef(B * x * lambda * B, (1.0f + x) * (1.0f + x));
    return eps;
}

// autodock4's smoothed pair potential in closed form (ad4::smoothedPairEnergy): the unsmoothed
// curve at the window end nearest Rij, the well depth inside the window; dE/dr.
__device__ __forceinline__ float ad4SmoothedPair(const Ad4ScoringGpu& a, const Ad4PairGpu& p,
                                                 float r, float& dEdr) {
    float rEval;
    if (p.cB > 0.0f && p.Rij > 0.0f)
        rEval = r < p.Rij - a.smoothHalf   ? r + a.smoothHalf
                : r > p.Rij + a.smoothHalf ? r - a.smoothHalf
                                           : p.Rij;
    else
        rEval = r + a.smoothHalf; // purely repulsive
    const float inv2 = __fdividef(1.0f, rEval * rEval);
    const float inv6 = inv2 * inv2 * inv2;
    const float rep = p.cA * inv6 * inv6;
    const float att = p.cB * (p.hbond ? inv6 * inv2 * inv2 : inv6);
    const float e = rep - att;
    if (e >= a.energyClamp || rEval == p.Rij) {
        dEdr = 0.0f;
        return fminf(a.energyClamp, e);
    }
    dEdr = (-12.0f * rep + (p.hbond ? 10.0f : 6.0f) * att) * (rEval * inv2);
    return e;
}

// One atom's intermolecular energy at p (relative to the grid centre) with map `map` and
// charge q; dE/dp into *g when given.
__device__ inline float ad4AtomInter(const Ad4ScoringGpu& a, int map, float q, float3 p,
                                     float3* g) {
    const float pc[3] = {p.x, p.y, p.z};
    bool inside = true;
    for (int d = 0; d < 3; ++d) // strictly inside (GridGeometry::contains); the grid is symmetric
        inside &= pc[d] > a.lo[d] && pc[d] < -a.lo[d];
    if (!inside) {
        if (g)
            *g = (4.0f * a.outsidePenalty) * p;
        return 2.0f * a.outsidePenalty * dot3(p, p);
    }
    int c[3];
    float f[3];
    for (int d = 0; d < 3; ++d) {
        const float u = (pc[d] - a.lo[d]) * a.invSpacing;
        c[d] = min(static_cast<int>(u), a.npts[d] - 1);
        f[d] = u - c[d];
    }
    const int nx = a.npts[0] + 1, nxy = nx * (a.npts[1] + 1);
    const long long base = (static_cast<long long>(c[2]) * (a.npts[1] + 1) + c[1]) * nx + c[0];
    const float* mt = a.maps + map * a.mapStride + base;
    const float* me = a.maps + a.elecMap * a.mapStride + base;
    const float* md = a.maps + a.desolvMap * a.mapStride + base;
    const float aq = fabsf(q);
    // The maps are linear in their values: combine the three per corner, interpolate once.
    float v[2][2][2];
#pragma unroll
    for (int dz = 0; dz < 2; ++dz)
#pragma unroll
        for (int dy = 0; dy < 2; ++dy)
#pragma unroll
            for (int dx = 0; dx < 2; ++dx) {
                const int o = dz * nxy + dy * nx + dx;
                v[dz][dy][dx] = __ldg(mt + o) + q * __ldg(me + o) + aq * __ldg(md + o);
            }
    const float x = f[0], y = f[1], z = f[2];
    float cy[2][2], dcy[2][2];
#pragma unroll
    for (int dz = 0; dz < 2; ++dz)
#pragma unroll
        for (int dy = 0; dy < 2; ++dy) {
            dcy[dz][dy] = v[dz][dy][1] - v[dz][dy][0];
            cy[dz][dy] = v[dz][dy][0] + dcy[dz][dy] * x;
        }
    float cz[2], dzx[2], dzy[2];
#pragma unroll
    for (int dz = 0; dz < 2; ++dz) {
        cz[dz] = cy[dz][0] + (cy[dz][1] - cy[dz][0]) * y;
        dzx[dz] = dcy[dz][0] + (dcy[dz][1] - dcy[dz][0]) * y;
        dzy[dz] = cy[dz][1] - cy[dz][0];
    }
    if (g)
        *g = make_float3((dzx[0] + (dzx[1] - dzx[0]) * z) * a.invSpacing,
                         (dzy[0] + (dzy[1] - dzy[0]) * z) * a.invSpacing,
                         (cz[1] - cz[0]) * a.invSpacing);
    return cz[0] + (cz[1] - cz[0]) * z;
}

// One internal pair's energy at squared distance r2; k with dE/dx_j = k (x_j - x_i) (0 when
// the pair is closer than the minimum distance: autodock4 holds it there).
__device__ inline float ad4PairEnergy(const Ad4ScoringGpu& a, const Ad4PairGpu& p, float r2,
                                      float& k) {
    const float rTrue = sqrtf(r2);
    const bool clamped = rTrue < a.minDistance;
    const float r = clamped ? a.minDistance : rTrue;
    float dEps;
    const float eps = ad4Dielectric(r, dEps);
    const float invR = __fdividef(1.0f, r), invEps = __fdividef(1.0f, eps);
    const float elec = p.q1q2 * invR * invEps;
    float dEdr = -elec * (invR + dEps * invEps);
    const float gauss = p.desolv * __expf(-r * r * a.desolvInvTwoSigma2);
    dEdr -= 2.0f * a.desolvInvTwoSigma2 * r * gauss;
    float e = elec + gauss;
    if (r * r < a.cutoff2) {
        float dv;
        e += ad4SmoothedPair(a, p, r, dv);
        dEdr += dv;
    }
    k = (clamped || !(rTrue > 0.0f)) ? 0.0f : dEdr * invR; // r == rTrue here
    return e;
}

// Gradient of one atom summed in a lane's registers over a run of pairs that share it, added to
// shared memory when the run ends. Shared-memory float atomics are compare-and-swap loops on
// sm_90 (ATOMS.CAST.SPIN), each a serial chain of a load, an add and a swap: with six per pair
// they took half of the docking kernel's stall samples (3ce3, Nsight Compute, RESULTS.md).
struct PairGradient {
    int atom = -1;
    float3 sum = make_float3(0.0f, 0.0f, 0.0f);
    __device__ void flush(float3* grad) {
        if (atom < 0)
            return;
        atomicAdd(&grad[atom].x, sum.x);
        atomicAdd(&grad[atom].y, sum.y);
        atomicAdd(&grad[atom].z, sum.z);
    }
    __device__ void add(float3* grad, int a, float3 g) {
        if (a != atom) {
            flush(grad);
            atom = a, sum = g;
        } else {
            sum = sum + g;
        }
    }
};

// The warp's lane-partial AD4 inter energy of the placed atoms; per-atom gradients into w.grad
// when withGradient.
__device__ inline double ad4InterAtoms(WarpState& w, const Ad4ScoringGpu& a, bool withGradient) {
    double e = 0.0;
    for (int i = w.lane; i < w.A; i += 32) {
        float3 g;
        e += ad4AtomInter(a, (w.atoms[i] & 255) - 1, __ldg(w.charge + i), w.coords[i],
                          withGradient ? &g : nullptr);
        if (withGradient)
            w.grad[i] = g;
    }
    return e;
}

// The warp's lane-partial AD4 internal energy; gradients added to w.grad (after ad4InterAtoms
// and a __syncwarp) when withGradient. The host deals the pairs out (DockAd4Target.cpp) so that a
// lane's pairs are neighbours in the scorer's list and mostly share their first atom: that
// atom's gradient sums in registers and goes to shared memory once per run of equal atoms
// (PairGradient, above, says why).
__device__ inline double ad4IntraPairs(WarpState& w, const Ad4ScoringGpu& a, bool withGradient) {
    double e = 0.0;
    PairGradient first;
    for (int q = w.lane; q < w.nPairs; q += 32) {
        const Ad4PairGpu p = w.ad4Pairs[q];
        const float3 d = w.coords[p.j] - w.coords[p.i];
        float k;
        e += ad4PairEnergy(a, p, dot3(d, d), k);
        if (withGradient && k != 0.0f) {
            const float3 f = k * d;
            atomicAdd(&w.grad[p.j].x, f.x);
            atomicAdd(&w.grad[p.j].y, f.y);
            atomicAdd(&w.grad[p.j].z, f.z);
            first.add(w.grad, p.i, make_float3(-f.x, -f.y, -f.z));
        }
    }
    if (withGradient)
        first.flush(w.grad);
    return e;
}

} // namespace pw::cuda::mk
