// Placeholder until the RDKit-backed reader lands: says so clearly instead of failing to link.
#include "SmilesReader.h"

#include "core/InputError.h"

namespace pw {

std::unique_ptr<MoleculeReader> openSmilesReader(const std::string& path, ReadOptions) {
    throw InputError(path, 0, "SMILES reading is not available in this build yet");
}

Molecule moleculeFromSmiles(const std::string&, const std::string&, bool, const std::string& where) {
    throw InputError(where, 0, "SMILES reading is not available in this build yet");
}

} // namespace pw
