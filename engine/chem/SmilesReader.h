// SmilesReader: SMILES files (one molecule per line: SMILES, then an optional name), parsed by
// RDKit; molecules get explicit hydrogens and 3D coordinates (ETKDG + MMFF) when asked.
#pragma once

#include "MoleculeReader.h"

#include <memory>
#include <string>

namespace pw {

std::unique_ptr<MoleculeReader> openSmilesReader(const std::string& path, ReadOptions options);

// One SMILES string to a molecule (3D when embed is true). Throws InputError naming `where`.
Molecule moleculeFromSmiles(const std::string& smiles, const std::string& name, bool embed,
                            const std::string& where = "<smiles>");

} // namespace pw
