// RingClosureTerm: the pair energies AutoDock Vina 1.2.3 gives macrocycle pseudo-atoms (Meeko's Gn,
// core/RingClosure.h): a Gn has an optimal distance of 0 to every atom, so only the gaussian terms
// act on it, and its pair with the CGn across the broken bond adds the "glue", weight * r.
#pragma once

#include "ScoringFunction.h"

namespace pw {

class RingClosureTerm {
public:
    // The weights (the gaussians' and the glue's) are the scoring function's.
    explicit RingClosureTerm(const ScoringFunction& sf);

    // Analytic energies and dE/dr at distance r (for minimization and docking). The glue's
    // linear part is rounded into a parabola below one table step (r < sqrt(1/32) Å, where Vina's
    // own table is linear in r^2 too) so that the gradient is continuous at r = 0.
    double pseudoAtomPair(double r, double* dEdr) const; // Gn with any scored atom but its CGn
    double gluePair(double r, double* dEdr) const;       // Gn with the CGn across the ring bond

    // Vina's tabulated values (precalculate.h eval_fast: the mean of the two ends of the 1/32 Å^2
    // bin of r^2), which its reported scores use; 0 at and beyond the pair's cutoff.
    double pseudoAtomPairTabulated(double r2) const;
    double gluePairTabulated(double r2) const;

private:
    double gaussians(double r, double* dEdr) const; // the terms with optimal distance 0
    double tabulated(double r2, bool glue) const;

    double w1_, w2_;         // gauss1 / gauss2 weights of the scoring function
    double width1_, width2_; // their widths; offsets are Vina's/Vinardo's
    double offset1_, offset2_;
    double glueWeight_;
};

} // namespace pw
