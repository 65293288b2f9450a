// `posewright-cli dock`: Lamarckian GA docking of every ligand of one or more files into a
// receptor (Vina, Vinardo or AutoDock 4 scoring), streamed in batches of ligands (reading and
// preparation, then all runs of the batch on the backend); poses ranked into an SDF with their SD
// tags, a JSON summary, progress on stderr; Ctrl-C stops the runs and writes nothing.
#include "CommandLine.h"
#include "FlexSetup.h"
#include "Commands.h"
#include "DeviceOption.h"
#include "DockOutput.h"
#include "DockPreparation.h"
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
#include "dock/LigandDockScoring.h"
#include "core/ParallelFor.h"
#include "core/PhaseTimings.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <csignal>
#include <deque>
#include <exception>
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

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
    readDockSearchOptions(cl, o);
    o.clusterRmsd = cl.doubleValue("cluster-rmsd", o.clusterRmsd, 0.0, 100.0);
    o.maxPosesOut = cl.intValue("poses", o.maxPosesOut, 0, 100000);
    o.allRuns = cl.flag("all-runs");
    return o;
}

// Prints "dock: N/M runs" to stderr at most once a second (and when a batch ends): the runs of
// every batch so far, some of which may dock at the same time.
class ProgressPrinter {
public:
    void operator()(size_t batch, long done, long total) {
        std::lock_guard lock(m_);
        if (batch >= done_.size()) {
            done_.resize(batch + 1, 0);
            total_.resize(batch + 1, 0);
        }
        done_[batch] = done;
        total_[batch] = total;
        const auto now = std::chrono::steady_clock::now();
        if (done < total && now - last_ < std::chrono::seconds(1))
            return;
        last_ = now;
        long allDone = 0, allTotal = 0;
        for (size_t b = 0; b < done_.size(); ++b)
            allDone += done_[b], allTotal += total_[b];
        std::cerr << "dock: " << allDone << "/" << allTotal << " runs\n";
    }

private:
    std::mutex m_;
    std::chrono::steady_clock::time_point last_{};
    std::vector<long> done_, total_;
};

// The ligands of `ready` that the backend will take into `box` (the others it refuses, each
// with its message).
std::vector<Molecule> dockableIn(const std::vector<Molecule>& ready, const SearchBox& box) {
    std::vector<Molecule> dockable;
    for (const Molecule& m : ready) {
        try {
            dock::checkDockable(m, box);
            dockable.push_back(m);
        } catch (const InputError&) {
            // refused by the backend, with its message
        }
    }
    return dockable;
}

// A prepared batch after docking: each record's result (refused ones with their error).
struct DockedBatch {
    PreparedBatch prepared;
    std::vector<dock::LigandDockResult> all;
    std::vector<int> readyOf; // a record's place in prepared.ready, or -1
};

// Docks a prepared batch's ready ligands in one backend call, each keyed by its record's index
// in the input (the random streams: the gaps are the records refused before docking).
DockedBatch dockBatch(PreparedBatch b, const dock::DockTarget& target, Backend& backend,
                      const dock::DockOptions& options, const Molecule* reference,
                      Progress& progress) {
    DockedBatch d;
    d.all.resize(b.raw.molecules.size());
    for (size_t i = 0; i < d.all.size(); ++i) {
        d.all[i].ligand = static_cast<int>(b.raw.index[i]);
        d.all[i].name = b.raw.molecules[i].name;
        d.all[i].error = b.errors[i];
    }
    d.readyOf.assign(d.all.size(), -1);
    std::vector<long> keys(b.ready.size());
    for (size_t k = 0; k < b.ready.size(); ++k) {
        d.readyOf[b.readyIndex[k]] = static_cast<int>(k);
        keys[k] = b.raw.index[b.readyIndex[k]];
    }
    if (!b.ready.empty() && !progress.cancelled()) {
        std::vector<dock::LigandDockResult> results;
        backend.dock(target, b.ready, options, results, &progress, reference,
                     dock::LigandKeys(keys));
        for (size_t k = 0; k < b.ready.size(); ++k)
            d.all[b.readyIndex[k]] = std::move(results[k]);
    }
    d.prepared = std::move(b);
    return d;
}

} // namespace

int runDock(const std::vector<std::string>& args) {
    auto spec = dockTargetOptionSpec();
    spec.merge(dockSearchOptionSpec());
    spec.insert({{"ligands", OptionKind::Values},
                 {"out", OptionKind::Value},
                 {"json", OptionKind::Value},
                 {"device", OptionKind::Value},
                 {"threads", OptionKind::Value},
                 {"cluster-rmsd", OptionKind::Value},
                 {"poses", OptionKind::Value},
                 {"all-runs", OptionKind::Flag},
                 {"no-map-cache", OptionKind::Flag},
                 {"batch", OptionKind::Value},
                 {"shard", OptionKind::Value},
                 {"shard-block", OptionKind::Value},
                 {"flex", OptionKind::Value},
                 {"flex-residues", OptionKind::Value},
                 {"flex-out", OptionKind::Value},
                 {"timings", OptionKind::Flag}});
    CommandLine cl(args, spec);
    if (!cl.positional().empty())
        throw UsageError("unexpected argument '" + cl.positional()[0] + "'");
    const std::vector<std::string> files = cl.values("ligands");
    if (files.empty())
        throw UsageError("missing --ligands FILE...");
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int threads = cl.intValue("threads", hw, 1, 1024);
    dock::DockOptions options = readDockOptions(cl, threads);
    if (wantsFlex(cl)) // flexible side chains: FlexDockCommand.cpp (CPU, or one GPU)
        return dockWithFlexCommand(cl, options);
    if (cl.value("flex-out"))
        throw UsageError("--flex-out needs --flex FLEX.pdbqt or --flex-residues");
    const std::optional<Shard> shard = shardOption(cl);
    // Where the wall time goes: always collected (a clock read per phase); --timings prints it
    // on stderr and adds it to the JSON summary.
    const double wall0 = PhaseTimings::now();
    PhaseTimings timings;
    options.timings = &timings;
    PhaseTimer setupTimer(&timings, "setup");

    // Ctrl-C from here on (setting up the target can take a while too) stops cleanly.
    Progress progress;
    ProgressPrinter printer;
    InterruptGuard interrupt(progress);

    DeviceChoice device = chooseDevice(cl, threads, "dock");
    // Ligands per batch: all runs of a batch go to the backend together.
    // (Several GPUs share each batch out, by work: a full batch for each.)
    const int batchSize = cl.intValue(
        "batch", device.backend->isGpu() ? 256 * backendDeviceCount(*device.backend) : 8, 1,
        1000000);
    // On several GPUs, without --batch, the first batch is a quarter of that: its preparation
    // (RDKit embedding) is the one the GPUs wait for, so they start sooner, and the next batch
    // is prepared while they dock it. (One GPU keeps full batches: its one launch per batch
    // lasts as long as its longest run, which a small batch has fewer runs to hide; several
    // GPUs run two launches each, MultiDeviceBackend.) The output does not depend on batches.
    int nextBatchSize = !cl.value("batch") && backendDeviceCount(*device.backend) > 1
                            ? std::max(1, batchSize / 4)
                            : batchSize;

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

    setupTimer.stop();

    ReadOptions readOptions;
    readOptions.warn = [](const std::string& msg) { std::cerr << "warning: " << msg << "\n"; };
    long index = 0, docked = 0, refused = 0, skipped = 0;
    std::string lastError;
    const auto t0 = std::chrono::steady_clock::now();
    RawBatch raw;
    long read = 0; // readable records seen (a shard numbers them all, keeps its own)
    // The pipeline: batch k+1 is prepared (RDKit, on all cores) on a helper thread while batch
    // k docks on the device and is written, so that the GPU does not wait for the preparation
    // of every batch after the first. On several devices (or docking lanes) batch k+1 is also
    // handed to the backend as soon as it is prepared, while batch k's last chunks still dock:
    // its chunks take the lanes that batch k no longer needs (MultiDeviceBackend's lane pool),
    // so no GPU waits at a batch's end; batch k is written meanwhile. (Not when batch k+1
    // needs maps that the target lacks: they are built once the batches before it are done.)
    std::future<PreparedBatch> preparing;
    const bool overlapBatches = dynamic_cast<const MultiDeviceBackend*>(device.backend.get());
    size_t batchNumber = 0;
    progress.onProgress = [&](long done, long total) { printer(batchNumber, done, total); };
    struct InFlight { // a batch docking on its own thread (the Progress outlives the thread)
        std::unique_ptr<Progress> progress;
        std::future<DockedBatch> docked;
    };
    std::deque<InFlight> inFlight;
    // An error on this thread cancels the batches in flight (then waited for, above) at once.
    struct CancelOnError {
        Progress& progress;
        int before = std::uncaught_exceptions();
        ~CancelOnError() {
            if (std::uncaught_exceptions() > before)
                progress.cancel = true;
        }
    } cancelOnError{progress};
    auto writeDocked = [&](DockedBatch& d) {
        PhaseTimer writeTimer(&timings, "write");
        const std::vector<Molecule>& ready = d.prepared.ready;
        const std::vector<long>& rawIndex = d.prepared.raw.index;
        for (size_t i = 0; i < d.all.size(); ++i) {
            const dock::LigandDockResult& r = d.all[i];
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
                for (Molecule& m : dockedPoses(ready[d.readyOf[i]], r, options)) {
                    if (shard) // the merge's key, last (MergeCommand strips it)
                        m.setProperty(kShardKeyTag,
                                      shardKeyValue(*shard, score, rawIndex[i], seq++));
                    sdf->add(m, score);
                }
            }
            ++docked;
        }
        std::cout.flush();
        index += static_cast<long>(d.all.size());
    };
    // Waits for the oldest batch in flight and writes it (nothing once cancelled). A failed
    // batch cancels the others before its error goes on.
    auto finishOldest = [&] {
        PhaseTimer waitTimer(&timings, "wait_dock");
        std::optional<DockedBatch> d;
        try {
            d = inFlight.front().docked.get();
        } catch (...) {
            progress.cancel = true;
            throw;
        }
        waitTimer.stop();
        inFlight.pop_front();
        if (!progress.cancelled())
            writeDocked(*d);
    };
    auto finishAll = [&] {
        while (!inFlight.empty())
            finishOldest();
    };
    auto dockPrepared = [&](PreparedBatch& b) {
        PhaseTimer mapsTimer(&timings, "maps");
        if (!inFlight.empty() &&
            (!targetSetup.hasMapsFor(b.ready) ||
             !dock::targetReadyFor(targetSetup.target(),
                                   dockableIn(b.ready, targetSetup.target().box)))) {
            mapsTimer.stop();
            finishAll(); // the maps change: no batch docks on them meanwhile
            mapsTimer.restart();
        }
        // (A copy: the batches in flight keep theirs when AD4 maps are rebuilt.)
        const dock::DockTarget target =
            b.ready.empty() ? targetSetup.target() : targetSetup.targetFor(b.ready);
        // The Vina grid's maps for the types of the batch's dockable ligands (those the
        // backend will not refuse) here, so that they show as a phase of their own; the
        // backend then finds them built.
        dock::prepareTargetFor(target, dockableIn(b.ready, target.box));
        mapsTimer.stop();
        if (progress.cancelled())
            return;
        if (!overlapBatches) {
            PhaseTimer dockTimer(&timings, "dock");
            DockedBatch d = dockBatch(std::move(b), target, *device.backend, options,
                                      reference ? &*reference : nullptr, progress);
            dockTimer.stop();
            ++batchNumber;
            if (!progress.cancelled())
                writeDocked(d);
            return;
        }
        auto own = std::make_unique<Progress>();
        own->parent = &progress;
        own->onProgress = [&printer, n = batchNumber++](long done, long total) {
            printer(n, done, total);
        };
        Progress& p = *own;
        inFlight.push_back({std::move(own),
                            std::async(std::launch::async, [&, target, b = std::move(b)]() mutable {
                                return dockBatch(std::move(b), target, *device.backend, options,
                                                 reference ? &*reference : nullptr, p);
                            })});
        while (inFlight.size() > 1) // the batch before is written while this one docks
            finishOldest();
    };
    // The batch being prepared is docked (its preparation waited for first); `next`, when
    // given, starts preparing meanwhile (one preparation at a time: it takes every core).
    auto advance = [&](std::optional<RawBatch> next) {
        std::optional<PreparedBatch> previous;
        if (preparing.valid()) {
            PhaseTimer waitTimer(&timings, "wait_prepare");
            previous = preparing.get();
        }
        if (next)
            preparing = std::async(std::launch::async, prepareBatch, std::move(*next),
                                   readOptions, threads, &timings, "pipeline");
        if (previous)
            dockPrepared(*previous);
        if (!next)
            finishAll(); // the input's end
    };
    PhaseTimer readTimer(&timings, "read");
    for (const std::string& file : files) {
        bool embedLater = false;
        auto reader = openLigandsForDocking(file, readOptions, embedLater);
        Molecule m;
        while (!progress.cancelled() && reader->next(m)) {
            if (shard && !shard->owns(read)) {
                ++read;
                continue;
            }
            raw.add(std::move(m), read++, embedLater);
            if (static_cast<int>(raw.size()) >= nextBatchSize) {
                readTimer.stop();
                nextBatchSize = batchSize;
                advance(std::exchange(raw, RawBatch{}));
                readTimer.restart();
            }
        }
        skipped += reader->recordsSkipped();
    }
    readTimer.stop();
    if (raw.size() && !progress.cancelled())
        advance(std::move(raw));
    if (!progress.cancelled())
        advance(std::nullopt); // the last batch
    if (progress.cancelled()) {
        if (preparing.valid())
            preparing.wait(); // its threads end before the command does
        for (InFlight& f : inFlight)
            f.docked.wait();
    }
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
    {
        PhaseTimer commitTimer(&timings, "commit");
        if (sdf)
            sdf->commit();
    }
    const double wall = PhaseTimings::now() - wall0;
    if (cl.flag("timings"))
        timings.print(std::cerr, wall);
    if (json) {
        JsonObject summary;
        summary.add("command", "dock").add("scoring", targetSetup.scoringName());
        summary.add("seed", std::to_string(options.seed)).add("runs", options.runs);
        summary.add("local_search", dock::localSearchName(options.lga.localSearch));
        summary.add("population", options.lga.populationSize);
        summary.add("cluster_rmsd", options.clusterRmsd, 3);
        summary.addRaw("ligands", jsonArray(jsonLigands));
        // Only when asked: the summary is otherwise the same bytes for the same seed.
        if (cl.flag("timings"))
            summary.addRaw("timings", timings.json(wall));
        json->stream() << summary.str() << "\n";
        json->commit();
    }
    return 0;
}

} // namespace pw::cli
