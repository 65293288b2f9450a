// LigandEditing: the geometry of interactive pose edits (turn the ligand about its centre, slide
// it, turn one rotatable bond) and what hovering an atom tells (its energy with the other side).
#pragma once

#include "ScoringTarget.h"

#include <QString>

namespace pw {

// Turns every atom about the centroid of the heavy atoms; axis need not be unit length.
void rotateLigand(Molecule& ligand, const Vec3& axis, double radians);
void translateLigand(Molecule& ligand, const Vec3& delta);
// Turns the rotatable bond that moves `atom`: the bond of the torsion-tree branch holding the atom,
// turning that branch and everything hanging from it. False (nothing moved) when the ligand has
// no tree or the atom lies in the root fragment.
bool turnTorsionOf(Molecule& ligand, int atom, double radians);

// The weighted intermolecular pair energy between one ligand atom and the receptor, or one
// receptor atom and the ligand (kcal/mol, before Vina's divisor): what that atom contributes.
double ligandAtomEnergy(const ScoringTarget& target, const Molecule& ligand, int atom);
double receptorAtomEnergy(const ScoringTarget& target, const Molecule& ligand, int atom);

// "CA ALA 123 A · C_H · -0.42 kcal/mol" for a tooltip; energy omitted when not known.
QString describeAtom(const Molecule& molecule, int atom, const double* energy);

} // namespace pw
