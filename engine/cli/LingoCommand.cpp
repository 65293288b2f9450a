// `posewright-cli lingo`: LINGO similarity of query SMILES against a database (or all-vs-all of
// the database): top-k / threshold hits as text or JSON lines, or the full matrix as TSV.
#include "CommandLine.h"
#include "Commands.h"
#include "Json.h"
#include "chem/AtomicFile.h"
#include "chem/LingoSmiles.h"
#include "core/InputError.h"
#include "cuda/LingoCuda.h"
#include "lingo/LingoSearch.h"

#include <charconv>
#include <iostream>
#include <memory>

namespace pw::cli {

struct LingoDeviceChoice {
    bool gpu = false;
    int index = 0;
    std::string note; // the one line for stderr
};

// auto: the GPU when usable, else the CPU with the reason; cuda[:N]: that GPU, or the CPU with
// the reason (ARCHITECTURE.md §3); cpu: the CPU.
LingoDeviceChoice chooseLingoDevice(const std::string& request, int cpuThreads) {
    LingoDeviceChoice c;
    const std::string cpu =
        "the CPU (" + std::to_string(lingo::resolveThreads(cpuThreads)) + " threads)";
    if (request == "cpu") {
        c.note = "device: " + cpu;
        return c;
    }
    if (request == "auto" || request == "cuda" || request.rfind("cuda:", 0) == 0) {
        if (request.size() > 5) {
            const std::string n = request.substr(5);
            auto [p, ec] = std::from_chars(n.data(), n.data() + n.size(), c.index);
            if (ec != std::errc() || p != n.data() + n.size() || c.index < 0)
                throw UsageError("--device: expected auto, cpu, cuda or cuda:N, got '" + request +
                                 "'");
        }
        const lingo::gpu::DeviceStatus st = lingo::gpu::probeDevice(c.index);
        if (st.usable) {
            c.gpu = true;
            c.note = "device: " + st.name;
        } else {
            c.note = "device: " + st.why + "; using " + cpu;
        }
        return c;
    }
    throw UsageError("--device: expected auto, cpu, cuda or cuda:N, got '" + request + "'");
}

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
                 const lingo::LingoSet& q, const lingo::LingoSet& db, lingo::gpu::LingoGpu* gpu,
                 int threads) {
    AtomicFile file(path);
    std::ostream& out = file.stream();
    out << "query";
    for (size_t j = 0; j < db.size(); ++j)
        out << '\t' << label(dm, j);
    out << '\n';
    const size_t block = std::max<size_t>(1, (size_t(1) << 26) / std::max<size_t>(1, db.size()));
    std::vector<float> rows;
    for (size_t r0 = 0; r0 < q.size(); r0 += block) {
        const size_t r1 = std::min(q.size(), r0 + block);
        rows.resize((r1 - r0) * db.size());
        if (gpu)
            gpu->similarityRows(r0, r1, rows.data());
        else
            lingo::similarityRows(q, db, r0, r1, rows.data(), threads);
        for (size_t r = r0; r < r1; ++r) {
            out << label(qm, r);
            for (size_t j = 0; j < db.size(); ++j)
                out << '\t' << floatText(rows[(r - r0) * db.size() + j]);
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
                                {"json", OptionKind::Flag}});
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
    const LingoDeviceChoice device = chooseLingoDevice(cl.value("device", "auto"), threads);
    std::cerr << "lingo: " << device.note << "\n";

    const LingoMolecules dm = load(dbPath, threads);
    const bool allVsAll = !queryPath;
    const LingoMolecules qm = allVsAll ? LingoMolecules{} : load(*queryPath, threads);
    const LingoMolecules& queries = allVsAll ? dm : qm;
    const lingo::LingoSet db = lingo::LingoSet::fromCanonicalSmiles(dm.canonical);
    const lingo::LingoSet qset =
        allVsAll ? lingo::LingoSet{} : lingo::LingoSet::fromCanonicalSmiles(qm.canonical);
    const lingo::LingoSet& q = allVsAll ? db : qset;
    opt.excludeSelf = allVsAll;

    std::unique_ptr<lingo::gpu::LingoGpu> gpu;
    if (device.gpu)
        gpu = std::make_unique<lingo::gpu::LingoGpu>(q, db, allVsAll, device.index);

    if (const auto m = cl.value("matrix"))
        writeMatrix(*m, queries, dm, q, db, gpu.get(), threads);
    if (wantHits) {
        const lingo::HitLists hits = gpu ? gpu->search(opt) : lingo::search(q, db, opt);
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
