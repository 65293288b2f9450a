// Ad4GridParameterFile: reads autogrid's grid parameter file (GPF): the box (npts, spacing,
// gridcenter), the ligand types, the receptor, smooth and dielectric; the map file names and other
// keywords autogrid accepts are read past.
#pragma once

#include "score/ad4/Ad4MapBuilder.h"

#include <istream>
#include <string>
#include <vector>

namespace pw::ad4 {

struct GridParameterFile {
    GridGeometry box;
    std::vector<std::string> ligandTypes;
    std::string receptor; // as written in the GPF (relative to the GPF's folder when relative)
    MapBuildOptions options;
};

// Throws pw::InputError(file, line, ...) on a malformed value and (file, 0, ...) when npts,
// spacing, gridcenter or ligand_types is missing; gridcenter "auto" is not supported (it names the
// receptor's centre of mass: give the centre), nor are keywords that change the maps beyond the
// AD4.1_bound model (another parameter_file, disorder_h, covalentmap, nbp_*, intnbp_*).
GridParameterFile readGridParameterFile(const std::string& path);
GridParameterFile parseGridParameterFile(std::istream& in, const std::string& sourceName);

} // namespace pw::ad4
