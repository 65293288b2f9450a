#include "score/ad4/Ad4R2Spline.h"

namespace pw::ad4 {

R2Spline::R2Spline(double maxR2, int knotsPerA2, const std::function<double(double, double*)>& f)
    : invStep_(knotsPerA2) {
    const int n = static_cast<int>(maxR2 * knotsPerA2) + 1;
    const double step = 1.0 / knotsPerA2;
    knots_.resize(n);
    for (int i = 0; i < n; ++i) {
        double d = 0;
        knots_[i].value = f(i * step, &d);
        knots_[i].slope = d * step;
    }
    last_ = n - 1;
}

} // namespace pw::ad4
