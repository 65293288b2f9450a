// CompactSubstructureRdkit: RDKit's molecules and SMARTS queries in the compact forms of
// chem/CompactSubstructure.h, for the screen index's match without RDKit.
// Each refuses (empty / nullopt) what the compact form cannot say exactly: RDKit then decides.
#pragma once

#include "CompactSubstructure.h"

#include <optional>
#include <string>

namespace RDKit {
class ROMol;
}

namespace pw {

// The cmol bytes of a sanitized molecule (ring info as sanitization leaves it); empty when it
// does not fit the format (over 255 atoms or 1,023 bonds, over 15 hydrogens or rings on an
// atom, a ring over 127 atoms, a bond type RDKit numbers over 127).
std::string compactMolecule(const RDKit::ROMol& mol);

// The SMARTS query molecule as a compact pattern, recursive SMARTS included; nullopt when any
// atom or bond query holds something the matcher does not evaluate (isotopes, valence, ranges,
// chirality, ...), so that the whole pattern goes to RDKit.
std::optional<CompactPattern> compactPattern(const RDKit::ROMol& query);

} // namespace pw
