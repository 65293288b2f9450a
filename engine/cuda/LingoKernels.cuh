// LingoKernels: the CUDA kernels behind LingoGpu: int8 tensor-core item products with a fused
// Tanimoto epilogue, the exact tail re-check, SIML-style per-pair merges, top-k and threshold.
#pragma once

#include "lingo/LingoProfile.h"

#include <cstdint>
#include <cuda_runtime.h>

namespace pw::lingo::gpu::kernels {

// A set of profiles in CSR form on the device.
struct DevSet {
    const uint32_t* offsets;
    const uint32_t* lingos;
    const uint32_t* counts;
    const uint32_t* sizes;
};

// ---- Tensor-core item product ---------------------------------------------------------------
// Tile 128 x 128 pairs, K in stages of 64 bytes, 4-stage cp.async pipeline, 8 warps of 64 x 32,
// mma.sync m16n8k32 u8 -> s32 (exact for 0/1 indicators), ldmatrix fragments from padded rows.
constexpr int kTile = 128, kStageK = 64, kStages = 4, kRowBytes = 80, kThreads = 256;
constexpr int kCStride = kTile + 1; // int accumulators in shared memory for the epilogue
constexpr int kMmaSmem = kStages * 2 * kTile * kRowBytes;
static_assert(kTile * kCStride * 4 <= kMmaSmem, "epilogue reuses the pipeline buffers");

__device__ __forceinline__ void cpAsync16(void* smem, const void* gmem) {
    const unsigned s = unsigned(__cvta_generic_to_shared(smem));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
}
__device__ __forceinline__ void cpAsyncCommit() {
    asm volatile("cp.async.commit_group;\n" ::);
}
template <int N> __device__ __forceinline__ void cpAsyncWait() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}
__device__ __forceinline__ void ldmatrixX4(uint32_t (&r)[4], const void* smem) {
    const unsigned s = unsigned(__cvta_generic_to_shared(smem));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(s));
}
__device__ __forceinline__ void mmaU8(int (&d)[4], const uint32_t (&a)[4], uint32_t b0,
                                      uint32_t b1) {
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32 {%0,%1,%2,%3}, "
                 "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// One block per tile (tiles[blockIdx.x] = {tile row, tile column}). A: query indicator rows,
// B: database rows, both rows x width bytes, padded to whole tiles with zero rows.
// Writes T for rows [rowBase, rowEnd) x columns [0, nCols) into out (row - rowBase) * ld + col;
// mirror: also writes the transposed tile (symmetric all-vs-all, tiles above the diagonal).
__global__ void __launch_bounds__(kThreads, 2)
    itemProductKernel(const uint8_t* __restrict__ A, const uint8_t* __restrict__ B, int width,
                      const int2* __restrict__ tiles, const uint32_t* __restrict__ sizeA,
                      const uint32_t* __restrict__ sizeB, long rowBase, long rowEnd, long nCols,
                      float* __restrict__ out, long ld, int mirror) {
    extern __shared__ __align__(16) uint8_t smem[];
    const int2 tile = tiles[blockIdx.x];
    const uint8_t* gA = A + size_t(tile.x) * kTile * width;
    const uint8_t* gB = B + size_t(tile.y) * kTile * width;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int wm = warp >> 2, wn = warp & 3; // warp tile: rows wm*64.., columns wn*32..

    auto loadStage = [&](int stage, int kb) {
        uint8_t* sA = smem + stage * 2 * kTile * kRowBytes;
        uint8_t* sB = sA + kTile * kRowBytes;
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const int c = tid + i * kThreads, row = c >> 2, col = (c & 3) * 16;
            cpAsync16(sA + row * kRowBytes + col, gA + size_t(row) * width + kb * kStageK + col);
            cpAsync16(sB + row * kRowBytes + col, gB + size_t(row) * width + kb * kStageK + col);
        }
    };

    int acc[4][4][4];
#pragma unroll
    for (int mi = 0; mi < 4; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                acc[mi][ni][e] = 0;

    const int nk = width / kStageK;
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
        if (s < nk)
            loadStage(s, s);
        cpAsyncCommit();
    }
    for (int kb = 0; kb < nk; ++kb) {
        cpAsyncWait<kStages - 2>();
        __syncthreads(); // stage kb landed for everyone; stage kb-1 is free to refill
        const int next = kb + kStages - 1;
        if (next < nk)
            loadStage(next % kStages, next);
        cpAsyncCommit();
        const uint8_t* sA = smem + (kb % kStages) * 2 * kTile * kRowBytes;
        const uint8_t* sB = sA + kTile * kRowBytes;
#pragma unroll
        for (int kk = 0; kk < kStageK; kk += 32) {
            uint32_t a[4][4], b[4][2];
#pragma unroll
            for (int mi = 0; mi < 4; ++mi) {
                const int row = wm * 64 + mi * 16 + (lane & 7) + ((lane >> 3) & 1) * 8;
                ldmatrixX4(a[mi], sA + row * kRowBytes + kk + (lane >> 4) * 16);
            }
#pragma unroll
            for (int nj = 0; nj < 2; ++nj) {
                uint32_t r[4];
                const int row = wn * 32 + nj * 16 + (lane & 7) + (lane >> 4) * 8;
                ldmatrixX4(r, sB + row * kRowBytes + kk + ((lane >> 3) & 1) * 16);
                b[2 * nj][0] = r[0];
                b[2 * nj][1] = r[1];
                b[2 * nj + 1][0] = r[2];
                b[2 * nj + 1][1] = r[3];
            }
#pragma unroll
            for (int mi = 0; mi < 4; ++mi)
#pragma unroll
                for (int ni = 0; ni < 4; ++ni)
                    mmaU8(acc[mi][ni], a[mi], b[ni][0], b[ni][1]);
        }
    }
    cpAsyncWait<0>();
    __syncthreads();

    int* C = reinterpret_cast<int*>(smem);
    const int g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int mi = 0; mi < 4; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni) {
            const int r = wm * 64 + mi * 16 + g, c = wn * 32 + ni * 8 + 2 * t;
            C[r * kCStride + c] = acc[mi][ni][0];
            C[r * kCStride + c + 1] = acc[mi][ni][1];
            C[(r + 8) * kCStride + c] = acc[mi][ni][2];
            C[(r + 8) * kCStride + c + 1] = acc[mi][ni][3];
        }
    __syncthreads();

    const long row0 = long(tile.x) * kTile, col0 = long(tile.y) * kTile;
    for (int idx = tid; idx < kTile * kTile; idx += kThreads) {
        const int r = idx >> 7, c = idx & (kTile - 1);
        const long row = row0 + r, col = col0 + c;
        if (row >= rowBase && row < rowEnd && col < nCols)
            out[(row - rowBase) * ld + col] =
                tanimotoFromCounts(uint32_t(C[r * kCStride + c]), sizeA[row], sizeB[col]);
    }
    if (mirror && tile.x != tile.y) {
        // Element (col0 + r, row0 + c) of the matrix is pair (row0 + c, col0 + r) of this tile.
        for (int idx = tid; idx < kTile * kTile; idx += kThreads) {
            const int r = idx >> 7, c = idx & (kTile - 1);
            const long row = col0 + r, col = row0 + c;
            if (row >= rowBase && row < rowEnd && col < nCols)
                out[(row - rowBase) * ld + col] =
                    tanimotoFromCounts(uint32_t(C[c * kCStride + r]), sizeA[row], sizeB[col]);
        }
    }
}

// ---- Tail re-check: pairs sharing a rare item get their exact value from a full merge -----------
__global__ void tailFixKernel(uint64_t total, int nWork, const uint64_t* __restrict__ prefix,
                              const uint32_t* __restrict__ qStart,
                              const uint32_t* __restrict__ dbStart,
                              const uint32_t* __restrict__ dbCount,
                              const uint32_t* __restrict__ tailQMols,
                              const uint32_t* __restrict__ tailDbMols, DevSet q, DevSet db,
                              long rowBase, float* __restrict__ out, long ld) {
    const uint64_t idx = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (idx >= total)
        return;
    int lo = 0, hi = nWork; // last w with prefix[w] <= idx
    while (hi - lo > 1) {
        const int mid = (lo + hi) >> 1;
        if (prefix[mid] <= idx)
            lo = mid;
        else
            hi = mid;
    }
    const uint64_t local = idx - prefix[lo];
    const uint32_t nd = dbCount[lo];
    const uint32_t a = tailQMols[qStart[lo] + uint32_t(local / nd)];
    const uint32_t b = tailDbMols[dbStart[lo] + uint32_t(local % nd)];
    const uint32_t oa = q.offsets[a], ob = db.offsets[b];
    const uint32_t inter = intersection(q.lingos + oa, q.counts + oa, q.offsets[a + 1] - oa,
                                        db.lingos + ob, db.counts + ob, db.offsets[b + 1] - ob);
    out[(long(a) - rowBase) * ld + b] = tanimotoFromCounts(inter, q.sizes[a], db.sizes[b]);
}

// ---- SIML-style: one thread per pair, database transposed (entry j of molecule d at
// j * nDbPad + d, so neighbouring threads read neighbouring words), query in shared memory. ----
__global__ void mergePairsKernel(DevSet q, const uint32_t* __restrict__ lingosT,
                                 const uint32_t* __restrict__ countsT,
                                 const uint32_t* __restrict__ dbDistinct,
                                 const uint32_t* __restrict__ dbSizes, long nDb, long nDbPad,
                                 long rowBase, float* __restrict__ out, long ld) {
    extern __shared__ uint32_t sq[];
    const long a = rowBase + blockIdx.y;
    const uint32_t oa = q.offsets[a], na = q.offsets[a + 1] - oa;
    for (uint32_t i = threadIdx.x; i < na; i += blockDim.x) {
        sq[i] = q.lingos[oa + i];
        sq[na + i] = q.counts[oa + i];
    }
    __syncthreads();
    const long d = long(blockIdx.x) * blockDim.x + threadIdx.x;
    if (d >= nDb)
        return;
    const uint32_t nb = dbDistinct[d];
    uint32_t i = 0, j = 0, inter = 0;
    while (i < na && j < nb) {
        const uint32_t x = sq[i], y = lingosT[size_t(j) * nDbPad + d];
        if (x == y) {
            inter += min(sq[na + i], countsT[size_t(j) * nDbPad + d]);
            ++i;
            ++j;
        } else if (x < y) {
            ++i;
        } else {
            ++j;
        }
    }
    out[long(blockIdx.y) * ld + d] = tanimotoFromCounts(inter, q.sizes[a], dbSizes[d]);
}

// ---- Selection: one warp per matrix row ---------------------------------------------------------
__device__ __forceinline__ bool better(float va, int ia, float vb, int ib) {
    return va > vb || (va == vb && ia < ib);
}

// Top-k (k <= KMAX) of row r of buf, hits >= threshold, optionally without column rowBase + r.
template <int KMAX>
__global__ void topKKernel(const float* __restrict__ buf, long ld, int rows, long n, int k,
                           float threshold, int excludeSelf, long rowBase, uint32_t* outIdx,
                           float* outVal, int* outCount) {
    const int row = int((long(blockIdx.x) * blockDim.x + threadIdx.x) >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= rows)
        return;
    float v[KMAX];
    int ix[KMAX];
    int cnt = 0;
    const float* src = buf + long(row) * ld;
    for (long col = lane; col < n; col += 32) {
        const float x = src[col];
        if (!(x >= threshold) || (excludeSelf && col == rowBase + row))
            continue;
        if (cnt == k && !better(x, int(col), v[k - 1], ix[k - 1]))
            continue;
        int p = cnt < k ? cnt++ : k - 1;
        while (p > 0 && better(x, int(col), v[p - 1], ix[p - 1])) {
            v[p] = v[p - 1];
            ix[p] = ix[p - 1];
            --p;
        }
        v[p] = x;
        ix[p] = int(col);
    }
    int head = 0, r = 0;
    for (; r < k; ++r) {
        float bv = head < cnt ? v[head] : -1.0f;
        int bi = head < cnt ? ix[head] : 0x7fffffff;
#pragma unroll
        for (int off = 16; off; off >>= 1) {
            const float ov = __shfl_xor_sync(0xffffffffu, bv, off);
            const int oi = __shfl_xor_sync(0xffffffffu, bi, off);
            if (better(ov, oi, bv, bi)) {
                bv = ov;
                bi = oi;
            }
        }
        if (bv < 0.0f)
            break;
        if (lane == 0) {
            outIdx[long(row) * k + r] = uint32_t(bi);
            outVal[long(row) * k + r] = bv;
        }
        if (head < cnt && ix[head] == bi)
            ++head;
    }
    if (lane == 0)
        outCount[row] = r;
}

// Threshold without top-k: pass 0 counts hits per row, pass 1 writes them (column order) at
// offsets[row] (an exclusive scan of the counts).
__global__ void thresholdKernel(const float* __restrict__ buf, long ld, int rows, long n,
                                float threshold, int excludeSelf, long rowBase, int pass,
                                unsigned long long* counts, const unsigned long long* offsets,
                                uint32_t* outIdx, float* outVal) {
    const int row = int((long(blockIdx.x) * blockDim.x + threadIdx.x) >> 5);
    const int lane = threadIdx.x & 31;
    if (row >= rows)
        return;
    const float* src = buf + long(row) * ld;
    unsigned long long pos = pass ? offsets[row] : 0;
    for (long base = 0; base < n; base += 32) {
        const long col = base + lane;
        const float x = col < n ? src[col] : -1.0f;
        const bool hit = col < n && x >= threshold && !(excludeSelf && col == rowBase + row);
        const unsigned mask = __ballot_sync(0xffffffffu, hit);
        if (pass && hit) {
            const unsigned long long at = pos + __popc(mask & ((1u << lane) - 1u));
            outIdx[at] = uint32_t(col);
            outVal[at] = x;
        }
        pos += __popc(mask);
    }
    if (!pass && lane == 0)
        counts[row] = pos;
}

} // namespace pw::lingo::gpu::kernels
