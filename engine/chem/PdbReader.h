// PdbReader: Protein Data Bank files (receptors): ATOM/HETATM of the first MODEL, first alternate
// location, residues with chains and insertion codes, CONECT plus bonds perceived by distance.
#pragma once

#include "MoleculeReader.h"

#include <istream>
#include <memory>
#include <string>

namespace pw {

std::unique_ptr<MoleculeReader> makePdbReader(std::unique_ptr<std::istream> in, std::string path,
                                              ReadOptions options);

} // namespace pw
