// ShapeConstants: the numbers of the first-order Gaussian shape model, each with its source.
// Shared by the CPU reference (engine/shape) and the CUDA kernels (engine/cuda), float or double.
#pragma once

namespace pw::shape {

// Grant & Pickup, J. Phys. Chem. 1995, 99, 3503 and Grant, Gallardo & Pickup, J. Comput. Chem.
// 1996, 17, 1653: an atom is p * exp(-alpha r^2) with p = 2*sqrt(2) and alpha = kappa / R^2,
// kappa = 2.41798793102 (the value that makes one Gaussian's volume equal the hard sphere's).
inline constexpr double kGaussianP = 2.8284271247461903; // 2*sqrt(2)
inline constexpr double kGaussianPSquared = 8.0;
inline constexpr double kKappa = 2.41798793102;
inline constexpr double kPi = 3.14159265358979323846;

// ROCS (OpenEye) and PAPER use one radius for every heavy atom: 1.70 A, Bondi's carbon.
inline constexpr double kCarbonRadius = 1.70;

// Colour (pharmacophore) feature Gaussians: our choice, not from a paper: a feature is a point
// with the width of a 1.0 A sphere, narrower than an atom, so that features must nearly coincide
// to score (ROCS's Implicit Mills-Dean colour force field has the same intent).
inline constexpr double kColourRadius = 1.0;

// Bondi, J. Phys. Chem. 1964, 68, 441 (van der Waals radii, A), used with --radii element.
// Elements Bondi does not list take the carbon radius.
constexpr double bondiRadius(int atomicNumber) {
    switch (atomicNumber) {
    case 1:
        return 1.20;
    case 6:
        return 1.70;
    case 7:
        return 1.55;
    case 8:
        return 1.52;
    case 9:
        return 1.47;
    case 14:
        return 2.10;
    case 15:
        return 1.80;
    case 16:
        return 1.80;
    case 17:
        return 1.75;
    case 34:
        return 1.90;
    case 35:
        return 1.85;
    case 53:
        return 1.98;
    default:
        return kCarbonRadius;
    }
}

// Tversky weights of ROCS's reference- and fit-biased scores (alpha for the named molecule).
inline constexpr double kTverskyMajor = 0.95;
inline constexpr double kTverskyMinor = 0.05;

} // namespace pw::shape
