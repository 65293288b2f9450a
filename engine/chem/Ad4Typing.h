// Ad4Typing: AutoDock 4 atom types (as written in PDBQT) from a molecule's chemistry, following
// the rules of Meeko's default typer (meeko/data/params/ad4_types.json): acceptors NA/OA/SA, HD.
#pragma once

#include "core/Molecule.h"

#include <vector>

namespace pw {

// Requires explicit hydrogens, Kekulé or aromatic bond orders and aromatic flags on atoms.
// Sets atoms[i].ad4Type for every atom:
//   H: HD when bonded to N, O, F, P or S, else H;  C: A when aromatic, else C;  O: OA;
//   N: NA, except N (not an acceptor) for a cation and for a neutral N with three connections
//      bonded to an aromatic atom (pyrrole, aniline) or to an sp2 carbon (amide, enamine);
//   S: SA with two connections (thioether, thiol, thiophene), else S;
//   F Cl Br I P, and Mg Ca Mn Fe Zn Si as their element.
// Throws InputError (file, record, atom number and element) for any other element.
void assignAd4Types(Molecule& m);

// The same rules where bond orders are unknown (PDB receptors): sp2Carbon[i] says which carbons
// are sp2 (amide, carbonyl, aromatic), as the caller judged it, e.g. from bond lengths.
// With refuseUnknown false, other elements (ions in a receptor) get their element symbol.
void assignAd4Types(Molecule& m, const std::vector<bool>& sp2Carbon, bool refuseUnknown = true);

} // namespace pw
