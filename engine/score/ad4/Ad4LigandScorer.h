// Ad4LigandScorer: the AutoDock 4.2 energy of one ligand on a set of AD4 grid maps.
//
// Two forms of the same model:
//  - score(): autodock4 4.2.6's own arithmetic (trilinear map interpolation with float weights,
//    internal energy from its r^2-sampled, `smooth 0.5` tables with the 8 Å cutoff): its parts
//    equal what `autodock4` prints for an `epdb` run (tests/score/test_ad4_ligand_scorer.cpp);
//  - energyAndGradient(): the analytic twin for the docking search (closed-form smoothed pair
//    potentials, exact dielectric and desolvation, the maps' trilinear interpolant), with dE/dx;
//    its internal part is read from cubic Hermite splines in r^2 of those closed forms (exact
//    value and slope every 1/64 Å^2), intraAnalytic() evaluates them directly.
//
// Inputs: a ligand with AutoDock 4 types, partial charges and (for flexible ligands) a torsion
// tree, as the PDBQT reader gives it; TORSDOF is read from the "TORSDOF" property, else it is
// the torsion count. Every evaluation is const and touches no shared mutable state: one scorer
// may serve many threads.
#pragma once

#include "core/Molecule.h"
#include "score/ad4/Ad4Maps.h"
#include "score/ad4/Ad4PairTerms.h"
#include "score/ad4/Ad4Parameters.h"

#include <memory>
#include <utility>
#include <vector>

namespace pw::ad4 {

// What "(4) Unbound System's Energy" is: 0 in a single-point `epdb` run, the pose's own internal
// energy for docked poses under autodock4 4.2's default `unbound_model bound` (then the free
// energy of binding is inter + torsional).
enum class UnboundModel { Zero, SameAsBound };

// The parts autodock4 prints for a pose ("epdb: USER ..." or "DOCKED: USER ..." lines).
struct Ad4Energy {
    double interVdwHbDesolv = 0; // "vdW + Hbond + desolv Energy"
    double interElec = 0;        // "Electrostatic Energy"
    double intra = 0;            // "(2) Final Total Internal Energy"
    double torsional = 0;        // "(3) Torsional Free Energy": TORSDOF * FE_coeff_tors
    double unbound = 0;          // "(4) Unbound System's Energy" (0 for a single-point epdb)
    double inter() const { return interVdwHbDesolv + interElec; } // "(1) Final Intermolecular Energy"
    // "Estimated Free Energy of Binding" = (1) + (2) + (3) - (4)
    double freeEnergy() const { return inter() + intra + torsional - unbound; }

    struct AtomTerms {
        double vdwHb = 0, elec = 0, desolv = 0; // intermolecular, per ligand atom
    };
    std::vector<AtomTerms> perAtom;
};

class Ad4LigandScorer {
public:
    // maps is referenced, not copied: it must outlive the scorer. Throws InputError (naming the
    // ligand's source file) for an atom type AD4.1_bound does not know or that has no map.
    Ad4LigandScorer(const Molecule& ligand, const Ad4Maps& maps);
    ~Ad4LigandScorer();
    Ad4LigandScorer(Ad4LigandScorer&&) noexcept;

    // One internal (intramolecular) pair with everything its energy needs, for other backends
    // (a GPU kernel) to evaluate the same model: E = vdW/H-bond(coeffs, smoothed)
    // + q1q2Scaled / (r eps(r)) + coeff_desolv * desolv * exp(-r^2 / (2 sigma^2)).
    struct InternalPair {
        int i, j;
        int table;          // autodock4 table of the type pair (internal)
        double q1q2Scaled;  // q_i q_j * 332.06363 * FE_coeff_estat
        double desolv;      // desolvationPairFactor(i, j), unweighted
        PairCoefficients coeffs;
    };

    int atomCount() const { return static_cast<int>(mapOfAtom_.size()); }
    // Per atom: its affinity map index in maps() and its partial charge.
    const std::vector<int>& mapOfAtom() const { return mapOfAtom_; }
    const std::vector<double>& charges() const { return charge_; }
    const std::vector<InternalPair>& internalPairTerms() const { return internal_; }
    int torsdof() const { return torsdof_; }
    const std::vector<std::pair<int, int>>& internalPairs() const { return pairs_; }
    const Ad4Maps& maps() const { return maps_; }

    // autodock4's numbers for these coordinates (one per ligand atom).
    Ad4Energy score(const std::vector<Eigen::Vector3d>& coords,
                    UnboundModel unbound = UnboundModel::Zero) const;

    // The search objective, inter + intra (what AutoDock-GPU reports as "inter + intra"), in the
    // analytic form; gradient (resized to atomCount()) receives dE/dx when given. Atoms outside
    // the grid pay autodock4's penalty, 500 kcal/mol/Å^2 times their squared distance from the
    // grid centre, counted twice as autodock4 counts it (as vdW and as electrostatics).
    double energyAndGradient(const std::vector<Eigen::Vector3d>& coords,
                             std::vector<Eigen::Vector3d>* gradient = nullptr) const;
    // The analytic form's parts (gradient, when given, is added to; it must be sized).
    double interAnalytic(const std::vector<Eigen::Vector3d>& coords,
                         std::vector<Eigen::Vector3d>* gradient) const;
    double intraAnalytic(const std::vector<Eigen::Vector3d>& coords,
                         std::vector<Eigen::Vector3d>* gradient) const;
    // intraAnalytic from the splines (what energyAndGradient uses): within ~1e-6 of it.
    double intraSpline(const std::vector<Eigen::Vector3d>& coords,
                       std::vector<Eigen::Vector3d>* gradient) const;

private:
    struct Tables; // autodock4's sampled energy tables
    // Throws std::invalid_argument (a caller's bug, not bad input) unless one coordinate per atom.
    void requireAtomCount(const std::vector<Eigen::Vector3d>& coords) const;

    const Ad4Maps& maps_;
    std::vector<int> mapOfAtom_;
    std::vector<double> charge_;
    std::vector<std::pair<int, int>> pairs_;
    std::vector<InternalPair> internal_;
    int torsdof_ = 0;
    std::unique_ptr<Tables> tables_;
};

} // namespace pw::ad4
