// MapsInputs: what `maps` and `bench ad4maps` both read before building AD4 maps: the device
// (--device, with the CPU as the fallback of `auto`) and the GPF with its receptor.
#pragma once

#include "CommandLine.h"
#include "core/Molecule.h"
#include "score/ad4/Ad4GridParameterFile.h"

#include <string>

namespace pw::cli {

// The CUDA device the maps are built on, or -1 for the CPU. `auto` falls back to the CPU with one
// line on stderr naming `command`; an explicit cuda[:N] that is not usable is an InputError.
int chooseMapsDevice(const CommandLine& cl, const std::string& command);

struct MapsInputs {
    ad4::GridParameterFile gpf;
    std::string receptorPath; // --receptor, else the GPF's receptor beside the GPF
    Molecule receptor;
};
MapsInputs readMapsInputs(const CommandLine& cl, const std::string& gpfPath);

} // namespace pw::cli
