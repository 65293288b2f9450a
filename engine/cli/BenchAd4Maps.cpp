// `posewright-cli bench ad4maps`: AD4 grid maps of one receptor and GPF box built on one CPU core,
// on all cores and on the GPU, one JSON line: the timings, the GPU's largest difference from the
// CPU maps, and (with --reference) how many values differ from autogrid4's own maps.
#include "BenchClock.h"
#include "CommandLine.h"
#include "Commands.h"
#include "MapsInputs.h"
#include "Json.h"
#include "chem/MoleculeReader.h"
#include "core/InputError.h"
#include "cuda/Ad4MapCuda.h"
#include "score/ad4/Ad4GridParameterFile.h"
#include "score/ad4/Ad4MapFiles.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

namespace pw::cli {

namespace {

struct Agreement {
    long values = 0, outside = 0;
    double maxAbs = 0;
};

// The tolerance against autogrid: 0.01 kcal/mol, or 1e-3 relative for large values.
Agreement compareWithReference(const ad4::Ad4Maps& maps, const std::string& prefix) {
    Agreement a;
    ad4::Ad4Maps ref(maps.geometry(), maps.ligandTypes());
    for (int k = 0; k < maps.mapCount(); ++k) {
        ad4::readMapFile(prefix + maps.mapName(k) + ".map", ref, k);
        for (size_t i = 0; i < ref.values(k).size(); ++i) {
            const double r = ref.values(k)[i], d = std::fabs(maps.values(k)[i] - r);
            ++a.values;
            a.maxAbs = std::max(a.maxAbs, d);
            if (d > std::max(0.01, 1e-3 * std::fabs(r)))
                ++a.outside;
        }
    }
    return a;
}

// GPU against CPU: 1e-3 kcal/mol plus 4e-6 relative (float resolution where values reach 1e4-1e5).
Agreement compareMaps(const ad4::Ad4Maps& gpu, const ad4::Ad4Maps& cpu) {
    Agreement a;
    for (int k = 0; k < cpu.mapCount(); ++k)
        for (size_t i = 0; i < cpu.values(k).size(); ++i) {
            const double c = cpu.values(k)[i], d = std::fabs(gpu.values(k)[i] - c);
            ++a.values;
            if (std::fabs(c) < 1000.0)
                a.maxAbs = std::max(a.maxAbs, d);
            if (d > 1e-3 + 4e-6 * std::fabs(c))
                ++a.outside;
        }
    return a;
}

template <class F> double bestOf(int repeat, F&& f) {
    double best = 1e300;
    for (int r = 0; r < repeat; ++r) {
        const double t0 = benchNow();
        f();
        best = std::min(best, benchNow() - t0);
    }
    return best;
}

} // namespace

int runBenchAd4Maps(const std::vector<std::string>& args) {
    const CommandLine cl(args, {{"gpf", OptionKind::Value},
                                {"receptor", OptionKind::Value},
                                {"reference", OptionKind::Value},
                                {"device", OptionKind::Value},
                                {"threads", OptionKind::Value},
                                {"repeat", OptionKind::Value},
                                {"cpu-repeat", OptionKind::Value},
                                {"no-single-core", OptionKind::Flag}});
    const std::string gpfPath = cl.required("gpf");
    const int repeat = cl.intValue("repeat", 5, 1, 100);        // GPU builds timed (best)
    const int cpuRepeat = cl.intValue("cpu-repeat", 1, 1, 100); // CPU builds timed (best)
    int threads = cl.intValue("threads", 0, 0, 4096);
    if (threads == 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int gpu = chooseMapsDevice(cl, "bench ad4maps");
    const MapsInputs inputs = readMapsInputs(cl, gpfPath);
    const ad4::GridParameterFile& gpf = inputs.gpf;
    const std::string& receptorPath = inputs.receptorPath;
    const Molecule& receptor = inputs.receptor;

    double t0 = benchNow();
    const ad4::MapSetup setup = ad4::prepareMaps(receptor, gpf.box, gpf.ligandTypes, gpf.options);
    const double prepareSeconds = benchNow() - t0;
    t0 = benchNow(); // again: the pair tables now come from the process's table cache
    ad4::prepareMaps(receptor, gpf.box, gpf.ligandTypes, gpf.options);
    const double prepareAgainSeconds = benchNow() - t0;

    JsonObject out;
    out.add("bench", "ad4maps").add("receptor", receptorPath).add("gpf", gpfPath);
    out.add("atoms", static_cast<long>(receptor.atoms.size()));
    out.add("points", static_cast<long>(gpf.box.pointCount()));
    out.add("maps", setup.mapCount());
    out.add("prepare_s", prepareSeconds).add("prepare_again_s", prepareAgainSeconds);

    ad4::Ad4Maps cpuMaps;
    if (!cl.flag("no-single-core"))
        out.add("cpu_1thread_s", bestOf(cpuRepeat, [&] { cpuMaps = ad4::buildMapsCpu(setup, 1); }));
    out.add("cpu_threads", threads);
    out.add("cpu_all_s", bestOf(cpuRepeat, [&] { cpuMaps = ad4::buildMapsCpu(setup, threads); }));

    if (const auto ref = cl.value("reference")) {
        const Agreement a = compareWithReference(cpuMaps, *ref);
        out.add("reference_values", a.values).add("reference_outside_tolerance", a.outside);
        out.add("reference_max_abs_diff", a.maxAbs);
    }

    if (gpu >= 0) {
        ad4::Ad4Maps gpuMaps = cuda::buildAd4MapsCuda(setup, gpu); // warm-up: context, module
        cuda::Ad4MapGpuTiming best;
        double bestTotal = 1e300;
        for (int r = 0; r < repeat; ++r) {
            cuda::Ad4MapGpuTiming t;
            const double s = benchNow();
            gpuMaps = cuda::buildAd4MapsCuda(setup, gpu, &t);
            const double total = benchNow() - s;
            if (total < bestTotal) {
                bestTotal = total;
                best = t;
            }
        }
        const Agreement a = compareMaps(gpuMaps, cpuMaps);
        out.add("device", "cuda:" + std::to_string(gpu));
        out.add("gpu_s", bestTotal).add("gpu_kernel_s", best.kernel);
        out.add("gpu_with_prepare_s", prepareSeconds + bestTotal);
        out.add("gpu_with_prepare_again_s", prepareAgainSeconds + bestTotal);
        out.add("gpu_upload_s", best.upload).add("gpu_download_s", best.download);
        out.add("gpu_vs_cpu_values", a.values).add("gpu_vs_cpu_outside", a.outside);
        out.add("gpu_vs_cpu_max_abs_diff_below_1000", a.maxAbs);
    } else {
        out.add("device", "cpu");
    }
    out.add("peak_rss_mib", peakRssMiB());
    std::cout << out.str() << std::endl;
    return 0;
}

} // namespace pw::cli
