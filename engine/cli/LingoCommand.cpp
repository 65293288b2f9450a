// `posewright-cli lingo`: LINGO similarity of query SMILES against a database (or all-vs-all of
// the database): top-k / threshold hits as text or JSON lines, or the full matrix as TSV.
#include "CommandLine.h"
#include "Commands.h"
#include "DeviceOption.h"
#include "Json.h"
#include "ShardLingo.h"
#include "chem/AtomicFile.h"
#include "chem/LingoSmiles.h"
#include "core/InputError.h"
#include "lingo/LingoSearch.h"

#include <charconv>
#include <iostream>
#include <memory>

namespace pw::cli {

namespace {

std::string floatText(float v) {
    char buf[32];
    auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v); // shortest exact round trip
    return std::string(buf, p);
}

std::string label(const LingoMolecules& m, size_t i) {
    return m.names[i].empty() ? "line" + std::to_string(m.lines[i]) : m.names[i];
}

LingoMolecules load(const std::string& path, int threads) {
    LingoMolecules m = readLingoSmiles(path, threads);
    for (const auto& s : m.skipped)
        std::cerr << "warning: " << s << "\n";
    if (m.canonical.empty())
        throw InputError(path, 0, "no valid SMILES: expected lines of 'SMILES [name]'");
    return m;
}

void writeMatrix(const std::string& path, const LingoMolecules& qm, const LingoMolecules& dm,
                 size_t nq, size_t ndb, LingoComparison& comparison) {
    AtomicFile file(path);
    std::ostream& out = file.stream();
    out << "query";
    for (size_t j = 0; j < ndb; ++j)
        out << '\t' << label(dm, j);
    out << '\n';
    const size_t block = std::max<size_t>(1, (size_t(1) << 26) / std::max<size_t>(1, ndb));
    std::vector<float> rows;
    for (size_t r0 = 0; r0 < nq; r0 += block) {
        const size_t r1 = std::min(nq, r0 + block);
        rows.resize((r1 - r0) * ndb);
        comparison.similarityRows(r0, r1, rows.data());
        for (size_t r = r0; r < r1; ++r) {
            out << label(qm, r);
            for (size_t j = 0; j < ndb; ++j)
                out << '\t' << floatText(rows[(r - r0) * ndb + j]);
            out << '\n';
        }
    }
    file.commit();
}

void writeHits(std::ostream& out, const LingoMolecules& qm, const LingoMolecules& dm,
               const lingo::HitLists& hits, bool json) {
    if (!json)
        out << "query\thit\tsimilarity\n";
    for (size_t i = 0; i < hits.size(); ++i) {
        if (json) {
            std::vector<std::string> list;
            for (const auto& h : hits[i]) {
                JsonObject o;
                o.add("index", long(h.index)).add("name", label(dm, h.index));
                o.add("line", dm.lines[h.index]).addRaw("similarity", floatText(h.similarity));
                list.push_back(o.str());
            }
            JsonObject o;
            o.add("query", long(i)).add("name", label(qm, i)).add("line", qm.lines[i]);
            o.add("smiles", qm.canonical[i]).addRaw("hits", jsonArray(list));
            out << o.str() << '\n';
        } else {
            for (const auto& h : hits[i])
                out << label(qm, i) << '\t' << label(dm, h.index) << '\t' << floatText(h.similarity)
                    << '\n';
        }
    }
}

// A shard's table: the single run's columns, then the query's and the hit's indices (merge).
void writeShardHits(std::ostream& out, const LingoMolecules& qm, const LingoMolecules& dm,
                    const lingo::HitLists& hits, const Shard& shard, int topK) {
    out << lingoShardHeader(shard, topK) << '\n';
    for (size_t i = 0; i < hits.size(); ++i)
        for (const auto& h : hits[i])
            out << label(qm, i) << '\t' << label(dm, h.index) << '\t' << floatText(h.similarity)
                << '\t' << i << ' ' << h.index << '\n';
}

} // namespace

int runLingo(const std::vector<std::string>& args) {
    const CommandLine cl(args, {{"query", OptionKind::Value},
                                {"db", OptionKind::Value},
                                {"top", OptionKind::Value},
                                {"threshold", OptionKind::Value},
                                {"matrix", OptionKind::Value},
                                {"out", OptionKind::Value},
                                {"device", OptionKind::Value},
                                {"threads", OptionKind::Value},
                                {"json", OptionKind::Flag},
                                {"shard", OptionKind::Value},
                                {"shard-block", OptionKind::Value}});
    if (!cl.positional().empty())
        throw UsageError("unexpected argument '" + cl.positional().front() + "'");
    const std::string dbPath = cl.required("db");
    const auto queryPath = cl.value("query");
    const int threads = cl.intValue("threads", 0, 0, 4096);
    const bool wantHits = cl.value("top") || cl.value("threshold") || !cl.value("matrix");
    lingo::SearchOptions opt;
    opt.topK = cl.intValue("top", cl.value("threshold") ? 0 : 10, 0, 1 << 20);
    opt.threshold = float(cl.doubleValue("threshold", 0.0, 0.0, 1.0));
    opt.threads = threads;
    const std::optional<Shard> shard = shardOption(cl);
    if (shard && (cl.value("matrix") || cl.flag("json")))
        throw UsageError("--shard writes the hit table (merge joins the shards' tables); "
                         "--matrix and --json are for a single run");
    const DeviceChoice device = chooseDevice(cl, threads, "lingo");

    const LingoMolecules dm = load(dbPath, threads);
    const bool allVsAll = !queryPath;
    const LingoMolecules qm = allVsAll ? LingoMolecules{} : load(*queryPath, threads);
    const LingoMolecules& queries = allVsAll ? dm : qm;
    const lingo::LingoSet db = lingo::LingoSet::fromCanonicalSmiles(dm.canonical);
    const lingo::LingoSet qset =
        allVsAll ? lingo::LingoSet{} : lingo::LingoSet::fromCanonicalSmiles(qm.canonical);
    const lingo::LingoSet& q = allVsAll ? db : qset;
    opt.excludeSelf = allVsAll;

    if (shard) { // the database is the sliced input; every query searched against the slice
        const lingo::HitLists hits =
            searchDatabaseShard(*device.backend, q, dm.canonical, allVsAll, opt, *shard);
        if (const auto path = cl.value("out")) {
            AtomicFile file(*path);
            writeShardHits(file.stream(), queries, dm, hits, *shard, opt.topK);
            file.commit();
        } else {
            writeShardHits(std::cout, queries, dm, hits, *shard, opt.topK);
        }
        return 0;
    }
    const std::unique_ptr<LingoComparison> comparison =
        device.backend->prepareLingo(q, db, allVsAll);

    if (const auto m = cl.value("matrix"))
        writeMatrix(*m, queries, dm, q.size(), db.size(), *comparison);
    if (wantHits) {
        lingo::HitLists hits;
        comparison->search(opt, hits);
        if (const auto path = cl.value("out")) {
            AtomicFile file(*path);
            writeHits(file.stream(), queries, dm, hits, cl.flag("json"));
            file.commit();
        } else {
            writeHits(std::cout, queries, dm, hits, cl.flag("json"));
        }
    }
    return 0;
}

} // namespace pw::cli
