// ScoringFunction: the Vina and Vinardo pair potentials between XS-typed atoms (energy, dE/dr and
// the per-term breakdown), with their weights; every constant comes from score/VinaConstants.h.
#pragma once

#include "core/AtomTypes.h"

#include <array>
#include <cmath>
#include <memory>
#include <string_view>
#include <vector>

namespace pw {

enum class ScoringKind { Vina, Vinardo };

// Vina's five terms, in its weight order; Vinardo leaves Gauss2 at zero.
enum ScoreTerm : int { Gauss1 = 0, Gauss2, Repulsion, Hydrophobic, HydrogenBond, kScoreTermCount };
using TermArray = std::array<double, kScoreTermCount>;

std::string_view scoreTermName(int term); // "gauss1", "gauss2", "repulsion", "hydrophobic", "hbond"
std::string_view scoringKindName(ScoringKind kind); // "vina", "vinardo"

class ScoringFunction {
public:
    explicit ScoringFunction(ScoringKind kind = ScoringKind::Vina);
    // The same terms with other weights (Vina's --weight_* options; weight_rot stays Vina's, as
    // Vina 1.2.3 itself ignores --weight_rot). Vinardo's Gauss2 weight is always 0.
    ScoringFunction(ScoringKind kind, const TermArray& weights);
    static TermArray defaultWeights(ScoringKind kind);

    ScoringKind kind() const { return kind_; }
    const TermArray& weights() const { return weights_; }
    // Weight of the rotatable-bond divisor: affinity = E / (1 + weightRot * Nrot).
    double weightRot() const { return weightRot_; }
    // Weight of the macrocycle glue (score/RingClosureTerm.h; Vina's --weight_glue).
    double glueWeight() const { return glueWeight_; }
    void setGlueWeight(double w) { glueWeight_ = w; }
    double cutoff() const;
    double cutoffSquared() const { return cutoff() * cutoff(); }
    double radius(XsType t) const;

    // Weighted energy of a pair of typed atoms at distance r (0 beyond the cutoff) and dE/dr.
    // Types are XsType values 0..kXsTypeCount-1 (no None).
    double pairEnergy(int t1, int t2, double r, double* dEdr) const {
        if (r >= cutoff_) {
            *dEdr = 0.0;
            return 0.0;
        }
        return pairEnergyInRange(pair_[t1 * kXsTypeCount + t2], r, dEdr);
    }
    // Unweighted terms of one pair (added to raw); 0 beyond the cutoff.
    void addPairTerms(int t1, int t2, double r, TermArray& raw) const;

    // Vina's tabulated pair energy (precalculate.h eval_fast), which its reported scores and its
    // grids use: samples every 1/32 Å² of r², the value of a bin the mean of its two ends.
    // r2 must be below the squared cutoff (0 is returned at and beyond it).
    double tabulatedEnergy(int t1, int t2, double r2) const {
        const int i = static_cast<int>(kTableSamplesPerA2 * r2);
        if (i >= tableSize_ - 1)
            return 0.0;
        return table_[tablePair_[t1 * kXsTypeCount + t2] * tableSize_ + i];
    }
    static constexpr double kTableSamplesPerA2 = 32.0; // precalculate.h factor

    // The analytic pair energy for the inner loops: the smooth terms (gaussians, repulsion) through
    // a cubic Hermite spline in r^2 (knots every 1/32 Å^2 with exact values and slopes), the
    // piecewise-linear terms (hydrophobic, H-bond) exactly. No exp in the loop, and the returned
    // dE/d(r^2) is the exact derivative of the returned energy (consistent gradients for the
    // minimizer); the energy differs from pairEnergy by ~1e-6 per pair.
    double splineEnergy(int t1, int t2, double r2, double* dEdr2) const {
        if (r2 >= cutoff_ * cutoff_) {
            *dEdr2 = 0.0;
            return 0.0;
        }
        const double s = r2 * kTableSamplesPerA2;
        const int k = static_cast<int>(s);
        const int pair = t1 * kXsTypeCount + t2;
        const double t = s - k;
        const double* c = spline_ + (static_cast<size_t>(tablePair_[pair]) * tableSize_ + k) * 2;
        const double f0 = c[0], m0 = c[1], f1 = c[2], m1 = c[3]; // m: slope x knot step
        const double tt = t * t, ttt = tt * t;
        double e = (2 * ttt - 3 * tt + 1) * f0 + (ttt - 2 * tt + t) * m0 +
                   (-2 * ttt + 3 * tt) * f1 + (ttt - tt) * m1;
        const double de = (6 * tt - 6 * t) * f0 + (3 * tt - 4 * t + 1) * m0 +
                          (-6 * tt + 6 * t) * f1 + (3 * tt - 2 * t) * m1;
        double d2 = de * kTableSamplesPerA2;
        const PairParams& p = pair_[pair];
        if (p.hydrophobic != 0.0 || p.hbond != 0.0) {
            const double r = std::sqrt(r2);
            double dEdr;
            e += rampEnergy(p, r, &dEdr);
            if (r > 0)
                d2 += dEdr / (2 * r);
        }
        *dEdr2 = d2;
        return e;
    }

    // What a device kernel needs to reproduce splineEnergy and tabulatedEnergy exactly
    // (engine/cuda/PairScore*): the tables, their row of each type pair, the ramp shapes.
    struct TableView {
        int tableSize = 0, tableRows = 0;
        const int* tablePair = nullptr; // kXsTypeCount^2 entries: the row of a type pair
        const double* table = nullptr;  // tableRows x tableSize (tabulatedEnergy)
        const double* spline = nullptr; // tableRows x tableSize x 2 (splineEnergy's knots)
        double hydGood = 0, hydBad = 0, hbGood = 0, hbBad = 0;
    };
    TableView tableView() const;
    // The ramp terms of a type pair: optimal distance R_i + R_j, and whether the pair is
    // hydrophobic / donor-acceptor (splineEnergy adds rampEnergy for these).
    void rampShape(int t1, int t2, double* optimal, bool* hydrophobic, bool* hbond) const {
        const PairParams& p = pair_[t1 * kXsTypeCount + t2];
        *optimal = p.optimal;
        *hydrophobic = p.hydrophobic != 0.0;
        *hbond = p.hbond != 0.0;
    }

private:
    struct PairParams {
        double optimal = 0;     // R_i + R_j
        double hydrophobic = 0; // 1 when both atoms are hydrophobic
        double hbond = 0;       // 1 for a donor-acceptor pair
    };
    double pairEnergyInRange(const PairParams& p, double r, double* dEdr) const;
    // The gaussians and repulsion (smooth in r) / the hydrophobic and H-bond ramps.
    double smoothEnergy(const PairParams& p, double r, double* dEdr) const;
    double rampEnergy(const PairParams& p, double r, double* dEdr) const;
    void buildTable();

    ScoringKind kind_;
    TermArray weights_{};
    double weightRot_ = 0;
    double glueWeight_ = 0;
    double cutoff_ = 0;
    // Term shapes (see VinaConstants.h): gaussian offsets and inverse widths, linear ramps.
    double g1Offset_ = 0, g1InvWidth_ = 0, g2Offset_ = 0, g2InvWidth_ = 0;
    double hydGood_ = 0, hydBad_ = 0, hbGood_ = 0, hbBad_ = 0;
    std::array<PairParams, kXsTypeCount * kXsTypeCount> pair_{};
    // Tabulated energies, one row per unordered type pair; shared between copies.
    int tableSize_ = 0;
    std::array<int, kXsTypeCount * kXsTypeCount> tablePair_{};
    std::shared_ptr<const std::vector<double>> tableStore_, splineStore_;
    const double* table_ = nullptr;
    const double* spline_ = nullptr; // per pair row: (value, slope x knot step) per knot
};

} // namespace pw
