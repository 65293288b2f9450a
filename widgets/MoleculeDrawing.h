// MoleculeDrawing: what the molecule view draws, as plain values with no engine types, so that the
// widgets stay independent of the engine (the app converts its molecules into these).
#pragma once

#include <array>
#include <string>
#include <vector>

namespace pw {

struct DrawAtom {
    int element = 6;                  // atomic number; 0 = unknown (drawn as a dummy)
    std::array<double, 3> position{}; // Å
    std::string name;                 // PDB atom name or empty, for labels and picking
};

struct DrawBond {
    int i = -1, j = -1; // atom indices
    int order = 1;      // 1, 2, 3; aromatic bonds are given as 1 or 2 by the caller
};

// How a molecule is drawn. Receptor: thin sticks, grey carbons (context, not the subject).
// Ligand: ball-and-stick, CPK colours with green carbons; LigandAlternate: cyan carbons, for a
// second ligand or a reference shown next to the first.
enum class DrawStyle { Receptor, Ligand, LigandAlternate };

struct MoleculeDrawing {
    std::vector<DrawAtom> atoms;
    std::vector<DrawBond> bonds;
    DrawStyle style = DrawStyle::Ligand;
    std::string name;

    bool empty() const { return atoms.empty(); }
    // Axis-aligned bounds {xmin, xmax, ymin, ymax, zmin, zmax} (VTK's order); zeros when empty.
    std::array<double, 6> bounds() const;
};

} // namespace pw
