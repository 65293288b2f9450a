// FlexScorer: Vina 1.2.3's energy of a ligand pose together with flexible receptor side chains
// (--flex), split the way Vina --score_only prints it: (1) ligand-receptor and ligand-flex,
// (2) ligand internal, flex-receptor and flex-flex, (3) torsional, (4) unbound.
#pragma once

#include "FlexModel.h"
#include "score/LigandScorer.h"

#include <vector>

namespace pw {

struct FlexScore {
    double affinity = 0;       // (1) + (2) + (3) + (4)
    double ligandReceptor = 0; // ligand against the rigid receptor (out-of-box penalty included)
    double ligandFlex = 0;     // ligand against the moving flexible atoms
    double ligandIntra = 0;    // the ligand's internal pairs
    double flexReceptor = 0;   // moving flexible atoms against the rigid receptor
    double flexFlex = 0;       // pairs among flexible atoms (inside and between residues)
    double torsional = 0;      // (3) = affinity - (inter + intra - unbound)
    double unbound = 0;        // (4) is -unbound (Vina: flex-receptor read from its grid maps)
    double inter() const { return ligandReceptor + ligandFlex; }           // (1)
    double intra() const { return ligandIntra + flexReceptor + flexFlex; } // (2)
};

class FlexScorer {
public:
    // ligand: an exact-mode scorer (no grid) whose receptor is the rigid part; flex: its side
    // chains. unboundGrid: Vina's maps of the moving flexible atoms' types over the box (Vina
    // takes the flex-receptor part of the unbound energy from its maps); without it the exact
    // sum is used there too. All are referenced and must outlive the scorer.
    FlexScorer(const LigandScorer& ligand, const FlexModel& flex,
               const ReceptorGrid* unboundGrid = nullptr);

    const LigandScorer& ligand() const { return ligand_; }
    const FlexModel& flex() const { return flex_; }

    // Vina's reported numbers (its tabulated potential) for ligand and flexible coordinates.
    FlexScore finalScore(const std::vector<Vec3>& ligandCoords,
                         const std::vector<Vec3>& flexCoords) const;

    // What the minimizer descends (Vina's eval_deriv with flexible residues): ligand inter and
    // intra, ligand-flex, flex-receptor and flex-flex, from the analytic potential (exact
    // gradients). ligandGradient / flexGradient (resized and zeroed) receive dE/dx when given.
    double evaluate(const std::vector<Vec3>& ligandCoords, const std::vector<Vec3>& flexCoords,
                    std::vector<Vec3>* ligandGradient, std::vector<Vec3>* flexGradient) const;

    // The same energy read as Vina's --local_only moves (its eval_deriv on the maps): ligand and
    // moving flexible atoms against the rigid receptor from `grid` (trilinear, Vina's curl and
    // out-of-box penalty), the pairs analytic. gridLigand: the ligand's scorer on that grid.
    double evaluateOnGrid(const LigandScorer& gridLigand, const ReceptorGrid& grid,
                          const std::vector<Vec3>& ligandCoords,
                          const std::vector<Vec3>& flexCoords, std::vector<Vec3>* ligandGradient,
                          std::vector<Vec3>* flexGradient) const;

    // The parts, tabulated (Vina's numbers) or analytic with gradients (added to the arrays).
    double ligandFlexTabulated(const std::vector<Vec3>& lig, const std::vector<Vec3>& flex) const;
    double flexReceptorTabulated(const std::vector<Vec3>& flex) const;
    double flexReceptorGrid(const std::vector<Vec3>& flex) const;
    double flexFlexTabulated(const std::vector<Vec3>& flex) const;

private:
    double ligandFlexAnalytic(const std::vector<Vec3>& lig, const std::vector<Vec3>& flex,
                              std::vector<Vec3>* ligGrad, std::vector<Vec3>* flexGrad) const;
    double flexReceptorAnalytic(const std::vector<Vec3>& flex, std::vector<Vec3>* grad) const;
    double flexFlexAnalytic(const std::vector<Vec3>& flex, std::vector<Vec3>* grad) const;
    // One atom against the rigid receptor: Vina's box clamp (1e6 per Å outside), the sum over
    // receptor atoms within the cutoff, softened (curl); gradient added to *grad when given.
    double atomVsReceptor(int type, const Vec3& x, bool tabulated, Vec3* grad) const;

    const LigandScorer& ligand_;
    const FlexModel& flex_;
    const ReceptorGrid* unboundGrid_;
    const ScoringFunction& sf_;
    struct Pair {
        int lig, flex, tl, tf;
    };
    std::vector<Pair> ligandFlexPairs_;
};

} // namespace pw
