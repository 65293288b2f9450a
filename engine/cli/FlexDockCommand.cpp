// `posewright-cli dock --flex FLEX.pdbqt` (or --flex-residues): docking with flexible receptor
// side chains on the CPU (engine/dock/FlexDock.h), or with --device cuda on one GPU
// (FlexDockDevice.h). Writes the best --poses runs of each ligand:
// ranked SDF of the ligands (--out) and, beside it, the moved side chains as PDBQT (one MODEL per
// SDF record, same order; --flex-out, default OUT_flex.pdbqt); --json FILE gets one JSON line per
// ligand with every written pose's numbers.
#include "DeviceOption.h"
#include "FlexDockDevice.h"
#include "FlexSetup.h"
#include "TargetSetup.h"
#include "backend/DeviceSelection.h"
#include "chem/AtomicFile.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/RankedSdfWriter.h"
#include "core/InputError.h"
#include "core/ParallelFor.h"
#include "dock/FlexDock.h"

#include <algorithm>
#include <cstdio>
#include <iostream>

namespace pw::cli {
namespace {

struct WrittenPose {
    long ligand;
    std::string name;
    const Molecule* molecule;
    const dock::FlexDockRun* run;
};

} // namespace

int dockWithFlexCommand(const CommandLine& cl, const dock::DockOptions& options) {
    // The CPU unless a GPU is asked for: the CPU is the reference.
    const bool onDevice = flexOnGpu(cl);
    for (const char* unsupported : {"maps", "shard", "reference", "all-runs"})
        if (cl.value(unsupported) || cl.flag(unsupported))
            throw UsageError(std::string("--") + unsupported +
                             " is not available with --flex (flexible residues dock with Vina "
                             "or Vinardo scoring)");
    if (options.scoring == dock::DockScoring::Ad4 || cl.value("scoring").value_or("") == "ad4")
        throw UsageError("--flex docks with Vina or Vinardo scoring, not ad4");
    const std::vector<std::string> files = cl.values("ligands");
    const std::optional<std::string> sdfPath = cl.sdfOutput("out");
    const std::optional<std::string> flexOut = flexOutputPath(cl, sdfPath);

    TargetInputs inputs = loadTarget(cl, files.front());
    std::unique_ptr<FlexModel> flex = loadFlex(cl, inputs.receptor);
    DockingTarget target(inputs.receptor, inputs.box, inputs.scoring, options.threads);
    requireFlexInsideBox(*flex, target);

    std::optional<RankedSdfWriter> sdf;
    if (sdfPath)
        sdf.emplace(*sdfPath);
    std::optional<AtomicFile> flexFile;
    if (flexOut)
        flexFile.emplace(*flexOut);
    std::optional<AtomicFile> json;
    if (auto path = cl.value("json"))
        json.emplace(*path);

    ReadOptions readOptions;
    readOptions.warn = [](const std::string& msg) { std::cerr << "warning: " << msg << "\n"; };
    std::vector<Molecule> ligands;
    std::vector<std::string> names;
    for (const std::string& file : files) {
        auto reader = MoleculeReader::open(file, readOptions);
        Molecule m;
        while (reader->next(m)) {
            names.push_back(m.name);
            try {
                ligands.push_back(prepareLigand(m));
            } catch (const InputError& e) {
                std::cerr << "warning: " << e.what() << "\n";
                ligands.emplace_back(); // refused: no atoms
            }
        }
    }
    std::vector<XsType> types = flex->movableTypes();
    for (const Molecule& lig : ligands)
        for (const Atom& a : lig.atoms)
            if (a.xs != XsType::None && std::find(types.begin(), types.end(), a.xs) == types.end())
                types.push_back(a.xs);
    const ReceptorGrid& grid = target.gridFor(types);

    std::vector<std::vector<dock::FlexDockRun>> results(ligands.size());
    std::unique_ptr<Backend> gpu;
    if (onDevice) {
        std::string note;
        const DeviceRequest request = deviceRequestOption(cl);
        gpu = createBackend(request, options.threads, note);
        std::cerr << note << "\n";
        if (gpu->isGpu())
            results = dockWithFlexOnGpu(request.index, *gpu, target, *flex, grid, ligands, options);
        else
            gpu.reset(); // no usable GPU (the note said why): the CPU below
    }
    std::vector<WrittenPose> written;
    long docked = 0;
    for (size_t i = 0; i < ligands.size(); ++i) {
        if (ligands[i].atoms.empty())
            continue;
        if (!gpu) {
            LigandScorer exactLigand(ligands[i], target.scoring(), target.receptor());
            LigandScorer gridLigand(ligands[i], target.scoring(), target.receptor(), &grid);
            FlexScorer scorer(exactLigand, *flex, &grid);
            dock::FlexDockSetup setup;
            setup.exact = &scorer;
            setup.gridLigand = &gridLigand;
            setup.grid = &grid;
            setup.box = inputs.box;
            setup.lga = options.lga;
            setup.runs = options.runs;
            setup.evaluationsPerRun = options.lga.maxEvaluations;
            setup.seed = options.seed;
            setup.ligandIndex = i;
            setup.threads = options.threads;
            results[i] = dock::dockLigandWithFlex(ligands[i], setup);
        }
        if (results[i].empty())
            continue;
        ++docked;
        const auto& runs = results[i];
        const int keep = std::min<int>(static_cast<int>(runs.size()), options.maxPosesOut);
        for (int k = 0; k < keep; ++k)
            written.push_back({static_cast<long>(i), names[i], &ligands[i], &runs[k]});
        const FlexScore& b = runs.front().score;
        std::printf("%-24s %6zu  affinity %8.3f  (runs %d)\n",
                    names[i].empty() ? "(no name)" : names[i].c_str(), i, b.affinity,
                    options.runs);
        printFlexParts(b);
        std::fflush(stdout);
    }
    if (docked == 0) {
        std::cerr << "error: no ligand could be docked\n";
        return 1;
    }
    // Rank order of the written poses, shared by the SDF and the side-chain PDBQT.
    std::stable_sort(written.begin(), written.end(), [](const WrittenPose& a, const WrittenPose& b) {
        return a.run->score.affinity < b.run->score.affinity;
    });
    for (size_t k = 0; k < written.size(); ++k) {
        const WrittenPose& w = written[k];
        const dock::FlexDockRun& r = *w.run;
        if (sdf) {
            Molecule m = *w.molecule;
            m.name = w.name;
            for (size_t a = 0; a < m.atoms.size() && a < r.ligandCoordinates.size(); ++a)
                m.atoms[a].position = r.ligandCoordinates[a];
            m.setProperty("dockedAffinity", fixed3(r.score.affinity));
            m.setProperty("dockedInter", fixed3(r.score.inter()));
            m.setProperty("dockedIntra", fixed3(r.score.intra()));
            m.setProperty("dockedLigandFlex", fixed3(r.score.ligandFlex));
            m.setProperty("dockedFlexReceptor", fixed3(r.score.flexReceptor));
            m.setProperty("dockedFlexFlex", fixed3(r.score.flexFlex));
            m.setProperty("run", std::to_string(r.run));
            m.setProperty("inputIndex", std::to_string(w.ligand));
            if (flexOut)
                m.setProperty("flexModel", std::to_string(k + 1));
            sdf->add(m, r.score.affinity);
        }
        if (flexFile)
            writeFlexModel(flexFile->stream(), *flex, r.flexCoordinates, k + 1,
                           "posewright dock --flex: ligand " + w.name + " (input " +
                               std::to_string(w.ligand) + "), run " + std::to_string(r.run) +
                               ", affinity " + fixed3(r.score.affinity));
    }
    if (json) {
        for (size_t i = 0; i < ligands.size(); ++i) {
            if (results[i].empty())
                continue;
            std::string poses = "[";
            const int keep =
                std::min<int>(static_cast<int>(results[i].size()), options.maxPosesOut);
            for (int k = 0; k < keep; ++k) {
                const dock::FlexDockRun& r = results[i][k];
                JsonObject p;
                p.add("run", r.run);
                addFlexScoreFields(p, r.score);
                p.add("search_energy", r.searchEnergy, 6).add("evaluations", r.evaluations);
                p.add("generations", r.generations);
                for (size_t w = 0; w < written.size(); ++w)
                    if (written[w].run == &r)
                        p.add("flex_model", static_cast<long>(w + 1));
                poses += (k ? "," : "") + p.str();
            }
            poses += "]";
            JsonObject o;
            o.add("name", names[i]).add("index", static_cast<long>(i));
            o.add("runs", options.runs).add("flex_torsions", flex->torsionCount());
            o.addRaw("poses", poses);
            json->stream() << o.str() << "\n";
        }
    }
    if (sdf)
        sdf->commit();
    if (flexFile)
        flexFile->commit();
    if (json)
        json->commit();
    return 0;
}

} // namespace pw::cli
