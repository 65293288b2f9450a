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
    int source = -1;                  // index of the atom in the caller's molecule (picking)
    // Van der Waals radius (Å) for surfaces; 0 = not given (the surface takes 1.70 Å, carbon's).
    // The app fills it from the engine's one table of radii.
    double radius = 0.0;
};

struct DrawBond {
    int i = -1, j = -1; // atom indices
    int order = 1;      // 1, 2, 3; aromatic bonds are given as 1 or 2 by the caller
};

// How a molecule is drawn. Receptor: thin sticks, grey carbons (context, not the subject).
// Ligand: ball-and-stick, CPK colours with green carbons; LigandAlternate: cyan carbons, for a
// second ligand or a reference shown next to the first. FlexibleResidue: receptor side chains the
// user made flexible, thick sticks with orange carbons, so that they stand out of the pocket.
enum class DrawStyle { Receptor, Ligand, LigandAlternate, FlexibleResidue };

struct MoleculeDrawing {
    std::vector<DrawAtom> atoms;
    std::vector<DrawBond> bonds;
    DrawStyle style = DrawStyle::Ligand;
    std::string name;
    // Receptor sticks' radius in Å; 0 keeps the thin default (the pocket is drawn thicker).
    float stickRadius = 0.0f;

    bool empty() const { return atoms.empty(); }
    // Axis-aligned bounds {xmin, xmax, ymin, ymax, zmin, zmax} (VTK's order); zeros when empty.
    std::array<double, 6> bounds() const;
};

// The docking search box, drawn as a wireframe.
struct DrawBox {
    std::array<double, 3> center{};
    std::array<double, 3> size{}; // edge lengths, Å
};

// A dashed line between two points: a hydrogen bond, a clash.
enum class LineKind { HydrogenBond, Clash };
struct DrawLine {
    std::array<double, 3> from{}, to{};
    LineKind kind = LineKind::HydrogenBond;
};

} // namespace pw
