// `posewright-cli bench hits`: the hit store at scale (issue 15, item 4). Generates an SDF of N
// poses of real molecules (each a seeded random rigid motion of one input molecule, with seeded
// random docking, minimization and overlay tags), then measures, one JSON line each: the import
// (wall and CPU seconds), opening the saved store, sorting the whole table on a column without
// and with an index, a filter, the export of every row to SDF against a plain write of as many
// bytes (--export-threads N: the export's threads, 0 = its default), and the peak memory.
#include "BenchClock.h"
#include "CommandLine.h"
#include "Commands.h"
#include "Json.h"
#include "chem/MoleculeReader.h"
#include "chem/SdfWriter.h"
#include "core/InputError.h"
#include "hits/HitExport.h"
#include "hits/HitFilter.h"
#include "hits/HitImport.h"
#include "hits/HitStore.h"
#include "hits/ScreenIndex.h"

#include <Eigen/Geometry>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <stdexcept>

namespace pw::cli {
namespace {

using namespace pw::hits;

// CPU seconds (user + system, every thread) this process has used so far.
double cpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

long long fileBytes(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? static_cast<long long>(st.st_size) : -1;
}

// One measurement: wall and CPU seconds around f().
struct Timed {
    double wall = 0, cpu = 0;
};
template <class F> Timed timed(F&& f) {
    const double w0 = benchNow(), c0 = cpuSeconds();
    f();
    return {benchNow() - w0, cpuSeconds() - c0};
}

void emit(JsonObject o, const Timed& t) {
    o.add("seconds", t.wall, 4).add("cpu_seconds", t.cpu, 4).add("peak_rss_mib", peakRssMiB(), 4);
    std::cout << o.str() << std::endl;
}

JsonObject line(const char* what, long long poses) {
    JsonObject o;
    o.add("bench", "hits").add("what", what).add("poses", poses);
    return o;
}

// The generated poses: molecule i % n moved rigidly (a seeded random rotation about its centre
// and a shift), which keeps its chemistry and stereochemistry, with the tags dock, minimize and
// overlay write (seeded random values in their usual ranges).
void writePoses(const std::vector<Molecule>& molecules, long count, unsigned long seed,
                const std::string& path) {
    std::ofstream out(path, std::ios::binary);
    if (!out)
        throw InputError(path, 0, "cannot write the generated poses");
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> gauss(0.0, 1.0);
    std::uniform_real_distribution<double> score(-13.0, -3.0), unit(0.0, 1.0), rmsd(0.0, 6.0);
    std::string text;
    for (long i = 0; i < count; ++i) {
        Molecule m = molecules[static_cast<size_t>(i) % molecules.size()];
        Eigen::Quaterniond q(gauss(rng), gauss(rng), gauss(rng), gauss(rng));
        q.normalize();
        Vec3 centre = Vec3::Zero();
        for (const Atom& a : m.atoms)
            centre += a.position;
        centre /= double(std::max<size_t>(1, m.atoms.size()));
        const Vec3 shift(gauss(rng), gauss(rng), gauss(rng));
        for (Atom& a : m.atoms)
            a.position = q * (a.position - centre) + centre + shift;
        const double dock = score(rng);
        auto num = [](double v) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.3f", v);
            return std::string(buf);
        };
        m.properties = {{"dock_score", num(dock)},
                        {"dock_inter", num(dock * 1.2)},
                        {"dock_intra", num(-dock * 0.2)},
                        {"run", std::to_string(i % 10 + 1)},
                        {"cluster", std::to_string(i % 7 + 1)},
                        {"rmsd_ref", num(rmsd(rng))},
                        {"minimizedAffinity", num(dock + 0.5 * gauss(rng))},
                        {"minimizedRMSD", num(rmsd(rng) * 0.3)},
                        {"PW_SHAPE_TANIMOTO", num(unit(rng))}};
        m.name += "_pose" + std::to_string(i);
        appendSdfRecord(text, m);
        if (text.size() > (1u << 22)) {
            out << text;
            text.clear();
        }
    }
    out << text;
    out.flush();
    if (!out)
        throw InputError(path, 0, "write failed (disk full?)");
}

// The whole table's id order by one column: what a table view needs to show a sorted column.
long long sortedIds(const HitStore& store, const std::string& order) {
    Statement s = store.prepare("SELECT id FROM poses ORDER BY " + compileOrder(order, store));
    std::vector<long long> ids;
    while (s.step())
        ids.push_back(s.integer(0));
    return static_cast<long long>(ids.size());
}

long long filteredIds(const HitStore& store, const std::string& where) {
    SqlFragment w = compileWhere(where, store);
    Statement s = store.prepare("SELECT id FROM poses WHERE " + w.sql);
    for (size_t i = 0; i < w.params.size(); ++i)
        s.bind(static_cast<int>(i) + 1, w.params[i]);
    std::vector<long long> ids;
    while (s.step())
        ids.push_back(s.integer(0));
    return static_cast<long long>(ids.size());
}

} // namespace

int runBenchHits(const std::vector<std::string>& args) {
    if (!args.empty() && args.front() == "substructure") // BenchHitsSubstructure.cpp
        return runBenchHitsSubstructure(std::vector<std::string>(args.begin() + 1, args.end()));
    const CommandLine cl(args, {{"molecules", OptionKind::Value},
                                {"poses", OptionKind::Value},
                                {"seed", OptionKind::Value},
                                {"dir", OptionKind::Value},
                                {"threads", OptionKind::Value},
                                {"sort", OptionKind::Value},
                                {"where", OptionKind::Value},
                                {"sdf", OptionKind::Value},
                                {"export-threads", OptionKind::Value},
                                {"no-export", OptionKind::Flag},
                                {"keep", OptionKind::Flag}});
    const std::string moleculesPath = cl.required("molecules");
    const long poses = cl.intValue("poses", 1000000, 1, 2000000000);
    const unsigned long seed = static_cast<unsigned long>(cl.intValue("seed", 1, 0, 2000000000));
    const std::string dir = cl.required("dir");
    const int threads = cl.intValue("threads", 0, 0, 1024);
    std::vector<std::string> sortColumns;
    {
        std::string list = cl.value("sort", "dock_score,mw,name"), item;
        for (char c : list + ",")
            if (c == ',') {
                if (!item.empty())
                    sortColumns.push_back(item);
                item.clear();
            } else {
                item += c;
            }
    }
    const std::string where = cl.value("where", "dock_score < -9 and mw < 500 and qed > 0.3");
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw UsageError("--dir: '" + dir + "' is not a directory");

    const std::vector<Molecule> molecules = readMolecules(moleculesPath);
    if (molecules.empty())
        throw InputError(moleculesPath, 0, "no molecules");
    // --sdf: poses generated earlier (the same --poses count), to time the import again alone.
    const bool reuse = cl.value("sdf").has_value();
    const std::string sdf = reuse ? *cl.value("sdf") : dir + "/bench_hits_poses.sdf";
    const std::string db = dir + "/bench_hits.db";
    const std::string exported = dir + "/bench_hits_export.sdf";
    std::remove(db.c_str());
    std::remove((db + "-journal").c_str());

    Timed t;
    if (!reuse) {
        t = timed([&] { writePoses(molecules, poses, seed, sdf); });
        emit(line("generate", poses)
                 .add("molecules", static_cast<long>(molecules.size()))
                 .add("sdf_bytes", fileBytes(sdf)),
             t);
    }

    // Import as `hits import` does: one transaction, ranks assigned, committed.
    ImportStats stats;
    ImportOptions options;
    options.threads = threads;
    Timed rank, commit;
    t = timed([&] {
        HitStore store(db, HitStore::Mode::Create);
        HitStore::Transaction tx(store);
        stats = importSdf(store, sdf, options);
        rank = timed([&] {
            if (auto rankBy = store.defaultRankColumn())
                store.assignRanks(rankBy->first, rankBy->second);
        });
        commit = timed([&] { tx.commit(); });
    });
    if (stats.poses != poses)
        throw InputError(sdf, 0,
                         "imported " + std::to_string(stats.poses) + " of " +
                             std::to_string(poses) + " generated poses");
    emit(line("import", stats.poses)
             .add("threads", threads)
             .add("poses_per_second", double(stats.poses) / t.wall, 6)
             .add("poses_per_cpu_second", double(stats.poses) / std::max(1e-9, t.cpu), 6)
             .add("store_bytes", fileBytes(db))
             // Each stage's own CPU time and the rate it alone would allow: with enough cores the
             // slowest serial stage (cut, or insert plus rank and commit) bounds the import.
             .add("cut_cpu_seconds", stats.cutCpuSeconds, 4)
             .add("parse_cpu_seconds", stats.parseCpuSeconds, 4)
             .add("insert_cpu_seconds", stats.insertCpuSeconds, 4)
             .add("rank_seconds", rank.wall, 4)
             .add("rank_cpu_seconds", rank.cpu, 4)
             .add("commit_seconds", commit.wall, 4)
             .add("cut_poses_per_cpu_second",
                  double(stats.poses) / std::max(1e-9, stats.cutCpuSeconds), 6)
             .add("parse_poses_per_cpu_second",
                  double(stats.poses) / std::max(1e-9, stats.parseCpuSeconds), 6)
             .add("insert_poses_per_cpu_second",
                  double(stats.poses) / std::max(1e-9, stats.insertCpuSeconds), 6),
         t);
    // As `hits import` does after its commit: the screen index written whole (ScreenPack.cpp),
    // for the next cold substructure filter; a cost of the import on top of the line above.
    long packed = 0;
    const Timed pack = timed([&] {
        HitStore store(db, HitStore::Mode::ReadWrite);
        packed = writeScreenPack(store, threads);
    });
    emit(line("pack_screen", stats.poses)
             .add("molecules", static_cast<long long>(packed))
             .add("import_and_pack_poses_per_second", double(stats.poses) / (t.wall + pack.wall), 6),
         pack);

    // Opening the saved store: schema check, column registry, row count (what a table shows
    // first).
    long long rows = 0;
    std::unique_ptr<HitStore> store;
    t = timed([&] {
        store = std::make_unique<HitStore>(db, HitStore::Mode::ReadOnly);
        rows = store->poseCount();
    });
    emit(line("open", rows).add("columns", static_cast<long>(store->columns().size())), t);

    for (const std::string& column : sortColumns) {
        if (!store->column(column))
            throw UsageError("--sort: unknown column '" + column + "'");
        long long n = 0;
        t = timed([&] { n = sortedIds(*store, column); });
        emit(line("sort", n).add("column", column).add("index", false), t);
    }
    long long matched = 0, matchedBefore = 0;
    t = timed([&] { matched = filteredIds(*store, where); });
    matchedBefore = matched;
    emit(line("filter", rows).add("where", where).add("matched", matched).add("index", false), t);

    // Indexes built after the bulk load (cheaper than maintaining them during it).
    store.reset();
    {
        HitStore rw(db, HitStore::Mode::ReadWrite);
        for (const std::string& column : sortColumns) {
            t = timed([&] {
                rw.exec("CREATE INDEX IF NOT EXISTS " + quoteIdentifier("bench_by_" + column) +
                        " ON poses(" + quoteIdentifier(column) + ")");
            });
            emit(line("index", rows).add("column", column), t);
        }
    }
    store = std::make_unique<HitStore>(db, HitStore::Mode::ReadOnly);
    for (const std::string& column : sortColumns) {
        long long n = 0;
        t = timed([&] { n = sortedIds(*store, column); });
        emit(line("sort", n).add("column", column).add("index", true), t);
        if (n != rows)
            throw std::runtime_error("bench hits: sorting by " + column + " gave " +
                                     std::to_string(n) + " of " + std::to_string(rows) + " rows");
    }
    t = timed([&] { matched = filteredIds(*store, where); });
    emit(line("filter", rows).add("where", where).add("matched", matched).add("index", true), t);
    if (matched != matchedBefore) // an index changes the plan, never the answer
        throw std::runtime_error("bench hits: the filter matched " + std::to_string(matched) +
                                 " rows with indexes and " + std::to_string(matchedBefore) +
                                 " without");

    if (!cl.flag("no-export")) {
        // --export-threads: the export's formatting threads (0: its default for the cores), to
        // compare thread counts on one machine.
        ExportTuning tuning = exportTuning();
        tuning.threads = cl.intValue("export-threads", 0, 0, 1024);
        setExportTuning(tuning);
        long written = 0;
        t = timed([&] { written = exportSdf(*store, Selection{}, exported); });
        const long long bytes = fileBytes(exported);
        emit(line("export_sdf", written)
                 .add("export_threads", tuning.threads)
                 .add("bytes", bytes)
                 .add("mib_per_second", double(bytes) / 1048576.0 / t.wall, 6),
             t);
        // The disk's share: writing as many bytes with no work between the writes.
        const std::string plain = dir + "/bench_hits_plain.bin";
        t = timed([&] {
            std::ofstream out(plain, std::ios::binary);
            const std::string block(1 << 20, 'x');
            for (long long left = bytes; left > 0; left -= static_cast<long long>(block.size()))
                out.write(block.data(),
                          static_cast<std::streamsize>(std::min<long long>(left, block.size())));
            out.flush();
        });
        emit(line("plain_write", written)
                 .add("bytes", bytes)
                 .add("mib_per_second", double(bytes) / 1048576.0 / t.wall, 6),
             t);
        std::remove(plain.c_str());
        if (!cl.flag("keep"))
            std::remove(exported.c_str());
    }
    store.reset();
    if (!cl.flag("keep")) {
        if (!reuse)
            std::remove(sdf.c_str());
        std::remove(db.c_str());
    }
    return 0;
}

} // namespace pw::cli
