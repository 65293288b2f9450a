// Molecule: the engine's one molecule model (atoms, bonds, residues, SD properties, torsion tree).
// Readers fill it, preparation adds types/charges/tree, scoring and writers read it; no RDKit here.
#pragma once

#include "AtomTypes.h"
#include "TorsionTree.h"

#include <Eigen/Core>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pw {

using Vec3 = Eigen::Vector3d;

struct Residue {
    std::string name;  // "ALA", "HOH", "UNL"
    int number = 0;    // PDB resSeq
    char chain = ' ';
    char insertion = ' ';
    bool hetero = false; // HETATM record
};

struct Atom {
    std::string name;      // PDB atom name, trimmed ("CA", "HD1"); may be empty for SDF atoms
    int element = 0;       // atomic number; 0 = unknown / dummy
    Vec3 position = Vec3::Zero();
    double charge = 0.0;   // partial charge (Gasteiger or as read from PDBQT/MOL2)
    int formalCharge = 0;
    bool aromatic = false;
    std::string ad4Type;   // AutoDock 4 type ("C", "A", "OA", "HD", ...); empty until typed
    XsType xs = XsType::None; // Vina XS type; None for hydrogens and until typed
    int residue = -1;      // index into Molecule::residues, -1 when none
    int serial = 0;        // serial number as read (PDB/PDBQT); 0 when none
};

enum class BondOrder : int { Single = 1, Double = 2, Triple = 3, Aromatic = 4 };

struct Bond {
    int a = -1, b = -1; // atom indices, a < b not required
    BondOrder order = BondOrder::Single;
    bool rotatable = false; // set by preparation (or from a PDBQT's BRANCH records)
};

struct Molecule {
    std::string name; // SDF title, MOL2 name, PDB/PDBQT file stem or COMPND
    std::vector<Atom> atoms;
    std::vector<Bond> bonds;
    std::vector<Residue> residues;
    // SD tags / PDBQT REMARKs worth keeping, in file order.
    std::vector<std::pair<std::string, std::string>> properties;
    // Present for flexible ligands (read from PDBQT or built by preparation).
    std::optional<TorsionTree> torsionTree;
    // Where it came from, for messages: file path and 1-based record index (0 = single record).
    std::string sourceFile;
    long sourceRecord = 0;

    int heavyAtomCount() const;
    // Adjacency lists, built on demand (atoms index -> neighbour indices).
    std::vector<std::vector<int>> neighbours() const;
    // Index of the bond between a and b, or -1.
    int findBond(int a, int b) const;
    const std::string* property(const std::string& key) const;
    void setProperty(const std::string& key, std::string value);
    // Axis-aligned bounding box of atom positions (min, max); both zero when empty.
    std::pair<Vec3, Vec3> boundingBox() const;
    Vec3 centroid() const;
};

} // namespace pw
