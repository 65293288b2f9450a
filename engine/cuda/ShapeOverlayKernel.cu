// ShapeOverlayKernel.cu: the overlay kernels (see ShapeOverlayKernel.cuh for the layout).
#include "ShapeOverlayKernel.cuh"

#include "shape/ShapeModel.h"

namespace pw::cuda::shapekernel {

constexpr int kClasses = shape::kRadiusClassCount;
constexpr unsigned kFull = 0xffffffffu;

struct Lane {
    float fx[kSlots], fy[kSlots], fz[kSlots];
    int fc[kSlots];
    bool valid[kSlots];
    int slots;
};

// f = -overlap and g = its gradient over (q, t); identical in every lane on return.
template <bool OneClass>
__device__ __forceinline__ float evaluate(const Lane& L, const float4* __restrict__ ref,
                                          const float2* __restrict__ table, const Settings& S,
                                          const float x[7], float g[7]) {
    const float w = x[0], vx = x[1], vy = x[2], vz = x[3];
    const float n = w * w + vx * vx + vy * vy + vz * vz;
    const float inv = 1.0f / n;
    const float R00 = (w * w + vx * vx - vy * vy - vz * vz) * inv;
    const float R01 = 2.0f * (vx * vy - w * vz) * inv, R02 = 2.0f * (vx * vz + w * vy) * inv;
    const float R10 = 2.0f * (vx * vy + w * vz) * inv;
    const float R11 = (w * w - vx * vx + vy * vy - vz * vz) * inv;
    const float R12 = 2.0f * (vy * vz - w * vx) * inv;
    const float R20 = 2.0f * (vx * vz - w * vy) * inv, R21 = 2.0f * (vy * vz + w * vx) * inv;
    const float R22 = (w * w - vx * vx - vy * vy + vz * vz) * inv;
    // acc: overlap, sum g (3), M = sum x g^T (9, row-major), sum (R x).g
    float acc[14];
#pragma unroll
    for (int k = 0; k < 14; ++k)
        acc[k] = 0.0f;
#pragma unroll
    for (int s = 0; s < kSlots; ++s) {
        if (s >= L.slots)
            break;
        if (!L.valid[s])
            continue;
        const float ax = L.fx[s], ay = L.fy[s], az = L.fz[s];
        const float rx = R00 * ax + R01 * ay + R02 * az;
        const float ry = R10 * ax + R11 * ay + R12 * az;
        const float rz = R20 * ax + R21 * ay + R22 * az;
        const float px = rx + x[4], py = ry + x[5], pz = rz + x[6];
        float o = 0.0f, gx = 0.0f, gy = 0.0f, gz = 0.0f;
        for (int i = 0; i < S.nRef; ++i) {
            const float4 r = ref[i];
            const float dx = px - r.x, dy = py - r.y, dz = pz - r.z;
            const float d2 = dx * dx + dy * dy + dz * dz;
            float k, c;
            if constexpr (OneClass) {
                k = S.k0;
                c = S.c0;
            } else {
                const float2 kc = table[__float_as_int(r.w) * kClasses + L.fc[s]];
                k = kc.x;
                c = kc.y;
            }
            const float e = k * __expf(-c * d2);
            o += e;
            const float f = -2.0f * c * e;
            gx += f * dx;
            gy += f * dy;
            gz += f * dz;
        }
        acc[0] += o;
        acc[1] += gx;
        acc[2] += gy;
        acc[3] += gz;
        acc[4] += ax * gx, acc[5] += ax * gy, acc[6] += ax * gz;
        acc[7] += ay * gx, acc[8] += ay * gy, acc[9] += ay * gz;
        acc[10] += az * gx, acc[11] += az * gy, acc[12] += az * gz;
        acc[13] += rx * gx + ry * gy + rz * gz;
    }
    // Butterfly sums leave the same bits in every lane (a+b == b+a), so the BFGS branches that
    // follow are warp-uniform.
#pragma unroll
    for (int m = 16; m >= 1; m >>= 1)
#pragma unroll
        for (int k = 0; k < 14; ++k)
            acc[k] += __shfl_xor_sync(kFull, acc[k], m);
    const float M00 = acc[4], M01 = acc[5], M02 = acc[6], M10 = acc[7], M11 = acc[8], M12 = acc[9],
                M20 = acc[10], M21 = acc[11], M22 = acc[12];
    const float tr = M00 + M11 + M22, rdg = acc[13];
    const float cx = M12 - M21, cy = M20 - M02, cz = M01 - M10;
    // Same formula as shape::poseOverlap (double reference); f = -overlap, g = -gradient.
    g[0] = -(2.0f * w * tr + 2.0f * (vx * cx + vy * cy + vz * cz) - 2.0f * w * rdg) * inv;
    const float Mv0 = M00 * vx + M01 * vy + M02 * vz, Mv1 = M10 * vx + M11 * vy + M12 * vz,
                Mv2 = M20 * vx + M21 * vy + M22 * vz;
    const float Mtv0 = M00 * vx + M10 * vy + M20 * vz, Mtv1 = M01 * vx + M11 * vy + M21 * vz,
                Mtv2 = M02 * vx + M12 * vy + M22 * vz;
    g[1] = -(-2.0f * (tr + rdg) * vx + 2.0f * (Mv0 + Mtv0) + 2.0f * w * cx) * inv;
    g[2] = -(-2.0f * (tr + rdg) * vy + 2.0f * (Mv1 + Mtv1) + 2.0f * w * cy) * inv;
    g[3] = -(-2.0f * (tr + rdg) * vz + 2.0f * (Mv2 + Mtv2) + 2.0f * w * cz) * inv;
    g[4] = -acc[1];
    g[5] = -acc[2];
    g[6] = -acc[3];
    return -acc[0];
}

template <bool OneClass>
__global__ void __launch_bounds__(kWarpsPerBlock * 32)
    overlayKernel(const float4* __restrict__ refAtoms, const float2* __restrict__ pairTable,
                  const float4* __restrict__ fitAtoms, const int* __restrict__ offsets,
                  const float* __restrict__ starts, Settings S, OverlayOut* __restrict__ out,
                  float* __restrict__ fitVolume) {
    __shared__ float4 ref[256];
    __shared__ float2 table[kClasses * kClasses];
    for (int i = threadIdx.x; i < S.nRef; i += blockDim.x)
        ref[i] = refAtoms[i];
    for (int i = threadIdx.x; i < kClasses * kClasses; i += blockDim.x)
        table[i] = pairTable[i];
    __syncthreads();

    const int lane = threadIdx.x & 31;
    const long long overlay = (long long)blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5);
    if (overlay >= (long long)S.nMol * S.nStarts)
        return;
    const int mol = int(overlay / S.nStarts), start = int(overlay % S.nStarts);
    const int begin = offsets[mol], nFit = offsets[mol + 1] - begin;

    Lane L;
    L.slots = (nFit + 31) / 32;
#pragma unroll
    for (int s = 0; s < kSlots; ++s) {
        const int j = lane + 32 * s;
        L.valid[s] = j < nFit;
        const float4 a = L.valid[s] ? fitAtoms[begin + j] : make_float4(0, 0, 0, 0);
        L.fx[s] = a.x, L.fy[s] = a.y, L.fz[s] = a.z;
        L.fc[s] = __float_as_int(a.w);
    }

    if (start == 0) { // the fit's self volume, once per molecule
        float v = 0.0f;
#pragma unroll
        for (int s = 0; s < kSlots; ++s) {
            if (s >= L.slots || !L.valid[s])
                continue;
            for (int j = 0; j < nFit; ++j) {
                const float4 b = fitAtoms[begin + j];
                const float dx = L.fx[s] - b.x, dy = L.fy[s] - b.y, dz = L.fz[s] - b.z;
                const float2 kc = table[L.fc[s] * kClasses + __float_as_int(b.w)];
                v += kc.x * __expf(-kc.y * (dx * dx + dy * dy + dz * dz));
            }
        }
        for (int m = 16; m >= 1; m >>= 1)
            v += __shfl_xor_sync(kFull, v, m);
        if (lane == 0)
            fitVolume[mol] = v;
    }

    float x[7];
#pragma unroll
    for (int a = 0; a < 7; ++a)
        x[a] = starts[start * kPoseSize + a]; // orientation, and the centre the fit starts on
    float g[7], xn[7], gn[7], d[7], H[7][7];
    float f = evaluate<OneClass>(L, ref, table, S, x, g);
    auto resetH = [&](const float* grad) {
        float nn = 0.0f;
#pragma unroll
        for (int a = 0; a < 7; ++a)
            nn += grad[a] * grad[a];
        const float sc = S.firstStep / fmaxf(sqrtf(nn), 1e-12f);
#pragma unroll
        for (int a = 0; a < 7; ++a)
#pragma unroll
            for (int b = 0; b < 7; ++b)
                H[a][b] = a == b ? sc : 0.0f;
    };
    resetH(g);
    bool first = true;
    int iterations = 0;
    for (int it = 0; it < S.maxIterations; ++it) {
        float slope = 0.0f;
#pragma unroll
        for (int a = 0; a < 7; ++a) {
            float s = 0.0f;
#pragma unroll
            for (int b = 0; b < 7; ++b)
                s -= H[a][b] * g[b];
            d[a] = s;
            slope += g[a] * s;
        }
        if (!(slope < 0.0f)) {
            resetH(g);
            slope = 0.0f;
#pragma unroll
            for (int a = 0; a < 7; ++a) {
                d[a] = -H[a][a] * g[a];
                slope += g[a] * d[a];
            }
            if (!(slope < 0.0f))
                break;
        }
        float alpha = 1.0f, fn = 0.0f;
        bool accepted = false;
        for (int ls = 0; ls < S.maxLineSearch; ++ls) {
#pragma unroll
            for (int a = 0; a < 7; ++a)
                xn[a] = x[a] + alpha * d[a];
            fn = evaluate<OneClass>(L, ref, table, S, xn, gn);
            if (fn <= f + 1e-4f * alpha * slope) {
                accepted = true;
                break;
            }
            alpha *= 0.5f;
        }
        if (!accepted)
            break;
        ++iterations;
        float s[7], y[7], sy = 0.0f, yy = 0.0f;
#pragma unroll
        for (int a = 0; a < 7; ++a) {
            s[a] = xn[a] - x[a];
            y[a] = gn[a] - g[a];
            sy += s[a] * y[a];
            yy += y[a] * y[a];
        }
        if (sy > 1e-10f) {
            if (first) {
                const float sc = sy / yy;
#pragma unroll
                for (int a = 0; a < 7; ++a)
#pragma unroll
                    for (int b = 0; b < 7; ++b)
                        H[a][b] = a == b ? sc : 0.0f;
            }
            const float rho = 1.0f / sy;
            float Hy[7], yHy = 0.0f;
#pragma unroll
            for (int a = 0; a < 7; ++a) {
                float t = 0.0f;
#pragma unroll
                for (int b = 0; b < 7; ++b)
                    t += H[a][b] * y[b];
                Hy[a] = t;
                yHy += y[a] * t;
            }
            const float c1 = rho * rho * yHy + rho;
#pragma unroll
            for (int a = 0; a < 7; ++a)
#pragma unroll
                for (int b = 0; b < 7; ++b)
                    H[a][b] += c1 * s[a] * s[b] - rho * (Hy[a] * s[b] + s[a] * Hy[b]);
            first = false;
        }
        const bool converged = (f - fn) <= S.relTol * fabsf(fn);
#pragma unroll
        for (int a = 0; a < 7; ++a) {
            x[a] = xn[a];
            g[a] = gn[a];
        }
        f = fn;
        if (converged)
            break;
    }
    if (lane == 0) {
        const float qn = rsqrtf(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + x[3] * x[3]);
        OverlayOut r;
        r.overlap = -f;
#pragma unroll
        for (int a = 0; a < 7; ++a)
            r.x[a] = a < 4 ? x[a] * qn : x[a];
        r.iterations = iterations;
        r.pad = 0;
        out[overlay] = r;
    }
}

__global__ void bestStartKernel(const OverlayOut* __restrict__ overlays,
                                const float* __restrict__ fitVolume, int nMol, int nStarts,
                                MolOut* __restrict__ out) {
    const int mol = blockIdx.x * blockDim.x + threadIdx.x;
    if (mol >= nMol)
        return;
    int best = 0;
    for (int s = 1; s < nStarts; ++s)
        if (overlays[(long long)mol * nStarts + s].overlap >
            overlays[(long long)mol * nStarts + best].overlap)
            best = s;
    const OverlayOut& o = overlays[(long long)mol * nStarts + best];
    MolOut r;
    r.overlap = o.overlap;
    r.fitVolume = fitVolume[mol];
    for (int a = 0; a < 7; ++a)
        r.x[a] = o.x[a];
    r.start = best;
    r.iterations = o.iterations;
    out[mol] = r;
}

void launchOverlay(const float4* ref, const float2* table, const float4* fit, const int* offsets,
                   const float* starts, const Settings& S, OverlayOut* overlays, float* fitVolume,
                   MolOut* out, cudaStream_t stream) {
    const long long n = (long long)S.nMol * S.nStarts;
    const int blocks = int((n + kWarpsPerBlock - 1) / kWarpsPerBlock);
    if (S.oneClass)
        overlayKernel<true><<<blocks, kWarpsPerBlock * 32, 0, stream>>>(
            ref, table, fit, offsets, starts, S, overlays, fitVolume);
    else
        overlayKernel<false><<<blocks, kWarpsPerBlock * 32, 0, stream>>>(
            ref, table, fit, offsets, starts, S, overlays, fitVolume);
    bestStartKernel<<<(S.nMol + 127) / 128, 128, 0, stream>>>(overlays, fitVolume, S.nMol,
                                                              S.nStarts, out);
}

} // namespace pw::cuda::shapekernel
