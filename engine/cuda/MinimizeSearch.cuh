// MinimizeSearch.cuh: the line searches (Armijo as Vina, strong Wolfe as LineSearch.cpp) and
// the inverse-Hessian BFGS update, run by all lanes on warp-uniform values.
#pragma once

#include "MinimizeEnergy.cuh"

namespace pw::cuda::mk {

struct LinePoint {
    float alpha, value, slope;
};

struct LineResult {
    float alpha = 0, value = 0, slope = 0;
    bool satisfied = false, trialIsResult = true;
    int evaluations = 0;
};

// phi(alpha) = f(x (+) alpha p) into the trial buffers; slope = grad . p. kExact: the exact
// intermolecular term (evaluate's).
template <bool kExact> struct LineOf {
    WarpState& w;
    const ScoringParamsGpu& s;
    Reduction reduction;
    __device__ float operator()(float alpha, float& slope) {
        applyStep(w, w.trial, w.x, w.p, alpha);
        const float v = evaluate<kExact>(w, s, reduction, w.trial, w.gT);
        slope = warpDot(w, w.gT, w.p, w.D);
        return v;
    }
};
using Line = LineOf<false>; // the grid's (and the docking search's)

template <class Phi>
__device__ inline LineResult armijo(Phi& phi, float value0, float slope0, const SearchParamsGpu& sp,
                                    float initial) {
    LineResult r;
    float alpha = initial;
    for (int trial = 0; trial < sp.armijoTrials; ++trial) {
        float slope;
        const float value = phi(alpha, slope);
        ++r.evaluations;
        r.alpha = alpha, r.value = value, r.slope = slope;
        if (value - value0 < sp.armijoC * alpha * slope0) {
            r.satisfied = true;
            return r;
        }
        alpha *= sp.armijoMultiplier;
    }
    return r;
}

__device__ inline float cubicStep(const LinePoint& a, const LinePoint& b) {
    const float lo = fminf(a.alpha, b.alpha), hi = fmaxf(a.alpha, b.alpha);
    const float margin = 0.1f * (hi - lo), mid = 0.5f * (lo + hi);
    const float d1 = a.slope + b.slope - 3.0f * (a.value - b.value) / (a.alpha - b.alpha);
    const float disc = d1 * d1 - a.slope * b.slope;
    if (!(disc >= 0) || !isfinite(d1))
        return mid;
    const float d2 = copysignf(sqrtf(disc), b.alpha - a.alpha);
    const float denom = b.slope - a.slope + 2.0f * d2;
    if (denom == 0 || !isfinite(denom))
        return mid;
    const float t = b.alpha - (b.alpha - a.alpha) * (b.slope + d2 - d1) / denom;
    if (!isfinite(t))
        return mid;
    return fminf(fmaxf(t, lo + margin), hi - margin);
}

// Strong Wolfe (LineSearch.cpp strongWolfeSearch, step for step).
template <class Phi>
__device__ inline LineResult strongWolfe(Phi& phi, float value0, float slope0,
                                         const SearchParamsGpu& sp, float initial) {
    LineResult r;
    const float decreaseSlope = sp.wolfeC1 * slope0, curvature = -sp.wolfeC2 * slope0;
    LinePoint best{0.0f, value0, slope0}, last{0, 0, 0};
    auto sufficient = [&](const LinePoint& p) {
        return p.value <= value0 + p.alpha * decreaseSlope;
    };
    auto eval = [&](float alpha) {
        float slope;
        const float value = phi(alpha, slope);
        ++r.evaluations;
        last = {alpha, value, slope};
        if (sufficient(last) && last.value < best.value)
            best = last;
        return last;
    };
    auto finish = [&](const LinePoint& p, bool ok) {
        r.alpha = p.alpha, r.value = p.value, r.slope = p.slope;
        r.satisfied = ok;
        r.trialIsResult = p.alpha == last.alpha;
        return r;
    };
    auto zoom = [&](LinePoint lo, LinePoint hi) {
        while (r.evaluations < sp.wolfeMaxEvaluations) {
            const LinePoint t = eval(cubicStep(lo, hi));
            if (!sufficient(t) || !(t.value < lo.value)) {
                hi = t;
            } else {
                if (fabsf(t.slope) <= curvature)
                    return finish(t, true);
                if (t.slope * (hi.alpha - lo.alpha) >= 0)
                    hi = lo;
                lo = t;
            }
            if (fabsf(hi.alpha - lo.alpha) <= 1e-12f * fmaxf(1.0f, lo.alpha))
                break;
        }
        return finish(best, false);
    };
    LinePoint prev{0.0f, value0, slope0};
    float alpha = initial;
    while (r.evaluations < sp.wolfeMaxEvaluations) {
        const LinePoint t = eval(alpha);
        if (!sufficient(t) || (r.evaluations > 1 && t.value >= prev.value))
            return zoom(prev, t);
        if (fabsf(t.slope) <= curvature)
            return finish(t, true);
        if (t.slope >= 0)
            return zoom(t, prev);
        if (alpha >= sp.wolfeMaxStep)
            break;
        prev = t;
        alpha = fminf(2.0f * alpha, sp.wolfeMaxStep);
    }
    return finish(best, false);
}

// Inverse-Hessian BFGS update (BfgsMinimizer.cpp bfgsUpdate).
__device__ inline void bfgsUpdate(WarpState& w, float alpha) {
    const int n = w.D;
    const float yp = warpDot(w, w.y, w.p, n);
    if (alpha * yp < kCurvatureEpsilon)
        return;
    for (int i = w.lane; i < n; i += 32) {
        float sum = 0;
        for (int j = 0; j < n; ++j)
            sum += w.H[i * n + j] * w.y[j];
        w.hy[i] = sum;
    }
    __syncwarp();
    const float yhy = warpDot(w, w.y, w.hy, n);
    const float r = 1.0f / (alpha * yp);
    const float a = -alpha * r;
    const float b = alpha * alpha * (r * r * yhy + r);
    for (int e = w.lane; e < n * n; e += 32) {
        const int i = e / n, j = e % n;
        w.H[e] += a * (w.hy[i] * w.p[j] + w.hy[j] * w.p[i]) + b * w.p[i] * w.p[j];
    }
    __syncwarp();
}

} // namespace pw::cuda::mk
