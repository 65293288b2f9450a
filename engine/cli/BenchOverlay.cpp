// `posewright-cli bench overlay`: shape overlay throughput through the Backend, timed like PAPER
// times itself (the batch on the device: upload, optimisation, download), with the host's share
// reported beside it. The device figure comes from the prepared batch's lastTiming(): one small
// struct every backend fills, so the bench needs no CUDA class and times exactly the path the
// `overlay` command runs.
#include "CommandLine.h"
#include "Commands.h"
#include "DeviceOption.h"
#include "Json.h"
#include "OverlaySetup.h"
#include "chem/MoleculeReader.h"
#include "core/InputError.h"
#include "shape/OverlayStarts.h"
#include "shape/ShapeOverlay.h"

#include <chrono>
#include <iostream>
#include <thread>

namespace pw::cli {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

} // namespace

int runBenchOverlay(const std::vector<std::string>& args) {
    CommandLine cl(args, {{"reference", OptionKind::Value},
                          {"fit", OptionKind::Value},
                          {"starts", OptionKind::Value},
                          {"ring-starts", OptionKind::Flag},
                          {"device", OptionKind::Value},
                          {"size", OptionKind::Values},
                          {"repeat", OptionKind::Value},
                          {"threads", OptionKind::Value},
                          {"iterations", OptionKind::Value},
                          {"radii", OptionKind::Value}});
    if (!cl.positional().empty())
        throw UsageError("unexpected argument '" + cl.positional().front() + "'");
    shape::OverlayOptions options;
    shape::ShapeModelOptions modelOptions;
    parseShapeOptions(cl, options, modelOptions);
    options.optimizer.maxIterations =
        cl.intValue("iterations", options.optimizer.maxIterations, 0, 1000);
    const int repeat = cl.intValue("repeat", 3, 1, 100);
    const int threads = cl.intValue("threads", 0, 0, 1024);
    const DeviceChoice device = chooseDevice(cl, threads, "bench overlay");
    const bool gpu = device.backend->isGpu();

    auto t0 = Clock::now();
    const Molecule refMol = readMolecule(cl.required("reference"));
    std::vector<shape::ShapeModel> base;
    {
        ReadOptions ro;
        ro.warn = [](const std::string& msg) { std::cerr << "warning: " << msg << "\n"; };
        auto reader = MoleculeReader::open(cl.required("fit"), ro);
        Molecule m;
        while (reader->next(m))
            base.push_back(shape::makeShapeModel(m, modelOptions));
    }
    if (base.empty())
        throw InputError(cl.required("fit"), 0, "no molecule could be read");
    const double readSeconds = since(t0);
    const shape::ShapeModel refModel = shape::makeShapeModel(refMol, modelOptions);
    const std::unique_ptr<OverlayBatch> overlay = device.backend->prepareOverlay(refModel, options);
    // Ring-centroid starts multiply the orientations by (1 + the reference's rings).
    const long startsPerFit = long(shape::ShapeOverlay(refModel, options).startPoses().size());
    const int nThreads =
        threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()));

    std::vector<long> sizes;
    for (const std::string& s : cl.values("size")) {
        try {
            sizes.push_back(std::stol(s));
        } catch (const std::exception&) {
            throw UsageError("--size: expected molecule counts, got '" + s + "'");
        }
        if (sizes.back() < 1)
            throw UsageError("--size: expected positive molecule counts");
    }
    if (sizes.empty())
        sizes.push_back(long(base.size()));

    for (long size : sizes) {
        // Sizes beyond the file replicate its molecules in order (said in the output).
        std::vector<shape::ShapeModel> fits;
        fits.reserve(size);
        for (long i = 0; i < size; ++i)
            fits.push_back(base[i % base.size()]);
        double best = 1e300, bestHost = 0;
        std::vector<shape::ShapeScores> scores;
        if (gpu)
            overlay->overlay(fits, false, scores); // warm-up: context, allocations, module load
        for (int r = 0; r < repeat; ++r) {
            if (gpu) {
                overlay->overlay(fits, false, scores);
                const BatchTiming t = overlay->lastTiming();
                if (t.deviceSeconds < best) {
                    best = t.deviceSeconds;
                    bestHost = t.hostSeconds;
                }
            } else {
                auto tc = Clock::now();
                overlay->overlay(fits, false, scores);
                best = std::min(best, since(tc));
            }
        }
        double meanT = 0;
        for (const auto& s : scores)
            meanT += s.tanimoto;
        meanT /= double(scores.size());
        const double overlays = double(size) * double(startsPerFit);
        JsonObject o;
        o.add("what", "overlay").add("size", size).add("file_molecules", long(base.size()));
        o.add("replicated", size > long(base.size()));
        o.add("device", gpu ? device.backend->description()
                            : "cpu (" + std::to_string(nThreads) + " threads)");
        o.add("starts", options.starts).add("ring_starts", options.ringStarts);
        o.add("starts_per_fit", startsPerFit)
            .add("max_iterations", options.optimizer.maxIterations);
        o.add("overlays", (long long)overlays);
        o.add("seconds", best, 6);
        o.add("timed", gpu ? "H2D + kernels + D2H, best of repeat after a warm-up"
                           : "overlay of all fits, best of repeat");
        if (gpu)
            o.add("host_seconds", bestHost, 6);
        o.add("overlays_per_second", overlays / best, 4);
        o.add("molecules_per_second", double(size) / best, 4);
        if (gpu)
            o.add("molecules_per_second_with_host", double(size) / (best + bestHost), 4);
        o.add("mean_best_tanimoto", meanT, 4);
        o.add("read_seconds", readSeconds, 3);
        std::cout << o.str() << std::endl;
    }
    return 0;
}

int runBench(const std::vector<std::string>& args) {
    // One `bench` command, one sub-mode per engine operation (each in its own Bench*.cpp).
    const std::string mode = args.empty() ? std::string() : args.front();
    const std::vector<std::string> rest(args.begin() + (args.empty() ? 0 : 1), args.end());
    if (mode == "overlay")
        return runBenchOverlay(rest);
    if (mode == "lingo")
        return runBenchLingo(rest);
    if (mode == "minimize")
        return runBenchMinimize(rest);
    if (mode == "ad4maps")
        return runBenchAd4Maps(rest);
    if (mode == "dock")
        return runBenchDock(rest);
    if (mode == "hits")
        return runBenchHits(rest);
    if (mode == "pairscore")
        return runBenchPairScore(rest);
    if (mode == "ad4exact")
        return runBenchAd4Exact(rest);
    throw UsageError("expected a benchmark: overlay, lingo, minimize, dock, ad4maps, hits, "
                     "pairscore or ad4exact" +
                     (mode.empty() ? std::string() : ", got '" + mode + "'"));
}

} // namespace pw::cli
