// Ad4PairTerms: the AutoDock 4.2 pair potentials as plain functions, the one definition that the
// ligand scorer (internal energy) and the grid-map builder (receptor-ligand maps) share.
//
//  - van der Waals 12-6 and hydrogen-bond 12-10: E = cA/r^12 - cB/r^xB, clamped at kEnergyClamp,
//    with cA, cB from the pair's Rij and (weighted) epsij as autodock4 builds them;
//  - `smooth`: AutoDock replaces E(r) by the minimum of E over [r - w/2, r + w/2] (w = 0.5 Å);
//  - electrostatics with the Mehler-Solmajer distance-dependent dielectric;
//  - desolvation: a Gaussian of sigma 3.6 Å times vol/solpar factors with the charge term qsolpar.
#pragma once

#include "score/ad4/Ad4Parameters.h"

#include <functional>
#include <vector>

namespace pw::ad4 {

// Coefficients of one type pair: E(r) = cA / r^xA - cB / r^xB, already weighted by the FE
// coefficient (vdW or hbond) as autodock4 weights epsilon when it reads the parameter set.
struct PairCoefficients {
    double Rij = 0;   // equilibrium distance (Å)
    double epsij = 0; // weighted well depth (kcal/mol)
    double cA = 0;
    double cB = 0;
    int xA = 12;
    int xB = 6;       // 6: van der Waals, 10: hydrogen bond
    bool hbond = false;
};

// The pair's coefficients: a donor (HD, HS) with an acceptor (NA, NS, OA, OS, SA) is a 12-10
// H-bond with the acceptor's Rij_hb/epsij_hb; any other pair is 12-6 with the arithmetic mean of
// Rii and the geometric mean of the weighted epsii. Symmetric in (a, b).
PairCoefficients pairCoefficients(const AtomParameters& a, const AtomParameters& b,
                                  const FreeEnergyCoefficients& fe = boundCoefficients());

// Unsmoothed pair energy at r > 0: min(kEnergyClamp, cA/r^xA - cB/r^xB).
double pairEnergy(const PairCoefficients& c, double r);

// The smoothed pair energy in closed form (the minimum of the unsmoothed curve over
// [r - w/2, r + w/2], the curve having one minimum at Rij) and its derivative dE/dr; the analytic
// twin of the tables, for gradients. Below the clamp it equals the table's limit as the sampling
// gets finer.
double smoothedPairEnergy(const PairCoefficients& c, double r, double smoothWidth, double* dEdr);

// Mehler-Solmajer distance-dependent dielectric eps(r) (1 where the formula falls below 1e-6).
double mehlerSolmajerDielectric(double r);
// d eps / dr, for gradients.
double mehlerSolmajerDielectricDerivative(double r);

// Electrostatic energy of charges qi, qj at r, weighted: coeff_estat * 332.06363 qi qj / (r eps(r)).
double electrostaticEnergy(double qi, double qj, double r,
                           const FreeEnergyCoefficients& fe = boundCoefficients());

// The desolvation Gaussian exp(-r^2 / (2 sigma^2)), sigma = 3.6 Å, unweighted.
double desolvationGaussian(double r);

// The desolvation pair factor: vol_j (solpar_i + qsolpar |q_i|) + vol_i (solpar_j + qsolpar |q_j|).
// The pair's weighted desolvation energy is coeff_desolv * factor * desolvationGaussian(r).
double desolvationPairFactor(const AtomParameters& i, double qi, const AtomParameters& j, double qj);

// AutoDock's `smooth`: out[i] = min of values[j] over the indices j of the distance window
// [r_i - w/2, r_i + w/2], r_i = distanceOf(i), the window's ends mapped by indexOf (clamped to
// the table). Used on tables sampled in r (autogrid) or in r^2 (autodock4).
std::vector<double> smoothWithWindowMinimum(const std::vector<double>& values, double width,
                                            const std::function<double(int)>& distanceOf,
                                            const std::function<int(double)>& indexOf);

} // namespace pw::ad4
