// ElementColors: the colour of each element in the molecule view (CPK convention as tabulated by
// Jmol), with the carbon colour chosen by the drawing style so ligands stand out from the receptor.
#pragma once

#include "MoleculeDrawing.h"

#include <array>
#include <cstdint>

namespace pw {

using Rgb = std::array<std::uint8_t, 3>;

// Jmol's CPK colour for an atomic number; a magenta "unknown" colour for 0 and untabulated numbers.
Rgb elementColor(int atomicNumber);
// The colour an atom is drawn with in a given style: carbons take the style's colour.
Rgb atomColor(int atomicNumber, DrawStyle style);

} // namespace pw
