// `posewright-cli bench lingo`: LINGO all-vs-all timings (GPU kernels with the matrix left on the
// device, CPU rows per core, bounded-memory top-k), one JSON line per measurement, with a check
// of sampled pairs against the CPU reference.
//
// The device is the Backend's (DeviceOption), and the top-k search and the CPU rows run through
// it. The GPU matrix figure does not: it measures the kernels themselves (kernel variants, forced
// dense widths, the matrix left on the device and sampled there, dense / tail split), which no
// Backend operation exposes and none should. So that mode drives LingoGpu directly on the
// device the Backend chose: simpler and more honest than widening the interface for one bench.
#include "BenchClock.h"
#include "CommandLine.h"
#include "Commands.h"
#include "DeviceOption.h"
#include "Json.h"
#include "chem/LingoSmiles.h"
#include "core/InputError.h"
#include "cuda/LingoCuda.h"
#include "lingo/LingoSearch.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <random>

namespace pw::cli {

namespace {

std::string sizeText(size_t a, size_t b) {
    return std::to_string(a) + "x" + std::to_string(b);
}

// Sampled pairs (diagonal, first row, random) of the GPU matrix against the CPU formula.
void checkSample(const lingo::gpu::LingoGpu& gpu, const lingo::LingoSet& s, size_t samples,
                 long& checked, long& mismatches) {
    std::mt19937_64 rng(42);
    std::uniform_int_distribution<size_t> pick(0, s.size() - 1);
    auto one = [&](size_t i, size_t j) {
        ++checked;
        if (gpu.fullMatrixAt(i, j) != lingo::similarity(s, i, s, j))
            ++mismatches;
    };
    for (size_t i = 0; i < std::min<size_t>(s.size(), 64); ++i) {
        one(i, i);
        one(0, i);
    }
    for (size_t n = 0; n < samples; ++n)
        one(pick(rng), pick(rng));
}

} // namespace

int runBenchLingo(const std::vector<std::string>& args) {
    const CommandLine cl(args, {{"db", OptionKind::Value},
                                {"device", OptionKind::Value},
                                {"repeat", OptionKind::Value},
                                {"kernel", OptionKind::Value},
                                {"rows", OptionKind::Value},
                                {"threads", OptionKind::Value},
                                {"top", OptionKind::Value},
                                {"check", OptionKind::Value},
                                {"widths", OptionKind::Values}});
    const std::string path = cl.required("db");
    const int repeat = cl.intValue("repeat", 3, 1, 1000);
    const int threads = cl.intValue("threads", 0, 0, 4096);
    const int top = cl.intValue("top", 0, 0, 1 << 20);
    const long samples = cl.intValue("check", 2000, 0, 1 << 30);
    const std::string kernelArg = cl.value("kernel", "both");
    if (kernelArg != "both" && kernelArg != "tensorcore" && kernelArg != "merge")
        throw UsageError("--kernel: expected tensorcore, merge or both");
    const DeviceChoice device = chooseDevice(cl, threads, "bench lingo");
    const bool onGpu = device.backend->isGpu();

    double t0 = benchNow();
    const LingoMolecules mols = readLingoSmiles(path, threads);
    const double readSeconds = benchNow() - t0;
    for (const auto& s : mols.skipped)
        std::cerr << "warning: " << s << "\n";
    if (mols.canonical.empty())
        throw InputError(path, 0, "no valid SMILES: expected lines of 'SMILES [name]'");
    t0 = benchNow();
    const lingo::LingoSet set = lingo::LingoSet::fromCanonicalSmiles(mols.canonical);
    const double profileSeconds = benchNow() - t0;
    const size_t n = set.size();

    auto base = [&](const std::string& what, const std::string& dev) {
        JsonObject o;
        o.add("what", what).add("file", path).add("molecules", long(n)).add("device", dev);
        return o;
    };

    if (top > 0) { // all-vs-all top-k, self excluded, never the full matrix
        lingo::SearchOptions opt;
        opt.topK = top;
        opt.excludeSelf = true;
        opt.threads = threads;
        t0 = benchNow();
        lingo::HitLists hits;
        double upload = 0, kernel = 0;
        const std::string dev =
            onGpu ? device.backend->description()
                  : "cpu (" + std::to_string(lingo::resolveThreads(threads)) + " threads)";
        {
            const std::unique_ptr<LingoComparison> comparison =
                device.backend->prepareLingo(set, set, true);
            comparison->search(opt, hits);
            if (onGpu) { // the CPU's search has no separate kernel or upload time
                upload = comparison->lastTiming().uploadSeconds;
                kernel = comparison->lastTiming().deviceSeconds;
            }
        }
        const double search = benchNow() - t0;
        long checked = 0, mismatches = 0;
        for (size_t i = 0; i < std::min<size_t>(n, 16); ++i) { // CPU re-check of a few queries
            lingo::LingoSet q;
            q.add(lingo::makeProfile(mols.canonical[i]));
            std::vector<lingo::LingoHit> ref; // query i's own hit removed, as excludeSelf does
            const lingo::HitLists own = lingo::search(q, set, {top + 1, 0.0f, false, threads});
            for (const auto& h : own.front())
                if (h.index != i && ref.size() < size_t(top))
                    ref.push_back(h);
            ++checked;
            bool same = ref.size() == hits[i].size();
            for (size_t h = 0; same && h < ref.size(); ++h)
                same =
                    ref[h].index == hits[i][h].index && ref[h].similarity == hits[i][h].similarity;
            mismatches += !same;
        }
        JsonObject o = base("lingo all-vs-all top-" + std::to_string(top), dev);
        o.add("size", sizeText(n, n)).add("seconds", search).add("kernel_seconds", kernel);
        o.add("end_to_end_seconds", readSeconds + profileSeconds + search);
        o.add("read_canonicalize_seconds", readSeconds).add("profile_seconds", profileSeconds);
        o.add("upload_seconds", upload);
        o.add("comparisons_per_second", double(n) * double(n) / search, 4);
        o.add("max_rss_mib", peakRssMiB(), 4).add("checked_queries", checked);
        o.add("mismatched_queries", mismatches);
        std::cout << o.str() << std::endl;
        return mismatches ? 1 : 0;
    }

    if (!onGpu) { // CPU: rows x all, comparisons per second and per core
        const size_t rows = size_t(cl.intValue("rows", int(std::min<size_t>(n, 512)), 1, 1 << 30));
        const int nt = lingo::resolveThreads(threads);
        std::vector<float> out(std::min(rows, n) * n);
        const std::unique_ptr<LingoComparison> comparison =
            device.backend->prepareLingo(set, set, true);
        double best = 1e300;
        for (int r = 0; r < repeat; ++r) {
            t0 = benchNow();
            comparison->similarityRows(0, std::min(rows, n), out.data());
            best = std::min(best, benchNow() - t0);
        }
        const double pairs = double(std::min(rows, n)) * double(n);
        JsonObject o = base("lingo rows vs all (CPU reference)", "cpu");
        o.add("size", sizeText(std::min(rows, n), n)).add("threads", nt);
        o.add("seconds", best).add("repeat", repeat);
        o.add("end_to_end_seconds", readSeconds + profileSeconds + best);
        o.add("read_canonicalize_seconds", readSeconds).add("profile_seconds", profileSeconds);
        o.add("comparisons_per_second", pairs / best, 4);
        o.add("comparisons_per_second_per_core", pairs / best / nt, 4);
        std::cout << o.str() << std::endl;
        return 0;
    }

    // Runs (kernel, forced dense width or -1 for the cost model's choice).
    std::vector<std::pair<lingo::gpu::Kernel, int>> runs;
    if (kernelArg != "merge")
        runs.push_back({lingo::gpu::Kernel::TensorCore, -1});
    if (kernelArg != "tensorcore")
        runs.push_back({lingo::gpu::Kernel::Merge, -1});
    for (const auto& w : cl.values("widths"))
        runs.push_back({lingo::gpu::Kernel::TensorCore, std::stoi(w)});
    int status = 0;
    for (auto [kernel, width] : runs) {
        lingo::ItemizeOptions itemOptions;
        itemOptions.forceDenseWidth = width;
        t0 = benchNow();
        lingo::gpu::LingoGpu gpu(set, set, true, device.request.index, kernel, itemOptions);
        const double upload = benchNow() - t0;
        t0 = benchNow();
        double best = gpu.computeFullMatrix();
        const double first = benchNow() - t0;
        double dense = gpu.stats().denseSeconds, tail = gpu.stats().tailSeconds;
        for (int r = 1; r < repeat; ++r) {
            const double s = gpu.computeFullMatrix();
            if (s < best) {
                best = s;
                dense = gpu.stats().denseSeconds;
                tail = gpu.stats().tailSeconds;
            }
        }
        long checked = 0, mismatches = 0;
        checkSample(gpu, set, size_t(samples), checked, mismatches);
        const auto& st = gpu.stats();
        JsonObject o = base("lingo all-vs-all matrix (left on GPU)", gpu.deviceName());
        o.add("kernel", lingo::gpu::kernelName(kernel)).add("size", sizeText(n, n));
        o.add("seconds", best).add("repeat", repeat);
        o.add("end_to_end_seconds", readSeconds + profileSeconds + upload + first);
        o.add("read_canonicalize_seconds", readSeconds).add("profile_seconds", profileSeconds);
        o.add("upload_seconds", upload).add("first_run_seconds", first);
        o.add("comparisons_per_second", double(n) * double(n) / best, 4);
        if (kernel == lingo::gpu::Kernel::TensorCore) {
            o.add("dense_seconds", dense).add("tail_seconds", tail);
            o.add("dense_width", long(st.denseWidth)).add("width_forced", width >= 0);
            o.add("items", long(st.totalItems)).add("tail_pairs", long(st.tailPairs));
        }
        o.add("checked_pairs", checked).add("mismatches", mismatches);
        std::cout << o.str() << std::endl;
        status |= mismatches ? 1 : 0;
    }
    return status;
}

} // namespace pw::cli
