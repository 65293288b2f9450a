// `posewright-cli bench dock`: times docking of the ligands of a file (all runs of all ligands in
// one backend batch) and prints one JSON object per repeat: seconds (search + exact re-scoring +
// clustering, target setup excluded and reported apart), evaluations per second, best scores
// and, with --reference, how many ligands' top pose lies within 2 Å of it.
#include "BenchClock.h"
#include "CommandLine.h"
#include "Commands.h"
#include "DeviceOption.h"
#include "DockTargetSetup.h"
#include "Json.h"
#include "backend/Backend.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "core/InputError.h"
#include "dock/LigandDockScoring.h"
#include "dock/SymmetryRmsd.h"

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

namespace pw::cli {

int runBenchDock(const std::vector<std::string>& args) {
    auto spec = dockTargetOptionSpec();
    spec.insert({{"ligands", OptionKind::Value},
                 {"device", OptionKind::Value},
                 {"threads", OptionKind::Value},
                 {"runs", OptionKind::Value},
                 {"seed", OptionKind::Value},
                 {"local-search", OptionKind::Value},
                 {"evaluations", OptionKind::Value},
                 {"population", OptionKind::Value},
                 {"ls-iterations", OptionKind::Value},
                 {"no-autostop", OptionKind::Flag},
                 {"adadelta-stop", OptionKind::Value},
                 {"adadelta-tolerance", OptionKind::Value},
                 {"repeat", OptionKind::Value}});
    CommandLine cl(args, spec);
    if (!cl.positional().empty())
        throw UsageError("unexpected argument '" + cl.positional()[0] + "'");
    const std::string ligandFile = cl.required("ligands");
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int threads = cl.intValue("threads", hw, 1, 1024);
    const int repeat = cl.intValue("repeat", 1, 1, 1000);
    dock::DockOptions options;
    options.threads = threads;
    options.runs = cl.intValue("runs", options.runs, 1, 100000);
    options.seed = static_cast<std::uint64_t>(cl.doubleValue("seed", 0, 0, 9007199254740991.0));
    options.lga.localSearch = defaultLocalSearch(cl); // BFGS for Vina, ADADELTA for AD4
    if (auto ls = cl.value("local-search")) {
        auto m = dock::parseLocalSearch(*ls);
        if (!m)
            throw UsageError("--local-search expects sw, adadelta or bfgs, got '" + *ls + "'");
        options.lga.localSearch = *m;
    }
    options.lga.maxEvaluations = static_cast<long>(cl.doubleValue("evaluations", 0, 0, 1e12));
    options.lga.populationSize = cl.intValue("population", options.lga.populationSize, 2, 100000);
    options.lga.localSearchIterations =
        cl.intValue("ls-iterations", options.lga.localSearchIterations, 1, 100000);
    options.lga.autoStop = !cl.flag("no-autostop");
    // AutoDock-GPU v1.5's early stop of each ADADELTA search (its --rholb, 0.01); 0: off.
    options.lga.adadelta.stopRhoLowerBound = cl.doubleValue("adadelta-stop", options.lga.adadelta.stopRhoLowerBound, 0, 1);
    options.lga.adadelta.stopTolerance = cl.doubleValue("adadelta-tolerance", options.lga.adadelta.stopTolerance, 0, 100);

    DeviceChoice device = chooseDevice(cl, threads, "bench dock");
    const double setup0 = benchNow();
    DockTargetSetup targetSetup(cl, ligandFile, threads);
    std::vector<Molecule> ligands;
    for (const Molecule& m : readMolecules(ligandFile))
        ligands.push_back(prepareLigand(m));
    const dock::DockTarget& dockTarget = targetSetup.targetFor(ligands); // AD4: maps built here
    std::optional<Molecule> reference;
    if (auto ref = cl.value("reference"))
        reference = readMolecule(*ref);
    dock::prepareTargetFor(dockTarget, ligands); // Vina grid maps: setup, not search
    const double setupSeconds = benchNow() - setup0;

    for (int rep = 0; rep < repeat; ++rep) {
        std::vector<dock::LigandDockResult> results;
        const double t0 = benchNow();
        device.backend->dock(dockTarget, ligands, options, results, nullptr,
                             reference ? &*reference : nullptr);
        const double seconds = benchNow() - t0;
        long evaluations = 0, generations = 0, autostopped = 0, runs = 0, runsNear = 0;
        double runScoreSum = 0, bestSearch = 0;
        bool anySearch = false;
        std::vector<Vec3> refCoords;
        if (reference)
            for (const Atom& a : reference->atoms)
                refCoords.push_back(a.position);
        int within2 = 0, docked = 0;
        double bestSum = 0, best = 0;
        std::optional<double> bestRmsd;
        for (size_t i = 0; i < results.size(); ++i) {
            const auto& r = results[i];
            // Every run's final pose against the reference: how often a single run finds it.
            std::optional<dock::SymmetryRmsd> toReference;
            if (reference && r.error.empty()) {
                try {
                    toReference.emplace(ligands[i], *reference);
                } catch (const InputError&) {
                }
            }
            for (const auto& run : r.runs) {
                evaluations += run.evaluations;
                generations += run.generations;
                autostopped += run.autoStopped;
                runScoreSum += run.score;
                if (!run.coordinates.empty() && (!anySearch || run.searchEnergy < bestSearch)) {
                    bestSearch = run.searchEnergy;
                    anySearch = true;
                }
                if (toReference && !run.coordinates.empty())
                    runsNear += toReference->rmsd(run.coordinates, refCoords) < 2.0;
                ++runs;
            }
            if (r.clusters.empty())
                continue;
            ++docked;
            bestSum += r.clusters[0].bestScore;
            best = docked == 1 ? r.clusters[0].bestScore : std::min(best, r.clusters[0].bestScore);
            if (auto d = r.clusters[0].rmsdToReference) {
                within2 += *d < 2.0;
                bestRmsd = bestRmsd ? std::min(*bestRmsd, *d) : *d;
            }
        }
        JsonObject o;
        o.add("bench", "dock").add("receptor", cl.value("receptor", cl.value("maps", "")));
        o.add("ligands", ligandFile).add("count", static_cast<int>(ligands.size()));
        o.add("docked", docked)
            .add("runs", options.runs)
            .add("device", device.backend->description());
        o.add("scoring", targetSetup.scoringName());
        o.add("local_search", dock::localSearchName(options.lga.localSearch));
        o.add("population", options.lga.populationSize);
        o.add("evaluation_budget", results.empty() ? 0L : results[0].evaluationBudget);
        o.add("seconds", seconds, 6).add("setup_seconds", setupSeconds, 4);
        o.add("ligands_per_second", ligands.size() / seconds, 6);
        o.add("evaluations", evaluations).add("evaluations_per_second", evaluations / seconds, 7);
        // Evaluations per individual and generation: about 1 + the mean local-search length.
        if (generations > 0)
            o.add("evaluations_per_individual",
                  static_cast<double>(evaluations) / (generations * options.lga.populationSize), 4);
        o.add("mean_generations", runs ? double(generations) / runs : 0.0, 5);
        o.add("autostopped_fraction", runs ? double(autostopped) / runs : 0.0, 4);
        o.add("best_score", best, 4).add("mean_best_score", docked ? bestSum / docked : 0.0, 5);
        o.add("mean_run_score", runs ? runScoreSum / runs : 0.0, 5);
        o.add("best_search_energy", bestSearch, 5); // inter + intra (AD-GPU's "best energy")
        if (reference) {
            o.add("top_within_2A", within2);
            o.add("runs_within_2A_fraction", runs ? double(runsNear) / runs : 0.0, 4);
            if (bestRmsd)
                o.add("top_rmsd_ref", *bestRmsd, 4);
        }
        o.add("seed", static_cast<long>(options.seed)).add("repeat", rep);
        o.add("peak_rss_mib", peakRssMiB(), 7);
        std::cout << o.str() << std::endl;
    }
    return 0;
}

} // namespace pw::cli
