// MoleculeWriter: writes molecules as SDF (with SD tags), PDBQT (ligand torsion tree or receptor)
// or PDB. Files are written to a temporary name and renamed, so nothing half-written is left.
#pragma once

#include "MoleculeReader.h"

#include <memory>
#include <string>
#include <vector>

namespace pw {

class MoleculeWriter {
public:
    virtual ~MoleculeWriter() = default;
    // Format from the extension (sdf, pdbqt, pdb); throws InputError for others.
    static std::unique_ptr<MoleculeWriter> create(const std::string& path);
    virtual void write(const Molecule& m) = 0;
    // Flushes and renames the temporary file onto the target; without commit() (an exception,
    // a cancel) the destructor removes the temporary file and the target is untouched.
    virtual void commit() = 0;
};

void writeMolecules(const std::string& path, const std::vector<Molecule>& molecules);

} // namespace pw
