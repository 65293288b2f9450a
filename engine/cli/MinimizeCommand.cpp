// `posewright-cli minimize`: flexible minimization of many ligand poses in a receptor on the chosen
// backend, streamed: reading, preparation, minimization and writing run concurrently on chunks
// (at most a few chunks in memory); JSON in input order, SDF ranked by affinity. SDF records are
// cut by the reader and parsed in parallel by the preparation stage, and poses of a topology
// already prepared reuse its preparation (PreparedLigandCache).
#include "BenchClock.h"
#include "ChunkPipeline.h"
#include "CommandLine.h"
#include "Commands.h"
#include "DeviceOption.h"
#include "FlexSetup.h"
#include "Json.h"
#include "Shard.h"
#include "TargetSetup.h"
#include "backend/DeviceMemoryBudget.h"
#include "backend/DeviceSelection.h"
#include "parallel/MultiDeviceBackend.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/PreparedLigandCache.h"
#include "chem/RankedSdfWriter.h"
#include "chem/RdkitThreads.h"
#include "chem/SdfReader.h"
#include "core/InputError.h"
#include "core/WorkerPool.h"
#include "core/PhaseTimings.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <future>
#include <iostream>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <thread>
#include <utility>

namespace pw::cli {
namespace {

// Chunks of records in flight between two stages: with capacity 1 per queue (the queue to the
// minimizers: one per device), one chunk in each stage and at most two finished ahead of their
// turn per device, a bounded number of chunks are in memory whatever the input size.
constexpr size_t kQueueCapacity = 1;

struct Pending {
    Molecule raw; // freed once prepared
    // An SDF record not parsed yet (parsed == false): its text, cut by the reader thread.
    SdfRecordText sdf;
    const std::string* file = nullptr;
    bool parsed = true;
    std::string readWarning; // the reader's message when the record could not be parsed
    std::string name;
    long index = 0; // position in the whole input stream (over all files), among readable records
    std::string error;
};

struct Chunk {
    long number = 0; // 0, 1, 2, ... in input order
    std::vector<Pending> records;
    std::vector<Molecule> ligands; // the prepared ones, in record order
    std::vector<long> ligandIndex; // their positions in the input stream
    std::vector<RefinementResult> results;
    std::vector<std::string> sdfRecords; // formatted in parallel when an SDF is written
    std::vector<XsType> types; // the ligands' XS types: the grid maps the chunk needs
};

// Parses (SDF records cut by the reader) and prepares a chunk on the pool's threads (RDKit work
// dominates here); in record order, drops the unreadable records with their warning and numbers
// the others. With a shard, records of other shards are numbered (every shard numbers the input
// as one run does) and then dropped before their preparation. `cache` is null when preparations
// are not reused (--no-reuse).
void prepareChunk(Chunk& chunk, const TargetInputs& inputs, WorkerPool& pool,
                  const ReadOptions& readOptions, PreparedLigandCache* cache,
                  const std::optional<Shard>& shard, long& index, long& skipped) {
    prepareRdkitForThreads();
    pool.parallelFor(static_cast<long>(chunk.records.size()), [&](long i) {
        Pending& p = chunk.records[i];
        if (p.parsed)
            return;
        p.parsed = parseSdfRecord(p.sdf, *p.file, readOptions, p.raw, p.readWarning);
        p.sdf = SdfRecordText{};
        if (p.parsed)
            p.name = p.raw.name;
    });
    // The warnings the sequential reader would have given, in record order (before this chunk's
    // refusals, which the writer reports); a shard reports the unreadable records that come
    // just before one of its own numbers, so that each is reported once over all shards.
    std::vector<Pending> kept;
    kept.reserve(chunk.records.size());
    for (Pending& p : chunk.records) {
        if (!p.parsed) {
            if (!p.readWarning.empty() && (!shard || shard->owns(index))) {
                ++skipped;
                if (readOptions.warn)
                    readOptions.warn(p.readWarning);
            }
            continue;
        }
        p.index = index++;
        if (shard && !shard->owns(p.index))
            continue;
        if (!p.readWarning.empty() && readOptions.warn) // read with repairs (StructureRepair)
            readOptions.warn(p.readWarning);
        kept.push_back(std::move(p));
    }
    chunk.records = std::move(kept);
    std::vector<std::optional<Molecule>> prepared(chunk.records.size());
    pool.parallelFor(static_cast<long>(chunk.records.size()), [&](long i) {
        Pending& p = chunk.records[i];
        try {
            Molecule lig = cache ? cache->prepare(p.raw) : prepareLigand(p.raw);
            requireInsideBox(lig, inputs.box, inputs.boxSource);
            prepared[i] = std::move(lig);
        } catch (const InputError& e) {
            p.error = e.what();
        }
        p.raw = Molecule{};
    });
    // The XS types found here, on the preparation's thread: the backend's thread only checks
    // that the grid has them (a scan of every atom of a chunk there left the GPUs idle).
    std::array<bool, kXsTypeCount> seen{};
    for (size_t i = 0; i < prepared.size(); ++i)
        if (prepared[i]) {
            for (const Atom& a : prepared[i]->atoms)
                if (a.xs != XsType::None && !seen[size_t(a.xs)]) {
                    seen[size_t(a.xs)] = true;
                    chunk.types.push_back(a.xs);
                }
            chunk.ligands.push_back(std::move(*prepared[i]));
            chunk.ligandIndex.push_back(chunk.records[i].index);
        }
}

// Busy seconds of one stage (its waits on the queues not counted).
struct StageClock {
    double seconds = 0;
    template <class F> auto time(F&& f) {
        const double t0 = benchNow();
        struct Add {
            double& s;
            double t0;
            ~Add() { s += benchNow() - t0; }
        } add{seconds, t0};
        return f();
    }
};

// The minimized coordinates and the SD tags, in place (the molecule is written, then dropped).
void annotate(Molecule& m, const RefinementResult& r, long index) {
    for (size_t i = 0; i < m.atoms.size() && i < r.coordinates.size(); ++i)
        m.atoms[i].position = r.coordinates[i];
    char buf[32];
    auto fmt = [&](double v) {
        std::snprintf(buf, sizeof buf, "%.3f", v);
        return std::string(buf);
    };
    m.setProperty("minimizedAffinity", fmt(r.score.affinity));
    m.setProperty("minimizedRMSD", fmt(r.rmsdFromStart));
    m.setProperty("minimizedInter", fmt(r.score.inter));
    m.setProperty("minimizedIntra", fmt(r.score.intra));
    m.setProperty("minimizedTorsional", fmt(r.score.torsional));
    m.setProperty("inputIndex", std::to_string(index));
}

// Frees what the writer no longer reads once the SD record is formatted (it reads the name and
// the scores): here, on every formatting thread. Freed by the writer, 2,000,000 poses kept its
// one thread busy for 11-23 s and bounded the command on two GPUs (tests/bench/RESULTS.md).
void release(Molecule& ligand, RefinementResult& result) {
    Molecule named;
    named.name = std::move(ligand.name);
    ligand = std::move(named);
    result.coordinates = {};
    result.pose = {};
    result.trajectory = {};
}

} // namespace

int runMinimize(const std::vector<std::string>& args) {
    auto spec = targetOptionSpec();
    spec.insert({{"ligands", OptionKind::Values},
                 {"out", OptionKind::Value},
                 {"json", OptionKind::Flag},
                 {"device", OptionKind::Value},
                 {"threads", OptionKind::Value},
                 {"vina-steps", OptionKind::Flag},
                 {"smooth", OptionKind::Flag},
                 {"no-vina-guard", OptionKind::Flag},
                 {"max-step", OptionKind::Value},
                 {"interpolation", OptionKind::Value},
                 {"exact", OptionKind::Flag},
                 {"line-search", OptionKind::Value},
                 {"max-iterations", OptionKind::Value},
                 {"tolerance", OptionKind::Value},
                 {"chunk", OptionKind::Value},
                 {"max-gpu-memory", OptionKind::Value},
                 {"no-reuse", OptionKind::Flag},
                 {"reduction", OptionKind::Value},
                 {"shard", OptionKind::Value},
                 {"shard-block", OptionKind::Value},
                 {"flex", OptionKind::Value},
                 {"flex-out", OptionKind::Value},
                 {"flex-residues", OptionKind::Value},
                 {"timings", OptionKind::Flag}});
    CommandLine cl(args, spec);
    if (!cl.positional().empty())
        throw UsageError("unexpected argument '" + cl.positional()[0] + "'");
    const std::vector<std::string> files = cl.values("ligands");
    if (files.empty())
        throw UsageError("missing --ligands FILE...");
    if (wantsFlex(cl)) // flexible side chains: FlexMinimize.cpp (CPU, or one GPU)
        return minimizeWithFlex(cl);
    if (cl.value("flex-out"))
        throw UsageError("--flex-out needs --flex FLEX.pdbqt");
    const bool json = cl.flag("json");
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int threads = cl.intValue("threads", hw, 1, 1024);
    const std::optional<Shard> shard = shardOption(cl);

    MinimizeBatchOptions options;
    options.exact = cl.flag("exact");
    if (cl.flag("smooth") && cl.flag("vina-steps"))
        throw UsageError("--smooth and --vina-steps exclude each other");
    // Default: the well-conditioned minimization (GPU and CPU results agree) guarded by Vina's
    // own path, so that no start ends worse than Vina --local_only (tests/bench/RESULTS.md).
    // --smooth names that configuration; --vina-steps is Vina's path alone (trilinear reads).
    if (cl.flag("vina-steps"))
        options.refinement.vinaSteps = true;
    else
        options.refinement = RefinementOptions::standard();
    if (cl.flag("no-vina-guard"))
        options.refinement.vinaGuard = false;
    if (auto mode = cl.value("interpolation"))
        if (!parseGridInterpolation(*mode, options.refinement.gridInterpolation))
            throw UsageError("--interpolation expects trilinear, catmull-rom or bspline, got '" +
                             *mode + "'");
    MinimizeOptions& mo = options.refinement.minimize;
    mo.maxIterations = cl.intValue("max-iterations", mo.maxIterations, 1, 1000000);
    mo.gradientTolerance = cl.doubleValue("tolerance", mo.gradientTolerance, 0.0, 1e6);
    // Longest first trial of a line search in pose space (A and radians; 0 = none, Vina's).
    mo.maxStepNorm = cl.doubleValue("max-step", mo.maxStepNorm, 0.0, 1e6);
    const std::string search = cl.value("line-search", "wolfe");
    if (search == "armijo")
        mo.lineSearch = LineSearchKind::Armijo;
    else if (search != "wolfe")
        throw UsageError("--line-search expects wolfe or armijo, got '" + search + "'");

    // The CUDA kernel's fragment reduction (tests/bench/RESULTS.md has the study); the CPU
    // ignores it.
    options.gpuReduction = cl.value("reduction", "");
    if (!options.gpuReduction.empty() && options.gpuReduction != "shared" &&
        options.gpuReduction != "shuffle" && options.gpuReduction != "wmma")
        throw UsageError("--reduction expects shuffle, shared or wmma, got '" +
                         options.gpuReduction + "'");

    if (auto mib = cl.value("max-gpu-memory")) {
        options.maxDeviceBytes = parseMebibytes(*mib);
        if (options.maxDeviceBytes == 0)
            throw UsageError("--max-gpu-memory expects MiB (a whole number above 0), got '" + *mib +
                             "'");
    }

    // Where the wall time goes (--timings prints it on stderr, a table and one JSON line): the
    // main thread's phases, and each pipeline stage's thread and each device as a group.
    const double wall0 = PhaseTimings::now();
    PhaseTimings timings;
    options.timings = &timings;
    PhaseTimer setupTimer(&timings, "setup");
    // The devices are set up (CUDA contexts: a fraction of a second) on a thread of their own
    // while this one reads the receptor and box.
    const DeviceRequest request = deviceRequestOption(cl);
    struct Workers {
        std::string note;
        std::unique_ptr<Backend> backend;
        std::vector<std::unique_ptr<Backend>> extraLanes;
        std::vector<Backend*> devices; // a worker each
    };
    auto makingWorkers = std::async(std::launch::async, [&request, threads, &timings] {
        PhaseTimer devicesTimer(&timings, "devices", "setup");
        Workers w;
        w.backend = createBackend(request, threads, w.note);
        // One worker per device takes whole chunks from the queue, so a device never waits for
        // another at a chunk's end (the devices' chunks are put back in input order after).
        w.devices = deviceBackends(*w.backend);
        // Two workers per GPU, each on a backend of its own (its own streams), so that one
        // worker's host work (templates, packing, the exact report) overlaps the other's
        // kernels: 1.34-1.38x on one H200 (tests/bench/RESULTS.md).
        // POSEWRIGHT_MINIMIZE_LANES=L (1-4) sets it.
        const char* lanesKnob = std::getenv("POSEWRIGHT_MINIMIZE_LANES");
        const int lanes =
            !w.backend->isGpu() ? 1 : lanesKnob ? std::clamp(std::atoi(lanesKnob), 1, 4) : 2;
        for (int k = 1; k < lanes; ++k) {
            std::string ignored;
            w.extraLanes.push_back(createBackend(request, threads, ignored));
            for (Backend* b : deviceBackends(*w.extraLanes.back()))
                w.devices.push_back(b);
        }
        return w;
    });
    TargetInputs inputs = loadTarget(cl, files.front());
    DockingTarget target(inputs.receptor, inputs.box, inputs.scoring, threads);
    Workers workers = makingWorkers.get();
    Backend* backend = workers.backend.get();
    const std::vector<Backend*>& devices = workers.devices;
    std::cerr << workers.note << "\n";
    if (backend->isGpu() && options.refinement.vinaGuard)
        std::cerr << "note: the Vina guard runs on the CPU only; the GPU minimizes without it "
                     "(--device cpu to have it)\n";
    const size_t workerCount = devices.size();
    // Records per chunk: enough to fill a GPU (8192 1iep poses keep it ~70% as busy as 100k)
    // while few chunks are in memory.
    const int chunkSize = cl.intValue("chunk", backend->isGpu() ? 8192 : 1024, 1, 10000000);
    // On several devices, without --chunk, the first chunk is a quarter of that: its reading and
    // preparation are what the devices wait for before their first piece. (The output does not
    // depend on the chunks.)
    const int firstChunkSize =
        !cl.value("chunk") && workerCount > 1 ? std::max(1, chunkSize / 4) : chunkSize;

    std::optional<RankedSdfWriter> sdf;
    if (auto out = cl.sdfOutput("out"))
        sdf.emplace(*out);

    ReadOptions readOptions;
    readOptions.warn = [](const std::string& msg) { std::cerr << "warning: " << msg << "\n"; };
    // --no-reuse prepares every record from scratch. The output is the same either way (tests/cli
    // test_cli_minimize.cpp compares the two byte for byte, tests/chem/test_prep_reuse.cpp every
    // record); it is a command-line option rather than an environment switch so that the test,
    // and a user who doubts the reuse, can check it on the real command without a rebuild.
    std::optional<PreparedLigandCache> cache;
    if (!cl.flag("no-reuse"))
        cache.emplace();
    // index and parseSkipped belong to the preparation stage (records are numbered once parsed),
    // readSkipped to the reader (formats other than SDF are parsed there).
    long index = 0, minimized = 0, refused = 0, readSkipped = 0, parseSkipped = 0;
    setupTimer.stop();
    const auto t0 = std::chrono::steady_clock::now();
    BoundedQueue<Chunk> read(kQueueCapacity), prepared(kQueueCapacity * workerCount),
        toFormat(kQueueCapacity), done(kQueueCapacity);
    InOrderHandoff<Chunk> inOrder(toFormat, long(2 * workerCount));
    // Written chunks are freed on a thread of their own (the writer's one thread was the
    // command's slowest stage on two GPUs).
    BoundedQueue<Chunk> written(kQueueCapacity);
    StageClock readClock, prepareClock, formatClock, writeClock;
    std::mutex errorMutex;
    std::exception_ptr error;
    auto fail = [&](std::exception_ptr e) {
        {
            std::lock_guard lock(errorMutex);
            if (!error)
                error = e;
        }
        read.abort(), prepared.abort(), toFormat.abort(), done.abort(), written.abort();
        inOrder.abort(); // after the queues: its finish() may wait in toFormat.push
    };
    // Stage 1: the reader (one thread; records in input order).
    std::thread reader([&] {
        try {
            Chunk chunk;
            long chunks = 0; // pushed so far
            for (const std::string& file : files) {
                auto r = readClock.time([&] { return MoleculeReader::open(file, readOptions); });
                // SDF: only cut into records here; parsing is the preparation stage's (parallel).
                auto* sdfSource = dynamic_cast<SdfRecordSource*>(r.get());
                while (true) {
                    Pending p;
                    if (sdfSource) {
                        if (!readClock.time([&] { return sdfSource->nextRecordText(p.sdf); }))
                            break;
                        p.file = &file;
                        p.parsed = false;
                    } else {
                        if (!readClock.time([&] { return r->next(p.raw); }))
                            break;
                        p.name = p.raw.name;
                    }
                    chunk.records.push_back(std::move(p));
                    if (static_cast<int>(chunk.records.size()) >=
                        (chunks ? chunkSize : firstChunkSize)) {
                        chunk.number = chunks++;
                        if (!read.push(std::exchange(chunk, Chunk{})))
                            return;
                    }
                }
                readSkipped += r->recordsSkipped();
            }
            chunk.number = chunks;
            if (!chunk.records.empty() && !read.push(std::move(chunk)))
                return;
            read.close();
        } catch (...) {
            fail(std::current_exception());
        }
    });
    // Stages 2-4, each a thread that takes the chunks of `in` in order, works on each and hands
    // it on to `out` (closed after the last; an error stops every stage).
    auto stage = [&](BoundedQueue<Chunk>& in, BoundedQueue<Chunk>& out, auto work) {
        return std::thread([&in, &out, &fail, work] {
            try {
                while (auto chunk = in.pop()) {
                    work(*chunk);
                    if (!out.push(std::move(*chunk)))
                        return;
                }
                out.close();
            } catch (...) {
                fail(std::current_exception());
            }
        });
    };
    // Stage 2: RDKit preparation, the chunk's records in parallel (on threads of its own, kept
    // from chunk to chunk, as the formatter's).
    WorkerPool preparePool(threads), formatPool(threads);
    std::thread preparer = stage(read, prepared, [&](Chunk& chunk) {
        prepareClock.time([&] {
            prepareChunk(chunk, inputs, preparePool, readOptions, cache ? &*cache : nullptr, shard,
                         index, parseSkipped);
        });
    });
    // Stage 3: the backend, one worker per device (the GPU, or the CPU's threads), each taking
    // the next prepared chunk; the chunks go on to the formatter in input order. A chunk with
    // XS types the grid lacks has the grid rebuilt while no worker minimizes.
    std::shared_mutex gridLock;
    std::vector<StageClock> minimizeClocks(workerCount);
    std::atomic<size_t> minimizersLeft{workerCount};
    std::vector<std::thread> minimizers;
    for (size_t d = 0; d < workerCount; ++d)
        minimizers.emplace_back([&, d] {
            const std::string group = workerCount > 1 ? "minimizer " + std::to_string(d)
                                                      : std::string("minimizer");
            try {
                while (auto chunk = prepared.pop()) {
                    if (!inOrder.admit(chunk->number))
                        return;
                    minimizeClocks[d].time([&] {
                        std::shared_lock reading(gridLock);
                        if (!options.exact && !chunk->ligands.empty() &&
                            !target.hasGridFor(chunk->types)) {
                            reading.unlock();
                            PhaseTimer mapsTimer(&timings, "maps", group);
                            std::unique_lock building(gridLock);
                            target.gridFor(chunk->types);
                            building.unlock();
                            reading.lock(); // the grid only grows: it still has the types
                        }
                        PhaseTimer backendTimer(&timings, "backend", group);
                        devices[d]->minimize(target, chunk->ligands, options, chunk->results);
                    });
                    const long number = chunk->number;
                    if (!inOrder.finish(number, std::move(*chunk)))
                        return;
                }
                if (--minimizersLeft == 0)
                    toFormat.close(); // every chunk handed on (finish pushes in order)
            } catch (...) {
                fail(std::current_exception());
            }
        });
    // Stage 4: the SD records' coordinates and tags, in parallel, while the backend minimizes
    // the next chunk (the writer, one thread, was the slowest stage, and formatting on the
    // minimizer's thread left the GPUs idle meanwhile: tests/bench/RESULTS.md).
    std::thread formatter = stage(toFormat, done, [&](Chunk& chunk) {
        if (!sdf)
            return;
        formatClock.time([&] {
            PhaseTimer formatTimer(&timings, "format_records", "formatter");
            chunk.sdfRecords.resize(chunk.ligands.size());
            formatPool.parallelFor(static_cast<long>(chunk.ligands.size()), [&](long k) {
                annotate(chunk.ligands[k], chunk.results[k], chunk.ligandIndex[k]);
                if (shard) // the merge's key, last (MergeCommand strips it)
                    chunk.ligands[k].setProperty(
                        kShardKeyTag, shardKeyValue(*shard, chunk.results[k].score.affinity,
                                                    chunk.ligandIndex[k], 0));
                chunk.sdfRecords[k] = RankedSdfWriter::formatRecord(chunk.ligands[k]);
                release(chunk.ligands[k], chunk.results[k]);
            });
        });
    });
    // Stage 6: the written chunks freed.
    std::thread releaser([&] {
        while (written.pop()) {
        }
    });
    // Stage 5 (this thread): JSON or text in input order, SDF records to the ranking spool.
    auto write = [&](Chunk& chunk) {
        size_t k = 0;
        for (Pending& p : chunk.records) {
            if (!p.error.empty()) {
                ++refused;
                std::cerr << "warning: " << p.error << "\n";
                if (json)
                    std::cout << JsonObject()
                                     .add("name", p.name)
                                     .add("index", p.index)
                                     .add("error", p.error)
                                     .str()
                              << "\n";
                continue;
            }
            const Molecule& lig = chunk.ligands[k];
            const RefinementResult& r = chunk.results[k];
            if (json) {
                JsonObject o;
                o.add("name", lig.name).add("index", p.index);
                addScoreFields(o, r.score);
                o.add("start_affinity", r.start.affinity, 6);
                o.add("rmsd_from_start", r.rmsdFromStart, 4).add("iterations", r.iterations);
                o.add("evaluations", r.evaluations).add("stop", stopReasonName(r.reason));
                o.add("path", refinementPathName(r.path));
                std::cout << o.str() << "\n";
            } else {
                std::printf("%-24s %6ld  affinity %8.3f  (start %8.3f)  rmsd %6.3f  steps %d\n",
                            lig.name.empty() ? "(no name)" : lig.name.c_str(), p.index,
                            r.score.affinity, r.start.affinity, r.rmsdFromStart, r.iterations);
            }
            if (sdf) // annotated and formatted by the minimizer stage
                sdf->addFormatted(chunk.sdfRecords[k], r.score.affinity);
            ++k, ++minimized;
        }
        std::cout.flush();
    };
    try {
        for (;;) {
            PhaseTimer waitTimer(&timings, "wait_pipeline");
            auto chunk = done.pop();
            waitTimer.stop();
            if (!chunk)
                break;
            PhaseTimer writeTimer(&timings, "write");
            writeClock.time([&] { write(*chunk); });
            writeTimer.stop();
            if (!written.push(std::move(*chunk)))
                break;
        }
        written.close();
    } catch (...) {
        fail(std::current_exception());
    }
    reader.join(), preparer.join(), formatter.join(), releaser.join();
    for (std::thread& m : minimizers)
        m.join();
    if (error)
        std::rethrow_exception(error);
    const long skipped = readSkipped + parseSkipped;

    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    char secondsText[32];
    std::snprintf(secondsText, sizeof secondsText, "%.3f", seconds);
    // (Every numbered record reaches the writer, minimized or refused; a shard numbers all
    // records but writes its own only.)
    std::cerr << "minimized " << minimized << " of " << minimized + refused + skipped
              << " poses in " << secondsText << " s"
              << (shard ? " (shard " + shard->label() + "; " + std::to_string(index) + " in the input)" : "")
              << (refused + skipped ? ", " + std::to_string(refused + skipped) + " skipped" : "")
              << "\n";
    double minimizeSeconds = 0; // the busiest device's
    for (const StageClock& c : minimizeClocks)
        minimizeSeconds = std::max(minimizeSeconds, c.seconds);
    // Where the time went: each stage's busy seconds (they overlap, so they may add up to more
    // than the wall time; the largest bounds it) and the peak host memory.
    char stages[200];
    std::snprintf(stages, sizeof stages,
                  "stages (busy seconds, overlapped): read %.3f, prepare %.3f, minimize %.3f, "
                  "format %.3f, write %.3f; chunk %d; peak RSS %.0f MiB",
                  readClock.seconds, prepareClock.seconds, minimizeSeconds,
                  formatClock.seconds, writeClock.seconds, chunkSize, peakRssMiB());
    std::cerr << stages << "\n";
    if (cache)
        std::cerr << "preparation reused for " << cache->reused() << " of "
                  << cache->reused() + cache->preparedFresh() << " records\n";
    timings.add("read", readClock.seconds, "reader");
    timings.add("prepare", prepareClock.seconds, "preparer");
    if (shard && minimized + refused == 0) { // a slice past the end of a short input
        std::cerr << "note: shard " << shard->label() << " holds no record; its output is empty\n";
        if (sdf)
            sdf->commit();
        return 0;
    }
    if (minimized == 0) {
        std::cerr << "error: no ligand could be minimized\n";
        return 1;
    }
    {
        PhaseTimer commitTimer(&timings, "commit");
        if (sdf)
            sdf->commit();
    }
    {
        // What the process's end costs, timed: the spool's removal (the kernel drops its pages)
        // and the devices' release (contexts, pinned buffers).
        PhaseTimer spoolTimer(&timings, "remove_spool");
        sdf.reset();
        spoolTimer.stop();
        PhaseTimer devicesTimer(&timings, "release_devices");
        workers = Workers{};
    }
    if (cl.flag("timings")) {
        const double wall = PhaseTimings::now() - wall0;
        timings.print(std::cerr, wall);
        std::cerr << "{\"timings\":" << timings.json(wall) << "}\n";
    }
    return 0;
}

} // namespace pw::cli
