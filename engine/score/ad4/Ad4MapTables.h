// Ad4MapTables: the distance tables autogrid 4.2.6 fills before it sweeps the grid: one smoothed
// van der Waals / H-bond pair table per (map type, receptor type), the desolvation Gaussian and the
// inverse dielectric, all sampled every 0.01 Å and read by truncating r * 100.
#pragma once

#include "score/ad4/Ad4PairTerms.h"
#include "score/ad4/Ad4Parameters.h"

#include <vector>

namespace pw::ad4 {

// autogrid 4.2.6's table layout (the Debian build's log prints NEINT=2048 and NDIEL=16384, and its
// tables step 0.01 Å).
inline constexpr int kMapTableDivisions = 100;   // samples per Å (A_DIV)
inline constexpr int kMapPairTableSize = 2048;   // van der Waals / H-bond samples (NEINT)
inline constexpr int kMapLongTableSize = 16384;  // electrostatic / desolvation samples (NDIEL)
inline constexpr double kMapApproxZero = 1.0e-6; // autogrid's guard against division by zero
// autogrid converts charges with 332.0 (its `factor`), not autodock4's 332.06363.
inline constexpr double kMapCoulombFactor = 332.0;

// Smoothed pair table of one ligand (map) type against one receptor type: the 12-6 or 12-10
// energy of Ad4PairTerms, clamped, sample 0 at the clamp and the last at 0, then each sample
// replaced by the lowest within +/- smooth/2 (autogrid's "smooth").
std::vector<double> mapPairTable(const AtomParameters& map, const AtomParameters& receptor,
                                 double smooth, const FreeEnergyCoefficients& fe);

// The same table, computed once per process for each (map type, receptor type, smooth, weights)
// and then copied from memory (tables do not depend on the receptor's atoms). Thread-safe.
std::vector<double> cachedMapPairTable(const AtomParameters& map, const AtomParameters& receptor,
                                       double smooth, const FreeEnergyCoefficients& fe);

// coeff_desolv * exp(-r^2 / (2 sigma^2)); sample 0 is 0 as autogrid leaves it.
std::vector<double> mapDesolvationTable(const FreeEnergyCoefficients& fe);
// 332 / eps(r) with the Mehler-Solmajer dielectric when `distanceDependent`, else 332 / constant
// (autogrid: a constant <= 0 means 40).
std::vector<double> mapInverseDielectricTable(bool distanceDependent, double constant = 40.0);

// Index autogrid reads a table at for distance r: (int)(r * 100), capped at the last sample.
inline int mapTableIndex(double r, int size) {
    const int i = static_cast<int>(r * kMapTableDivisions);
    return i < size - 1 ? i : size - 1;
}

} // namespace pw::ad4
