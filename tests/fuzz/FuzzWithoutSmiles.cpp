// The fuzz build's reader library leaves RDKit out (tests/fuzz/CMakeLists.txt); MoleculeReader
// names the SMILES reader for .smi paths, which the targets never open (they read streams).
// This stands in for it at link time and says so if it is ever reached.
#include "chem/SmilesReader.h"
#include "core/InputError.h"

namespace pw {

std::unique_ptr<MoleculeReader> openSmilesReader(const std::string& path, ReadOptions) {
    throw InputError(path, 0, "SMILES files are not part of the fuzz build's reader library");
}

} // namespace pw
