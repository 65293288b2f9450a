// `posewright-cli dock`: Lamarckian GA docking of every ligand of one or more files into a
// receptor (Vina, Vinardo or AutoDock 4 scoring), streamed in batches of ligands (reading and
// preparation, then all runs of the batch on the backend); poses ranked into an SDF with their SD
// tags, a JSON summary, progress on stderr; Ctrl-C stops the runs and writes nothing.
#include "CommandLine.h"
#include "Commands.h"
#include "DeviceOption.h"
#include "DockOutput.h"
#include "DockTargetSetup.h"
#include "Json.h"
#include "Shard.h"
#include "backend/Backend.h"
#include "parallel/MultiDeviceBackend.h"
#include "chem/AtomicFile.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/RankedSdfWriter.h"
#include "core/InputError.h"
#include "core/ParallelFor.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace pw::cli {
namespace {

// The batch's Progress while `dock` runs, for the SIGINT handler (a lock-free atomic store is
// async-signal-safe).
Progress* gInterruptTarget = nullptr;

extern "C" void onInterrupt(int) {
    if (gInterruptTarget)
        gInterruptTarget->cancel.store(true, std::memory_order_relaxed);
}

// Installs the handler for the command's lifetime and restores the previous one after.
class InterruptGuard {
public:
    explicit InterruptGuard(Progress& p) {
        gInterruptTarget = &p;
        struct sigaction sa {};
        sa.sa_handler = onInterrupt;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &previous_);
    }
    ~InterruptGuard() {
        sigaction(SIGINT, &previous_, nullptr);
        gInterruptTarget = nullptr;
    }

private:
    struct sigaction previous_ {};
};

dock::DockOptions readDockOptions(const CommandLine& cl, int threads) {
    dock::DockOptions o;
    o.threads = threads;
    o.runs = cl.intValue("runs", o.runs, 1, 100000);
    o.seed = static_cast<std::uint64_t>(cl.doubleValue("seed", 0, 0, 9007199254740991.0));
    o.lga.localSearch = defaultLocalSearch(cl); // BFGS for Vina, ADADELTA for AD4
    if (auto ls = cl.value("local-search")) {
        auto m = dock::parseLocalSearch(*ls);
        if (!m)
            throw UsageError("--local-search expects sw, adadelta or bfgs, got '" + *ls + "'");
        o.lga.localSearch = *m;
    }
    o.lga.populationSize = cl.intValue("population", o.lga.populationSize, 2, 100000);
    o.lga.maxEvaluations =
        static_cast<long>(cl.doubleValue("evaluations", 0, 0, 1e12)); // 0: the heuristic
    o.lga.maxGenerations = cl.intValue("generations", int(o.lga.maxGenerations), 1, 100000000);
    o.lga.localSearchIterations =
        cl.intValue("ls-iterations", o.lga.localSearchIterations, 1, 100000);
    o.lga.localSearchRate = cl.doubleValue("ls-rate", o.lga.localSearchRate * 100, 0, 100) / 100;
    o.lga.autoStop = !cl.flag("no-autostop");
    // ADADELTA's early stop (dock::AdadeltaOptions): AutoDock-GPU's --rholb, 0 = off.
    o.lga.adadelta.stopRhoLowerBound =
        cl.doubleValue("adadelta-stop", o.lga.adadelta.stopRhoLowerBound, 0, 1);
    o.lga.adadelta.stopTolerance =
        cl.doubleValue("adadelta-tolerance", o.lga.adadelta.stopTolerance, 0, 100);
    o.clusterRmsd = cl.doubleValue("cluster-rmsd", o.clusterRmsd, 0.0, 100.0);
    o.maxPosesOut = cl.intValue("poses", o.maxPosesOut, 0, 100000);
    o.allRuns = cl.flag("all-runs");
    return o;
}

// Prints "dock: N/M runs" to stderr at most once a second (and the last one).
class ProgressPrinter {
public:
    void operator()(long done, long total) {
        std::lock_guard lock(m_);
        const auto now = std::chrono::steady_clock::now();
        if (done < total && now - last_ < std::chrono::seconds(1))
            return;
        last_ = now;
        std::cerr << "dock: " << base_ + done << "/" << base_ + total << " runs\n";
        if (done == total)
            base_ += total;
    }

private:
    std::mutex m_;
    std::chrono::steady_clock::time_point last_{};
    long base_ = 0;
};

} // namespace

int runDock(const std::vector<std::string>& args) {
    auto spec = dockTargetOptionSpec();
    spec.insert({{"ligands", OptionKind::Values},
                 {"out", OptionKind::Value},
                 {"json", OptionKind::Value},
                 {"device", OptionKind::Value},
                 {"threads", OptionKind::Value},
                 {"runs", OptionKind::Value},
                 {"seed", OptionKind::Value},
                 {"local-search", OptionKind::Value},
                 {"population", OptionKind::Value},
                 {"evaluations", OptionKind::Value},
                 {"generations", OptionKind::Value},
                 {"ls-iterations", OptionKind::Value},
                 {"ls-rate", OptionKind::Value},
                 {"no-autostop", OptionKind::Flag},
                 {"adadelta-stop", OptionKind::Value},
                 {"adadelta-tolerance", OptionKind::Value},
                 {"cluster-rmsd", OptionKind::Value},
                 {"poses", OptionKind::Value},
                 {"all-runs", OptionKind::Flag},
                 {"no-map-cache", OptionKind::Flag},
                 {"batch", OptionKind::Value},
                 {"shard", OptionKind::Value},
                 {"shard-block", OptionKind::Value}});
    CommandLine cl(args, spec);
    if (!cl.positional().empty())
        throw UsageError("unexpected argument '" + cl.positional()[0] + "'");
    const std::vector<std::string> files = cl.values("ligands");
    if (files.empty())
        throw UsageError("missing --ligands FILE...");
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int threads = cl.intValue("threads", hw, 1, 1024);
    dock::DockOptions options = readDockOptions(cl, threads);
    const std::optional<Shard> shard = shardOption(cl);

    // Ctrl-C from here on (setting up the target can take a while too) stops cleanly.
    Progress progress;
    ProgressPrinter printer;
    progress.onProgress = [&](long done, long total) { printer(done, total); };
    InterruptGuard interrupt(progress);

    DeviceChoice device = chooseDevice(cl, threads, "dock");
    // Ligands per batch: all runs of a batch go to the backend together.
    // (Several GPUs share each batch out, by work: a full batch for each.)
    const int batchSize = cl.intValue(
        "batch", device.backend->isGpu() ? 256 * backendDeviceCount(*device.backend) : 8, 1,
        1000000);

    // AD4 maps built from --receptor are kept on disk for later runs (XDG cache folder).
    std::optional<ad4::MapCache> mapCache;
    if (!cl.flag("no-map-cache") && !ad4::defaultMapCacheDirectory().empty())
        mapCache.emplace(1, ad4::defaultMapCacheDirectory());
    DockTargetSetup targetSetup(cl, files.front(), threads, mapCache ? &*mapCache : nullptr);
    std::optional<Molecule> reference;
    if (auto ref = cl.value("reference"))
        reference = readMolecule(*ref);

    // Outputs are opened first so that an unwritable path fails before any docking.
    std::optional<RankedSdfWriter> sdf;
    if (auto out = cl.sdfOutput("out"))
        sdf.emplace(*out);
    std::optional<AtomicFile> json;
    if (auto path = cl.value("json"))
        json.emplace(*path);
    std::vector<std::string> jsonLigands;

    ReadOptions readOptions;
    readOptions.warn = [](const std::string& msg) { std::cerr << "warning: " << msg << "\n"; };
    long index = 0, docked = 0, refused = 0, skipped = 0;
    std::string lastError;
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<Molecule> raw;
    // Each raw ligand's index in the input (all files, readable records): consecutive in a single
    // run, consecutive within each block of a shard.
    std::vector<long> rawIndex;
    long read = 0; // readable records seen (a shard numbers them all, keeps its own)
    auto dockBatch = [&] {
        std::vector<Molecule> ligands(raw.size());
        std::vector<std::string> errors(raw.size());
        parallelFor(static_cast<long>(raw.size()), threads, [&](long i) {
            try {
                ligands[i] = prepareLigand(raw[i]);
            } catch (const InputError& e) {
                errors[i] = e.what();
            }
        });
        std::vector<Molecule> ready;
        std::vector<long> readyIndex;
        std::vector<dock::LigandDockResult> all(raw.size());
        for (size_t i = 0; i < raw.size(); ++i) {
            all[i].ligand = static_cast<int>(rawIndex[i]);
            all[i].name = raw[i].name;
            all[i].error = errors[i];
            if (errors[i].empty()) {
                ready.push_back(std::move(ligands[i]));
                readyIndex.push_back(static_cast<long>(i));
            }
        }
        // firstLigand keys the random streams: a batch holding only ready ligands still docks
        // each with the stream of its index in the input (the gaps are the refused ones).
        std::vector<dock::LigandDockResult> results;
        std::vector<Molecule> batch;
        std::vector<int> readyOf(raw.size(), -1);
        for (size_t k = 0; k < ready.size(); ++k)
            readyOf[readyIndex[k]] = static_cast<int>(k);
        // Contiguous runs of ready ligands go to the backend together.
        size_t k = 0;
        const dock::DockTarget& dockTarget =
            ready.empty() ? targetSetup.target() : targetSetup.targetFor(ready);
        while (k < ready.size() && !progress.cancelled()) {
            size_t end = k + 1;
            while (end < ready.size() && readyIndex[end] == readyIndex[end - 1] + 1 &&
                   rawIndex[readyIndex[end]] == rawIndex[readyIndex[end - 1]] + 1)
                ++end;
            batch.assign(ready.begin() + long(k), ready.begin() + long(end));
            device.backend->dock(dockTarget, batch, options, results, &progress,
                                 reference ? &*reference : nullptr, rawIndex[readyIndex[k]]);
            for (size_t j = k; j < end; ++j)
                all[readyIndex[j]] = std::move(results[j - k]);
            k = end;
        }
        if (progress.cancelled())
            return;
        for (size_t i = 0; i < all.size(); ++i) {
            const dock::LigandDockResult& r = all[i];
            if (json)
                jsonLigands.push_back(dockJson(r));
            if (!r.error.empty()) {
                ++refused;
                lastError = r.error;
                std::cerr << "warning: " << r.error << "\n";
                continue;
            }
            std::cout << dockSummaryLine(r) << "\n";
            if (sdf) {
                // The ligand's best score ranks all its poses (ties keep their cluster order),
                // so a screen's SDF lists ligands best first, each with its poses together.
                const double score = r.clusters.empty() ? 0.0 : r.clusters[0].bestScore;
                long seq = 0;
                for (Molecule& m : dockedPoses(ready[readyOf[i]], r, options)) {
                    if (shard) // the merge's key, last (MergeCommand strips it)
                        m.setProperty(kShardKeyTag,
                                      shardKeyValue(*shard, score, rawIndex[i], seq++));
                    sdf->add(m, score);
                }
            }
            ++docked;
        }
        std::cout.flush();
        index += static_cast<long>(raw.size());
        raw.clear();
        rawIndex.clear();
    };
    for (const std::string& file : files) {
        auto reader = MoleculeReader::open(file, readOptions);
        Molecule m;
        while (!progress.cancelled() && reader->next(m)) {
            if (shard && !shard->owns(read)) {
                ++read;
                continue;
            }
            rawIndex.push_back(read++);
            raw.push_back(std::move(m));
            if (static_cast<int>(raw.size()) >= batchSize)
                dockBatch();
        }
        skipped += reader->recordsSkipped();
    }
    if (!raw.empty() && !progress.cancelled())
        dockBatch();
    if (progress.cancelled()) {
        std::cerr << "dock: interrupted; no output written\n";
        return 130;
    }

    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    char secondsText[32];
    std::snprintf(secondsText, sizeof secondsText, "%.3f", seconds);
    std::cerr << "docked " << docked << " of " << index + skipped << " ligands in " << secondsText
              << " s (" << options.runs << " runs each, seed " << options.seed << ", "
              << dock::localSearchName(options.lga.localSearch) << ")"
              << (refused + skipped ? ", " + std::to_string(refused + skipped) + " skipped" : "")
              << "\n";
    if (shard && index == 0) { // a slice past the end of a short input
        std::cerr << "note: shard " << shard->label() << " holds no ligand; its output is empty\n";
    } else if (docked == 0) {
        std::cerr << "error: no ligand could be docked"
                  << (lastError.empty() ? "" : " (last: " + lastError + ")") << "\n";
        return 1;
    }
    if (sdf)
        sdf->commit();
    if (json) {
        JsonObject summary;
        summary.add("command", "dock").add("scoring", targetSetup.scoringName());
        summary.add("seed", std::to_string(options.seed)).add("runs", options.runs);
        summary.add("local_search", dock::localSearchName(options.lga.localSearch));
        summary.add("population", options.lga.populationSize);
        summary.add("cluster_rmsd", options.clusterRmsd, 3);
        summary.addRaw("ligands", jsonArray(jsonLigands));
        json->stream() << summary.str() << "\n";
        json->commit();
    }
    return 0;
}

} // namespace pw::cli
