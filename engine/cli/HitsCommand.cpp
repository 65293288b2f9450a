// `posewright-cli hits`: the hit store from the command line: import result SDFs (dock, minimize,
// overlay) and LINGO hit lists, query with --where/--order/--limit, list columns, cluster by
// LINGO similarity, export the selection to SDF or CSV.
#include "BenchClock.h"
#include "CommandLine.h"
#include "Commands.h"
#include "HitsRescore.h"
#include "Json.h"
#include "chem/MoleculeReader.h"
#include "hits/HitClustering.h"
#include "hits/HitExport.h"
#include "hits/HitFilter.h"
#include "hits/HitImport.h"
#include "hits/HitStore.h"
#include "hits/PoseInteractions.h"
#include "hits/ScreenIndex.h"

#include <cstdio>
#include <iostream>

namespace pw::cli {
namespace {

using namespace pw::hits;

// A bad --where/--order is a usage error (exit 2) that points into the option's text.
template <class F> auto withFilterErrors(F&& f) {
    try {
        return f();
    } catch (const FilterError& e) {
        throw UsageError(std::string("bad --where/--order/--columns: ") + e.what());
    }
}

std::string storeArgument(const CommandLine& cl, size_t expected) {
    if (cl.positional().empty())
        throw UsageError("missing the store file (STORE.db)");
    if (cl.positional().size() > expected)
        throw UsageError("unexpected argument '" + cl.positional()[expected] + "'");
    return cl.positional()[0];
}

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find(',', start);
        if (end == std::string::npos)
            end = text.size();
        std::string item = text.substr(start, end - start);
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        if (!item.empty())
            out.push_back(item);
        start = end + 1;
    }
    return out;
}

Selection selectionOf(const CommandLine& cl) {
    Selection s;
    s.where = cl.value("where", "");
    s.order = cl.value("order", "");
    if (cl.value("limit"))
        s.limit = cl.intValue("limit", -1, 0, 2000000000);
    return s;
}

// The screen index whole, for the next cold substructure filter (hits/ScreenPack.cpp), after the
// commit that changed the molecules. Not writing it is no error (the store is as it was, filters
// read pw_screen row by row): a warning. Returns the molecules packed (-1: not written).
long packScreen(HitStore& store, int threads) {
    try {
        return writeScreenPack(store, threads);
    } catch (const std::exception& e) {
        std::cerr << "warning: " << store.path() << ": the screen index was not packed ("
                  << e.what() << "); substructure filters read it row by row\n";
        return -1;
    }
}

int runImport(const std::vector<std::string>& args) {
    CommandLine cl(args, {{"receptor", OptionKind::Value},
                          {"lingo", OptionKind::Value},
                          {"rank-by", OptionKind::Value},
                          {"threads", OptionKind::Value},
                          {"json", OptionKind::Flag}});
    if (cl.positional().empty())
        throw UsageError("missing the store file (STORE.db)");
    const std::string path = cl.positional()[0];
    const std::vector<std::string> files(cl.positional().begin() + 1, cl.positional().end());
    if (files.empty() && !cl.value("lingo"))
        throw UsageError("nothing to import: give result SDF files and/or --lingo HITS.tsv");
    const double t0 = benchNow();
    std::unique_ptr<ReceptorSites> receptor;
    if (auto r = cl.value("receptor"))
        receptor = std::make_unique<ReceptorSites>(readMolecule(*r));
    HitStore store(path, HitStore::Mode::Create);
    ImportOptions options;
    options.receptor = receptor.get();
    options.threads = cl.intValue("threads", 0, 0, 1024);
    options.warn = [](const std::string& w) { std::cerr << "warning: " << w << "\n"; };
    ImportStats total;
    long lingoUpdated = 0;
    {
        // One transaction for the whole command: an error or a kill leaves the store as it was.
        HitStore::Transaction tx(store);
        for (const std::string& file : files) {
            const ImportStats s = importSdf(store, file, options);
            total.poses += s.poses;
            total.skipped += s.skipped;
            total.noProperties += s.noProperties;
        }
        if (auto lingoPath = cl.value("lingo"))
            lingoUpdated = importLingoHits(store, *lingoPath);
        std::optional<std::pair<std::string, bool>> rankBy;
        if (auto r = cl.value("rank-by")) {
            const bool descending = !r->empty() && (*r)[0] == '-';
            const std::string name =
                descending || (!r->empty() && (*r)[0] == '+') ? r->substr(1) : *r;
            if (!store.column(name))
                throw UsageError("--rank-by: unknown column '" + name + "'");
            rankBy = std::make_pair(name, !descending);
        } else {
            rankBy = store.defaultRankColumn();
        }
        if (rankBy)
            store.assignRanks(rankBy->first, rankBy->second);
        tx.commit();
    }
    packScreen(store, options.threads);
    const double seconds = benchNow() - t0;
    const long long rows = store.poseCount();
    if (cl.flag("json")) {
        JsonObject o;
        o.add("store", path).add("imported", total.poses).add("skipped", total.skipped);
        o.add("without_properties", total.noProperties).add("lingo_updated", lingoUpdated);
        o.add("poses", rows).add("seconds", seconds, 3);
        std::cout << o.str() << "\n";
    } else {
        std::cout << "imported " << total.poses << " poses (" << total.skipped << " skipped, "
                  << total.noProperties << " without properties) into " << path << ": " << rows
                  << " poses in the store\n";
    }
    return 0;
}

// The table for people: ten significant digits (computed properties carry float noise, such as
// 308.34100000000007); JSON, CSV and SDF keep every digit.
std::string displayText(const Statement& s, int column) {
    if (sqlite3_column_type(s.raw(), column) != SQLITE_FLOAT)
        return cellText(s, column);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", s.real(column));
    return buf;
}

std::vector<std::string> defaultQueryColumns(const HitStore& store) {
    std::vector<std::string> cols;
    for (const ColumnInfo& c : store.columns())
        if (c.name != "smiles" && c.name != "source_file" && c.name != "source_record" &&
            c.name != "cluster_best")
            cols.push_back(c.name);
    return cols;
}

int runQuery(const std::vector<std::string>& args) {
    CommandLine cl(args, {{"where", OptionKind::Value},
                          {"order", OptionKind::Value},
                          {"limit", OptionKind::Value},
                          {"columns", OptionKind::Value},
                          {"json", OptionKind::Flag}});
    HitStore store(storeArgument(cl, 1), HitStore::Mode::ReadOnly);
    const Selection selection = selectionOf(cl);
    const std::vector<std::string> cols =
        cl.value("columns") ? splitList(*cl.value("columns")) : defaultQueryColumns(store);
    const bool json = cl.flag("json");
    withFilterErrors([&] { // a bad expression is reported before any output
        if (!selection.where.empty())
            compileWhere(selection.where, store);
        if (!selection.order.empty())
            compileOrder(selection.order, store);
        for (const std::string& c : cols)
            if (!store.column(c))
                throw FilterError(1, "unknown column '" + c +
                                         "' (posewright-cli hits columns lists them)");
        return 0;
    });
    std::string line;
    if (!json) {
        for (size_t i = 0; i < cols.size(); ++i)
            line.append(i ? "\t" : "# ").append(cols[i]);
        std::cout << line << "\n";
    }
    withFilterErrors([&] {
        return forEachSelected(store, selection, cols, [&](const Statement& s) {
            if (json) {
                JsonObject o;
                for (size_t i = 0; i < cols.size(); ++i) {
                    const int k = static_cast<int>(i);
                    switch (sqlite3_column_type(s.raw(), k)) {
                    case SQLITE_NULL:
                        o.addNull(cols[i]);
                        break;
                    case SQLITE_INTEGER:
                        o.add(cols[i], s.integer(k));
                        break;
                    case SQLITE_FLOAT:
                        o.addRaw(cols[i], cellText(s, k));
                        break;
                    default:
                        o.add(cols[i], s.text(k));
                    }
                }
                std::cout << o.str() << "\n";
            } else {
                line.clear();
                for (size_t i = 0; i < cols.size(); ++i)
                    line.append(i ? "\t" : "").append(displayText(s, static_cast<int>(i)));
                std::cout << line << "\n";
            }
        });
    });
    return 0;
}

int runColumns(const std::vector<std::string>& args) {
    CommandLine cl(args, {{"json", OptionKind::Flag}});
    HitStore store(storeArgument(cl, 1), HitStore::Mode::ReadOnly);
    if (!cl.flag("json"))
        std::cout << "# column\ttype\torigin\tsd_tag\tnon_null\n";
    // Non-NULL counts of every column in one pass over the table.
    std::string sql = "SELECT ";
    for (const ColumnInfo& c : store.columns())
        sql.append(sql.size() > 7 ? ", count(" : "count(")
            .append(quoteIdentifier(c.name))
            .append(")");
    Statement counts = store.prepare(sql + " FROM poses");
    counts.step();
    int k = 0;
    for (const ColumnInfo& c : store.columns()) {
        const long long count = counts.integer(k++);
        if (cl.flag("json")) {
            JsonObject o;
            o.add("column", c.name)
                .add("type", typeName(c.type))
                .add("origin", originName(c.origin));
            o.add("sd_tag", c.sdTag).add("non_null", count);
            std::cout << o.str() << "\n";
        } else {
            std::cout << c.name << "\t" << typeName(c.type) << "\t" << originName(c.origin) << "\t"
                      << (c.sdTag.empty() ? "-" : c.sdTag) << "\t" << count << "\n";
        }
    }
    return 0;
}

// Screening fingerprints for the molecules of a store written before them (or by an older
// Posewright), so that smarts()/substructure() filters screen instead of parsing every SMILES.
int runUpgrade(const std::vector<std::string>& args) {
    CommandLine cl(args, {{"threads", OptionKind::Value}, {"json", OptionKind::Flag}});
    HitStore store(storeArgument(cl, 1), HitStore::Mode::ReadWrite);
    HitStore::Transaction tx(store);
    const int threads = cl.intValue("threads", 0, 0, 1024);
    const long added = addMissingScreens(store, threads);
    const long compact = addMissingCompactForms(store, threads); // the compact matcher's form
    tx.commit();
    const long packed = packScreen(store, threads);
    if (cl.flag("json")) {
        JsonObject o;
        o.add("store", store.path())
            .add("screens_added", added)
            .add("compact_forms_added", static_cast<long long>(compact))
            .add("screen_pack_molecules", static_cast<long long>(packed));
        std::cout << o.str() << "\n";
    } else {
        std::cout << store.path() << ": " << added
                  << " molecules given a substructure-screening fingerprint, " << compact
                  << " a compact form\n";
    }
    return 0;
}

int runCluster(const std::vector<std::string>& args) {
    CommandLine cl(args, {{"method", OptionKind::Value},
                          {"threshold", OptionKind::Value},
                          {"where", OptionKind::Value},
                          {"order", OptionKind::Value},
                          {"threads", OptionKind::Value},
                          {"json", OptionKind::Flag}});
    HitStore store(storeArgument(cl, 1), HitStore::Mode::ReadWrite);
    ClusterOptions options;
    const std::string method = cl.value("method", "butina");
    if (method == "leader")
        options.method = ClusterMethod::Leader;
    else if (method != "butina")
        throw UsageError("--method expects leader or butina, got '" + method + "'");
    options.threshold = cl.doubleValue("threshold", 0.7, 0.0, 1.0);
    options.threads = cl.intValue("threads", 0, 0, 1024);
    Selection selection = selectionOf(cl);
    const Clustering c = withFilterErrors([&] { return clusterStore(store, selection, options); });
    if (cl.flag("json")) {
        JsonObject o;
        o.add("method", method).add("threshold", options.threshold, 4);
        o.add("poses", static_cast<long>(c.cluster.size())).add("clusters", c.clusters);
        std::cout << o.str() << "\n";
    } else {
        std::cout << c.cluster.size() << " poses in " << c.clusters << " clusters (" << method
                  << ", LINGO similarity >= " << options.threshold << ")\n";
    }
    return 0;
}

int runExport(const std::vector<std::string>& args) {
    CommandLine cl(args, {{"out", OptionKind::Value},
                          {"where", OptionKind::Value},
                          {"order", OptionKind::Value},
                          {"limit", OptionKind::Value},
                          {"columns", OptionKind::Value}});
    HitStore store(storeArgument(cl, 1), HitStore::Mode::ReadOnly);
    const std::string out = cl.required("out");
    const Selection selection = selectionOf(cl);
    const FileFormat format = formatFromPath(out);
    const bool csv = out.size() >= 4 && out.compare(out.size() - 4, 4, ".csv") == 0;
    if (!csv && format != FileFormat::Sdf)
        throw UsageError("--out must name a .sdf or .csv file, got '" + out + "'");
    if (!csv && cl.value("columns"))
        throw UsageError("--columns chooses CSV columns; an SDF export writes every column");
    const long n = withFilterErrors([&] {
        return csv ? exportCsv(store, selection, out,
                               cl.value("columns") ? splitList(*cl.value("columns"))
                                                   : std::vector<std::string>{})
                   : exportSdf(store, selection, out);
    });
    std::cerr << "exported " << n << " poses to " << out << "\n";
    return 0;
}

} // namespace

int runHits(const std::vector<std::string>& args) {
    if (args.empty())
        throw UsageError("missing the hits subcommand: import, query, columns, cluster or export");
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    const std::string& sub = args[0];
    if (sub == "import")
        return runImport(rest);
    if (sub == "query")
        return runQuery(rest);
    if (sub == "columns")
        return runColumns(rest);
    if (sub == "cluster")
        return runCluster(rest);
    if (sub == "export")
        return runExport(rest);
    if (sub == "upgrade")
        return runUpgrade(rest);
    if (sub == "rescore")
        return runHitsRescore(rest);
    throw UsageError("unknown hits subcommand '" + sub +
                     "': expected import, query, columns, cluster, export, upgrade or rescore");
}

} // namespace pw::cli
