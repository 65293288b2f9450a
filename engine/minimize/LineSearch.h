// LineSearch: step-length searches along a pose-space direction for the BFGS minimizer: Vina's
// Armijo backtracking (its exact constants) and a strong-Wolfe bracketing/zoom search.
#pragma once

namespace pw {

// phi(alpha) = f(x (+) alpha p) and its slope phi'(alpha) = grad f(x (+) alpha p) . p. Because the
// rotation step is a rotation vector about a fixed axis, the slope is exact on the manifold too.
class LineFunction {
public:
    virtual ~LineFunction() = default;
    // Evaluates the trial point x (+) alpha p; the trial pose and gradient stay in the caller's
    // trial buffers until the next call.
    virtual double evaluate(double alpha, double& slope) = 0;
};

struct LineSearchResult {
    double alpha = 0;          // step length of the point reported below
    double value = 0;          // phi(alpha)
    double slope = 0;          // phi'(alpha)
    bool satisfied = false;    // the search's acceptance conditions hold at alpha
    bool trialIsResult = true; // the last evaluate() call was at alpha (else re-evaluate)
    int evaluations = 0;
};

// AutoDock Vina 1.2.3, src/lib/bfgs.h line_search(): alpha starts at 1, accept when
// phi(alpha) - phi(0) < c * alpha * phi'(0), otherwise alpha *= multiplier, at most maxTrials.
struct ArmijoParameters {
    double c = 1e-4;
    double multiplier = 0.5;
    int maxTrials = 10;
    double initialStep = 1.0;
};

// Nocedal & Wright, Numerical Optimization (2nd ed.), algorithms 3.5 and 3.6 with cubic
// interpolation; c2 = 0.9 is their recommendation for quasi-Newton directions.
struct StrongWolfeParameters {
    double c1 = 1e-4;
    double c2 = 0.9;
    int maxEvaluations = 20;
    double initialStep = 1.0;
    double maxStep = 1e3;
};

// Backtracking: when no trial is accepted the result holds the last (smallest) trial with
// satisfied = false; Vina takes that step anyway.
LineSearchResult armijoSearch(LineFunction& phi, double value0, double slope0,
                              const ArmijoParameters& params);

// Strong Wolfe: phi(a) <= phi(0) + c1 a phi'(0) and |phi'(a)| <= c2 |phi'(0)|. When the
// evaluation budget runs out, the best point with sufficient decrease is returned unsatisfied
// (alpha = 0 when there is none). slope0 must be negative.
LineSearchResult strongWolfeSearch(LineFunction& phi, double value0, double slope0,
                                   const StrongWolfeParameters& params);

} // namespace pw
