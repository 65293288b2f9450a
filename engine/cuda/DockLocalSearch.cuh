// DockLocalSearch.cuh: the docking search's local searches, run by one warp on the pose in w.x
// (Lamarckian: the refined pose replaces the individual): ADADELTA (AutoDock-GPU's default,
// gradient steps scaled per gene) and BFGS (the minimizer's line search and inverse-Hessian
// update).
#pragma once

#include "DockTypes.h"
#include "MinimizeSearch.cuh"

namespace pw::cuda::mk {

// Keeps the position (the root's centroid, relative to the box centre) inside the box, as
// dock::clampToBox does after every local-search step.
__device__ inline void clampToBox(WarpState& w, float* pose, const DockParamsGpu& dp) {
    if (w.lane < 3)
        pose[w.lane] = fminf(fmaxf(pose[w.lane], -dp.boxHalf[w.lane]), dp.boxHalf[w.lane]);
    __syncwarp();
}

// ADADELTA (Zeiler 2012) as the CPU engine runs it (dock::adadelta): per gene in AutoDock-GPU's
// gene units (translation 0.375 A, angles 1 degree: dock::kTranslationGeneUnit,
// kAngleGeneUnit), the position kept in the box, and AutoDock-GPU v1.5's early stop (a step
// counter doubled after a run of improvements, halved after a run of non-improvements, the search
// ends at dp.adadeltaStopBound). Keeps the best point seen (the last step is not evaluated) in w.x
// and returns its energy (never above f0); evaluations are counted. Scratch: w.y = E[g^2],
// w.hy = E[dx^2], w.p = the step, w.start = the best pose.
__device__ __forceinline__ float adadeltaSearch(WarpState& w, const ScoringParamsGpu& s,
                                       const DockParamsGpu& dp, float f0, int& evaluations) {
    constexpr float kTranslationUnit = 0.375f, kAngleUnit = kPi / 180.0f;
    const float rho = dp.adadeltaRho, eps = dp.adadeltaEpsilon;
    copyPose(w, w.start, w.x);
    float best = f0;
    for (int i = w.lane; i < w.D; i += 32)
        w.y[i] = 0.0f, w.hy[i] = 0.0f;
    __syncwarp();
    float stepCounter = 1.0f, searchBest = INFINITY; // the early stop's state (warp-uniform)
    int successes = 0, failures = 0;
    for (int it = 0; it < dp.lsMaxIterations; ++it) {
        if (dp.adadeltaStopBound > 0.0f && stepCounter <= dp.adadeltaStopBound)
            break;
        const float f = evaluate(w, s, Reduction::WarpShuffle, w.x, w.g);
        ++evaluations;
        if (f < best) { // warp-uniform: every lane holds the same sum
            best = f;
            copyPose(w, w.start, w.x);
        }
        if (f < searchBest - dp.adadeltaStopTolerance) {
            searchBest = f;
            ++successes, failures = 0;
        } else {
            ++failures, successes = 0;
        }
        if (successes >= dp.adadeltaConsecutive)
            stepCounter *= 2.0f, successes = 0;
        else if (failures >= dp.adadeltaConsecutive)
            stepCounter *= 0.5f, failures = 0;
        for (int i = w.lane; i < w.D; i += 32) {
            const float unit = i < 3 ? kTranslationUnit : kAngleUnit;
            const float g = w.g[i] * unit;
            if (!isfinite(g)) {
                w.p[i] = 0.0f;
                continue;
            }
            const float eg = rho * w.y[i] + (1.0f - rho) * g * g;
            const float dx = -sqrtf(w.hy[i] + eps) / sqrtf(eg + eps) * g;
            w.y[i] = eg;
            w.hy[i] = rho * w.hy[i] + (1.0f - rho) * dx * dx;
            w.p[i] = dx * unit;
        }
        __syncwarp();
        applyStep(w, w.trial, w.x, w.p, 1.0f);
        clampToBox(w, w.trial, dp);
        float* t = w.x;
        w.x = w.trial, w.trial = t;
    }
    copyPose(w, w.x, w.start);
    return best;
}

// BFGS with the minimizer's line search (strong Wolfe or Armijo, SearchParamsGpu) from the pose
// in w.x, as the CPU engine's dock::bfgsLocalSearch: until |g| < tolerance or maxEvaluations
// energy evaluations are spent (checked after each step); a final position outside the box is
// clamped and re-evaluated. Returns the energy of w.x (never above f0: else the start is kept).
__device__ __forceinline__ float bfgsSearch(WarpState& w, const ScoringParamsGpu& s,
                                   const SearchParamsGpu& sp, const DockParamsGpu& dp,
                                   int maxEvaluations, float tolerance, float f0,
                                   int& evaluations) {
    const int first = evaluations;
    copyPose(w, w.start, w.x);
    float f = evaluate(w, s, Reduction::WarpShuffle, w.x, w.g);
    ++evaluations;
    setScaledIdentity(w, 1.0f);
    Line line{w, s, Reduction::WarpShuffle};
    for (int step = 0; step < maxEvaluations && evaluations - first < maxEvaluations; ++step) {
        const float gNorm = sqrtf(warpDot(w, w.g, w.g, w.D));
        if (!(gNorm >= tolerance))
            break;
        for (int i = w.lane; i < w.D; i += 32) {
            float sum = 0;
            for (int j = 0; j < w.D; ++j)
                sum += w.H[i * w.D + j] * w.g[j];
            w.p[i] = -sum;
        }
        __syncwarp();
        float pg = warpDot(w, w.p, w.g, w.D);
        if (!(pg < 0)) {
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
            sp.armijo ? armijo(line, f, pg, sp, initial) : strongWolfe(line, f, pg, sp, initial);
        evaluations += ls.evaluations;
        if (!ls.satisfied && !(ls.alpha > 0 && ls.value < f))
            break;
        if (!ls.trialIsResult) {
            float slope;
            ls.value = line(ls.alpha, slope);
            ++evaluations;
        }
        for (int i = w.lane; i < w.D; i += 32)
            w.y[i] = w.gT[i] - w.g[i];
        __syncwarp();
        f = ls.value;
        float* t = w.x;
        w.x = w.trial, w.trial = t;
        t = w.g;
        w.g = w.gT, w.gT = t;
        if (step == 0) {
            const float yy = warpDot(w, w.y, w.y, w.D);
            if (fabsf(yy) > kCurvatureEpsilon)
                setScaledIdentity(w, ls.alpha * warpDot(w, w.y, w.p, w.D) / yy);
        }
        bfgsUpdate(w, ls.alpha);
    }
    bool outside = false;
    for (int d = 0; d < 3; ++d)
        outside |= fabsf(w.x[d]) > dp.boxHalf[d];
    if (outside) {
        clampToBox(w, w.x, dp);
        f = evaluate(w, s, Reduction::WarpShuffle, w.x, w.g);
        ++evaluations;
    }
    if (!(f <= f0)) {
        f = f0;
        copyPose(w, w.x, w.start);
    }
    return f;
}

} // namespace pw::cuda::mk
