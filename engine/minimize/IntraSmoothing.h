// IntraSmoothing: C1 corrections of the ligand's intramolecular pair potential (rounded
// hydrophobic/H-bond ramp kinks, force-shifted cutoff), added to the mover's energy while
// minimizing.
#pragma once

#include "score/LigandScorer.h"

#include <vector>

namespace pw {

// A ramp (value 1 at `good`, 0 at `bad`, linear between, in the surface distance d) has a kink at
// each end; a pair resting at a kink stops BFGS short of convergence (its gradient jumps), which
// makes the minimized pose depend on rounding (tests/bench/RESULTS.md, 3ce3). Within halfWidth of
// each kink the ramp is replaced by the quadratic that joins the two slopes: C1, at most
// slope * halfWidth / 4 from the ramp (0.01 kcal/mol per H-bond pair at 0.05 A). Only intra pairs:
// the receptor maps are sampled, so a tricubic read makes the inter part C1 already.
// The pair potential also stops at the 8 A cutoff with a jump (Vina's second gaussian is still
// -0.004 kcal/mol there), which stalls line searches as pairs cross it; with shiftCutoff each pair
// gets -(E(rc2) + (r2 - rc2) dE/dr2(rc2)) below the cutoff (in r^2), so value and slope reach 0
// there. Neither correction touches the reported scores (Vina's affinity leaves intra out).
class IntraSmoothing {
public:
    IntraSmoothing(const LigandScorer& scorer, double rampHalfWidth, bool shiftCutoff);

    bool empty() const { return pairs_.empty(); }
    // Correction to add to the energy; adds its dE/dx to gradient (when given).
    double evaluate(const std::vector<Vec3>& coords, std::vector<Vec3>* gradient) const;

    // The shift of a type pair at the cutoff: E(rc2) and dE/dr2(rc2) of the scorer's spline.
    static void cutoffShift(const ScoringFunction& sf, int t1, int t2, double& value,
                            double& slope);
    // The correction of one ramp at surface distance d (weight 1) and its derivative: shared with
    // the GPU kernel's formula and the tests.
    static double correction(double good, double bad, double halfWidth, double d, double* dd);

private:
    struct Pair {
        int i, j;
        double optimal;                // R_i + R_j
        double hydWeight;              // term weight when the pair is hydrophobic, else 0
        double hbWeight;               // term weight when it is a donor-acceptor pair, else 0
        double shiftValue, shiftSlope; // cutoff shift (0 when off)
    };
    std::vector<Pair> pairs_;
    double halfWidth_;
    double cutoff2_;
    double hydGood_, hydBad_, hbGood_, hbBad_, cutoff_;
};

} // namespace pw
