// Element: atomic numbers, symbols and the few per-element constants the engine needs.
// Symbols follow IUPAC; covalent radii are from Cordero et al., Dalton Trans. 2008, 2832.
#pragma once

#include <string>
#include <string_view>

namespace pw {

// Atomic number from a symbol, case-insensitive ("CL", "Cl", "cl"); 0 when unknown.
int elementFromSymbol(std::string_view symbol);
// Symbol with conventional capitalisation ("Cl"); "?" for 0 or unknown numbers.
std::string_view elementSymbol(int atomicNumber);
// Covalent radius in Å (Cordero 2008); 1.5 for elements without a tabulated value.
double covalentRadius(int atomicNumber);
bool isMetal(int atomicNumber);
// Van der Waals radius in Å from Bondi, J. Phys. Chem. 1964, 68, 441 (the one table of them: the
// Gaussian shape engine and the drawn molecular surfaces both read it). Elements not tabulated
// here take carbon's 1.70 Å.
double bondiRadius(int atomicNumber);

} // namespace pw
