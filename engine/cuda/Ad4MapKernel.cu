#include "Ad4MapKernel.cuh"

#include "Ad4MapPointMath.cuh"
#include "DeviceMemory.h"

namespace pw::cuda::ad4kernel {

namespace {

constexpr int kBlockX = 8, kBlockY = 8, kBlockZ = 4;
constexpr int kThreads = kBlockX * kBlockY * kBlockZ;

__constant__ Probe cProbes[kMaxMaps];

// A block owns an 8x8x4 brick of points (compact, so its threads mostly agree on which sites
// are within the cutoff); every thread loads one site of each tile into shared memory.
template <int MAXM> __global__ void __launch_bounds__(kThreads) mapsKernel(const Args a) {
    __shared__ SitePosition sPos[kThreads];
    __shared__ float4 sSite[kThreads], sBond[kThreads], sPlane[kThreads];
    __shared__ int2 sKind[kThreads];

    const int tid = threadIdx.x + kBlockX * (threadIdx.y + kBlockY * threadIdx.z);
    const int ix = blockIdx.x * kBlockX + threadIdx.x;
    const int iy = blockIdx.y * kBlockY + threadIdx.y;
    const int iz = blockIdx.z * kBlockZ + threadIdx.z;
    const bool active = ix < a.nx && iy < a.ny && iz < a.nz;
    const double cx = pointOffset(ix, a.hx, a.spacing), cy = pointOffset(iy, a.hy, a.spacing),
                 cz = pointOffset(iz, a.hz, a.spacing);
    const int closest = active ? closestDonor(a, cx, cy, cz) : 0;
    const float4 closestBond = a.ndonors > 0 ? a.bond[closest] : make_float4(0, 0, 0, 0);

    PointSums<MAXM> sums;
    sums.reset();
    for (int base = 0; base < a.nsites; base += kThreads) {
        __syncthreads();
        if (base + tid < a.nsites) {
            sPos[tid] = a.pos[base + tid];
            sSite[tid] = a.site[base + tid];
            sBond[tid] = a.bond[base + tid];
            sPlane[tid] = a.plane[base + tid];
            sKind[tid] = a.kind[base + tid];
        }
        __syncthreads();
        if (!active)
            continue;
        const int n = min(kThreads, a.nsites - base);
        for (int t = 0; t < n; ++t)
            sums.addSite(a, cProbes, sPos[t], sSite[t], sKind[t], sBond[t], sPlane[t],
                         base + t == closest, closestBond, cx, cy, cz);
    }
    if (active)
        sums.store(a, (static_cast<long long>(iz) * a.ny + iy) * a.nx + ix);
}

} // namespace

void launchMaps(const Args& args, const Probe* probes, cudaStream_t stream) {
    throwIfCudaError(cudaMemcpyToSymbolAsync(cProbes, probes, sizeof(Probe) * args.nmaps, 0,
                                             cudaMemcpyHostToDevice, stream),
                     "AD4 map probes upload");
    const dim3 block(kBlockX, kBlockY, kBlockZ);
    const dim3 grid((args.nx + kBlockX - 1) / kBlockX, (args.ny + kBlockY - 1) / kBlockY,
                    (args.nz + kBlockZ - 1) / kBlockZ);
    if (args.nmaps <= 8)
        mapsKernel<8><<<grid, block, 0, stream>>>(args);
    else
        mapsKernel<kMaxMaps><<<grid, block, 0, stream>>>(args);
    throwIfCudaError(cudaGetLastError(), "AD4 map kernel launch");
}

} // namespace pw::cuda::ad4kernel
