#include "MapsInputs.h"

#include "chem/MoleculeReader.h"
#include "core/InputError.h"
#include "cuda/Ad4MapCuda.h"

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
    return in;
}

} // namespace pw::cli
