// `posewright-cli maps`: AutoDock 4 grid maps from a receptor PDBQT and autogrid's GPF, written as
// autogrid writes them (.maps.fld, one .map per type, e and d): autogrid4 without its own step,
// on the GPU when one is usable.
#include "BenchClock.h"
#include "CommandLine.h"
#include "Commands.h"
#include "MapsInputs.h"
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
                                {"threads", OptionKind::Value},
                                {"ph", OptionKind::Value}});
    const std::string gpfPath = cl.required("gpf");
    const std::string out = cl.required("out");
    if (out.size() <= 9 || out.compare(out.size() - 9, 9, ".maps.fld") != 0)
        throw UsageError("--out: expected a file name ending in .maps.fld");
    const int threads = cl.intValue("threads", 0, 0, 4096);
    const int gpu = chooseMapsDevice(cl, "maps");
    const MapsInputs inputs = readMapsInputs(cl, gpfPath);
    const ad4::GridParameterFile& gpf = inputs.gpf;
    const std::string& receptorPath = inputs.receptorPath;
    const Molecule& receptor = inputs.receptor;
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
