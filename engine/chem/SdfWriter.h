// SdfWriter: one molecule as an MDL SDF record: V2000 (V3000 past 999 atoms or bonds), bond
// orders exactly as the Molecule holds them, formal charges (M  CHG) and every property as a tag.
#pragma once

#include "core/Molecule.h"

#include <ostream>
#include <string>

namespace pw {

// Writes the record, "$$$$" included.
void writeSdfRecord(std::ostream& out, const Molecule& m);
// The same bytes appended to a string (no stream: cheap to call on many threads at once).
void appendSdfRecord(std::string& out, const Molecule& m);

} // namespace pw
