// `posewright-cli score`: Vina's numbers for ligand poses as given (Vina --score_only): exact
// pair sums by default, or Vina's grid (--grid, as vina --score_only --no_refine). With
// --device cuda|auto the exact sums of many poses come from the GPU pair kernel, in chunks.
#include "CommandLine.h"
#include "Commands.h"
#include "DeviceOption.h"
#include "FlexSetup.h"
#include "Json.h"
#include "ScoreEach.h"
#include "TargetSetup.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "core/InputError.h"
#include "backend/DeviceSelection.h"
#include "score/DockingTarget.h"

#include <cstdio>
#include <iostream>

namespace pw::cli {

namespace {

// `score --device cuda`: records gathered in chunks, each chunk scored in one GPU call, printed in
// input order like the CPU path (the JSON has no "terms": the kernel sums energies only).
int scoreOnGpu(Backend& gpu, const DockingTarget& target, const std::string& ligandFile,
               bool json, int chunk) {
    std::vector<Molecule> batch;
    std::vector<long> indices;
    std::vector<VinaScore> scores;
    auto flush = [&] {
        gpu.scoreExact(target, batch, scores);
        for (size_t i = 0; i < batch.size(); ++i) {
            const VinaScore& s = scores[i];
            if (json) {
                JsonObject o;
                o.add("name", batch[i].name).add("index", indices[i]);
                o.add("affinity", s.affinity, 6).add("inter", s.inter, 6).add("intra", s.intra, 6);
                o.add("torsional", s.torsional, 6).add("unbound", s.unbound, 6);
                o.add("mode", "exact").add("device", "cuda");
                std::cout << o.str() << "\n";
            } else {
                std::printf("%-24s affinity %8.3f  inter %8.3f  intra %8.3f  torsional %7.3f\n",
                            batch[i].name.empty() ? "(no name)" : batch[i].name.c_str(),
                            s.affinity, s.inter, s.intra, s.torsional);
            }
        }
        batch.clear();
        indices.clear();
    };
    const int rc = scoreEachLigand(ligandFile, [&](const Molecule& lig, long index) {
        batch.push_back(lig);
        indices.push_back(index);
        if (static_cast<int>(batch.size()) >= chunk)
            flush();
    });
    if (!batch.empty())
        flush();
    return rc;
}

} // namespace

int runScore(const std::vector<std::string>& args) {
    // AutoDock 4 scoring reads its own maps (ScoreAd4.cpp).
    for (size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == "--scoring" && args[i + 1] == "ad4")
            return runScoreAd4(args);
    auto spec = targetOptionSpec();
    spec.insert({{"ligand", OptionKind::Value},
                  {"grid", OptionKind::Flag},
                  {"json", OptionKind::Flag},
                  {"threads", OptionKind::Value},
                  {"device", OptionKind::Value},
                  {"chunk", OptionKind::Value},
                  {"flex", OptionKind::Value},
                  {"flex-residues", OptionKind::Value}});
    CommandLine cl(args, spec);
    if (!cl.positional().empty())
        throw UsageError("unexpected argument '" + cl.positional()[0] + "'");
    const std::string ligandFile = cl.required("ligand");
    const bool json = cl.flag("json");
    const int threads = cl.intValue("threads", 0, 0, 1024);

    // The CPU scores record by record unless a device is asked for (the GPU path has no
    // per-term breakdown, so it is never taken silently).
    std::unique_ptr<Backend> gpu;
    if (wantsFlex(cl) && (cl.value("device") || cl.flag("grid")))
        throw UsageError("flexible residues (--flex) run on the CPU with exact pair sums; drop "
                         "--device and --grid");
    if (cl.value("device")) {
        if (cl.flag("grid"))
            throw UsageError("--grid scores on the CPU; --device takes the exact pair sums only");
        std::string note;
        auto backend = createBackend(deviceRequestOption(cl), threads, note);
        std::cerr << "score: " << note << "\n";
        if (backend->isGpu())
            gpu = std::move(backend);
    }
    const int chunk = cl.intValue("chunk", 65536, 1, 10000000);

    TargetInputs inputs = loadTarget(cl, ligandFile);
    // --flex-residues: the receptor becomes its rigid part here, before the target is built.
    std::unique_ptr<FlexModel> flex = loadFlex(cl, inputs.receptor);
    DockingTarget target(inputs.receptor, inputs.box, inputs.scoring, threads);
    if (flex)
        return scoreWithFlex(cl, ligandFile, target, *flex, json);
    if (gpu)
        return scoreOnGpu(*gpu, target, ligandFile, json, chunk);

    return scoreEachLigand(ligandFile, [&](const Molecule& lig, long index) {
        const ReceptorGrid* grid = nullptr;
        if (cl.flag("grid")) {
            LigandScorer probe(lig, target.scoring(), target.receptor());
            grid = &target.gridFor(probe.typesNeeded());
        }
        LigandScorer scorer(lig, target.scoring(), target.receptor(), grid);
        std::vector<Vec3> coords;
        for (const Atom& a : lig.atoms)
            coords.push_back(a.position);
        VinaScore s = scorer.finalScore(coords);
        if (json) {
            JsonObject o;
            o.add("name", lig.name).add("index", index);
            addScoreFields(o, s);
            o.add("mode", cl.flag("grid") ? "grid" : "exact");
            std::cout << o.str() << "\n";
        } else {
            std::printf("%-24s affinity %8.3f  inter %8.3f  intra %8.3f  torsional %7.3f\n",
                        lig.name.empty() ? "(no name)" : lig.name.c_str(), s.affinity, s.inter,
                        s.intra, s.torsional);
        }
    });
}

} // namespace pw::cli
