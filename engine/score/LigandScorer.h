// LigandScorer: the Vina/Vinardo energy of one ligand against a receptor, from Cartesian
// coordinates, with dE/dx per atom: on precomputed grids or exactly over receptor atoms.
#pragma once

#include "ReceptorGrid.h"
#include "ReceptorModel.h"
#include "RingClosureTerm.h"
#include "ScoreBreakdown.h"
#include "ScoringFunction.h"
#include "VinaTopology.h"

#include <optional>
#include <vector>

namespace pw {

class LigandScorer {
public:
    // Precomputes the ligand's types, intramolecular pairs and Nrot (Vina's rules, VinaTopology).
    // sf, receptor and grid are referenced, not copied: they must outlive the scorer. With a
    // grid, the intermolecular energy is read from its maps (Vina's default for docking);
    // without, it is summed over the receptor atoms (Vina's --score_only/--local_only refinement).
    LigandScorer(const Molecule& ligand, const ScoringFunction& sf, const ReceptorModel& receptor,
                 const ReceptorGrid* grid = nullptr);

    bool usesGrid() const { return grid_ != nullptr; }
    // How the grid maps are read (Vina's trilinear by default; a tricubic for well-conditioned
    // minimization, ReceptorGrid.h). Affects interEnergy/evaluate and grid-mode finalScore.
    void setGridInterpolation(GridInterpolation m) { interpolation_ = m; }
    GridInterpolation gridInterpolation() const { return interpolation_; }
    int atomCount() const { return static_cast<int>(types_.size()); }
    const VinaLigandTopology& topology() const { return topo_; }
    const ScoringFunction& scoringFunction() const { return sf_; }
    const ReceptorModel& receptor() const { return receptor_; }
    // XS types present in the ligand: the maps a grid for it needs.
    std::vector<XsType> typesNeeded() const;

    // inter + intra for the given coordinates (one per ligand atom, hydrogens included). When
    // gradient is given it receives dE/dx per atom (zero for hydrogens; resized if needed).
    // Allocation-free when gradient already has the right size and terms is null.
    double evaluate(const std::vector<Vec3>& coords, std::vector<Vec3>* gradient = nullptr,
                    ScoreBreakdown* terms = nullptr) const;
    double interEnergy(const std::vector<Vec3>& coords, std::vector<Vec3>* gradient,
                       double* penalty = nullptr) const; // adds to *gradient
    // The ligand's internal energy, macrocycle ring-closure pairs included (RingClosureTerm).
    double intraEnergy(const std::vector<Vec3>& coords, std::vector<Vec3>* gradient) const;

    // Vina's final numbers for a pose, computed as Vina reports them: from its tabulated
    // potential (ScoringFunction::tabulatedEnergy) over receptor atoms, or from the grid in grid
    // mode, so they agree with Vina's printout to its last digit; evaluate() uses the analytic
    // potential instead (exact gradients), within a few hundredths of these numbers.
    // unbound: the ligand's intra energy in its unbound state; Vina --score_only and
    // --local_only take the pose's own intra energy plus its ring-closure glue (the default).
    VinaScore finalScore(const std::vector<Vec3>& coords,
                         std::optional<double> unbound = std::nullopt) const;
    // The affinity for an energy E = inter + intra - unbound: E / (1 + w * Nrot).
    double affinityFromEnergy(double e) const;

    // The tabulated sums behind finalScore (Vina's non_cache::eval and model::evali).
    double interTabulated(const std::vector<Vec3>& coords, double* penalty = nullptr) const;
    double intraTabulated(const std::vector<Vec3>& coords) const;
    // Vina's tabulated glue of a macrocycle (Gn with the CGn across each broken ring bond); 0
    // for other ligands. Vina counts it in the unbound energy, not in (2) intra.
    double glueTabulated(const std::vector<Vec3>& coords) const;
    // The same glue with every ring closed (each Gn on its CGn): Vina's value for a closed pose.
    double closedRingGlue() const;

private:
    // Out-of-box handling of the exact mode: the point to score, its penalty and gradient.
    Vec3 clampToRegion(const Vec3& x, double& penalty, Vec3& penaltyGrad, bool clamped[3]) const;
    // The pseudo-atom and glue pairs of a macrocycle, analytic (adds to *gradient).
    double closureEnergy(const std::vector<Vec3>& coords, std::vector<Vec3>* gradient) const;
    void addTerms(const std::vector<Vec3>& coords, ScoreBreakdown& t) const;

    const ScoringFunction& sf_;
    RingClosureTerm closure_;
    const ReceptorModel& receptor_;
    const ReceptorGrid* grid_;
    GridInterpolation interpolation_ = GridInterpolation::Trilinear;
    VinaLigandTopology topo_;
    std::vector<int> types_; // per atom: XsType value, -1 for untyped
    std::vector<int> heavy_; // typed atom indices
    struct Pair {
        int i, j, ti, tj;
    };
    std::vector<Pair> pairs_;
};

} // namespace pw
