// RdkitConvert: the bridge between pw::Molecule and RDKit's RWMol (elements, charges, bond orders,
// coordinates as a conformer, names). Internal to engine/chem: only chem sources include RDKit.
#pragma once

#include "core/Molecule.h"

#include <GraphMol/RWMol.h>

#include <memory>
#include <string>

namespace pw {

// Atoms keep their index; names and residue fields travel as RDKit PDB residue info, bond orders
// as RDKit bond types (BondOrder::Aromatic as an aromatic bond), coordinates as conformer 0 (only
// when some atom is off the origin). Not sanitized: call sanitizeOrThrow.
std::unique_ptr<RDKit::RWMol> toRdkit(const Molecule& m);

// Sanitizes in place; a failure becomes InputError naming the molecule (file, record) and RDKit's
// reason ("explicit valence for atom # 3 N, 4, is greater than permitted").
void sanitizeOrThrow(RDKit::RWMol& mol, const Molecule& origin);

// Back to a Molecule: Kekulé bond orders with aromatic flags kept on atoms, formal charges,
// Gasteiger charges when computed (property _GasteigerCharge), coordinates of conformer 0.
// Atoms that exist in `origin` (same index) keep its name, residue and serial; new atoms (added
// hydrogens) take the residue of the atom they are bonded to. name/source fields come from origin.
Molecule fromRdkit(const RDKit::ROMol& mol, const Molecule& origin);

// 3D coordinates for a molecule with explicit hydrogens: RDKit ETKDGv3 with a fixed random seed
// (reproducible), then MMFF94 (UFF where MMFF lacks parameters). Replaces any conformers.
// Throws InputError naming origin when no embedding is found.
void embed3D(RDKit::RWMol& mol, const Molecule& origin);

// Short label for messages: "molecule 'NAME'" or "molecule" when unnamed.
std::string moleculeLabel(const Molecule& m);

} // namespace pw
