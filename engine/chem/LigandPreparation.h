// LigandPreparation: turns a ligand from any reader into one ready to score and dock: explicit
// hydrogens, Gasteiger charges, AD4 and XS types, rotatable bonds and a Vina torsion tree.
#pragma once

#include "core/Molecule.h"
#include "core/RotatableBonds.h"

#include <string>

namespace pw {

struct LigandPreparationOptions {
    RotatableBondOptions bonds;      // amide flexibility, polar-hydrogen torsions
    int maxHeavyAtoms = 1000;        // larger records are not ligands (a protein read by mistake)
    int maxTorsions = 64;            // beyond this a flexible search is hopeless
    bool keepLargestFragment = true; // drop counter-ions and salts (keeps most heavy atoms)
    bool computeCharges = true;      // Gasteiger-Marsili via RDKit; false keeps charges as read
    // Bounds on generating 3D coordinates (inputs without coordinates, or flat 2D ones). RDKit's
    // default of 10 x atom count ETKDG attempts let a flat 300-atom input run for minutes.
    int maxEmbedAttempts = 100;    // ETKDG attempts per try (with and without random coordinates)
    double maxEmbedSeconds = 60.0; // wall clock; checked before each attempt
};

// Prepares one ligand. A molecule that already has a torsion tree and AD4 types (read from a
// PDBQT) keeps its tree, hydrogens and charges as given and only gets XS types. Anything else:
// RDKit sanitizes it, adds missing hydrogens with coordinates (3D coordinates are generated
// when the input has none or is flat 2D), computes Gasteiger charges; then AD4 types (Meeko's
// rules), XS types, rotatable bonds and the torsion tree (root: the most central fragment).
// Throws InputError naming the molecule (file, record, name) when it cannot be a ligand: no
// heavy atoms, more than maxHeavyAtoms heavy atoms or maxTorsions torsions, an invalid
// structure, an element without AD4 type, or bonds without orders (PDB input: see below); or
// when 3D coordinates cannot be generated within the embedding bounds. Every refusal that
// needs only the molecule's graph comes before any 3D embedding, so it is quick.
Molecule prepareLigand(const Molecule& input, const LigandPreparationOptions& options = {});

// Bond orders, formal charges and protonation for a molecule read without them (a PDB ligand)
// from a SMILES of the same compound: heavy atoms are matched by element and connectivity, the
// input's hydrogens are dropped (the SMILES decides protonation), names and coordinates kept.
// Throws InputError when the SMILES cannot be parsed or does not match the molecule.
Molecule assignBondOrdersFromTemplate(const Molecule& input, const std::string& smiles);

} // namespace pw
