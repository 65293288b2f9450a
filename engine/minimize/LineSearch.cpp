#include "LineSearch.h"

#include <algorithm>
#include <cmath>

namespace pw {

LineSearchResult armijoSearch(LineFunction& phi, double value0, double slope0,
                              const ArmijoParameters& params) {
    LineSearchResult r;
    double alpha = params.initialStep;
    for (int trial = 0; trial < params.maxTrials; ++trial) {
        double slope = 0;
        const double value = phi.evaluate(alpha, slope);
        ++r.evaluations;
        r.alpha = alpha;
        r.value = value;
        r.slope = slope;
        // Written as Vina writes it so that a NaN value is rejected.
        if (value - value0 < params.c * alpha * slope0) {
            r.satisfied = true;
            return r;
        }
        alpha *= params.multiplier;
    }
    return r;
}

namespace {

struct Point {
    double alpha, value, slope;
};

// Minimizer of the cubic matching value and slope at a and b, kept inside the safeguarded
// interval; bisection when the cubic has no minimum there.
double cubicStep(const Point& a, const Point& b) {
    const double lo = std::min(a.alpha, b.alpha), hi = std::max(a.alpha, b.alpha);
    const double margin = 0.1 * (hi - lo);
    const double mid = 0.5 * (lo + hi);
    const double d1 = a.slope + b.slope - 3.0 * (a.value - b.value) / (a.alpha - b.alpha);
    const double disc = d1 * d1 - a.slope * b.slope;
    if (!(disc >= 0) || !std::isfinite(d1))
        return mid;
    const double d2 = std::copysign(std::sqrt(disc), b.alpha - a.alpha);
    const double denom = b.slope - a.slope + 2.0 * d2;
    if (denom == 0 || !std::isfinite(denom))
        return mid;
    const double t = b.alpha - (b.alpha - a.alpha) * (b.slope + d2 - d1) / denom;
    if (!std::isfinite(t))
        return mid;
    return std::clamp(t, lo + margin, hi - margin);
}

} // namespace

LineSearchResult strongWolfeSearch(LineFunction& phi, double value0, double slope0,
                                   const StrongWolfeParameters& params) {
    LineSearchResult r;
    const double decreaseSlope = params.c1 * slope0; // negative
    const double curvature = -params.c2 * slope0;    // positive
    auto sufficient = [&](const Point& p) { return p.value <= value0 + p.alpha * decreaseSlope; };
    Point best{0.0, value0, slope0}; // best point with sufficient decrease so far
    Point last{};                    // the most recent evaluate() call
    auto eval = [&](double alpha) {
        double slope = 0;
        const double value = phi.evaluate(alpha, slope);
        ++r.evaluations;
        last = {alpha, value, slope};
        if (sufficient(last) && last.value < best.value)
            best = last;
        return last;
    };
    auto finish = [&](const Point& p, bool ok) {
        r.alpha = p.alpha;
        r.value = p.value;
        r.slope = p.slope;
        r.satisfied = ok;
        r.trialIsResult = p.alpha == last.alpha;
        return r;
    };

    // Zoom between lo (sufficient decrease, lowest value so far) and hi.
    auto zoom = [&](Point lo, Point hi) {
        while (r.evaluations < params.maxEvaluations) {
            const Point t = eval(cubicStep(lo, hi));
            if (!sufficient(t) || !(t.value < lo.value)) {
                hi = t;
            } else {
                if (std::abs(t.slope) <= curvature)
                    return finish(t, true);
                if (t.slope * (hi.alpha - lo.alpha) >= 0)
                    hi = lo;
                lo = t;
            }
            if (std::abs(hi.alpha - lo.alpha) <= 1e-12 * std::max(1.0, lo.alpha))
                break; // the interval has collapsed to rounding
        }
        return finish(best, false);
    };

    Point prev{0.0, value0, slope0};
    double alpha = params.initialStep;
    while (r.evaluations < params.maxEvaluations) {
        const Point t = eval(alpha);
        if (!sufficient(t) || (r.evaluations > 1 && t.value >= prev.value))
            return zoom(prev, t);
        if (std::abs(t.slope) <= curvature)
            return finish(t, true);
        if (t.slope >= 0)
            return zoom(t, prev);
        if (alpha >= params.maxStep)
            break;
        prev = t;
        alpha = std::min(2.0 * alpha, params.maxStep); // still descending: extrapolate
    }
    return finish(best, false);
}

} // namespace pw
