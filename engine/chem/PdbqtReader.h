// PdbqtReader: AutoDock PDBQT files: rigid receptors, flexible ligands (ROOT/BRANCH torsion tree)
// and Vina's multi-MODEL output (each MODEL one record, "REMARK VINA RESULT" kept as a property).
// A ligand of several complete trees one after another (Open Babel's salts) keeps its largest
// (PdbqtFragments.h), with a warning.
#pragma once

#include "MoleculeReader.h"

#include <istream>
#include <memory>
#include <string>

namespace pw {

std::unique_ptr<MoleculeReader> makePdbqtReader(std::unique_ptr<std::istream> in, std::string path,
                                                ReadOptions options);

} // namespace pw
