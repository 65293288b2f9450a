// VinaConstants: every number of the Vina and Vinardo scoring functions, in one place.
// Source: AutoDock Vina 1.2.3 (src/lib/atom_constants.h, scoring_function.h, main.cpp, vina.cpp).
#pragma once

#include "core/AtomTypes.h"

#include <array>

namespace pw::vina {

// XS van der Waals radii in Å, indexed by XsType (atom_constants.h xs_vdw_radii).
constexpr std::array<double, kXsTypeCount> kXsRadiusVina{1.9, 1.9,           // C_H, C_P
                                                         1.8, 1.8, 1.8, 1.8, // N_P, N_D, N_A, N_DA
                                                         1.7, 1.7, 1.7, 1.7, // O_P, O_D, O_A, O_DA
                                                         2.0, 2.1,           // S_P, P_P
                                                         1.5, 1.8, 2.0, 2.2, // F_H, Cl_H, Br_H, I_H
                                                         1.2};               // Met_D
// Vinardo radii (atom_constants.h xs_vinardo_vdw_radii; Quiroga & Villarreal, PLoS ONE 2016).
constexpr std::array<double, kXsTypeCount> kXsRadiusVinardo{2.0, 2.0,           // C_H, C_P
                                                            1.7, 1.7, 1.7, 1.7, // N_*
                                                            1.6, 1.6, 1.6, 1.6, // O_*
                                                            2.0, 2.1,           // S_P, P_P
                                                            1.5, 1.8, 2.0, 2.2, // halogens
                                                            1.2};               // Met_D

// Pair cutoff on the centre-centre distance r (scoring_function.h: m_cutoff = 8.0).
constexpr double kCutoff = 8.0;

// Vina terms on the surface distance d = r - R_i - R_j (scoring_function.h, SF_VINA):
// gauss(offset 0, width 0.5), gauss(offset 3, width 2), repulsion(offset 0),
// hydrophobic(good 0.5, bad 1.5), non-directional H-bond(good -0.7, bad 0).
constexpr double kVinaGauss1Offset = 0.0, kVinaGauss1Width = 0.5;
constexpr double kVinaGauss2Offset = 3.0, kVinaGauss2Width = 2.0;
constexpr double kVinaHydrophobicGood = 0.5, kVinaHydrophobicBad = 1.5;
constexpr double kVinaHbondGood = -0.7, kVinaHbondBad = 0.0;
// Default weights (main.cpp 1.2.3): gauss1, gauss2, repulsion, hydrophobic, hydrogen, rot.
constexpr std::array<double, 5> kVinaWeights{-0.035579, -0.005156, 0.840245, -0.035069, -0.587439};
constexpr double kVinaWeightRot = 0.05846;

// Vinardo terms (scoring_function.h, SF_VINARDO): gauss(offset 0, width 0.8), repulsion,
// hydrophobic(good 0, bad 2.5), H-bond(good -0.6, bad 0); no second gaussian.
constexpr double kVinardoGaussOffset = 0.0, kVinardoGaussWidth = 0.8;
constexpr double kVinardoHydrophobicGood = 0.0, kVinardoHydrophobicBad = 2.5;
constexpr double kVinardoHbondGood = -0.6, kVinardoHbondBad = 0.0;
// Weights (main.cpp 1.2.3): gauss1, (gauss2 unused), repulsion, hydrophobic, hydrogen, rot.
constexpr std::array<double, 5> kVinardoWeights{-0.045, 0.0, 0.8, -0.035, -0.600};
constexpr double kVinardoWeightRot = 0.05846;

// Macrocycle ring closure (Meeko's CGn/Gn, score/RingClosureTerm.h): the linear attraction
// pulling each Gn onto its partner CGn (main.cpp --weight_glue default 50, potentials.h
// linearattraction with its cutoff of 20 Å, scoring_function.h max cutoff 20 Å).
constexpr double kGlueWeight = 50.0;
constexpr double kGlueCutoff = 20.0;

// Positive energies are softened per ligand atom (inter) and per pair (intra) as
// e * v / (v + e) with v = 1000 (curl.h, vina.cpp authentic_v).
constexpr double kCurlV = 1000.0;
// Penalty per Å an atom lies outside the box (vina.cpp compute_vina_maps: slope = 1e6).
constexpr double kOutOfBoxSlope = 1e6;
// Grid spacing (main.cpp default --spacing 0.375).
constexpr double kGridSpacing = 0.375;
// Autobox padding around the ligand, Å per side (main.cpp buffer_size = 4, like smina's
// --autobox_add 4).
constexpr double kAutoboxPadding = 4.0;

// Bond perception (model.cpp assign_bonds): bonded when r < 1.1 * (Rcov_i + Rcov_j).
constexpr double kBondLengthAllowance = 1.1;
// Vina's covalent radii by AD4 type (atom_constants.h atom_kind_data, from Wikipedia's
// "Atomic radii of the elements" data page), Å.
struct CovalentRadius {
    const char* ad4;
    double radius;
};
constexpr std::array<CovalentRadius, 31> kAd4CovalentRadius{{
    {"C", 0.77},  {"A", 0.77},  {"N", 0.75},   {"O", 0.73},   {"P", 1.06},   {"S", 1.02},
    {"H", 0.37},  {"F", 0.71},  {"I", 1.33},   {"NA", 0.75},  {"OA", 0.73},  {"SA", 1.02},
    {"HD", 0.37}, {"Mg", 1.30}, {"Mn", 1.39},  {"Zn", 1.31},  {"Ca", 1.74},  {"Fe", 1.25},
    {"Cl", 0.99}, {"Br", 1.14}, {"Si", 1.11},  {"At", 1.44},  {"G0", 0.77},  {"G1", 0.77},
    {"G2", 0.77}, {"G3", 0.77}, {"CG0", 0.77}, {"CG1", 0.77}, {"CG2", 0.77}, {"CG3", 0.77},
    {"W", 0.0},
}};
// Largest radius of that table (Ca), used by Vina to find bond candidates.
constexpr double kMaxCovalentRadius = 1.74;
// Metals unknown to AD4 (Cu, Na, K, ...) (atom_constants.h metal_covalent_radius).
constexpr double kMetalCovalentRadius = 1.75;

} // namespace pw::vina
