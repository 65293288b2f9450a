// Ad4PairKernel: device code of the exact AD4 pair scorer. One thread per ligand atom of the
// chunk (atoms of all its poses, pose after pose), so a launch has as many threads as the chunk
// has atoms; the receptor sites go through shared memory in tiles, every site for every atom
// (autogrid's electrostatics has no cutoff). Per atom the map kernel's arithmetic
// (Ad4PairMath.cuh); then one thread per pose adds its atoms' terms in file order, as
// Ad4ExactScorer::inter adds them. smoothAtomKernel: the smooth twin with its gradient
// (Ad4PairSmooth.cuh), per atom only (the host adds each pose's atoms).
#include "Ad4PairMath.cuh"
#include "Ad4PairSmooth.cuh"
#include "DeviceMemory.h"

namespace pw::cuda {

namespace {

constexpr int kThreads = 128;

// Every receptor site in file order, through shared-memory tiles of kThreads sites that the whole
// block loads: add(site, position, terms, kind, bond, plane) on the threads that sweep. Every
// thread of the block calls it.
template <class Add> __device__ __forceinline__ void forEachSiteTile(const Ad4PairArgs& a,
                                                                     bool sweep, Add&& add) {
    __shared__ ad4kernel::SitePosition sPos[kThreads];
    __shared__ float4 sSite[kThreads], sBond[kThreads], sPlane[kThreads];
    __shared__ int2 sKind[kThreads];
    const int tid = threadIdx.x;
    for (int base = 0; base < a.maps.nsites; base += kThreads) {
        __syncthreads();
        if (base + tid < a.maps.nsites) {
            sPos[tid] = a.maps.pos[base + tid];
            sSite[tid] = a.maps.site[base + tid];
            sBond[tid] = a.maps.bond[base + tid];
            sPlane[tid] = a.maps.plane[base + tid];
            sKind[tid] = a.maps.kind[base + tid];
        }
        __syncthreads();
        if (!sweep)
            continue;
        const int n = min(kThreads, a.maps.nsites - base);
        for (int k = 0; k < n; ++k)
            add(base + k, sPos[k], sSite[k], sKind[k], sBond[k], sPlane[k]);
    }
}

__global__ void __launch_bounds__(kThreads) atomKernel(const Ad4PairArgs a) {
    const int tid = threadIdx.x;
    const long long i = static_cast<long long>(blockIdx.x) * kThreads + tid;
    const bool valid = i < a.atoms;
    Ad4PairAtomTerms out{0.0, 0.0, 0.0};
    bool sweep = false;
    double q = 0;
    ad4pair::AtomSweep s;
    if (valid) {
        const double x = a.coords[3 * i], y = a.coords[3 * i + 1], z = a.coords[3 * i + 2];
        const int t = a.atomTemplate[i];
        q = a.templateCharge[t];
        if (a.penalty && !ad4pair::insideBox(a, x, y, z)) {
            out = ad4pair::penaltyTerms(a, x, y, z);
        } else {
            sweep = true;
            s.begin(a, a.templateMap[t], x, y, z);
        }
    }
    // A block whose atoms are all outside the box (penalty rule) reads no site.
    if (__syncthreads_or(sweep)) {
        forEachSiteTile(a, sweep,
                        [&](int j, const ad4kernel::SitePosition& p, float4 site, int2 kind,
                            float4 bond, float4 plane) { s.add(j, p, site, kind, bond, plane); });
        if (sweep)
            out = s.finish(q, a.estat);
    }
    if (valid)
        a.terms[i] = out;
}

// The smooth twin with its gradient (Ad4PairSmooth.cuh), one thread per atom, the sites in the
// same shared-memory tiles.
__global__ void __launch_bounds__(kThreads) smoothAtomKernel(const Ad4PairArgs a) {
    const int tid = threadIdx.x;
    const long long i = static_cast<long long>(blockIdx.x) * kThreads + tid;
    const bool valid = i < a.atoms;
    double energy = 0, q = 0;
    ad4pair::D3 grad{0, 0, 0};
    bool sweep = false;
    ad4pair::SmoothSweep s;
    if (valid) {
        const double x = a.coords[3 * i], y = a.coords[3 * i + 1], z = a.coords[3 * i + 2];
        const int t = a.atomTemplate[i];
        q = a.templateCharge[t];
        if (a.penalty && !ad4pair::insideBox(a, x, y, z)) {
            energy = ad4pair::smoothAtomEnergy(a, a.templateMap[t], q, x, y, z, grad); // no sweep
        } else {
            sweep = true;
            s.begin(a, a.templateMap[t], x, y, z);
        }
    }
    if (__syncthreads_or(sweep)) {
        forEachSiteTile(a, sweep,
                        [&](int j, const ad4kernel::SitePosition& p, float4 site, int2 kind,
                            float4 bond, float4 plane) { s.add(a, j, p, site, kind, bond, plane); });
        if (sweep)
            energy = s.finish(q, a.estat, grad);
    }
    if (valid) {
        a.atomEnergy[i] = energy;
        a.atomGrad[3 * i] = grad.x;
        a.atomGrad[3 * i + 1] = grad.y;
        a.atomGrad[3 * i + 2] = grad.z;
    }
}

__global__ void poseKernel(const Ad4PairArgs a) {
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= a.poses)
        return;
    double vdwHbDesolv = 0, elec = 0;
    for (long long i = a.poseAtom[p]; i < a.poseAtom[p + 1]; ++i) {
        const Ad4PairAtomTerms t = a.terms[i];
        vdwHbDesolv += t.vdwHb + t.desolv;
        elec += t.elec;
    }
    a.out[p] = {vdwHbDesolv, elec};
}

} // namespace

void launchAd4PairKernel(const Ad4PairArgs& args, void* stream) {
    const cudaStream_t s = static_cast<cudaStream_t>(stream);
    if (args.atoms > 0) {
        const long long blocks = (args.atoms + kThreads - 1) / kThreads;
        if (blocks > 0x7fffffffLL)
            throw std::runtime_error("AD4 pair kernel: too many atoms in one chunk");
        if (args.smooth)
            smoothAtomKernel<<<static_cast<unsigned>(blocks), kThreads, 0, s>>>(args);
        else
            atomKernel<<<static_cast<unsigned>(blocks), kThreads, 0, s>>>(args);
        throwIfCudaError(cudaGetLastError(), "AD4 pair kernel launch");
    }
    if (args.poses > 0 && !args.smooth) {
        poseKernel<<<(args.poses + 127) / 128, 128, 0, s>>>(args);
        throwIfCudaError(cudaGetLastError(), "AD4 pose sums launch");
    }
}

} // namespace pw::cuda
