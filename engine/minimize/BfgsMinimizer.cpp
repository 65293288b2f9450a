#include "BfgsMinimizer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace pw {

const char* stopReasonName(StopReason r) {
    switch (r) {
    case StopReason::Converged:
        return "converged";
    case StopReason::MaxIterations:
        return "max-iterations";
    case StopReason::LineSearchFailed:
        return "line-search-failed";
    case StopReason::Cancelled:
        return "cancelled";
    }
    return "unknown";
}

MinimizeOptions MinimizeOptions::vinaLocalOnly(int movableAtoms) {
    MinimizeOptions o;
    o.lineSearch = LineSearchKind::Armijo;
    o.armijo = ArmijoParameters{};
    o.maxIterations = vinaLocalOnlySteps(movableAtoms);
    o.gradientTolerance = 1e-5; // hard-coded in Vina's bfgs()
    o.vinaCompatible = true;
    return o;
}

void MinimizerWorkspace::prepare(int dimension, int torsions) {
    if (hessian.rows() != dimension)
        hessian.resize(dimension, dimension);
    for (Eigen::VectorXd* v : {&g, &gTrial, &p, &y, &hy, &gStart})
        if (v->size() != dimension)
            v->resize(dimension);
    for (Pose* pose : {&x, &trial, &start})
        pose->torsions.resize(torsions);
}

namespace {

// Vina's epsilon_fl: the curvature and scaling guards compare against machine epsilon.
constexpr double kEpsilon = std::numeric_limits<double>::epsilon();

// phi(alpha) over the workspace's trial buffers.
class TrialLine final : public LineFunction {
public:
    TrialLine(PoseObjective& f, Pose& x, Pose& trial, Eigen::VectorXd& p, Eigen::VectorXd& gTrial)
        : f_(f), x_(x), trial_(trial), p_(p), gTrial_(gTrial) {}
    double evaluate(double alpha, double& slope) override {
        trial_ = x_; // same torsion count: copies without allocating
        trial_.applyStep(p_.data(), alpha);
        const double value = f_.evaluate(trial_, gTrial_.data());
        slope = gTrial_.dot(p_);
        return value;
    }

private:
    PoseObjective& f_;
    Pose& x_;
    Pose& trial_;
    Eigen::VectorXd& p_;
    Eigen::VectorXd& gTrial_;
};

void setScaledIdentity(Eigen::MatrixXd& h, double diagonal) {
    h.setZero();
    for (Eigen::Index i = 0; i < h.rows(); ++i)
        h(i, i) = diagonal;
}

// Inverse-Hessian BFGS update with s = alpha p (Nocedal & Wright eq. 6.17, in the form Vina's
// bfgs_update writes it); skipped when the curvature s.y is not positive.
void bfgsUpdate(Eigen::MatrixXd& h, const Eigen::VectorXd& p, const Eigen::VectorXd& y,
                Eigen::VectorXd& hy, double alpha) {
    const Eigen::Index n = p.size();
    const double yp = y.dot(p);
    if (alpha * yp < kEpsilon)
        return;
    for (Eigen::Index i = 0; i < n; ++i) {
        double sum = 0;
        for (Eigen::Index j = 0; j < n; ++j)
            sum += h(i, j) * y[j];
        hy[i] = sum;
    }
    const double yhy = y.dot(hy);
    const double r = 1.0 / (alpha * yp);
    const double a = -alpha * r;
    const double b = alpha * alpha * (r * r * yhy + r);
    for (Eigen::Index i = 0; i < n; ++i)
        for (Eigen::Index j = i; j < n; ++j) {
            const double v = h(i, j) + a * (hy[i] * p[j] + hy[j] * p[i]) + b * p[i] * p[j];
            h(i, j) = v;
            h(j, i) = v;
        }
}

void descentDirection(const Eigen::MatrixXd& h, const Eigen::VectorXd& g, Eigen::VectorXd& p) {
    const Eigen::Index n = g.size();
    for (Eigen::Index i = 0; i < n; ++i) {
        double sum = 0;
        for (Eigen::Index j = 0; j < n; ++j)
            sum += h(i, j) * g[j];
        p[i] = -sum;
    }
}

} // namespace

void BfgsMinimizer::minimize(PoseObjective& f, const Pose& start, const MinimizeOptions& options,
                             MinimizerWorkspace& ws, MinimizeResult& result) {
    const int n = f.dimension();
    ws.prepare(n, n - kPoseTorsionOffset);
    ws.x = start;
    ws.start = start;
    setScaledIdentity(ws.hessian, 1.0);
    result.trajectory.clear();
    result.iterations = 0;

    double f0 = f.evaluate(ws.x, ws.g.data());
    int evaluations = 1;
    const double fStart = f0;
    ws.gStart = ws.g;

    const bool wantCoords = options.recordTrajectory || static_cast<bool>(options.progress);
    bool haveCoords = false;
    auto report = [&]() {
        if (wantCoords)
            haveCoords = f.coordinates(ws.x, ws.frameCoords);
        if (options.recordTrajectory) {
            TrajectoryFrame frame;
            frame.energy = f0;
            frame.pose = ws.x;
            if (haveCoords)
                frame.coordinates = ws.frameCoords;
            result.trajectory.push_back(std::move(frame));
        }
        if (options.progress) {
            MinimizeProgress pr;
            pr.iteration = result.iterations;
            pr.evaluations = evaluations;
            pr.energy = f0;
            pr.gradientNorm = ws.g.norm();
            pr.pose = &ws.x;
            pr.coordinates = haveCoords ? &ws.frameCoords : nullptr;
            return options.progress(pr);
        }
        return true;
    };

    TrialLine line(f, ws.x, ws.trial, ws.p, ws.gTrial);
    StopReason reason = StopReason::MaxIterations;
    bool stopped = !report();
    if (stopped)
        reason = StopReason::Cancelled;

    for (int step = 0; !stopped && step < options.maxIterations; ++step) {
        if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
            reason = StopReason::Cancelled;
            break;
        }
        const double gNorm = ws.g.norm();
        if (!options.vinaCompatible && !(gNorm >= options.gradientTolerance)) {
            // NaN lands here too: nothing sensible can follow a non-finite gradient.
            reason = std::isfinite(gNorm) ? StopReason::Converged : StopReason::LineSearchFailed;
            break;
        }
        descentDirection(ws.hessian, ws.g, ws.p);
        double pg = ws.p.dot(ws.g);
        if (!options.vinaCompatible && !(pg < 0)) {
            // Rounding can spoil H's positive definiteness: restart from steepest descent.
            setScaledIdentity(ws.hessian, 1.0);
            ws.p = -ws.g;
            pg = -gNorm * gNorm;
        }

        LineSearchResult ls;
        if (options.maxStepNorm > 0) {
            const double cap = options.maxStepNorm / ws.p.norm();
            ArmijoParameters armijo = options.armijo;
            StrongWolfeParameters wolfe = options.wolfe;
            armijo.initialStep = std::min(armijo.initialStep, cap);
            wolfe.initialStep = std::min(wolfe.initialStep, cap);
            ls = options.lineSearch == LineSearchKind::Armijo
                     ? armijoSearch(line, f0, pg, armijo)
                     : strongWolfeSearch(line, f0, pg, wolfe);
        } else {
            ls = options.lineSearch == LineSearchKind::Armijo
                     ? armijoSearch(line, f0, pg, options.armijo)
                     : strongWolfeSearch(line, f0, pg, options.wolfe);
        }
        evaluations += ls.evaluations;
        double updateAlpha = ls.alpha;
        if (!ls.satisfied) {
            const bool vinaTakesIt =
                options.vinaCompatible && options.lineSearch == LineSearchKind::Armijo;
            if (!vinaTakesIt && !(ls.alpha > 0 && ls.value < f0)) {
                reason = StopReason::LineSearchFailed;
                break;
            }
            if (vinaTakesIt)
                updateAlpha = ls.alpha * options.armijo.multiplier; // Vina's returned alpha
        }
        if (!ls.trialIsResult) {
            double slope = 0;
            ls.value = line.evaluate(ls.alpha, slope);
            ++evaluations;
        }

        // y = g_new - g; accept the trial point.
        ws.y = ws.gTrial - ws.g;
        f0 = ls.value;
        std::swap(ws.x, ws.trial);
        ws.g.swap(ws.gTrial);
        ++result.iterations;
        if (options.vinaCompatible && !(gNorm >= options.gradientTolerance)) {
            reason = StopReason::Converged; // Vina tests the gradient from before the step
            stopped = true;
        } else {
            if (step == 0) {
                // Scale H0 to the observed curvature (Nocedal & Wright eq. 6.20), as Vina does.
                const double yy = ws.y.dot(ws.y);
                if (std::abs(yy) > kEpsilon)
                    setScaledIdentity(ws.hessian, updateAlpha * ws.y.dot(ws.p) / yy);
            }
            bfgsUpdate(ws.hessian, ws.p, ws.y, ws.hy, updateAlpha);
        }
        if (!report()) {
            reason = StopReason::Cancelled;
            stopped = true;
        }
    }
    if (reason == StopReason::MaxIterations && !options.vinaCompatible &&
        ws.g.norm() < options.gradientTolerance)
        reason = StopReason::Converged;

    // Never return something worse than the start (Vina's final check; also catches NaN).
    if (!(f0 <= fStart)) {
        f0 = fStart;
        ws.x = ws.start;
        ws.g = ws.gStart;
    }
    result.pose = ws.x;
    result.energy = f0;
    result.initialEnergy = fStart;
    result.gradientNorm = ws.g.norm();
    result.evaluations = evaluations;
    result.reason = reason;
    if (!f.coordinates(ws.x, result.coordinates))
        result.coordinates.clear();
}

MinimizeResult BfgsMinimizer::minimize(PoseObjective& f, const Pose& start,
                                       const MinimizeOptions& options) {
    MinimizerWorkspace ws;
    MinimizeResult result;
    minimize(f, start, options, ws, result);
    return result;
}

} // namespace pw
