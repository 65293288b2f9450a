// `posewright-cli bench dock`: times docking of the ligands of a file (all runs of all ligands in
// one backend batch) and prints one JSON object per repeat: seconds (search + exact re-scoring +
// clustering, target setup excluded and reported apart), evaluations per second, best scores
// and, with --reference, how many ligands' top pose lies within 2 Å of it.
#include "BenchClock.h"
#include "CommandLine.h"
#include "Commands.h"
#include "DeviceOption.h"
#include "DockPreparation.h"
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
    spec.merge(dockSearchOptionSpec());
    spec.insert({{"ligands", OptionKind::Value},
                 {"device", OptionKind::Value},
                 {"threads", OptionKind::Value},
                 {"repeat", OptionKind::Value},
                 {"timings", OptionKind::Flag}});
    CommandLine cl(args, spec);
    if (!cl.positional().empty())
        throw UsageError("unexpected argument '" + cl.positional()[0] + "'");
    const std::string ligandFile = cl.required("ligands");
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int threads = cl.intValue("threads", hw, 1, 1024);
    const int repeat = cl.intValue("repeat", 1, 1, 1000);
    dock::DockOptions options;
    options.threads = threads;
    readDockSearchOptions(cl, options);

    const double wall0 = PhaseTimings::now();
    PhaseTimings setupTimings; // the set-up's phases, reported with every repeat
    PhaseTimer deviceTimer(&setupTimings, "device");
    DeviceChoice device = chooseDevice(cl, threads, "bench dock");
    deviceTimer.stop();
    const double setup0 = benchNow();
    PhaseTimer targetTimer(&setupTimings, "target");
    DockTargetSetup targetSetup(cl, ligandFile, threads);
    targetTimer.stop();
    // Read in order, embedded (SMILES) and prepared on every core; a ligand that cannot be
    // prepared is left out with a warning (a screen's file holds some), and counted.
    PhaseTimer readTimer(&setupTimings, "read");
    ReadOptions readOptions;
    readOptions.warn = [](const std::string& msg) { std::cerr << "warning: " << msg << "\n"; };
    bool embedLater = false;
    auto reader = openLigandsForDocking(ligandFile, readOptions, embedLater);
    RawBatch raw;
    for (Molecule m; reader->next(m);)
        raw.add(std::move(m), long(raw.size()), embedLater);
    const int unreadable = reader->recordsSkipped();
    readTimer.stop();
    PreparedBatch prepared = prepareBatch(std::move(raw), readOptions, threads, &setupTimings, "");
    for (const std::string& e : prepared.errors)
        if (!e.empty())
            std::cerr << "warning: " << e << "\n";
    const int refused = unreadable + int(prepared.raw.size() - prepared.ready.size());
    std::vector<Molecule> ligands = std::move(prepared.ready);
    if (ligands.empty())
        throw InputError(ligandFile, 0, "no ligand could be prepared for docking");
    PhaseTimer mapsTimer(&setupTimings, "maps");
    const dock::DockTarget& dockTarget = targetSetup.targetFor(ligands); // AD4: maps built here
    std::optional<Molecule> reference;
    if (auto ref = cl.value("reference"))
        reference = readMolecule(*ref);
    dock::prepareTargetFor(dockTarget, ligands); // Vina grid maps: setup, not search
    mapsTimer.stop();
    const double setupSeconds = benchNow() - setup0;

    for (int rep = 0; rep < repeat; ++rep) {
        std::vector<dock::LigandDockResult> results;
        // This repeat's phases: the set-up's (the first repeat's wall includes them), then the
        // backend's, per device.
        PhaseTimings timings;
        if (rep == 0)
            for (const PhaseTimings::Entry& e : setupTimings.entries())
                timings.add(e.phase, e.seconds, e.group);
        options.timings = &timings;
        const double r0 = rep == 0 ? wall0 : PhaseTimings::now();
        const double t0 = benchNow();
        PhaseTimer dockTimer(&timings, "dock");
        device.backend->dock(dockTarget, ligands, options, results, nullptr,
                             reference ? &*reference : nullptr);
        const double seconds = benchNow() - t0;
        dockTimer.stop();
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
        o.add("refused", refused);
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
        const double wall = PhaseTimings::now() - r0;
        o.addRaw("timings", timings.json(wall));
        std::cout << o.str() << std::endl;
        if (cl.flag("timings"))
            timings.print(std::cerr, wall);
    }
    return 0;
}

} // namespace pw::cli
