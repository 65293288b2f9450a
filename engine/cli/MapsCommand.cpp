// `posewright-cli maps`: AutoDock 4 grid maps from a receptor PDBQT and autogrid's GPF, written as
// autogrid writes them (.maps.fld, one .map per type, e and d): autogrid4 without its own step,
// on the GPU when one is usable.
#include "BenchClock.h"
#include "CommandLine.h"
#include "Commands.h"
#include "chem/MoleculeReader.h"
#include "core/InputError.h"
#include "cuda/Ad4MapCuda.h"
#include "score/ad4/Ad4GridParameterFile.h"
#include "score/ad4/Ad4MapFiles.h"

#include <filesystem>
#include <iostream>

namespace pw::cli {

int runMaps(const std::vector<std::string>& args) {
    const CommandLine cl(args, {{"gpf", OptionKind::Value},
                                {"receptor", OptionKind::Value},
                                {"out", OptionKind::Value},
                                {"device", OptionKind::Value},
                                {"threads", OptionKind::Value}});
    const std::string gpfPath = cl.required("gpf");
    const std::string out = cl.required("out");
    if (out.size() <= 9 || out.compare(out.size() - 9, 9, ".maps.fld") != 0)
        throw UsageError("--out: expected a file name ending in .maps.fld");
    const int threads = cl.intValue("threads", 0, 0, 4096);
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
        std::cerr << "maps: device: CPU (" << why << ")\n";
        gpu = -1;
    }

    const ad4::GridParameterFile gpf = ad4::readGridParameterFile(gpfPath);
    std::string receptorPath = cl.value("receptor", "");
    if (receptorPath.empty()) {
        if (gpf.receptor.empty())
            throw UsageError("--receptor: the GPF names no receptor");
        receptorPath = (std::filesystem::path(gpfPath).parent_path() / gpf.receptor).string();
    }
    const Molecule receptor = readMolecule(receptorPath);
    const double t0 = benchNow();
    const ad4::MapSetup setup = ad4::prepareMaps(receptor, gpf.box, gpf.ligandTypes, gpf.options);
    const bool onGpu = gpu >= 0 && setup.mapTypes.size() <= size_t(cuda::kAd4GpuMaxMapTypes);
    ad4::Ad4Maps maps =
        onGpu ? cuda::buildAd4MapsCuda(setup, gpu) : ad4::buildMapsCpu(setup, threads);
    const double seconds = benchNow() - t0;
    maps.receptorFile = std::filesystem::path(receptorPath).filename().string();
    maps.gpfFile = std::filesystem::path(gpfPath).filename().string();
    ad4::writeMapsFld(maps, out);
    std::cout << "maps: wrote " << out << " (" << maps.mapCount() << " maps of "
              << gpf.box.pointCount() << " points, built in " << seconds << " s on "
              << (onGpu ? "cuda:" + std::to_string(gpu) : std::string("the CPU")) << ")\n";
    return 0;
}

} // namespace pw::cli
