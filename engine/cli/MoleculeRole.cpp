#include "MoleculeRole.h"

#include "CommandLine.h"
#include "chem/LigandPreparation.h"
#include "chem/ReceptorPreparation.h"

namespace pw::cli {

Role roleFromName(const std::string& name) {
    if (name == "auto")
        return Role::Auto;
    if (name == "ligand")
        return Role::Ligand;
    if (name == "receptor")
        return Role::Receptor;
    throw UsageError("--role expects auto, ligand or receptor, got '" + name + "'");
}

const char* roleName(Role role) {
    switch (role) {
    case Role::Ligand: return "ligand";
    case Role::Receptor: return "receptor";
    default: return "auto";
    }
}

Role guessRole(const Molecule& m, FileFormat format) {
    if (format == FileFormat::Pdb)
        return Role::Receptor;
    if (format == FileFormat::Pdbqt && !m.torsionTree && m.atoms.size() > 300)
        return Role::Receptor;
    // Beyond the ligand limit (LigandPreparationOptions::maxHeavyAtoms) a molecule can only be
    // a receptor (a protein written as MOL2 or SDF, as Open Babel's 5sun_protein.mol2).
    if (m.heavyAtomCount() > LigandPreparationOptions{}.maxHeavyAtoms)
        return Role::Receptor;
    return Role::Ligand;
}

void prepareForRole(Molecule& m, Role role, const ReceptorPreparationOptions& receptor) {
    m = role == Role::Receptor ? prepareReceptor(m, receptor) : prepareLigand(m);
}

} // namespace pw::cli
