// `posewright-cli minimize`: flexible minimization of many ligand poses in a receptor, streamed in
// chunks (bounded memory), on the chosen backend; JSON in input order, SDF ranked by affinity.
#include "CommandLine.h"
#include "Commands.h"
#include "Json.h"
#include "TargetSetup.h"
#include "backend/DeviceSelection.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/RankedSdfWriter.h"
#include "core/InputError.h"
#include "core/ParallelFor.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <thread>

namespace pw::cli {
namespace {

struct Pending {
    Molecule raw;
    long index = 0; // position in the whole input stream (over all files)
    std::optional<Molecule> prepared;
    std::string error;
};

// Prepares a chunk on `threads` threads (RDKit work for SDF/SMILES input dominates here).
void prepareChunk(std::vector<Pending>& chunk, const TargetInputs& inputs, int threads) {
    parallelFor(static_cast<long>(chunk.size()), threads, [&](long i) {
        try {
            Molecule lig = prepareLigand(chunk[i].raw);
            requireInsideBox(lig, inputs.box, inputs.boxSource);
            chunk[i].prepared = std::move(lig);
        } catch (const InputError& e) {
            chunk[i].error = e.what();
        }
    });
}

Molecule withResult(Molecule m, const RefinementResult& r, long index) {
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
    return m;
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
                  {"interpolation", OptionKind::Value},
                  {"exact", OptionKind::Flag},
                  {"line-search", OptionKind::Value},
                  {"max-iterations", OptionKind::Value},
                  {"tolerance", OptionKind::Value},
                  {"chunk", OptionKind::Value}});
    CommandLine cl(args, spec);
    if (!cl.positional().empty())
        throw UsageError("unexpected argument '" + cl.positional()[0] + "'");
    const std::vector<std::string> files = cl.values("ligands");
    if (files.empty())
        throw UsageError("missing --ligands FILE...");
    const bool json = cl.flag("json");
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int threads = cl.intValue("threads", hw, 1, 1024);

    MinimizeBatchOptions options;
    options.exact = cl.flag("exact");
    if (cl.flag("smooth") && cl.flag("vina-steps"))
        throw UsageError("--smooth and --vina-steps exclude each other");
    if (cl.flag("smooth")) // well-conditioned: GPU and CPU results agree (tests/bench/RESULTS.md)
        options.refinement = RefinementOptions::wellConditioned();
    options.refinement.vinaSteps = cl.flag("vina-steps");
    if (auto mode = cl.value("interpolation"))
        if (!parseGridInterpolation(*mode, options.refinement.gridInterpolation))
            throw UsageError("--interpolation expects trilinear, catmull-rom or bspline, got '" +
                             *mode + "'");
    MinimizeOptions& mo = options.refinement.minimize;
    mo.maxIterations = cl.intValue("max-iterations", mo.maxIterations, 1, 1000000);
    mo.gradientTolerance = cl.doubleValue("tolerance", mo.gradientTolerance, 0.0, 1e6);
    const std::string search = cl.value("line-search", "wolfe");
    if (search == "armijo")
        mo.lineSearch = LineSearchKind::Armijo;
    else if (search != "wolfe")
        throw UsageError("--line-search expects wolfe or armijo, got '" + search + "'");

    std::string note;
    auto backend = createBackend(parseDeviceRequest(cl.value("device", "auto")), threads, note);
    std::cerr << note << "\n";
    const int chunkSize = cl.intValue("chunk", backend->isGpu() ? 100000 : 1024, 1, 10000000);

    TargetInputs inputs = loadTarget(cl, files.front());
    DockingTarget target(inputs.receptor, inputs.box, inputs.scoring, threads);
    std::optional<RankedSdfWriter> sdf;
    if (auto out = cl.value("out"))
        sdf.emplace(*out);

    ReadOptions readOptions;
    readOptions.warn = [](const std::string& msg) { std::cerr << "warning: " << msg << "\n"; };
    long index = 0, minimized = 0, refused = 0, skipped = 0;
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<Pending> chunk;
    std::vector<Molecule> ligands;
    std::vector<RefinementResult> results;

    auto flush = [&] {
        prepareChunk(chunk, inputs, threads);
        ligands.clear();
        std::vector<XsType> types;
        for (Pending& p : chunk)
            if (p.prepared) {
                ligands.push_back(std::move(*p.prepared));
                for (const Atom& a : ligands.back().atoms)
                    if (a.xs != XsType::None &&
                        std::find(types.begin(), types.end(), a.xs) == types.end())
                        types.push_back(a.xs);
            }
        if (!options.exact && !ligands.empty())
            target.gridFor(types);
        backend->minimize(target, ligands, options, results);
        size_t k = 0;
        for (Pending& p : chunk) {
            if (!p.error.empty()) {
                ++refused;
                std::cerr << "warning: " << p.error << "\n";
                if (json)
                    std::cout << JsonObject().add("name", p.raw.name).add("index", p.index)
                                     .add("error", p.error).str() << "\n";
                continue;
            }
            const Molecule& lig = ligands[k];
            const RefinementResult& r = results[k++];
            if (json) {
                JsonObject o;
                o.add("name", lig.name).add("index", p.index);
                addScoreFields(o, r.score);
                o.add("start_affinity", r.start.affinity, 6);
                o.add("rmsd_from_start", r.rmsdFromStart, 4).add("iterations", r.iterations);
                o.add("evaluations", r.evaluations).add("stop", stopReasonName(r.reason));
                std::cout << o.str() << "\n";
            } else {
                std::printf("%-24s %6ld  affinity %8.3f  (start %8.3f)  rmsd %6.3f  steps %d\n",
                            lig.name.empty() ? "(no name)" : lig.name.c_str(), p.index,
                            r.score.affinity, r.start.affinity, r.rmsdFromStart, r.iterations);
            }
            if (sdf)
                sdf->add(withResult(lig, r, p.index), r.score.affinity);
            ++minimized;
        }
        std::cout.flush();
        chunk.clear();
    };

    for (const std::string& file : files) {
        auto reader = MoleculeReader::open(file, readOptions);
        Pending p;
        while (reader->next(p.raw)) {
            p.index = index++;
            chunk.push_back(std::move(p));
            p = Pending{};
            if (static_cast<int>(chunk.size()) >= chunkSize)
                flush();
        }
        skipped += reader->recordsSkipped();
    }
    if (!chunk.empty())
        flush();

    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    char secondsText[32];
    std::snprintf(secondsText, sizeof secondsText, "%.3f", seconds);
    std::cerr << "minimized " << minimized << " of " << index + skipped << " poses in " << secondsText
              << " s" << (refused + skipped ? ", " + std::to_string(refused + skipped) + " skipped" : "")
              << "\n";
    if (minimized == 0) {
        std::cerr << "error: no ligand could be minimized\n";
        return 1;
    }
    if (sdf)
        sdf->commit();
    return 0;
}

} // namespace pw::cli
