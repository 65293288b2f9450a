// PairMath.cuh: the exact receptor-ligand pair math on the device, shared by the pair kernel
// (PairScoreKernel.cu: one warp per pose, lanes over a ligand atom's receptor candidates) and the
// minimizer's exact mode (MinimizeScoring.cuh: one lane per ligand atom). It mirrors the CPU
// reference (LigandScorer::interEnergy / interTabulated, ScoringFunction::splineEnergy /
// tabulatedEnergy) line by line, in double, with the squared distances rounded as the CPU rounds
// them (no fused multiply-add), so that Vina's tabulated bins are the same bins.
#pragma once

#include "PairScoreTypes.h"

#include <cuda_runtime.h>

namespace pw::cuda::pairmath {

constexpr double kCurlV = 1000.0;      // VinaConstants.h kCurlV
constexpr double kOutOfBoxSlope = 1e6; // VinaConstants.h kOutOfBoxSlope
constexpr double kSamplesPerA2 = 32.0; // ScoringFunction::kTableSamplesPerA2

__device__ inline double curl(double e, double* scale) {
    if (e > 0.0) {
        const double tmp = kCurlV / (kCurlV + e);
        *scale = tmp * tmp;
        return e * tmp;
    }
    *scale = 1.0;
    return e;
}

// dx*dx + dy*dy + dz*dz rounded after every operation, as the CPU computes it.
__device__ inline double squaredNorm(double dx, double dy, double dz) {
    return __dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz));
}

__device__ inline double slopeStep(double bad, double good, double x, double* dx) {
    const double t = (x - bad) / (good - bad);
    if (t <= 0.0) {
        *dx = 0.0;
        return 0.0;
    }
    if (t >= 1.0) {
        *dx = 0.0;
        return 1.0;
    }
    *dx = 1.0 / (good - bad);
    return t;
}

// ScoringFunction::tabulatedEnergy (r2 below the squared cutoff).
__device__ inline double tabulated(const PairScoringDev& s, const PairTypeInfo& p, double r2) {
    const int i = static_cast<int>(__dmul_rn(kSamplesPerA2, r2));
    if (i >= s.tableSize - 1)
        return 0.0;
    return __ldg(s.table + static_cast<long long>(p.row) * s.tableSize + i);
}

// ScoringFunction::splineEnergy (r2 below the squared cutoff): energy and dE/d(r^2).
__device__ inline double splineEnergy(const PairScoringDev& s, const PairTypeInfo& p, double r2,
                                      double* dEdr2) {
    const double sr = __dmul_rn(r2, kSamplesPerA2);
    const int k = static_cast<int>(sr);
    const double t = sr - k;
    const double* c = s.spline + (static_cast<long long>(p.row) * s.tableSize + k) * 2;
    const double f0 = __ldg(c), m0 = __ldg(c + 1), f1 = __ldg(c + 2), m1 = __ldg(c + 3);
    const double tt = t * t, ttt = tt * t;
    double e = (2 * ttt - 3 * tt + 1) * f0 + (ttt - 2 * tt + t) * m0 + (-2 * ttt + 3 * tt) * f1 +
               (ttt - tt) * m1;
    const double de = (6 * tt - 6 * t) * f0 + (3 * tt - 4 * t + 1) * m0 + (-6 * tt + 6 * t) * f1 +
                      (3 * tt - 2 * t) * m1;
    double d2 = de * kSamplesPerA2;
    if (p.hydrophobic || p.hbond) {
        const double r = sqrt(r2);
        const double d = r - p.optimal;
        double dEdr = 0.0, ds;
        if (p.hydrophobic) {
            e += s.wHydrophobic * slopeStep(s.hydBad, s.hydGood, d, &ds);
            dEdr += s.wHydrophobic * ds;
        }
        if (p.hbond) {
            e += s.wHbond * slopeStep(s.hbBad, s.hbGood, d, &ds);
            dEdr += s.wHbond * ds;
        }
        if (r > 0)
            d2 += dEdr / (2 * r);
    }
    *dEdr2 = d2;
    return e;
}

// Where one ligand atom is scored (LigandScorer::clampToRegion and the candidate choice of
// interEnergy): at the nearest point of the box with 1e6 per Å outside when the receptor
// penalizes leaving it; against the cell of that point, or every receptor atom for a point
// outside an unpenalized region.
struct AtomSpot {
    double p[3];
    double penalty;
    double penaltyGrad[3];
    bool clamped[3];
    const PairSite* begin;
    const PairSite* end;
};

__device__ inline AtomSpot locateAtom(const PairReceptorDev& rec, double x, double y, double z) {
    AtomSpot s;
    s.p[0] = x, s.p[1] = y, s.p[2] = z;
    s.penalty = 0.0;
    bool inside = true;
    for (int d = 0; d < 3; ++d) {
        s.penaltyGrad[d] = 0.0;
        s.clamped[d] = false;
        if (rec.penalizeOutside) {
            if (s.p[d] < rec.begin[d]) {
                s.penalty += kOutOfBoxSlope * (rec.begin[d] - s.p[d]);
                s.penaltyGrad[d] = -kOutOfBoxSlope;
                s.p[d] = rec.begin[d];
                s.clamped[d] = true;
            } else if (s.p[d] > rec.end[d]) {
                s.penalty += kOutOfBoxSlope * (s.p[d] - rec.end[d]);
                s.penaltyGrad[d] = kOutOfBoxSlope;
                s.p[d] = rec.end[d];
                s.clamped[d] = true;
            }
        } else {
            inside = inside && s.p[d] >= rec.begin[d] && s.p[d] <= rec.end[d];
        }
    }
    if (rec.penalizeOutside || inside) {
        int idx = 0;
        for (int d = 0; d < 3; ++d) {
            int c = static_cast<int>((s.p[d] - rec.begin[d]) * rec.invCell[d]);
            c = c < 0 ? 0 : (c >= rec.cells[d] ? rec.cells[d] - 1 : c);
            idx = idx * rec.cells[d] + c;
        }
        s.begin = rec.cellSites + __ldg(rec.cellStart + idx);
        s.end = rec.cellSites + __ldg(rec.cellStart + idx + 1);
    } else {
        s.begin = rec.allSites;
        s.end = rec.allSites + rec.allCount;
    }
    return s;
}

// The pair sum of one ligand atom of XS type `type` at spot s over the candidates
// s.begin + first, s.begin + first + stride, ... (the pair kernel's lanes stride by 32, a
// minimizer lane takes them all): energy into *en, its gradient (SplineGradient only, before
// the curl) into g[3]. Nothing is reset: the caller sums.
template <PairMode kMode>
__device__ inline void sumSites(const PairScoringDev& sc, int type, const AtomSpot& s, int first,
                                int stride, double* en, double g[3]) {
    constexpr bool kGrad = kMode == PairMode::SplineGradient;
    const PairTypeInfo* row = sc.types + type * sc.typeCount;
    double e = 0.0, gx = 0.0, gy = 0.0, gz = 0.0;
    for (const PairSite* site = s.begin + first; site < s.end; site += stride) {
        const double2 xy = __ldg(reinterpret_cast<const double2*>(site));
        const double2 zt = __ldg(reinterpret_cast<const double2*>(site) + 1);
        const int st = __double2loint(zt.y);
        const double dx = s.p[0] - xy.x, dy = s.p[1] - xy.y, dz = s.p[2] - zt.x;
        const double r2 = squaredNorm(dx, dy, dz);
        if (r2 >= sc.cutoff2)
            continue;
        const PairTypeInfo& pt = row[st];
        if (kMode == PairMode::Tabulated) {
            e += tabulated(sc, pt, r2);
        } else {
            double dEdr2;
            e += splineEnergy(sc, pt, r2, &dEdr2);
            if (kGrad) {
                const double f = 2.0 * dEdr2;
                gx += f * dx;
                gy += f * dy;
                gz += f * dz;
            }
        }
    }
    *en += e;
    if (kGrad) {
        g[0] += gx;
        g[1] += gy;
        g[2] += gz;
    }
}

// The atom's gradient after the curl (scale) with the clamped axes' pair gradient dropped and
// the out-of-box penalty's added, as LigandScorer::interEnergy.
__device__ inline void atomGradient(const AtomSpot& s, double scale, const double g[3],
                                    double out[3]) {
    for (int d = 0; d < 3; ++d)
        out[d] = scale * (s.clamped[d] ? 0.0 : g[d]) + s.penaltyGrad[d];
}

} // namespace pw::cuda::pairmath
