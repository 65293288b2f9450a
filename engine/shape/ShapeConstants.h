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

// Radii: ROCS (OpenEye) and PAPER give every heavy atom Bondi's carbon radius (the all-carbon
// default); --radii element takes each element's. Both come from pw::bondiRadius (core/Element.h).

// Colour (pharmacophore) feature Gaussians: our choice, not from a paper: a feature is a point
// with the width of a 1.0 A sphere, narrower than an atom, so that features must nearly coincide
// to score (ROCS's Implicit Mills-Dean colour force field has the same intent).
inline constexpr double kColourRadius = 1.0;

// Tversky weights of ROCS's reference- and fit-biased scores (alpha for the named molecule).
inline constexpr double kTverskyMajor = 0.95;
inline constexpr double kTverskyMinor = 0.05;

} // namespace pw::shape
