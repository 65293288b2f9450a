// MinimizeScoring.cuh: the scoring terms in float on the device: receptor map reads (trilinear or
// tricubic, out-of-box penalty), the exact mode's pair sums over receptor atoms (PairMath.cuh, in
// double), the analytic intra pair potential and its C1 ramp rounding.
#pragma once

#include "MinimizeDeviceMath.cuh"
#include "MinimizeKernel.cuh"
#include "PairMath.cuh"

namespace pw::cuda::mk {

// Weights of samples a-1..a+2 at fraction t and their t-derivatives (ReceptorGrid.cpp
// cubicWeights): mode 1 Catmull-Rom, mode 2 uniform cubic B-spline.
__device__ __forceinline__ void cubicWeights(int mode, float t, float w[4], float d[4]) {
    const float t2 = t * t, t3 = t2 * t;
    if (mode == 1) {
        w[0] = 0.5f * (-t3 + 2 * t2 - t);
        w[1] = 0.5f * (3 * t3 - 5 * t2 + 2);
        w[2] = 0.5f * (-3 * t3 + 4 * t2 + t);
        w[3] = 0.5f * (t3 - t2);
        d[0] = 0.5f * (-3 * t2 + 4 * t - 1);
        d[1] = 0.5f * (9 * t2 - 10 * t);
        d[2] = 0.5f * (-9 * t2 + 8 * t + 1);
        d[3] = 0.5f * (3 * t2 - 2 * t);
    } else {
        const float u = 1 - t;
        const float k = 1.0f / 6.0f;
        w[0] = k * u * u * u;
        w[1] = k * (3 * t3 - 6 * t2 + 4);
        w[2] = k * (-3 * t3 + 3 * t2 + 3 * t + 1);
        w[3] = k * t3;
        d[0] = -0.5f * u * u;
        d[1] = 0.5f * (3 * t2 - 4 * t);
        d[2] = 0.5f * (-3 * t2 + 2 * t + 1);
        d[3] = 0.5f * t2;
    }
}

// Receptor map energy of one atom, with Vina's out-of-box handling (value at the nearest face,
// gradient along that axis zero, 1e6 per A outside) and the curl; gradient into g.
__device__ inline float atomInter(const ScoringParamsGpu& s, int type, float3 p, float3* g,
                                  int mode) {
    const float* m = s.maps[type];
    const int n[3] = {s.nx, s.ny, s.nz};
    const float pc[3] = {p.x, p.y, p.z};
    const float b[3] = {s.gridBegin.x, s.gridBegin.y, s.gridBegin.z};
    int a[3];
    float f[3], og[3];
    bool inside[3];
    float outside = 0.0f;
    for (int d = 0; d < 3; ++d) {
        const float gd = (pc[d] - b[d]) * s.invSpacing;
        og[d] = 0.0f;
        inside[d] = true;
        if (gd < 0.0f) {
            outside += -gd * s.spacing;
            og[d] = -1.0f;
            inside[d] = false;
            a[d] = 0;
            f[d] = 0.0f;
        } else if (gd >= n[d] - 1) {
            outside += (gd - (n[d] - 1)) * s.spacing;
            og[d] = 1.0f;
            inside[d] = false;
            a[d] = n[d] - 2;
            f[d] = 1.0f;
        } else {
            a[d] = static_cast<int>(gd);
            f[d] = gd - a[d];
        }
    }
    const int sy = s.nz, sx = s.ny * s.nz;
    if (mode != 0) {
        // Tricubic over the 4x4x4 samples around the cell (edge samples repeated).
        int idx[3][4];
        float w[3][4], dw[3][4];
        for (int d = 0; d < 3; ++d) {
            for (int k = 0; k < 4; ++k)
                idx[d][k] = min(max(a[d] - 1 + k, 0), n[d] - 1);
            cubicWeights(mode, f[d], w[d], dw[d]);
        }
        float v = 0, vx = 0, vy = 0, vz = 0;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            float cy = 0, cyDy = 0, cyDz = 0;
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const float* row = m + idx[0][i] * sx + idx[1][j] * sy;
                float cz = 0, czDz = 0;
#pragma unroll
                for (int k = 0; k < 4; ++k) {
                    const float q = __ldg(row + idx[2][k]);
                    cz += w[2][k] * q;
                    czDz += dw[2][k] * q;
                }
                cy += w[1][j] * cz;
                cyDy += dw[1][j] * cz;
                cyDz += w[1][j] * czDz;
            }
            v += w[0][i] * cy;
            vx += dw[0][i] * cy;
            vy += w[0][i] * cyDy;
            vz += w[0][i] * cyDz;
        }
        float scale;
        const float e = curl(v, s.curlV, scale);
        if (g) {
            const float k = scale * s.invSpacing;
            *g = make_float3((inside[0] ? k * vx : 0.0f) + s.outSlope * og[0],
                             (inside[1] ? k * vy : 0.0f) + s.outSlope * og[1],
                             (inside[2] ? k * vz : 0.0f) + s.outSlope * og[2]);
        }
        return e + s.outSlope * outside;
    }
    const float* c = m + a[0] * sx + a[1] * sy + a[2];
    const float f000 = __ldg(c), f001 = __ldg(c + 1);
    const float f010 = __ldg(c + sy), f011 = __ldg(c + sy + 1);
    const float f100 = __ldg(c + sx), f101 = __ldg(c + sx + 1);
    const float f110 = __ldg(c + sx + sy), f111 = __ldg(c + sx + sy + 1);
    const float x = f[0], y = f[1], z = f[2];
    const float mx = 1 - x, my = 1 - y, mz = 1 - z;
    const float c00 = f000 * mz + f001 * z, c01 = f010 * mz + f011 * z;
    const float c10 = f100 * mz + f101 * z, c11 = f110 * mz + f111 * z;
    const float c0 = c00 * my + c01 * y, c1 = c10 * my + c11 * y;
    float e = c0 * mx + c1 * x;
    float scale;
    e = curl(e, s.curlV, scale);
    if (g) {
        const float dfdx = c1 - c0;
        const float dfdy = (c01 - c00) * mx + (c11 - c10) * x;
        const float dz0 = (f001 - f000) * my + (f011 - f010) * y;
        const float dz1 = (f101 - f100) * my + (f111 - f110) * y;
        const float dfdz = dz0 * mx + dz1 * x;
        const float k = scale * s.invSpacing;
        *g = make_float3((inside[0] ? k * dfdx : 0.0f) + s.outSlope * og[0],
                         (inside[1] ? k * dfdy : 0.0f) + s.outSlope * og[1],
                         (inside[2] ? k * dfdz : 0.0f) + s.outSlope * og[2]);
    }
    return e + s.outSlope * outside;
}

// Exact mode: one atom's intermolecular energy (curl and out-of-box penalty included) summed
// over the receptor atoms of its cell, as LigandScorer::interEnergy (Spline, SplineGradient) or
// interTabulated (Tabulated) computes it; the lane takes all of the atom's candidates. The
// coordinates are relative to x.centre (the kernel's frame) and are scored in double.
template <PairMode kMode>
__device__ inline double atomInterExact(const ExactInterGpu& x, int type, float3 c, float3* g) {
    const pairmath::AtomSpot spot =
        pairmath::locateAtom(x.receptor, double(c.x) + x.centre[0], double(c.y) + x.centre[1],
                             double(c.z) + x.centre[2]);
    double e = 0.0, gs[3] = {0.0, 0.0, 0.0};
    pairmath::sumSites<kMode>(x.scoring, type, spot, 0, 1, &e, gs);
    double scale;
    e = pairmath::curl(e, &scale);
    if (g) {
        double out[3];
        pairmath::atomGradient(spot, scale, gs, out);
        *g = make_float3(float(out[0]), float(out[1]), float(out[2]));
    }
    return e + spot.penalty;
}

__device__ __forceinline__ float slopeStep(float bad, float good, float x, float& dx) {
    const float t = (x - bad) / (good - bad);
    if (t <= 0.0f) {
        dx = 0.0f;
        return 0.0f;
    }
    if (t >= 1.0f) {
        dx = 0.0f;
        return 1.0f;
    }
    dx = 1.0f / (good - bad);
    return t;
}

// The analytic pair potential (ScoringFunction's terms, in float) and dE/d(r^2).
__device__ inline float pairEnergy(const ScoringParamsGpu& s, int typePair, float r2,
                                   float& dEdr2) {
    if (r2 >= s.cutoff2) {
        dEdr2 = 0.0f;
        return 0.0f;
    }
    const float4 pp = __ldg(s.pairParams + typePair);
    const float r = sqrtf(r2);
    const float d = r - pp.x;
    const float x1 = (d - s.g1Offset) * s.g1InvWidth;
    const float e1 = expf(-x1 * x1);
    float e = s.w[0] * e1;
    float de = s.w[0] * e1 * (-2.0f * x1 * s.g1InvWidth);
    if (s.secondGauss) {
        const float x2 = (d - s.g2Offset) * s.g2InvWidth;
        const float e2 = expf(-x2 * x2);
        e += s.w[1] * e2;
        de += s.w[1] * e2 * (-2.0f * x2 * s.g2InvWidth);
    }
    if (d < 0.0f) {
        e += s.w[2] * d * d;
        de += s.w[2] * 2.0f * d;
    }
    float ds;
    if (pp.y != 0.0f) {
        e += s.w[3] * slopeStep(s.hydBad, s.hydGood, d, ds);
        de += s.w[3] * ds;
    }
    if (pp.z != 0.0f) {
        e += s.w[4] * slopeStep(s.hbBad, s.hbGood, d, ds);
        de += s.w[4] * ds;
    }
    dEdr2 = r > 0.0f ? de / (2.0f * r) : 0.0f;
    return e;
}

// IntraSmoothing.cpp: quadratic rounding of a unit slope change at v = 0 over [-h, h], minus the
// kink, and the correction of one ramp (1 at good, 0 at bad) at surface distance d.
__device__ __forceinline__ float kinkCorrection(float v, float h, float& dv) {
    if (v <= -h || v >= h) {
        dv = 0.0f;
        return 0.0f;
    }
    const float u = v + h;
    dv = u / (2 * h) - (v > 0.0f ? 1.0f : 0.0f);
    return u * u / (4 * h) - fmaxf(0.0f, v);
}
__device__ __forceinline__ float rampCorrection(float good, float bad, float h, float d,
                                                float& dd) {
    const float lo = fminf(good, bad), hi = fmaxf(good, bad), m = 1.0f / (good - bad);
    float a, b;
    const float e = m * (kinkCorrection(d - lo, h, a) - kinkCorrection(d - hi, h, b));
    dd = m * (a - b);
    return e;
}
// The intra pair's ramp rounding (added after the curl, as PoseRefinement adds it) and
// d/d(r^2).
__device__ inline float pairRampCorrection(const ScoringParamsGpu& s, int typePair, float r2,
                                           float& dEdr2) {
    dEdr2 = 0.0f;
    if (r2 >= s.cutoff2 || !(r2 > 0.0f))
        return 0.0f;
    const float4 pp = __ldg(s.pairParams + typePair);
    if (pp.y == 0.0f && pp.z == 0.0f)
        return 0.0f;
    const float r = sqrtf(r2), d = r - pp.x;
    float e = 0.0f, de = 0.0f, dd;
    if (pp.y != 0.0f) {
        e += s.w[3] * rampCorrection(s.hydGood, s.hydBad, s.rampHalfWidth, d, dd);
        de += s.w[3] * dd;
    }
    if (pp.z != 0.0f) {
        e += s.w[4] * rampCorrection(s.hbGood, s.hbBad, s.rampHalfWidth, d, dd);
        de += s.w[4] * dd;
    }
    dEdr2 = de / (2.0f * r);
    return e;
}

} // namespace pw::cuda::mk
