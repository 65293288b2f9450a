// Ad4MapPointMath: the float arithmetic of one grid point of the AD4 map kernel, written once for
// the device and the host, so that a host test can run the kernel's own math (without a GPU)
// against the double-precision CPU builder.
#pragma once

#include "Ad4MapKernel.cuh"

#include <cmath>

#ifdef __CUDACC__
#define PW_AD4_HD __host__ __device__ __forceinline__
#else
#define PW_AD4_HD inline
#endif

namespace pw::cuda::ad4kernel {

constexpr int kPairTableSize = 2048;  // ad4::kMapPairTableSize
constexpr int kLongTableSize = 16384; // ad4::kMapLongTableSize
constexpr double kCutoff = 8.0;       // ad4::kNonbondCutoff
constexpr float kQSolPar = 0.01097f;  // ad4::kQSolPar

enum : int { None = 0, DonorS = 1, Donor1 = 2, AcceptorS = 3, Acceptor1 = 4, Acceptor2 = 5 };

template <class T> PW_AD4_HD T readOnly(const T* p) {
#ifdef __CUDA_ARCH__
    return __ldg(p);
#else
    return *p;
#endif
}

// |site - point|^2 exactly as the CPU computes it (no fused multiply-add), so that within the
// cutoff the table indices, the cutoff test and the closest donor never differ from the reference.
PW_AD4_HD double exactSquare(double dx, double dy, double dz) {
#ifdef __CUDA_ARCH__
    return __dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz));
#else
    return dx * dx + dy * dy + dz * dz;
#endif
}

// Squared distances above this are surely beyond the 8 Å cutoff (the margin covers sqrt rounding
// to exactly 8); the others take the exact path.
constexpr double kFarSquare = 64.000001;

PW_AD4_HD double exactDifference(double a, double b) {
#ifdef __CUDA_ARCH__
    return __dsub_rn(a, b);
#else
    return a - b;
#endif
}

// Grid point i along an axis: (i - npts/2) * spacing from the centre.
PW_AD4_HD double pointOffset(int i, int half, double spacing) {
#ifdef __CUDA_ARCH__
    return __dmul_rn(static_cast<double>(i - half), spacing);
#else
    return static_cast<double>(i - half) * spacing;
#endif
}

PW_AD4_HD int tableIndex(double r, int size) {
#ifdef __CUDA_ARCH__
    const int i = static_cast<int>(__dmul_rn(r, 100.0));
#else
    const int i = static_cast<int>(r * 100.0);
#endif
    return i < size - 1 ? i : size - 1;
}

PW_AD4_HD float clampUnit(float x) {
    return fminf(1.f, fmaxf(-1.f, x));
}

// Sums of one grid point over the receptor sites (MAXM: affinity maps the sums can hold). Acc:
// the type of the running sums: float for the maps (stored as float anyway); the exact pair
// scorer (Ad4PairMath.cuh) sums in double, since every site counts for electrostatics and a pose
// adds many atoms. Each site's terms are float either way.
template <int MAXM, class Acc = float> struct PointSums {
    Acc e[MAXM];
    float hbMin[MAXM], hbMax[MAXM];
    Acc elec, desolv;

    PW_AD4_HD void reset() {
#pragma unroll
        for (int m = 0; m < MAXM; ++m) {
            e[m] = Acc(0);
            hbMin[m] = 999999.f;
            hbMax[m] = -999999.f;
        }
        elec = desolv = Acc(0);
    }

    // One receptor site seen from point (cx, cy, cz). `closest`: this site is the closest donor,
    // whose bond vector is closestBond (see ad4::mapPointEnergies for the rules).
    PW_AD4_HD void addSite(const Args& a, const Probe* probes, const SitePosition& p, float4 s,
                           int2 kind, float4 bond, float4 plane, bool closest, float4 closestBond,
                           double cx, double cy, double cz) {
        const double dx = exactDifference(p.x, cx), dy = exactDifference(p.y, cy),
                     dz = exactDifference(p.z, cz);
        const double r2 = exactSquare(dx, dy, dz);
        if (r2 > kFarSquare) {
            // Beyond the cutoff only electrostatics counts: float distance and index (the double
            // square root is the costliest step of the sweep; an index one off at > 8 Å moves
            // a term by < 1e-4 kcal/mol).
            const float rf = sqrtf(static_cast<float>(r2));
            const int i = static_cast<int>(rf * 100.f);
            elec +=
                s.x / rf *
                readOnly(a.inverseDielectric + (i < kLongTableSize - 1 ? i : kLongTableSize - 1));
            return;
        }
        double r = sqrt(r2);
        r = r < 1.0e-6 ? 1.0e-6 : r;
        const int iLong = tableIndex(r, kLongTableSize);
        const float rf = static_cast<float>(r);
        elec += s.x / fmaxf(rf, 0.5f) * readOnly(a.inverseDielectric + iLong);
        if (r > kCutoff)
            return;
        const int iPair = tableIndex(r, kPairTableSize);
        const float inv = static_cast<float>(1.0 / r);
        const float ux = static_cast<float>(dx) * inv, uy = static_cast<float>(dy) * inv,
                    uz = static_cast<float>(dz) * inv;
        const int hb = kind.y & 0xff;
        float racc = 1.f, rdon = 1.f, hramp = 1.f;
        const float cosT = -(ux * bond.x + uy * bond.y + uz * bond.z);
        if (hb == Donor1) {
            if (cosT <= 0.f) {
                racc = 0.f;
            } else {
                const int ex = kind.y >> 8;
                const float c2 = cosT * cosT;
                racc = ex == 2 ? c2 : ex == 4 ? c2 * c2 : cosT;
                if (!closest) {
                    const float c = clampUnit(closestBond.x * bond.x + closestBond.y * bond.y +
                                              closestBond.z * bond.z);
                    hramp = 0.5f - 0.5f * cosf(acosf(c) * (120.f / 90.f));
                }
            }
        } else if (hb == Acceptor1) {
            rdon = cosT <= 0.f ? 0.f : cosT * cosT;
        } else if (hb == Acceptor2) {
            // cos(pi/2 - acos(x)) = sqrt(1 - x^2); with away = |acos(ti) - pi/2| = |asin(ti)|,
            // sin(2 away) = 2 |ti| sqrt(1 - ti^2): the CPU's angles without the trigonometry.
            const float x = clampUnit(ux * plane.x + uy * plane.y + uz * plane.z);
            const float cosT0 = sqrtf(fmaxf(0.f, 1.f - x * x));
            rdon = 0.f;
            if (cosT >= 0.f) {
                const float qx = uy * plane.z - uz * plane.y, qy = uz * plane.x - ux * plane.z,
                            qz = ux * plane.y - uy * plane.x;
                const float len2 = fmaxf(qx * qx + qy * qy + qz * qz, 1.0e-6f);
                const float ti = clampUnit((qx * bond.x + qy * bond.y + qz * bond.z) / sqrtf(len2));
                rdon = (0.9f + 0.2f * fabsf(ti) * sqrtf(fmaxf(0.f, 1.f - ti * ti))) * cosT0;
            } else if (cosT >= -0.34202f) { // cos(100 degrees)
                const float w = 0.116978f - cosT * cosT;
                rdon = 562.25f * w * w * w * cosT0;
            }
        }
        const bool siteDonor = hb == Donor1 || hb == DonorS;
        const bool siteAcceptor = hb > 2;
        const float sol = readOnly(a.desolvation + iLong);
        const float* table = a.pairTables + static_cast<long>(kind.x) * kPairTableSize + iPair;
#pragma unroll
        for (int m = 0; m < MAXM; ++m) {
            if (m >= a.nmaps)
                break;
            const Probe pr = probes[m];
            const float v = readOnly(table + static_cast<long>(m) * a.nrec * kPairTableSize);
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

    // Writes the point's nmaps + 2 values to out[k * a.points + point].
    PW_AD4_HD void store(const Args& a, long long point) const {
#pragma unroll
        for (int m = 0; m < MAXM; ++m) {
            if (m >= a.nmaps)
                break;
            // autogrid adds both the weakest and the strongest directional H-bond.
            const float hb = hbMax[m] > -999998.f ? hbMin[m] + hbMax[m] : 0.f;
            a.out[m * a.points + point] = e[m] + hb;
        }
        a.out[a.nmaps * a.points + point] = elec * a.estat;
        a.out[(a.nmaps + 1) * a.points + point] = desolv;
    }
};

// The closest donor to point (cx, cy, cz): the first of equals, as the CPU keeps it.
PW_AD4_HD int closestDonor(const Args& a, double cx, double cy, double cz) {
    int closest = 0;
    double r2Min = 999999. * 999999.;
    for (int k = 0; k < a.ndonors; ++k) {
        const int j = readOnly(a.donors + k);
        const SitePosition p = a.pos[j];
        const double r2 = exactSquare(exactDifference(p.x, cx), exactDifference(p.y, cy),
                                      exactDifference(p.z, cz));
        if (r2 < r2Min) {
            r2Min = r2;
            closest = j;
        }
    }
    return closest;
}

// The kernel's whole computation of one point, for the host test (the device runs the same
// PointSums calls, with the sites read through shared memory).
template <int MAXM>
PW_AD4_HD void mapPoint(const Args& a, const Probe* probes, int ix, int iy, int iz) {
    const double cx = pointOffset(ix, a.hx, a.spacing), cy = pointOffset(iy, a.hy, a.spacing),
                 cz = pointOffset(iz, a.hz, a.spacing);
    const int closest = closestDonor(a, cx, cy, cz);
    const float4 closestBond = a.ndonors > 0 ? a.bond[closest] : float4{0, 0, 0, 0};
    PointSums<MAXM> sums;
    sums.reset();
    for (int j = 0; j < a.nsites; ++j)
        sums.addSite(a, probes, a.pos[j], a.site[j], a.kind[j], a.bond[j], a.plane[j], j == closest,
                     closestBond, cx, cy, cz);
    sums.store(a, (static_cast<long long>(iz) * a.ny + iy) * a.nx + ix);
}

} // namespace pw::cuda::ad4kernel
