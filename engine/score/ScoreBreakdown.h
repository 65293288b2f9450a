// ScoreBreakdown and VinaScore: what a Vina/Vinardo evaluation reports: the intermolecular and
// intramolecular energies, their per-term split, and the final affinity as Vina --score_only.
#pragma once

#include "ScoringFunction.h"

namespace pw {

struct ScoreBreakdown {
    // Vina's (1) ligand-receptor and (2) ligand internal energy: weighted terms, positive sums
    // softened like Vina (e*1000/(1000+e) per atom / per pair), out-of-box penalty included.
    double inter = 0;
    double intra = 0;
    double outOfBoxPenalty = 0; // part of inter: 1e6 per Å that heavy atoms lie outside the box
    // Per-term sums over all pairs within the cutoff, before softening: raw (unweighted) and
    // weighted. In grid mode these come from exact sums over the receptor atoms.
    TermArray interRaw{}, interWeighted{};
    TermArray intraRaw{}, intraWeighted{};
};

struct VinaScore {
    double affinity = 0;  // "Estimated Free Energy of Binding" = (1)+(2)+(3)+(4)
    double inter = 0;     // (1)
    double intra = 0;     // (2)
    double torsional = 0; // (3) = affinity - (inter + intra - unbound)
    double unbound = 0;   // (4) is -unbound: the ligand's intra energy in its unbound state
    double numTors = 0;   // Vina's Nrot used in the divisor 1 + w * Nrot
    double ringClosure = 0; // macrocycles: the glue of the broken ring bonds (part of unbound)
    ScoreBreakdown terms;
};

} // namespace pw
