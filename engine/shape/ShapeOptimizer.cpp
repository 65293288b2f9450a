#include "ShapeOptimizer.h"

#include <cmath>

namespace pw::shape {
namespace {

PoseVector normalisedPose(PoseVector x) {
    x.head<4>() /= x.head<4>().norm();
    return x;
}

} // namespace

OptimizeResult optimizePose(const std::vector<Vec3>& ref, const std::vector<std::uint8_t>& refCls,
                            const std::vector<Vec3>& fit, const std::vector<std::uint8_t>& fitCls,
                            const PoseVector& start, const OptimizerSettings& settings) {
    using Mat7 = Eigen::Matrix<double, 7, 7>;
    OptimizeResult r;
    // Minimise f = -overlap.
    auto eval = [&](const PoseVector& x, PoseVector& g) {
        ++r.evaluations;
        double o = poseOverlap(ref, refCls, fit, fitCls, x, &g);
        g = -g;
        return -o;
    };
    PoseVector x = start, g, xn, gn;
    double f = eval(x, g);
    Mat7 H = Mat7::Identity() * (settings.firstStep / std::max(g.norm(), 1e-12));
    bool first = true;
    if (settings.recordPath)
        r.path.push_back({normalisedPose(x), -f});
    for (int it = 0; it < settings.maxIterations; ++it) {
        PoseVector d = -H * g;
        double slope = g.dot(d);
        if (!(slope < 0)) { // lost descent (numerical trouble): restart from steepest descent
            H = Mat7::Identity() * (settings.firstStep / std::max(g.norm(), 1e-12));
            d = -H * g;
            slope = g.dot(d);
            if (!(slope < 0))
                break;
        }
        double alpha = 1, fn = 0;
        bool accepted = false;
        for (int ls = 0; ls < settings.maxLineSearchSteps; ++ls) {
            xn = x + alpha * d;
            fn = eval(xn, gn);
            if (fn <= f + 1e-4 * alpha * slope) {
                accepted = true;
                break;
            }
            alpha *= 0.5;
        }
        if (!accepted)
            break;
        ++r.iterations;
        const PoseVector s = xn - x, y = gn - g;
        const double sy = s.dot(y);
        if (sy > 1e-10) {
            if (first)
                H = Mat7::Identity() * (sy / y.squaredNorm());
            const double rho = 1 / sy;
            const PoseVector Hy = H * y;
            const double yHy = y.dot(Hy);
            // H' = (I - rho s y^T) H (I - rho y s^T) + rho s s^T, expanded (H symmetric).
            H += (rho * rho * yHy + rho) * (s * s.transpose()) -
                 rho * (Hy * s.transpose() + s * Hy.transpose());
            first = false;
        }
        const bool converged = (f - fn) <= settings.relativeTolerance * std::abs(fn);
        x = xn;
        f = fn;
        g = gn;
        if (settings.recordPath)
            r.path.push_back({normalisedPose(x), -f});
        if (converged)
            break;
    }
    r.x = normalisedPose(x);
    r.overlap = -f;
    return r;
}

} // namespace pw::shape
