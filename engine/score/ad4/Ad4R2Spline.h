// Ad4R2Spline: a pair function of r^2 tabulated for the search's inner loop: exact value and
// slope every 1/knotsPerA2 Å^2, cubic Hermite between knots (continuous value and slope), so the
// energy and its gradient come from one lookup instead of powers and exponentials.
#pragma once

#include <functional>
#include <vector>

namespace pw::ad4 {

class R2Spline {
public:
    R2Spline() = default;
    // f(r2, &dfdr2) sampled on [0, maxR2]; beyond maxR2 the spline holds f(maxR2) with slope 0.
    R2Spline(double maxR2, int knotsPerA2, const std::function<double(double, double*)>& f);

    double operator()(double r2, double* dfdr2) const {
        double t = r2 * invStep_;
        if (t >= last_) {
            *dfdr2 = 0.0;
            return knots_.back().value;
        }
        const int i = static_cast<int>(t);
        t -= i;
        const Knot& k0 = knots_[i];
        const Knot& k1 = knots_[i + 1];
        const double v0 = k0.value, v1 = k1.value;
        const double s0 = k0.slope, s1 = k1.slope; // already times the knot step
        const double t2 = t * t, t3 = t2 * t;
        *dfdr2 = ((6 * t2 - 6 * t) * (v0 - v1) + (3 * t2 - 4 * t + 1) * s0 + (3 * t2 - 2 * t) * s1) *
                 invStep_;
        return (2 * t3 - 3 * t2 + 1) * v0 + (t3 - 2 * t2 + t) * s0 + (-2 * t3 + 3 * t2) * v1 +
               (t3 - t2) * s1;
    }

private:
    double invStep_ = 1.0;
    double last_ = 0.0; // index of the last knot
    struct Knot {
        double value, slope; // side by side: one cache line per lookup
    };
    std::vector<Knot> knots_;
};

} // namespace pw::ad4
