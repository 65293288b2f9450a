// One warp minimizes one pose. All 32 lanes run the same scalar BFGS/line-search logic on
// warp-uniform values (every reduction ends in a butterfly, so all lanes hold identical sums);
// the lanes split the atoms, the intramolecular pairs and the vector/matrix work.
#include "MinimizeKernel.cuh"

#include <cfloat>
#include <cmath>

namespace pw::cuda {
namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr float kPi = 3.14159265358979f;
// The curvature guard of BfgsMinimizer (double epsilon there; kept so both sides skip the same
// updates).
constexpr float kCurvatureEpsilon = 2.220446e-16f;

__device__ __forceinline__ float warpSum(float v) {
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(kFull, v, off);
    return v;
}

// Energies are summed in double: the line search compares sums of hundreds of terms whose
// float rounding would otherwise flip Armijo decisions that the double CPU reference makes.
__device__ __forceinline__ double warpSumD(double v) {
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(kFull, v, off);
    return v;
}

__device__ __forceinline__ float3 operator+(float3 a, float3 b) {
    return make_float3(a.x + b.x, a.y + b.y, a.z + b.z);
}
__device__ __forceinline__ float3 operator-(float3 a, float3 b) {
    return make_float3(a.x - b.x, a.y - b.y, a.z - b.z);
}
__device__ __forceinline__ float3 operator*(float s, float3 a) {
    return make_float3(s * a.x, s * a.y, s * a.z);
}
__device__ __forceinline__ float dot3(float3 a, float3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
__device__ __forceinline__ float3 cross3(float3 a, float3 b) {
    return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
__device__ __forceinline__ float3 mul(const float* r, float3 v) { // row-major 3x3
    return make_float3(r[0] * v.x + r[1] * v.y + r[2] * v.z, r[3] * v.x + r[4] * v.y + r[5] * v.z,
                       r[6] * v.x + r[7] * v.y + r[8] * v.z);
}

__device__ __forceinline__ float normalizeAngle(float a) {
    if (a > kPi || a < -kPi)
        a = remainderf(a, 2.0f * kPi);
    return a;
}

// Vina's curl: positive energies softened to e v / (v + e); returns the derivative scale.
__device__ __forceinline__ float curl(float e, float v, float& scale) {
    if (e > 0.0f) {
        const float t = v / (v + e);
        scale = t * t;
        return e * t;
    }
    scale = 1.0f;
    return e;
}

// Per-warp views into shared memory (see minimizeSharedBytesPerWarp for the layout).
struct WarpState {
    float3 *local, *coords, *grad;
    float3 *relOrigin, *relAxis, *origin, *axis, *force, *moment;
    float* rot;
    float *x, *trial, *start;
    float *g, *gT, *p, *y, *hy, *H;
    float* misc;
    const int* atoms;
    const NodeGpu* nodes;
    const PairGpu* pairs;
    int A, N, nPairs, T, D;
    int lane;
};

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
__device__ float atomInter(const ScoringParamsGpu& s, int type, float3 p, float3* g, int mode) {
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
__device__ float pairEnergy(const ScoringParamsGpu& s, int typePair, float r2, float& dEdr2) {
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
__device__ float pairRampCorrection(const ScoringParamsGpu& s, int typePair, float r2,
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

// Fragment frames (lane 0, parents first) and then atom coordinates (all lanes) of a pose.
__device__ void placeAtoms(WarpState& w, const float* pose) {
    if (w.lane == 0) {
        const float qw = pose[3], qx = pose[4], qy = pose[5], qz = pose[6];
        float* r = w.rot;
        r[0] = 1 - 2 * (qy * qy + qz * qz);
        r[1] = 2 * (qx * qy - qw * qz);
        r[2] = 2 * (qx * qz + qw * qy);
        r[3] = 2 * (qx * qy + qw * qz);
        r[4] = 1 - 2 * (qx * qx + qz * qz);
        r[5] = 2 * (qy * qz - qw * qx);
        r[6] = 2 * (qx * qz - qw * qy);
        r[7] = 2 * (qy * qz + qw * qx);
        r[8] = 1 - 2 * (qx * qx + qy * qy);
        w.origin[0] = make_float3(pose[0], pose[1], pose[2]);
        for (int k = 1; k < w.N; ++k) {
            const NodeGpu& nd = w.nodes[k];
            const float* rp = w.rot + 9 * nd.parent;
            const float3 u = w.relAxis[k];
            w.origin[k] = w.origin[nd.parent] + mul(rp, w.relOrigin[k]);
            w.axis[k] = mul(rp, u);
            // r = rp * Rodrigues(u, t)
            float sn, cs;
            sincosf(pose[7 + nd.torsion], &sn, &cs);
            const float c1 = 1.0f - cs;
            const float a[9] = {
                cs + c1 * u.x * u.x,       c1 * u.x * u.y - sn * u.z, c1 * u.x * u.z + sn * u.y,
                c1 * u.x * u.y + sn * u.z, cs + c1 * u.y * u.y,       c1 * u.y * u.z - sn * u.x,
                c1 * u.x * u.z - sn * u.y, c1 * u.y * u.z + sn * u.x, cs + c1 * u.z * u.z};
            float* rk = w.rot + 9 * k;
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j)
                    rk[3 * i + j] =
                        rp[3 * i] * a[j] + rp[3 * i + 1] * a[3 + j] + rp[3 * i + 2] * a[6 + j];
        }
    }
    __syncwarp();
    for (int i = w.lane; i < w.A; i += 32) {
        const int node = w.atoms[i] >> 8;
        w.coords[i] = w.origin[node] + mul(w.rot + 9 * node, w.local[i]);
    }
    __syncwarp();
}

// Sums of dE/dx (force) and of (x - fragment origin) x dE/dx (moment) per fragment.
__device__ void fragmentSums(WarpState& w, Reduction reduction) {
    for (int k = w.lane; k < w.N; k += 32) {
        w.force[k] = make_float3(0, 0, 0);
        w.moment[k] = make_float3(0, 0, 0);
    }
    __syncwarp();
    if (reduction == Reduction::SharedAtomics) {
        for (int i = w.lane; i < w.A; i += 32) {
            const int node = w.atoms[i] >> 8;
            const float3 f = w.grad[i];
            const float3 m = cross3(w.coords[i] - w.origin[node], f);
            atomicAdd(&w.force[node].x, f.x);
            atomicAdd(&w.force[node].y, f.y);
            atomicAdd(&w.force[node].z, f.z);
            atomicAdd(&w.moment[node].x, m.x);
            atomicAdd(&w.moment[node].y, m.y);
            atomicAdd(&w.moment[node].z, m.z);
        }
    } else {
        // Atoms are fragment-ordered: a segmented inclusive scan per 32-atom chunk leaves each
        // fragment's (partial) sum on its last lane of the chunk.
        for (int c = 0; c < w.A; c += 32) {
            const int i = c + w.lane;
            float v[6] = {0, 0, 0, 0, 0, 0};
            int node = -1, segStart = w.lane, segEnd = -1;
            if (i < w.A) {
                node = w.atoms[i] >> 8;
                const NodeGpu& nd = w.nodes[node];
                segStart = max(nd.atomBegin, c) - c;
                segEnd = min(nd.atomEnd, c + 32) - 1 - c;
                const float3 f = w.grad[i];
                const float3 m = cross3(w.coords[i] - w.origin[node], f);
                v[0] = f.x, v[1] = f.y, v[2] = f.z, v[3] = m.x, v[4] = m.y, v[5] = m.z;
            }
            for (int off = 1; off < 32; off <<= 1) {
                const bool take = w.lane - off >= segStart;
#pragma unroll
                for (int q = 0; q < 6; ++q) {
                    const float t = __shfl_up_sync(kFull, v[q], off);
                    if (take)
                        v[q] += t;
                }
            }
            if (node >= 0 && w.lane == segEnd) {
                w.force[node] = w.force[node] + make_float3(v[0], v[1], v[2]);
                w.moment[node] = w.moment[node] + make_float3(v[3], v[4], v[5]);
            }
            __syncwarp();
        }
    }
    __syncwarp();
}

// Energy (inter + intra) of a pose; its pose-space gradient into grad. Warp-uniform result.
__device__ float evaluate(WarpState& w, const ScoringParamsGpu& s, Reduction reduction,
                          const float* pose, float* grad) {
    placeAtoms(w, pose);
    double e = 0.0;
    for (int i = w.lane; i < w.A; i += 32) {
        const int type = (w.atoms[i] & 255) - 1;
        float3 g = make_float3(0, 0, 0);
        if (type >= 0)
            e += atomInter(s, type, w.coords[i], &g, s.interpolation);
        w.grad[i] = g;
    }
    __syncwarp();
    for (int q = w.lane; q < w.nPairs; q += 32) {
        const PairGpu pr = w.pairs[q];
        const float3 d = w.coords[pr.j] - w.coords[pr.i];
        float dEdr2, scale;
        const float pe = pairEnergy(s, pr.typePair, dot3(d, d), dEdr2);
        e += curl(pe, s.curlV, scale);
        float k = 2.0f * scale * dEdr2;
        if (s.rampHalfWidth > 0.0f) {
            float cd;
            e += pairRampCorrection(s, pr.typePair, dot3(d, d), cd);
            k += 2.0f * cd;
        }
        if (s.shiftCutoff) {
            const float r2 = dot3(d, d);
            if (r2 < s.cutoff2) {
                const float2 c = __ldg(s.cutoffShift + pr.typePair);
                e -= c.x + (r2 - s.cutoff2) * c.y;
                k -= 2.0f * c.y;
            }
        }
        if (k != 0.0f) {
            atomicAdd(&w.grad[pr.j].x, k * d.x);
            atomicAdd(&w.grad[pr.j].y, k * d.y);
            atomicAdd(&w.grad[pr.j].z, k * d.z);
            atomicAdd(&w.grad[pr.i].x, -k * d.x);
            atomicAdd(&w.grad[pr.i].y, -k * d.y);
            atomicAdd(&w.grad[pr.i].z, -k * d.z);
        }
    }
    __syncwarp();
    fragmentSums(w, reduction);
    if (w.lane == 0) {
        // Leaves first: torsion gradient = moment about the fragment origin along its axis.
        for (int k = w.N - 1; k >= 0; --k) {
            const float3 f = w.force[k], m = w.moment[k];
            if (k == 0) {
                grad[0] = f.x, grad[1] = f.y, grad[2] = f.z;
                grad[3] = m.x, grad[4] = m.y, grad[5] = m.z;
            } else {
                const NodeGpu& nd = w.nodes[k];
                grad[6 + nd.torsion] = dot3(m, w.axis[k]);
                const int p = nd.parent;
                w.force[p] = w.force[p] + f;
                w.moment[p] = w.moment[p] + m + cross3(w.origin[k] - w.origin[p], f);
            }
        }
    }
    double total;
    if (reduction == Reduction::SharedAtomics) {
        double* slot = reinterpret_cast<double*>(w.misc);
        if (w.lane == 0)
            *slot = 0.0;
        __syncwarp();
        atomicAdd(slot, e);
        __syncwarp();
        total = *slot;
    } else {
        total = warpSumD(e);
    }
    __syncwarp();
    return static_cast<float>(total);
}

// Vina's reported numbers at the current coordinates: grid inter (with penalty; read as the
// minimizer reads the maps, PoseRefinement's grid reporter does the same) and tabulated intra.
__device__ void reportedTerms(WarpState& w, const ScoringParamsGpu& s, float& inter, float& intra) {
    double ei = 0.0, ea = 0.0;
    float scale;
    for (int i = w.lane; i < w.A; i += 32) {
        const int type = (w.atoms[i] & 255) - 1;
        if (type >= 0)
            ei += atomInter(s, type, w.coords[i], nullptr, s.interpolation);
    }
    for (int q = w.lane; q < w.nPairs; q += 32) {
        const PairGpu pr = w.pairs[q];
        const float3 d = w.coords[pr.j] - w.coords[pr.i];
        const float r2 = dot3(d, d);
        if (r2 < s.cutoff2) {
            const int k = static_cast<int>(s.tableFactor * r2);
            if (k < s.tableSize - 1)
                ea += curl(__ldg(s.table + pr.tableRow * s.tableSize + k), s.curlV, scale);
        }
    }
    inter = static_cast<float>(warpSumD(ei));
    intra = static_cast<float>(warpSumD(ea));
}

__device__ float warpDot(const WarpState& w, const float* a, const float* b, int n) {
    float v = 0.0f;
    for (int i = w.lane; i < n; i += 32)
        v += a[i] * b[i];
    return warpSum(v);
}

// dst = src (+) alpha * step (Pose::applyStep in float).
__device__ void applyStep(WarpState& w, float* dst, const float* src, const float* step,
                          float alpha) {
    for (int i = w.lane; i < 3; i += 32)
        dst[i] = src[i] + alpha * step[i];
    for (int i = w.lane; i < w.T; i += 32)
        dst[7 + i] = normalizeAngle(src[7 + i] + alpha * step[6 + i]);
    if (w.lane == 0) {
        const float vx = alpha * step[3], vy = alpha * step[4], vz = alpha * step[5];
        const float angle = sqrtf(vx * vx + vy * vy + vz * vz);
        float aw = 1, ax = 0, ay = 0, az = 0;
        if (angle > 0.0f) {
            float sn, cs;
            sincosf(0.5f * normalizeAngle(angle), &sn, &cs);
            const float k = sn / angle;
            aw = cs, ax = k * vx, ay = k * vy, az = k * vz;
        }
        const float bw = src[3], bx = src[4], by = src[5], bz = src[6];
        float qw = aw * bw - ax * bx - ay * by - az * bz;
        float qx = aw * bx + ax * bw + ay * bz - az * by;
        float qy = aw * by - ax * bz + ay * bw + az * bx;
        float qz = aw * bz + ax * by - ay * bx + az * bw;
        const float inv = rsqrtf(qw * qw + qx * qx + qy * qy + qz * qz);
        dst[3] = qw * inv, dst[4] = qx * inv, dst[5] = qy * inv, dst[6] = qz * inv;
    }
    __syncwarp();
}

__device__ void copyPose(WarpState& w, float* dst, const float* src) {
    for (int i = w.lane; i < 7 + w.T; i += 32)
        dst[i] = src[i];
    __syncwarp();
}

__device__ void setScaledIdentity(WarpState& w, float diagonal) {
    for (int e = w.lane; e < w.D * w.D; e += 32)
        w.H[e] = (e / w.D == e % w.D) ? diagonal : 0.0f;
    __syncwarp();
}

struct LinePoint {
    float alpha, value, slope;
};

struct LineResult {
    float alpha = 0, value = 0, slope = 0;
    bool satisfied = false, trialIsResult = true;
    int evaluations = 0;
};

// phi(alpha) = f(x (+) alpha p) into the trial buffers; slope = grad . p.
struct Line {
    WarpState& w;
    const ScoringParamsGpu& s;
    Reduction reduction;
    __device__ float operator()(float alpha, float& slope) {
        applyStep(w, w.trial, w.x, w.p, alpha);
        const float v = evaluate(w, s, reduction, w.trial, w.gT);
        slope = warpDot(w, w.gT, w.p, w.D);
        return v;
    }
};

__device__ LineResult armijo(Line& phi, float value0, float slope0, const SearchParamsGpu& sp,
                             float initial) {
    LineResult r;
    float alpha = initial;
    for (int trial = 0; trial < sp.armijoTrials; ++trial) {
        float slope;
        const float value = phi(alpha, slope);
        ++r.evaluations;
        r.alpha = alpha, r.value = value, r.slope = slope;
        if (value - value0 < sp.armijoC * alpha * slope0) {
            r.satisfied = true;
            return r;
        }
        alpha *= sp.armijoMultiplier;
    }
    return r;
}

__device__ float cubicStep(const LinePoint& a, const LinePoint& b) {
    const float lo = fminf(a.alpha, b.alpha), hi = fmaxf(a.alpha, b.alpha);
    const float margin = 0.1f * (hi - lo), mid = 0.5f * (lo + hi);
    const float d1 = a.slope + b.slope - 3.0f * (a.value - b.value) / (a.alpha - b.alpha);
    const float disc = d1 * d1 - a.slope * b.slope;
    if (!(disc >= 0) || !isfinite(d1))
        return mid;
    const float d2 = copysignf(sqrtf(disc), b.alpha - a.alpha);
    const float denom = b.slope - a.slope + 2.0f * d2;
    if (denom == 0 || !isfinite(denom))
        return mid;
    const float t = b.alpha - (b.alpha - a.alpha) * (b.slope + d2 - d1) / denom;
    if (!isfinite(t))
        return mid;
    return fminf(fmaxf(t, lo + margin), hi - margin);
}

// Strong Wolfe (LineSearch.cpp strongWolfeSearch, step for step).
__device__ LineResult strongWolfe(Line& phi, float value0, float slope0, const SearchParamsGpu& sp,
                                  float initial) {
    LineResult r;
    const float decreaseSlope = sp.wolfeC1 * slope0, curvature = -sp.wolfeC2 * slope0;
    LinePoint best{0.0f, value0, slope0}, last{0, 0, 0};
    auto sufficient = [&](const LinePoint& p) {
        return p.value <= value0 + p.alpha * decreaseSlope;
    };
    auto eval = [&](float alpha) {
        float slope;
        const float value = phi(alpha, slope);
        ++r.evaluations;
        last = {alpha, value, slope};
        if (sufficient(last) && last.value < best.value)
            best = last;
        return last;
    };
    auto finish = [&](const LinePoint& p, bool ok) {
        r.alpha = p.alpha, r.value = p.value, r.slope = p.slope;
        r.satisfied = ok;
        r.trialIsResult = p.alpha == last.alpha;
        return r;
    };
    auto zoom = [&](LinePoint lo, LinePoint hi) {
        while (r.evaluations < sp.wolfeMaxEvaluations) {
            const LinePoint t = eval(cubicStep(lo, hi));
            if (!sufficient(t) || !(t.value < lo.value)) {
                hi = t;
            } else {
                if (fabsf(t.slope) <= curvature)
                    return finish(t, true);
                if (t.slope * (hi.alpha - lo.alpha) >= 0)
                    hi = lo;
                lo = t;
            }
            if (fabsf(hi.alpha - lo.alpha) <= 1e-12f * fmaxf(1.0f, lo.alpha))
                break;
        }
        return finish(best, false);
    };
    LinePoint prev{0.0f, value0, slope0};
    float alpha = initial;
    while (r.evaluations < sp.wolfeMaxEvaluations) {
        const LinePoint t = eval(alpha);
        if (!sufficient(t) || (r.evaluations > 1 && t.value >= prev.value))
            return zoom(prev, t);
        if (fabsf(t.slope) <= curvature)
            return finish(t, true);
        if (t.slope >= 0)
            return zoom(t, prev);
        if (alpha >= sp.wolfeMaxStep)
            break;
        prev = t;
        alpha = fminf(2.0f * alpha, sp.wolfeMaxStep);
    }
    return finish(best, false);
}

// Inverse-Hessian BFGS update (BfgsMinimizer.cpp bfgsUpdate).
__device__ void bfgsUpdate(WarpState& w, float alpha) {
    const int n = w.D;
    const float yp = warpDot(w, w.y, w.p, n);
    if (alpha * yp < kCurvatureEpsilon)
        return;
    for (int i = w.lane; i < n; i += 32) {
        float sum = 0;
        for (int j = 0; j < n; ++j)
            sum += w.H[i * n + j] * w.y[j];
        w.hy[i] = sum;
    }
    __syncwarp();
    const float yhy = warpDot(w, w.y, w.hy, n);
    const float r = 1.0f / (alpha * yp);
    const float a = -alpha * r;
    const float b = alpha * alpha * (r * r * yhy + r);
    for (int e = w.lane; e < n * n; e += 32) {
        const int i = e / n, j = e % n;
        w.H[e] += a * (w.hy[i] * w.p[j] + w.hy[j] * w.p[i]) + b * w.p[i] * w.p[j];
    }
    __syncwarp();
}

enum : int { kConverged = 0, kMaxIterations = 1, kLineSearchFailed = 2 };

__global__ void __launch_bounds__(128, 6)
    minimizeKernel(BatchGpu b, ScoringParamsGpu s, SearchParamsGpu sp, Reduction reduction,
                   int floatsPerWarp) {
    extern __shared__ float smem[];
    const int warp = threadIdx.x >> 5;
    const int poseIndex = blockIdx.x * (blockDim.x >> 5) + warp;
    if (poseIndex >= b.poseCount)
        return; // whole warp: no block-wide barrier follows
    const PoseInputGpu in = b.poses[poseIndex];
    const TemplateGpu tp = b.templates[in.templ];

    WarpState w;
    w.lane = threadIdx.x & 31;
    w.A = tp.atomCount, w.N = tp.nodeCount, w.nPairs = tp.pairCount;
    w.T = tp.nodeCount - 1, w.D = 6 + w.T;
    w.atoms = b.atoms + tp.atomBegin;
    w.nodes = b.nodes + tp.nodeBegin;
    w.pairs = b.pairs + tp.pairBegin;
    float* m = smem + static_cast<size_t>(warp) * floatsPerWarp;
    w.misc = m; // first: 8-byte aligned for the double energy slot
    m += 4;
    const int A = b.maxAtoms, N = b.maxNodes, P = 7 + b.maxTorsions, D = 6 + b.maxTorsions;
    auto take3 = [&](int n) {
        float3* p = reinterpret_cast<float3*>(m);
        m += 3 * n;
        return p;
    };
    w.local = take3(A), w.coords = take3(A), w.grad = take3(A);
    w.relOrigin = take3(N), w.relAxis = take3(N), w.origin = take3(N), w.axis = take3(N);
    w.force = take3(N), w.moment = take3(N);
    w.rot = m, m += 9 * N;
    w.x = m, m += P;
    w.trial = m, m += P;
    w.start = m, m += P;
    w.g = m, m += D;
    w.gT = m, m += D;
    w.p = m, m += D;
    w.y = m, m += D;
    w.hy = m, m += D;
    w.H = m, m += D * D;

    // Start coordinates define the kinematics (like LigandKinematics of the start molecule).
    const float3* start = b.start + in.coordOffset;
    for (int i = w.lane; i < w.A; i += 32)
        w.coords[i] = start[i];
    __syncwarp();
    for (int k = w.lane; k < w.N; k += 32) {
        const NodeGpu& nd = w.nodes[k];
        const float3 o = w.coords[nd.originAtom];
        w.origin[k] = o;
        if (k > 0) {
            const float3 ax = o - w.coords[nd.axisParentAtom];
            w.relAxis[k] = rsqrtf(dot3(ax, ax)) * ax;
        } else {
            w.relAxis[k] = make_float3(0, 0, 0);
        }
    }
    __syncwarp();
    for (int k = w.lane; k < w.N; k += 32)
        w.relOrigin[k] = k > 0 ? w.origin[k] - w.origin[w.nodes[k].parent] : make_float3(0, 0, 0);
    for (int i = w.lane; i < w.A; i += 32)
        w.local[i] = w.coords[i] - w.origin[w.atoms[i] >> 8];
    float startInter, startIntra;
    reportedTerms(w, s, startInter, startIntra);
    if (w.lane == 0) {
        w.x[0] = w.origin[0].x, w.x[1] = w.origin[0].y, w.x[2] = w.origin[0].z;
        w.x[3] = 1, w.x[4] = 0, w.x[5] = 0, w.x[6] = 0;
    }
    for (int i = w.lane; i < w.T; i += 32)
        w.x[7 + i] = 0.0f;
    __syncwarp();
    copyPose(w, w.start, w.x);
    setScaledIdentity(w, 1.0f);

    // BfgsMinimizer::minimize, step for step.
    const bool vina = sp.vinaCompatible != 0;
    float f0 = evaluate(w, s, reduction, w.x, w.g);
    int evaluations = 1, iterations = 0, reason = kMaxIterations;
    const float fStart = f0;
    Line line{w, s, reduction};
    for (int step = 0; step < tp.maxSteps; ++step) {
        const float gNorm = sqrtf(warpDot(w, w.g, w.g, w.D));
        if (!vina && !(gNorm >= sp.gradientTolerance)) {
            reason = isfinite(gNorm) ? kConverged : kLineSearchFailed;
            break;
        }
        for (int i = w.lane; i < w.D; i += 32) {
            float sum = 0;
            for (int j = 0; j < w.D; ++j)
                sum += w.H[i * w.D + j] * w.g[j];
            w.p[i] = -sum;
        }
        __syncwarp();
        float pg = warpDot(w, w.p, w.g, w.D);
        if (!vina && !(pg < 0)) {
            setScaledIdentity(w, 1.0f);
            for (int i = w.lane; i < w.D; i += 32)
                w.p[i] = -w.g[i];
            __syncwarp();
            pg = -gNorm * gNorm;
        }
        float initial = sp.armijo ? sp.armijoInitial : sp.wolfeInitial;
        if (sp.maxStepNorm > 0.0f)
            initial = fminf(initial, sp.maxStepNorm / sqrtf(warpDot(w, w.p, w.p, w.D)));
        LineResult ls =
            sp.armijo ? armijo(line, f0, pg, sp, initial) : strongWolfe(line, f0, pg, sp, initial);
        evaluations += ls.evaluations;
        float updateAlpha = ls.alpha;
        if (!ls.satisfied) {
            const bool vinaTakesIt = vina && sp.armijo;
            if (!vinaTakesIt && !(ls.alpha > 0 && ls.value < f0)) {
                reason = kLineSearchFailed;
                break;
            }
            if (vinaTakesIt)
                updateAlpha = ls.alpha * sp.armijoMultiplier;
        }
        if (!ls.trialIsResult) {
            float slope;
            ls.value = line(ls.alpha, slope);
            ++evaluations;
        }
        for (int i = w.lane; i < w.D; i += 32)
            w.y[i] = w.gT[i] - w.g[i];
        __syncwarp();
        f0 = ls.value;
        float* t = w.x;
        w.x = w.trial, w.trial = t;
        t = w.g;
        w.g = w.gT, w.gT = t;
        ++iterations;
        if (vina && !(gNorm >= sp.gradientTolerance)) {
            reason = kConverged;
            break;
        }
        if (step == 0) {
            const float yy = warpDot(w, w.y, w.y, w.D);
            if (fabsf(yy) > kCurvatureEpsilon)
                setScaledIdentity(w, updateAlpha * warpDot(w, w.y, w.p, w.D) / yy);
        }
        bfgsUpdate(w, updateAlpha);
    }
    if (reason == kMaxIterations && !vina &&
        sqrtf(warpDot(w, w.g, w.g, w.D)) < sp.gradientTolerance)
        reason = kConverged;
    if (!(f0 <= fStart)) {
        f0 = fStart;
        copyPose(w, w.x, w.start);
    }

    placeAtoms(w, w.x);
    float inter, intra;
    reportedTerms(w, s, inter, intra);
    float3* out = b.final + in.coordOffset;
    for (int i = w.lane; i < w.A; i += 32)
        out[i] = w.coords[i];
    for (int i = w.lane; i < w.T; i += 32)
        b.torsions[in.torsionOffset + i] = w.x[7 + i];
    if (w.lane == 0) {
        PoseResultGpu r;
        r.energy = f0, r.startEnergy = fStart;
        r.startInter = startInter, r.startIntra = startIntra;
        r.inter = inter, r.intra = intra;
        for (int d = 0; d < 3; ++d)
            r.position[d] = w.x[d];
        for (int d = 0; d < 4; ++d)
            r.orientation[d] = w.x[3 + d];
        r.iterations = iterations, r.evaluations = evaluations, r.reason = reason;
        b.results[poseIndex] = r;
    }
}

} // namespace

const char* reductionName(Reduction r) {
    switch (r) {
    case Reduction::SharedAtomics:
        return "shared";
    case Reduction::WarpShuffle:
        return "shuffle";
    }
    return "?";
}

std::size_t minimizeSharedBytesPerWarp(int maxAtoms, int maxNodes, int maxTorsions) {
    const int P = 7 + maxTorsions, D = 6 + maxTorsions;
    std::size_t floats = 9 * maxAtoms + 27 * maxNodes + 3 * P + 5 * D + D * D + 4;
    floats += floats & 1; // every warp's block starts 8-byte aligned
    return floats * sizeof(float);
}

cudaError_t launchMinimize(const BatchGpu& batch, const ScoringParamsGpu& scoring,
                           const SearchParamsGpu& search, Reduction reduction, int warpsPerBlock,
                           cudaStream_t stream) {
    if (batch.poseCount == 0)
        return cudaSuccess;
    const std::size_t perWarp =
        minimizeSharedBytesPerWarp(batch.maxAtoms, batch.maxNodes, batch.maxTorsions);
    const std::size_t bytes = perWarp * warpsPerBlock;
    if (bytes > 48 * 1024) {
        cudaError_t e = cudaFuncSetAttribute(
            minimizeKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes));
        if (e != cudaSuccess)
            return e;
    }
    const int blocks = (batch.poseCount + warpsPerBlock - 1) / warpsPerBlock;
    minimizeKernel<<<blocks, 32 * warpsPerBlock, bytes, stream>>>(
        batch, scoring, search, reduction, static_cast<int>(perWarp / sizeof(float)));
    return cudaGetLastError();
}

} // namespace pw::cuda
