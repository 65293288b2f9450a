// `posewright-cli bench hits substructure`: the substructure filter over a store of many DISTINCT
// molecules (issue 15, the filter goal). Builds the store: the SMILES file's molecules, then
// seeded random pairs of them as two-fragment molecules ("A.B", canonical) until --molecules
// distinct ones, --poses-per-molecule rows each (consecutive, as a docking run's poses of one
// ligand; the first with the screening fingerprint, as the import writes it). Then, one
// JSON line each: loading the screen, per pattern the fingerprint screen alone (survivors), the
// filter on a fresh connection (open, screen load, match: "fresh"), cold (first use of the
// pattern on the kept connection) and again, and RDKit's match of a
// sample of the stored SMILES as the filter did before the screen (microseconds per molecule).
// --rdkit-only: every survivor of the screen matched by RDKit, as before the compact matcher
// (CompactSubstructure.h), to compare the two in one binary on one store.
#include "BenchClock.h"
#include "CommandLine.h"
#include "Commands.h"
#include "Json.h"
#include "chem/LingoSmiles.h"
#include "chem/SubstructureQuery.h"
#include "core/InputError.h"
#include "core/ParallelFor.h"
#include "hits/HitFilter.h"
#include "hits/HitStore.h"
#include "hits/ScreenIndex.h"

#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <future>
#include <iostream>
#include <random>
#include <unordered_set>

namespace pw::cli {
namespace {

using namespace pw::hits;

double cpuNow() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

struct Timed {
    double wall = 0, cpu = 0;
};
template <class F> Timed timed(F&& f) {
    const double w0 = benchNow(), c0 = cpuNow();
    f();
    return {benchNow() - w0, cpuNow() - c0};
}

void emit(JsonObject o, const Timed& t) {
    o.add("seconds", t.wall, 4).add("cpu_seconds", t.cpu, 4).add("peak_rss_mib", peakRssMiB(), 4);
    std::cout << o.str() << std::endl;
}

JsonObject line(const char* what, long long molecules) {
    JsonObject o;
    o.add("bench", "hits_substructure").add("what", what).add("molecules", molecules);
    return o;
}

std::vector<std::string> splitList(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string item;
    for (char c : s + sep)
        if (c == sep) {
            if (!item.empty())
                out.push_back(item);
            item.clear();
        } else {
            item += c;
        }
    return out;
}

// `posesPer` rows per distinct molecule: canonical SMILES, its fingerprint (first row), a random
// docking score; a molecule's rows consecutive, or with `interleave` one row of every molecule,
// then the next round (no row repeats the molecule of the row before: a store merged from
// several runs, or re-sorted). Returns the number of distinct molecules.
long long buildStore(const std::string& smilesPath, long target, int posesPer, bool interleave,
                     unsigned long seed, int threads, const std::string& db) {
    const LingoMolecules read = readLingoSmiles(smilesPath, threads);
    if (read.canonical.empty())
        throw InputError(smilesPath, 0, "no readable SMILES");
    const std::vector<std::string>& base = read.canonical;
    std::mt19937_64 rng(seed), scoreRng(seed + 1); // the molecules do not depend on the order
    std::uniform_int_distribution<size_t> pick(0, base.size() - 1);
    std::uniform_real_distribution<double> score(-13.0, -3.0);
    std::unordered_set<std::string> seen;
    HitStore store(db, HitStore::Mode::Create);
    HitStore::Transaction tx(store);
    const ColumnInfo dock{"dock_score", ColumnType::Real, ColumnOrigin::Tag, "dock_score"};
    long long rows = 0;
    size_t nextBase = 0;
    std::vector<PoseRecord> later; // with interleave: the molecules, for rounds 2..posesPer
    // A batch of candidates: the file's molecules first, then random pairs (drawn here, on
    // this thread, so the store does not depend on the thread count).
    auto nextCandidates = [&] {
        std::vector<std::string> candidates;
        for (; candidates.size() < 4096 && nextBase < base.size(); ++nextBase)
            candidates.push_back(base[nextBase]);
        while (candidates.size() < 4096)
            candidates.push_back(base[pick(rng)] + "." + base[pick(rng)]);
        return candidates;
    };
    auto describe = [threads](std::vector<std::string> candidates) {
        std::vector<PoseRecord> records(candidates.size());
        parallelFor(static_cast<long>(candidates.size()), threads, [&](long i) {
            try {
                PoseRecord& p = records[i];
                p.smiles = canonicalSmiles(candidates[i]);
                p.screen = screenFingerprint(*p.smiles, &p.screenMolecule, &p.screenCompact);
            } catch (const std::exception&) {
                records[i].smiles.reset();
            }
        });
        return records;
    };
    // The next batch is described on the worker threads while this one inserts the last.
    std::future<std::vector<PoseRecord>> ahead =
        std::async(std::launch::async, describe, nextCandidates());
    while (rows < target) {
        std::vector<PoseRecord> records = ahead.get();
        ahead = std::async(std::launch::async, describe, nextCandidates());
        for (PoseRecord& p : records) {
            if (rows >= target)
                break;
            if (!p.smiles || !seen.insert(*p.smiles).second)
                continue;
            p.name = "mol" + std::to_string(rows);
            for (int k = 0; k < (interleave ? 1 : posesPer); ++k) {
                p.scores.assign(1, {dock, score(scoreRng)});
                store.insertPose(p);
                p.screen.reset(); // the import gives the first pose of a molecule its screen
                p.screenMolecule.clear();
                p.screenCompact.clear();
            }
            if (interleave && posesPer > 1)
                later.push_back(std::move(p));
            ++rows;
        }
    }
    ahead.wait();
    for (int k = 1; k < posesPer && interleave; ++k)
        for (PoseRecord& p : later) {
            p.scores.assign(1, {dock, score(scoreRng)});
            store.insertPose(p);
        }
    tx.commit();
    writeScreenPack(store, threads); // as `hits import` does after its commit
    return rows;
}

long long filteredIds(const HitStore& store, const std::string& where) {
    SqlFragment w = compileWhere(where, store);
    Statement s = store.prepare("SELECT id FROM poses WHERE " + w.sql);
    for (size_t i = 0; i < w.params.size(); ++i)
        s.bind(static_cast<int>(i) + 1, w.params[i]);
    long long n = 0;
    while (s.step())
        ++n;
    return n;
}

} // namespace

int runBenchHitsSubstructure(const std::vector<std::string>& args) {
    const CommandLine cl(args, {{"smiles", OptionKind::Value},
                                {"molecules", OptionKind::Value},
                                {"poses-per-molecule", OptionKind::Value},
                                {"interleave", OptionKind::Flag},
                                {"seed", OptionKind::Value},
                                {"dir", OptionKind::Value},
                                {"threads", OptionKind::Value},
                                {"patterns", OptionKind::Value},
                                {"sample", OptionKind::Value},
                                {"reuse", OptionKind::Flag},
                                {"rdkit-only", OptionKind::Flag},
                                {"no-pack", OptionKind::Flag},
                                {"keep", OptionKind::Flag}});
    const std::string dir = cl.required("dir");
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw UsageError("--dir: '" + dir + "' is not a directory");
    const std::string db = dir + "/bench_hits_substructure.db";
    const long target = cl.intValue("molecules", 1000000, 1, 100000000);
    const int posesPer = cl.intValue("poses-per-molecule", 1, 1, 1000);
    const int threads = cl.intValue("threads", 1, 1, 1024);
    const int sample = cl.intValue("sample", 20000, 0, 100000000);
    const std::vector<std::string> patterns =
        splitList(cl.value("patterns", "c1ccccc1 [NX3;H2]c c1ccncc1 [N+](=O)[O-] C(=O)[OH] "
                                       "S(=O)(=O)N [r5]"),
                  ' '); // SMARTS use ';' and ','
    PatternAnswers::setCompactEnabled(!cl.flag("rdkit-only"));
    if (!cl.flag("reuse")) { // --reuse: the store of an earlier run with --keep
        const std::string smilesPath = cl.required("smiles");
        std::remove(db.c_str());
        std::remove((db + "-journal").c_str());
        long long rows = 0;
        const Timed t = timed([&] {
            rows = buildStore(smilesPath, target, posesPer, cl.flag("interleave"),
                              static_cast<unsigned long>(cl.intValue("seed", 1, 0, 2000000000)),
                              threads, db);
        });
        emit(line("build", rows).add("poses", rows * posesPer).add("threads", threads).add("store_bytes", [&] {
            struct stat s {};
            return ::stat(db.c_str(), &s) == 0 ? static_cast<long long>(s.st_size) : -1LL;
        }()),
             t);
    }

    HitStore store(db, HitStore::Mode::ReadOnly);
    const long long poses = store.poseCount();
    ScreenIndex index;
    // One reader, then key ranges on every core (what a query does on a large store): the same
    // index, checked molecule by molecule.
    // pw_screen first (the pack off), then the pack where the store has a valid one.
    ScreenIndex::setPackEnabled(false);
    const Timed serial = timed([&] { index.load(store.handle(), store.path(), 1); });
    std::vector<std::string> order(index.size());
    std::vector<ScreenFingerprint> fps(index.size());
    for (size_t i = 0; i < index.size(); ++i) {
        order[i] = index.smiles(static_cast<uint32_t>(i));
        fps[i] = index.fingerprint(static_cast<uint32_t>(i));
    }
    auto sameAsOneReader = [&] {
        bool same = index.size() == order.size();
        for (size_t i = 0; same && i < order.size(); ++i)
            same = index.smiles(static_cast<uint32_t>(i)) == order[i] &&
                   index.fingerprint(static_cast<uint32_t>(i)) == fps[i];
        return same;
    };
    const Timed parallelLoad = timed([&] { index.load(store.handle(), store.path(), 0); });
    const bool parallel = index.loadedInParallel();
    if (!sameAsOneReader())
        throw std::runtime_error("bench hits substructure: the parallel load of the screen "
                                 "differs from one reader's");
    // --no-pack: every load below (fresh connections included) reads pw_screen, as before.
    ScreenIndex::setPackEnabled(!cl.flag("no-pack"));
    const Timed load = timed([&] { index.load(store.handle(), store.path(), 0); });
    if (!sameAsOneReader())
        throw std::runtime_error("bench hits substructure: the screen read from its pack "
                                 "differs from one reader's");
    order = {};
    fps = {};
    const auto rows = static_cast<long long>(index.size()); // distinct molecules
    emit(line("load_screen", rows)
             .add("poses", poses)
             .add("parallel", parallel)
             .add("from_pack", index.loadedFromPack())
             .add("one_reader_seconds", serial.wall, 4)
             .add("one_reader_cpu_seconds", serial.cpu, 4)
             .add("parallel_seconds", parallelLoad.wall, 4)
             .add("parallel_cpu_seconds", parallelLoad.cpu, 4),
         load);
    for (const std::string& p : patterns) {
        const SubstructureQuery query(p, SubstructureQuery::Syntax::Smarts);
        long long survivors = 0;
        const Timed screen = timed([&] {
            for (size_t i = 0; i < index.size(); ++i)
                survivors += passesScreen(query.screen(), index.fingerprint(static_cast<uint32_t>(i)));
        });
        // The match of the survivors alone, on one thread: its CPU cost per survivor, by the
        // compact matcher where it answers, else RDKit.
        PatternAnswers alone(query);
        const Timed matchOnly = timed([&] { alone.answerAll(index, 1); });
        const std::string where = "smarts('" + p + "')";
        // Cold as `hits query` pays it: a fresh connection opens the store, loads the screen and
        // answers the pattern.
        long long fresh = 0;
        const Timed freshCold = timed([&] {
            const HitStore once(db, HitStore::Mode::ReadOnly);
            fresh = filteredIds(once, where);
        });
        long long matched = 0;
        const Timed cold = timed([&] { matched = filteredIds(store, where); });
        long long again = 0;
        const Timed warm = timed([&] { again = filteredIds(store, where); });
        if (again != matched || fresh != matched)
            throw std::runtime_error("bench hits substructure: " + where + " matched " +
                                     std::to_string(matched) + " then " + std::to_string(again) +
                                     ", on a fresh connection " + std::to_string(fresh));
        // The filter before the screen: RDKit reads each stored SMILES and matches.
        Timed before;
        long checked = 0;
        if (sample > 0)
            before = timed([&] {
                for (size_t i = 0; i < index.size() && checked < sample; ++i, ++checked)
                    (void)query.matchesSmiles(index.smiles(static_cast<uint32_t>(i)));
            });
        JsonObject o = line("filter", rows);
        o.add("poses", poses)
            .add("pattern", p)
            .add("matched", matched)
            .add("screen_survivors", survivors)
            .add("compact", query.compactPattern() != nullptr && !cl.flag("rdkit-only"))
            .add("compact_answered", static_cast<long long>(alone.counts().compact))
            .add("match_one_thread_cpu_seconds", matchOnly.cpu, 4)
            .add("match_us_per_survivor",
                 1e6 * matchOnly.cpu / double(std::max<size_t>(1, alone.counts().matched)), 4)
            .add("screen_only_seconds", screen.wall, 4)
            .add("fresh_seconds", freshCold.wall, 4)
            .add("fresh_cpu_seconds", freshCold.cpu, 4)
            .add("again_seconds", warm.wall, 4)
            .add("again_cpu_seconds", warm.cpu, 4);
        if (checked > 0)
            o.add("unscreened_us_per_molecule", 1e6 * before.cpu / double(checked), 4)
                .add("unscreened_estimate_cpu_seconds",
                     before.cpu / double(checked) * double(index.size()), 4);
        emit(o, cold);
    }
    if (!cl.flag("keep"))
        std::remove(db.c_str());
    return 0;
}

} // namespace pw::cli
