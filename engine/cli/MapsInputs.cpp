#include "MapsInputs.h"

#include "TargetSetup.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "core/InputError.h"
#include "cuda/Ad4MapCuda.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace pw::cli {

int chooseMapsDevice(const CommandLine& cl, const std::string& command) {
    const std::string deviceArg = cl.value("device", "auto");
    int gpu = -1;
    if (deviceArg == "auto" || deviceArg == "cuda")
        gpu = 0;
    else if (deviceArg.rfind("cuda:", 0) == 0)
        gpu = std::atoi(deviceArg.c_str() + 5);
    else if (deviceArg != "cpu")
        throw UsageError("--device: expected auto, cpu, cuda or cuda:N, got '" + deviceArg + "'");
    std::string why;
    if (gpu >= 0 && !cuda::ad4MapGpuUsable(gpu, &why)) {
        if (deviceArg != "auto")
            throw InputError("", 0, "--device " + deviceArg + ": " + why);
        std::cerr << command << ": device: CPU (" << why << ")\n";
        gpu = -1;
    }
    return gpu;
}

MapsInputs readMapsInputs(const CommandLine& cl, const std::string& gpfPath) {
    MapsInputs in;
    in.gpf = ad4::readGridParameterFile(gpfPath);
    in.receptorPath = cl.value("receptor", "");
    if (in.receptorPath.empty()) {
        if (in.gpf.receptor.empty())
            throw UsageError("--receptor: the GPF names no receptor");
        in.receptorPath =
            (std::filesystem::path(gpfPath).parent_path() / in.gpf.receptor).string();
    }
    in.receptor = readMolecule(in.receptorPath);
    // A PDB receptor (no AD4 types) is prepared as score and dock prepare it: polar hydrogens
    // at --ph when it has none, AD4 types, Gasteiger charges.
    if (std::any_of(in.receptor.atoms.begin(), in.receptor.atoms.end(),
                    [](const Atom& a) { return a.ad4Type.empty(); }))
        in.receptor = prepareReceptor(in.receptor, receptorPreparationOptions(cl));
    return in;
}

} // namespace pw::cli
