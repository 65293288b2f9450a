// Depiction2D: 2D drawing coordinates of a molecule given as SMILES (RDKit's Depictor), returned
// as plain values so that widgets can draw the structure without seeing RDKit.
#pragma once

#include <string>
#include <vector>

namespace pw {

struct Depiction2D {
    struct Atom {
        double x = 0, y = 0; // RDKit depiction units (about one bond length = 1.5)
        std::string symbol;  // element symbol
        int charge = 0;      // formal charge
        int hydrogens = 0;   // total hydrogens (implicit + explicit), for hetero-atom labels
    };
    struct Bond {
        int a = 0, b = 0;
        int order = 1; // 1, 2 or 3 after kekulisation (aromatic rings drawn as alternating)
    };
    std::vector<Atom> atoms;
    std::vector<Bond> bonds;
};

// Parses `smiles`, kekulises it and computes 2D coordinates. Throws InputError naming `where`
// when the SMILES cannot be parsed.
Depiction2D depictSmiles(const std::string& smiles, const std::string& where = "<smiles>");

} // namespace pw
