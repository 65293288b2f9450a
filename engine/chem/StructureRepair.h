// StructureRepair: mends the slips other tools' writers make, the way Open Babel and Vina read
// such files, so that a record is read with a warning instead of refused as "not a valid
// structure". Only structures no chemistry toolkit accepts are touched: every rule below starts
// from a valence that is impossible as written.
//
// - Aromatic bonds outside any ring (MOL2 "ar" on carboxylates, guanidinium, nitro, sulfonates;
//   SDF bond type 4 on a chain): become single, and the centre atom that is left short of bonds
//   gets one double bond to a neighbour across such a bond (a neutral oxygen first, then a
//   nitrogen already charged +1, then any nitrogen); terminal oxygens left with one bond become
//   O-. Aromatic flags on atoms outside rings are cleared.
// - A neutral nitrogen with four bonds (no aromatic bond; an ammonium or an azide's middle
//   nitrogen written without its charge, as Open Babel writes PDBQT-derived SDF) becomes N+;
//   a terminal nitrogen double-bonded to such an N+ (azide, diazo) becomes N-.
#pragma once

#include "core/Molecule.h"

#include <string>
#include <vector>

namespace pw {

// Repairs m in place; returns one short description per kind of change ("charged N atom 38 +1
// (four bonds without a charge)"), empty when m was left as it was. Never throws.
std::vector<std::string> repairStructure(Molecule& m);

// The warning for a repaired record: "FILE:LINE: molecule 'NAME' was repaired: A; B".
std::string repairWarning(const std::string& file, long line, const Molecule& m,
                          const std::vector<std::string>& changes);

} // namespace pw
