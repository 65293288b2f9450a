// MinimizeEnergy.cuh: energy and pose-space gradient of a pose (inter from the maps, intra pairs,
// torsion-tree roll-up) and Vina's reported numbers; all lanes of the warp take part. The docking
// search's AD4 scoring (DockAd4Scoring.cuh) takes the place of the Vina terms when s.ad4.maps is
// set.
#pragma once

#include "DockAd4Scoring.cuh"
#include "MinimizeReduction.cuh"
#include "MinimizeScoring.cuh"

namespace pw::cuda::mk {

// Energy (inter + intra) of a pose; its pose-space gradient into grad. Warp-uniform result.
// kExact: the intermolecular term summed over the receptor atoms (s.exact, atomInterExact)
// instead of read from the maps; a template so that the grid path carries none of its code.
template <bool kExact = false>
__device__ inline float evaluate(WarpState& w, const ScoringParamsGpu& s, Reduction reduction,
                                 const float* pose, float* grad) {
    placeAtoms(w, pose);
    double e = 0.0;
    if (s.ad4.maps) {
        e = ad4InterAtoms(w, s.ad4, true);
        __syncwarp();
        e += ad4IntraPairs(w, s.ad4, true);
    } else {
        for (int i = w.lane; i < w.A; i += 32) {
            const int type = (w.atoms[i] & 255) - 1;
            float3 g = make_float3(0, 0, 0);
            if (type >= 0) {
                if constexpr (kExact)
                    e += atomInterExact<PairMode::SplineGradient>(s.exact, type, w.coords[i], &g);
                else
                    e += atomInter(s, type, w.coords[i], &g, s.interpolation);
            }
            w.grad[i] = g;
        }
        __syncwarp();
        // Lane L takes the pairs L * steps + t (t < steps): neighbours in the topology's list,
        // which mostly share their first atom, so its gradient sums in registers
        // (PairGradient, DockAd4Scoring.cuh).
        const int steps = (w.nPairs + 31) / 32;
        PairGradient first;
        for (int t = 0; t < steps; ++t) {
            const int q = w.lane * steps + t;
            if (q >= w.nPairs)
                break;
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
                first.add(w.grad, pr.i, make_float3(-k * d.x, -k * d.y, -k * d.z));
            }
        }
        first.flush(w.grad);
    }
    __syncwarp();
    fragmentSums(w, reduction);
    if (w.lane == 0) {
        // Leaves first: torsion gradient = moment about the fragment origin along its axis. (A
        // side chain's fixed root, after the moving nodes, gets sums that nothing reads.)
        for (int k = w.movingNodes - 1; k >= 0; --k) {
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
    } else { // shuffle and wmma: the energy stays in double (MinimizeReduction.cuh says why)
        total = warpSumD(e);
    }
    __syncwarp();
    return static_cast<float>(total);
}

// Vina's reported numbers at the current coordinates: grid inter (with penalty; read as the
// minimizer reads the maps, PoseRefinement's grid reporter does the same) and tabulated intra.
// kExact: inter from Vina's tabulated potential over the receptor atoms (LigandScorer's
// interTabulated) instead of the maps.
template <bool kExact = false>
__device__ inline void reportedTerms(WarpState& w, const ScoringParamsGpu& s, float& inter,
                                     float& intra) {
    if (s.ad4.maps) { // AD4: the search's own terms (the CPU re-scores them exactly)
        inter = static_cast<float>(warpSumD(ad4InterAtoms(w, s.ad4, false)));
        intra = static_cast<float>(warpSumD(ad4IntraPairs(w, s.ad4, false)));
        return;
    }
    double ei = 0.0, ea = 0.0;
    float scale;
    for (int i = w.lane; i < w.A; i += 32) {
        const int type = (w.atoms[i] & 255) - 1;
        if (type < 0)
            continue;
        if constexpr (kExact)
            ei += atomInterExact<PairMode::Tabulated>(s.exact, type, w.coords[i], nullptr);
        else
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

} // namespace pw::cuda::mk
