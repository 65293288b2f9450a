#include "Ad4MapKernel.cuh"

#include "DeviceMemory.h"

namespace pw::cuda::ad4kernel {

namespace {

constexpr int kPairTableSize = 2048;  // ad4::kMapPairTableSize
constexpr int kLongTableSize = 16384; // ad4::kMapLongTableSize
constexpr double kCutoff = 8.0;       // ad4::kNonbondCutoff
constexpr float kQSolPar = 0.01097f;  // ad4::kQSolPar
constexpr int kBlockX = 8, kBlockY = 8, kBlockZ = 4;
constexpr int kThreads = kBlockX * kBlockY * kBlockZ;

enum : int { None = 0, DonorS = 1, Donor1 = 2, AcceptorS = 3, Acceptor1 = 4, Acceptor2 = 5 };

__constant__ Probe cProbes[kMaxMaps];

// |site - point| exactly as the CPU computes it (no fused multiply-add), so that table indices,
// the cutoff test and the closest donor never differ from the reference.
__device__ __forceinline__ double exactDistance(double3 d) {
    const double s =
        __dadd_rn(__dadd_rn(__dmul_rn(d.x, d.x), __dmul_rn(d.y, d.y)), __dmul_rn(d.z, d.z));
    return sqrt(s);
}

__device__ __forceinline__ int tableIndex(double r, int size) {
    const int i = static_cast<int>(__dmul_rn(r, 100.0));
    return i < size - 1 ? i : size - 1;
}

__device__ __forceinline__ float dot3(float ax, float ay, float az, float4 b) {
    return ax * b.x + ay * b.y + az * b.z;
}

template <int MAXM> __global__ void __launch_bounds__(kThreads) mapsKernel(const Args a) {
    __shared__ SitePosition sPos[kThreads];
    __shared__ float4 sSite[kThreads], sBond[kThreads], sPlane[kThreads];
    __shared__ int2 sKind[kThreads];

    const int tid = threadIdx.x + kBlockX * (threadIdx.y + kBlockY * threadIdx.z);
    const int ix = blockIdx.x * kBlockX + threadIdx.x;
    const int iy = blockIdx.y * kBlockY + threadIdx.y;
    const int iz = blockIdx.z * kBlockZ + threadIdx.z;
    const bool active = ix < a.nx && iy < a.ny && iz < a.nz;
    const double cx = __dmul_rn(static_cast<double>(ix - a.hx), a.spacing);
    const double cy = __dmul_rn(static_cast<double>(iy - a.hy), a.spacing);
    const double cz = __dmul_rn(static_cast<double>(iz - a.hz), a.spacing);

    // The closest donor (first of equals, as the CPU loop keeps it).
    int closest = 0;
    if (active) {
        double rMin = 999999.;
        for (int k = 0; k < a.ndonors; ++k) {
            const int j = __ldg(a.donors + k);
            const SitePosition p = a.pos[j];
            const double r = exactDistance(
                make_double3(__dsub_rn(p.x, cx), __dsub_rn(p.y, cy), __dsub_rn(p.z, cz)));
            if (r < rMin) {
                rMin = r;
                closest = j;
            }
        }
    }
    const float4 closestBond = a.ndonors > 0 ? a.bond[closest] : make_float4(0, 0, 0, 0);

    float e[MAXM], hbMin[MAXM], hbMax[MAXM];
#pragma unroll
    for (int m = 0; m < MAXM; ++m) {
        e[m] = 0.f;
        hbMin[m] = 999999.f;
        hbMax[m] = -999999.f;
    }
    float elec = 0.f, desolv = 0.f;

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
        for (int t = 0; t < n; ++t) {
            const SitePosition p = sPos[t];
            const double dx = __dsub_rn(p.x, cx), dy = __dsub_rn(p.y, cy), dz = __dsub_rn(p.z, cz);
            double r = exactDistance(make_double3(dx, dy, dz));
            r = r < 1.0e-6 ? 1.0e-6 : r;
            const float4 s = sSite[t];
            const int iLong = tableIndex(r, kLongTableSize);
            const float rf = static_cast<float>(r);
            elec += s.x / fmaxf(rf, 0.5f) * __ldg(a.inverseDielectric + iLong);
            if (r > kCutoff)
                continue;
            const int iPair = tableIndex(r, kPairTableSize);
            const float inv = static_cast<float>(1.0 / r);
            const float ux = static_cast<float>(dx) * inv, uy = static_cast<float>(dy) * inv,
                        uz = static_cast<float>(dz) * inv;
            const int2 kind = sKind[t];
            const int hb = kind.y & 0xff;
            // Directional factors (see ad4::mapPointEnergies for the rules).
            float racc = 1.f, rdon = 1.f, hramp = 1.f;
            const float4 bond = sBond[t];
            const float cosT = -dot3(ux, uy, uz, bond);
            if (hb == Donor1) {
                if (cosT <= 0.f) {
                    racc = 0.f;
                } else {
                    const int ex = kind.y >> 8;
                    const float c2 = cosT * cosT;
                    racc = ex == 2 ? c2 : ex == 4 ? c2 * c2 : cosT;
                    if (base + t != closest) {
                        const float c =
                            fminf(1.f, fmaxf(-1.f, closestBond.x * bond.x + closestBond.y * bond.y +
                                                       closestBond.z * bond.z));
                        hramp = 0.5f - 0.5f * cosf(acosf(c) * (120.f / 90.f));
                    }
                }
            } else if (hb == Acceptor1) {
                rdon = cosT <= 0.f ? 0.f : cosT * cosT;
            } else if (hb == Acceptor2) {
                // cos(pi/2 - acos(x)) = sqrt(1 - x^2); with away = |acos(ti) - pi/2| = |asin(ti)|,
                // sin(2 away) = 2 |ti| sqrt(1 - ti^2): the CPU's angles without the trigonometry.
                const float4 pl = sPlane[t];
                const float x = fminf(1.f, fmaxf(-1.f, dot3(ux, uy, uz, pl)));
                const float cosT0 = sqrtf(fmaxf(0.f, 1.f - x * x));
                rdon = 0.f;
                if (cosT >= 0.f) {
                    const float cxp = uy * pl.z - uz * pl.y, cyp = uz * pl.x - ux * pl.z,
                                czp = ux * pl.y - uy * pl.x;
                    const float len2 = fmaxf(cxp * cxp + cyp * cyp + czp * czp, 1.0e-6f);
                    const float ti =
                        fminf(1.f, fmaxf(-1.f, (cxp * bond.x + cyp * bond.y + czp * bond.z) *
                                                   rsqrtf(len2)));
                    rdon = (0.9f + 0.2f * fabsf(ti) * sqrtf(fmaxf(0.f, 1.f - ti * ti))) * cosT0;
                } else if (cosT >= -0.34202f) {
                    const float w = 0.116978f - cosT * cosT;
                    rdon = 562.25f * w * w * w * cosT0;
                }
            }
            const bool siteDonor = hb == Donor1 || hb == DonorS;
            const bool siteAcceptor = hb > 2;
            const float sol = __ldg(a.desolvation + iLong);
            const float* table = a.pairTables + static_cast<long>(kind.x) * kPairTableSize + iPair;
#pragma unroll
            for (int m = 0; m < MAXM; ++m) {
                if (m >= a.nmaps)
                    break;
                const Probe pr = cProbes[m];
                const float v = __ldg(table + static_cast<long>(m) * a.nrec * kPairTableSize);
                if (pr.hbond != None) {
                    const float rsph = fminf(1.f, fmaxf(0.f, v / 100.f));
                    if ((pr.hbond == AcceptorS || pr.hbond == Acceptor2) && siteDonor) {
                        e[m] += v * hramp * (racc + (1.f - racc) * rsph);
                    } else if (pr.hbond == Acceptor1 && siteDonor) {
                        const float h = v * (racc + (1.f - racc) * rsph);
                        hbMin[m] = fminf(hbMin[m], h);
                        hbMax[m] = fmaxf(hbMax[m], h);
                    } else if ((pr.hbond == Donor1 || pr.hbond == DonorS) && siteAcceptor) {
                        const float h = v * (rdon + (1.f - rdon) * rsph);
                        hbMin[m] = fminf(hbMin[m], h);
                        hbMax[m] = fmaxf(hbMax[m], h);
                    } else {
                        e[m] += v;
                    }
                } else {
                    e[m] += v;
                }
                e[m] += (pr.solpar * s.y + s.z * pr.vol) * sol;
            }
            desolv += kQSolPar * s.y * sol;
        }
    }
    if (!active)
        return;
    const long long p = (static_cast<long long>(iz) * a.ny + iy) * a.nx + ix;
#pragma unroll
    for (int m = 0; m < MAXM; ++m) {
        if (m >= a.nmaps)
            break;
        const float hb = hbMax[m] > -999998.f ? hbMin[m] + hbMax[m] : 0.f;
        a.out[m * a.points + p] = e[m] + hb;
    }
    a.out[a.nmaps * a.points + p] = elec * a.estat;
    a.out[(a.nmaps + 1) * a.points + p] = desolv;
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
