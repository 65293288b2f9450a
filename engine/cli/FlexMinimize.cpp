// `posewright-cli minimize --flex FLEX.pdbqt`: every ligand record minimized together with the
// flexible side chains (each record starts from the side chains as read), on the CPU with exact
// pair sums, or with --device cuda the same descents on one GPU (FlexMinimizeDevice.h); ranked
// SDF of the ligands and, beside it, a PDBQT of the moved side chains (one MODEL per ligand, in
// the same rank order, as Vina writes the residues of each pose).
#include "DeviceOption.h"
#include "FlexMinimizeDevice.h"
#include "FlexSetup.h"
#include "TargetSetup.h"
#include "backend/DeviceSelection.h"
#include "chem/AtomicFile.h"
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/RankedSdfWriter.h"
#include "core/InputError.h"
#include "core/ParallelFor.h"
#include "minimize/FlexRefinement.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <numeric>
#include <thread>

namespace pw::cli {
namespace {

struct Record {
    Molecule ligand;
    long index = 0;
    std::string error;
    FlexRefinementResult result;
};

} // namespace

int minimizeWithFlex(const CommandLine& cl) {
    for (const char* unsupported : {"shard", "vina-steps", "smooth", "exact", "interpolation",
                                    "reduction", "max-gpu-memory"})
        if (cl.value(unsupported) || cl.flag(unsupported))
            throw UsageError(std::string("--") + unsupported +
                             " is not available with --flex (flexible residues minimize with "
                             "exact pair sums and the Vina guard)");
    // The CPU unless a device is asked for: the CPU is the reference, and a GPU's float
    // descents can end in a neighbouring minimum.
    const bool onDevice = flexOnGpu(cl);
    const std::vector<std::string> files = cl.values("ligands");
    const bool json = cl.flag("json");
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int threads = cl.intValue("threads", hw, 1, 1024);
    MinimizeOptions options = flexMinimizeOptions();
    options.maxIterations = cl.intValue("max-iterations", options.maxIterations, 1, 1000000);
    options.gradientTolerance = cl.doubleValue("tolerance", options.gradientTolerance, 0.0, 1e6);
    options.maxStepNorm = cl.doubleValue("max-step", options.maxStepNorm, 0.0, 1e6);
    const std::string search = cl.value("line-search", "wolfe");
    if (search == "armijo")
        options.lineSearch = LineSearchKind::Armijo;
    else if (search != "wolfe")
        throw UsageError("--line-search expects wolfe or armijo, got '" + search + "'");
    const std::optional<std::string> sdfPath = cl.sdfOutput("out");
    const std::optional<std::string> flexOut = flexOutputPath(cl, sdfPath);

    TargetInputs inputs = loadTarget(cl, files.front());
    // --flex-residues: the receptor becomes its rigid part here, before the target is built.
    std::unique_ptr<FlexModel> flex = loadFlex(cl, inputs.receptor);
    DockingTarget target(inputs.receptor, inputs.box, inputs.scoring, threads);
    requireFlexInsideBox(*flex, target);

    // Outputs are opened before the work so that a bad path fails first; both appear complete
    // or not at all.
    std::optional<RankedSdfWriter> sdf;
    if (sdfPath)
        sdf.emplace(*sdfPath);
    std::optional<AtomicFile> flexFile;
    if (flexOut)
        flexFile.emplace(*flexOut);

    ReadOptions readOptions;
    readOptions.warn = [](const std::string& msg) { std::cerr << "warning: " << msg << "\n"; };
    std::vector<Molecule> raw;
    for (const std::string& file : files) {
        auto reader = MoleculeReader::open(file, readOptions);
        Molecule m;
        while (reader->next(m))
            raw.push_back(m);
    }
    std::vector<Record> records(raw.size());
    parallelFor(static_cast<long>(raw.size()), threads, [&](long i) {
        Record& rec = records[i];
        rec.index = i;
        try {
            rec.ligand = prepareLigand(raw[i]);
        } catch (const InputError& e) {
            rec.error = e.what();
            rec.ligand.name = raw[i].name;
        }
    });
    // One set of maps for everything: the unbound energy reads the side chains' types from
    // them, and the Vina guard moves the ligands and side chains on them.
    std::vector<XsType> types = flex->movableTypes();
    for (const Record& rec : records)
        for (const Atom& a : rec.ligand.atoms)
            if (a.xs != XsType::None && std::find(types.begin(), types.end(), a.xs) == types.end())
                types.push_back(a.xs);
    const ReceptorGrid& grid = target.gridFor(types);
    const bool guard = !cl.flag("no-vina-guard");
    std::unique_ptr<Backend> backend;
    if (onDevice) {
        std::string note;
        backend = createBackend(deviceRequestOption(cl), threads, note);
        std::cerr << note << "\n";
        if (!backend->isGpu())
            backend.reset(); // no usable GPU: the note said so; the CPU path below
    }
    if (backend) {
        std::vector<long> index;
        std::vector<Molecule> ligands;
        for (Record& rec : records)
            if (rec.error.empty()) {
                index.push_back(rec.index);
                ligands.push_back(rec.ligand);
            }
        std::vector<FlexDeviceItem> items =
            refineWithFlexOnDevice(*backend, target, *flex, grid, ligands, options, guard, threads);
        for (size_t k = 0; k < items.size(); ++k) {
            Record& rec = records[index[k]];
            rec.error = std::move(items[k].error);
            rec.result = std::move(items[k].result);
        }
    } else {
        parallelFor(static_cast<long>(records.size()), threads, [&](long i) {
            Record& rec = records[i];
            if (!rec.error.empty())
                return;
            try {
                LigandScorer ligand(rec.ligand, target.scoring(), target.receptor());
                FlexScorer scorer(ligand, *flex, &grid);
                LigandScorer onGrid(rec.ligand, target.scoring(), target.receptor(), &grid);
                const FlexVinaPath vina{&onGrid, &grid};
                rec.result = refineWithFlex(rec.ligand, scorer, options, guard ? &vina : nullptr);
            } catch (const InputError& e) {
                rec.error = e.what();
            }
        });
    }

    // Rank order (lowest affinity first, ties in input order), shared by both outputs.
    std::vector<size_t> order;
    for (size_t i = 0; i < records.size(); ++i)
        if (records[i].error.empty())
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return records[a].result.score.affinity < records[b].result.score.affinity;
    });
    std::vector<int> rank(records.size(), 0);
    for (size_t k = 0; k < order.size(); ++k)
        rank[order[k]] = static_cast<int>(k) + 1;

    long minimized = 0;
    for (Record& rec : records) {
        if (!rec.error.empty()) {
            std::cerr << "warning: " << rec.error << "\n";
            if (json)
                std::cout << JsonObject()
                                 .add("name", rec.ligand.name)
                                 .add("index", rec.index)
                                 .add("error", rec.error)
                                 .str()
                          << "\n";
            continue;
        }
        ++minimized;
        const FlexRefinementResult& r = rec.result;
        if (json) {
            JsonObject o;
            o.add("name", rec.ligand.name).add("index", rec.index);
            addFlexScoreFields(o, r.score);
            o.add("start_affinity", r.start.affinity, 6);
            o.add("start_inter", r.start.inter(), 6).add("start_intra", r.start.intra(), 6);
            o.add("rmsd_from_start", r.ligandRmsd, 4).add("iterations", r.iterations);
            o.add("evaluations", r.evaluations).add("stop", stopReasonName(r.reason));
            o.add("path", r.path);
            o.add("flex_torsions", flex->torsionCount());
            if (flexOut)
                o.add("flex_model", rank[rec.index]);
            std::cout << o.str() << "\n";
        } else {
            std::printf("%-24s %6ld  affinity %8.3f  (start %8.3f)  rmsd %6.3f  steps %d\n",
                        rec.ligand.name.empty() ? "(no name)" : rec.ligand.name.c_str(),
                        rec.index, r.score.affinity, r.start.affinity, r.ligandRmsd,
                        r.iterations);
            printFlexParts(r.score);
        }
    }
    for (size_t k = 0; k < order.size(); ++k) {
        Record& rec = records[order[k]];
        const FlexRefinementResult& r = rec.result;
        if (sdf) {
            Molecule m = rec.ligand;
            for (size_t i = 0; i < m.atoms.size() && i < r.ligandCoordinates.size(); ++i)
                m.atoms[i].position = r.ligandCoordinates[i];
            m.setProperty("minimizedAffinity", fixed3(r.score.affinity));
            m.setProperty("minimizedRMSD", fixed3(r.ligandRmsd));
            m.setProperty("minimizedInter", fixed3(r.score.inter()));
            m.setProperty("minimizedIntra", fixed3(r.score.intra()));
            m.setProperty("minimizedTorsional", fixed3(r.score.torsional));
            m.setProperty("minimizedLigandFlex", fixed3(r.score.ligandFlex));
            m.setProperty("minimizedFlexReceptor", fixed3(r.score.flexReceptor));
            m.setProperty("minimizedFlexFlex", fixed3(r.score.flexFlex));
            m.setProperty("inputIndex", std::to_string(rec.index));
            if (flexOut)
                m.setProperty("flexModel", std::to_string(k + 1));
            sdf->add(m, r.score.affinity);
        }
        if (flexFile)
            writeFlexModel(flexFile->stream(), *flex, r.flexCoordinates, k + 1,
                           "posewright minimize --flex: ligand " + rec.ligand.name + " (input " +
                               std::to_string(rec.index) + "), affinity " +
                               fixed3(r.score.affinity));
    }
    if (minimized == 0) {
        std::cerr << "error: no ligand could be minimized\n";
        return 1;
    }
    if (sdf)
        sdf->commit();
    if (flexFile)
        flexFile->commit();
    return 0;
}

} // namespace pw::cli
