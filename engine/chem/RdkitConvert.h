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

// Bounds on 3D embedding, so that a huge or impossible input is refused instead of hanging.
struct EmbedLimits {
    int maxAttempts = 100;    // ETKDG attempts per try (with and without random coordinates)
    double maxSeconds = 60.0; // wall clock; checked before each attempt
};

// 3D coordinates for a molecule with explicit hydrogens: RDKit ETKDGv3 with a fixed random seed
// (reproducible), a retry from random coordinates, then MMFF94 (UFF where MMFF lacks
// parameters). Replaces any conformers. Returns "" on success, else why no coordinates were made.
std::string tryEmbed3D(RDKit::RWMol& mol, const EmbedLimits& limits = {});
// The same; a failure throws InputError naming origin.
void embed3D(RDKit::RWMol& mol, const Molecule& origin, const EmbedLimits& limits = {});

// Short label for messages: "molecule 'NAME'" or "molecule" when unnamed.
std::string moleculeLabel(const Molecule& m);

} // namespace pw
