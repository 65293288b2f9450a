// Ad4MapFiles: autogrid's map files. A `.maps.fld` (AVS field header: #SPACING, #NELEMENTS,
// #CENTER, #MACROMOLECULE, #GRID_PARAMETER_FILE, one `label=` per map, one `variable N file=`
// per map) names one `.map` text file per map: six header lines, then (npts+1)^3 values, x fastest.
// Bad files get one InputError naming the file, the line and what was expected.
#pragma once

#include "score/ad4/Ad4Maps.h"

#include <string>

namespace pw::ad4 {

// Reads a .maps.fld and every .map it names (paths relative to the .fld's folder). Each map's
// header must agree with the .fld (spacing, NELEMENTS, centre) and hold exactly (npts+1)^3 values.
Ad4Maps readMapsFld(const std::string& fldPath);

// Reads one .map file into `map` of maps, checking its header against maps.geometry().
void readMapFile(const std::string& path, Ad4Maps& maps, int map);

// Writes maps as autogrid does: <stem>.<type>.map for each ligand type, <stem>.e.map,
// <stem>.d.map, <stem>.maps.xyz and the .fld itself (fldPath must end in ".maps.fld"), values
// with three decimals. Every file is written to a temporary name first and renamed only when
// all were written, the .fld last: no half-written set is ever left.
void writeMapsFld(const Ad4Maps& maps, const std::string& fldPath);

} // namespace pw::ad4
