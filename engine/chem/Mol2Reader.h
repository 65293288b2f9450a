// Mol2Reader: Tripos MOL2 files (@<TRIPOS>MOLECULE, ATOM, BOND; SYBYL atom types, partial
// charges, aromatic and amide bonds), several molecules per file, read one at a time.
#pragma once

#include "MoleculeReader.h"

#include <istream>
#include <memory>
#include <string>
#include <string_view>

namespace pw {

std::unique_ptr<MoleculeReader> makeMol2Reader(std::unique_ptr<std::istream> in, std::string path,
                                               ReadOptions options);

// Element of a SYBYL atom type ("C.ar" -> 6, "Cl" -> 17, "Du" -> 0); -1 when unknown.
int elementOfSybylType(std::string_view type);

// Checks that a file named .mol2 starts with a @<TRIPOS> section; throws InputError otherwise.
void checkMol2Content(std::string_view head, const std::string& path);

} // namespace pw
