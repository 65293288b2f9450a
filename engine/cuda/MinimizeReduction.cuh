// MinimizeReduction.cuh: per-fragment force and moment sums of one warp's atoms, three ways
// (shared-memory atomics, segmented warp shuffle, Tensor Core WMMA): the Reduction study.
#pragma once

#include "MinimizePose.cuh"

#include <mma.h>

namespace pw::cuda::mk {

// The six values one atom adds to its fragment's sums: dE/dx (force) and (x - fragment origin)
// x dE/dx (moment).
__device__ __forceinline__ void atomForceMoment(const WarpState& w, int i, float v[6]) {
    const int node = w.atoms[i] >> 8;
    const float3 f = w.grad[i];
    const float3 m = cross3(w.coords[i] - w.origin[node], f);
    v[0] = f.x, v[1] = f.y, v[2] = f.z, v[3] = m.x, v[4] = m.y, v[5] = m.z;
}

__device__ __forceinline__ float pick6(const float v[6], int j) { // v[j] without local memory
    float r = 0.0f;
#pragma unroll
    for (int q = 0; q < 6; ++q)
        r = q == j ? v[q] : r;
    return r;
}

// Tensor Core reduction (after the AutoDock-GPU Tensor Core paper, which sums per-atom
// four-component vectors -- energy and gradient -- by a matrix product with a ones matrix). Here
// the vectors are the six force/moment components and the sums are per fragment, so the "ones"
// matrix is the fragment membership matrix: S (16 fragments x 8 atoms, 0/1) times V (8 atoms x
// 16 columns) on m16n16k8, accumulated over the atoms of up to 16 fragments at a time.
// Precision: the issue's 0.01 kcal/mol comparison with the double CPU needs float-level sums.
// fp16/bf16 inputs are out: fp16 overflows on the 1e6 kcal/mol/A out-of-box slope and both keep
// 11 or 8 significant bits. tf32 keeps the float exponent but only 11 bits, so each value is
// split x = hi + lo with hi = tf32(x), lo = tf32(x - hi) (22 bits; x - hi - lo <= 2^-22 |x|,
// below the float rounding of the 8-32 term sums it replaces). S is exact (0/1) and the products
// are exact, so one split operand suffices; hi and lo go side by side in the same 16 columns
// (6 hi, 6 lo, 4 unused): ONE wider product, not two MMAs, and the accumulation is fp32 as the
// other reductions. The energy is not routed through the Tensor Cores: it is summed in double
// (warpSumD) because float sums flip the line search's Armijo decisions (see evaluate).
__device__ inline void fragmentSumsWmma(WarpState& w) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    using namespace nvcuda;
    float* S = w.mma;       // 16 x 8, row-major: S[r][k] = atom c+k belongs to fragment n0+r
    float* V = w.mma + 128; // 8 x 16, row-major: atom rows; hi in columns 0-5, lo in 6-11
    float* C = w.mma;       // 16 x 16 result, written after the last product (reuses S and V)
    for (int n0 = 0; n0 < w.N; n0 += 16) {
        const int n1 = min(w.N, n0 + 16);
        const int a0 = w.nodes[n0].atomBegin, a1 = w.nodes[n1 - 1].atomEnd;
        wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
        wmma::fill_fragment(acc, 0.0f);
        for (int c = a0; c < a1; c += 8) {
            for (int e = w.lane; e < 128; e += 32) {
                const int i = c + (e & 7);
                S[e] = i < a1 && (w.atoms[i] >> 8) == n0 + (e >> 3) ? 1.0f : 0.0f;
            }
            // Lane l fills columns 4q..4q+3 (q = l % 4) of atom row k = l / 4.
            const int k = w.lane >> 2, q = w.lane & 3, i = c + k;
            float v[6] = {0, 0, 0, 0, 0, 0};
            if (i < a1)
                atomForceMoment(w, i, v);
#pragma unroll
            for (int t = 0; t < 4; ++t) {
                const int col = 4 * q + t;
                float x = 0.0f;
                if (col < 12) {
                    const float value = pick6(v, col < 6 ? col : col - 6);
                    const float hi = wmma::__float_to_tf32(value);
                    x = col < 6 ? hi : wmma::__float_to_tf32(value - hi);
                }
                V[16 * k + col] = x;
            }
            __syncwarp();
            wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fs;
            wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fv;
            wmma::load_matrix_sync(fs, S, 8);
            wmma::load_matrix_sync(fv, V, 16);
            wmma::mma_sync(acc, fs, fv, acc);
            __syncwarp(); // every lane has read S and V before the next atoms overwrite them
        }
        wmma::store_matrix_sync(C, acc, 16, wmma::mem_row_major);
        __syncwarp();
        for (int r = w.lane; r < n1 - n0; r += 32) {
            const float* row = C + 16 * r;
            w.force[n0 + r] = make_float3(row[0] + row[6], row[1] + row[7], row[2] + row[8]);
            w.moment[n0 + r] = make_float3(row[3] + row[9], row[4] + row[10], row[5] + row[11]);
        }
        __syncwarp();
    }
#endif
}

// Sums of dE/dx (force) and of (x - fragment origin) x dE/dx (moment) per fragment.
__device__ inline void fragmentSums(WarpState& w, Reduction reduction) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (reduction == Reduction::TensorCoreWmma) {
        fragmentSumsWmma(w);
        return;
    }
#endif
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

} // namespace pw::cuda::mk
