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

// One record of a SMILES file as the reader makes it (the same checks, repairs and embedding
// under `options`), with its file and line in messages: a caller that read the file with
// embedSmiles off (fast, in order) embeds the records with it later, in parallel.
Molecule moleculeFromSmilesRecord(const std::string& smiles, const std::string& name,
                                  const ReadOptions& options, const std::string& file, long line);

} // namespace pw
