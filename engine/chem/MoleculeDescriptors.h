// MoleculeDescriptors: the RDKit properties a hit table shows (MW, cLogP, HBD, HBA, TPSA,
// rotatable bonds, QED) and the canonical SMILES, computed once per pose at import.
#pragma once

#include "core/Molecule.h"

#include <string>

namespace pw {

// The eight inputs of QED (Bickerton et al. 2012), with RDKit's definitions of each.
struct QedProperties {
    double mw = 0;    // average molecular weight, implicit hydrogens included
    double alogp = 0; // Wildman-Crippen logP
    int hba = 0;      // acceptor-pattern matches (the paper's acceptor definition)
    int hbd = 0;      // RDKit NumHBD
    double psa = 0;   // topological polar surface area (Ertl)
    int rotb = 0;     // strict rotatable bonds
    int arom = 0;     // rings left after removing aliphatic ring atoms (SSSR)
    int alerts = 0;   // how many of the unwanted-group patterns match
};

// QED with the paper's mean weights: a weighted geometric mean of eight desirabilities.
double qedScore(const QedProperties& p);

struct MoleculeDescriptors {
    std::string smiles;     // RDKit canonical isomeric SMILES, hydrogens removed
    double mw = 0;          // average molecular weight (g/mol)
    double clogp = 0;       // Wildman-Crippen logP
    int hbd = 0;            // RDKit NumHBD
    int hba = 0;            // RDKit NumHBA
    double tpsa = 0;        // Ertl TPSA (N and O only, as RDKit's default)
    int rotatableBonds = 0; // RDKit strict definition
    int heavyAtoms = 0;
    double qed = 0;
    QedProperties qedInputs;
};

// Throws InputError naming the molecule when RDKit cannot sanitize it.
MoleculeDescriptors computeDescriptors(const Molecule& m);
// The canonical SMILES alone, as computeDescriptors gives it: for another pose of a molecule
// whose graph-only descriptors are known (they do not depend on coordinates; the stereochemistry
// in the SMILES does).
std::string poseSmiles(const Molecule& m);
// The same from a SMILES string (tests, SMILES inputs); throws InputError on a bad SMILES.
MoleculeDescriptors descriptorsFromSmiles(const std::string& smiles);

} // namespace pw
