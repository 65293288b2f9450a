// `posewright-cli score`: Vina's numbers for ligand poses as given (Vina --score_only): exact
// pair sums by default, or Vina's grid (--grid, as vina --score_only --no_refine).
#include "CommandLine.h"
#include "Commands.h"
#include "Json.h"
#include "ScoreEach.h"
#include "TargetSetup.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "core/InputError.h"
#include "score/DockingTarget.h"

#include <cstdio>
#include <iostream>

namespace pw::cli {

int runScore(const std::vector<std::string>& args) {
    // AutoDock 4 scoring reads its own maps (ScoreAd4.cpp).
    for (size_t i = 0; i + 1 < args.size(); ++i)
        if (args[i] == "--scoring" && args[i + 1] == "ad4")
            return runScoreAd4(args);
    auto spec = targetOptionSpec();
    spec.insert({{"ligand", OptionKind::Value},
                  {"grid", OptionKind::Flag},
                  {"json", OptionKind::Flag},
                  {"threads", OptionKind::Value}});
    CommandLine cl(args, spec);
    if (!cl.positional().empty())
        throw UsageError("unexpected argument '" + cl.positional()[0] + "'");
    const std::string ligandFile = cl.required("ligand");
    const bool json = cl.flag("json");
    const int threads = cl.intValue("threads", 0, 0, 1024);

    TargetInputs inputs = loadTarget(cl, ligandFile);
    DockingTarget target(inputs.receptor, inputs.box, inputs.scoring, threads);

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
