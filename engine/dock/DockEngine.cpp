#include "DockEngine.h"

#include "DockFinish.h"
#include "LgaRun.h"
#include "LigandDockScoring.h"
#include "SymmetryRmsd.h"

#include "core/InputError.h"
#include "core/LigandKinematics.h"
#include "core/ParallelFor.h"
#include "core/PhaseTimings.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <optional>
#include <thread>

namespace pw::dock {
namespace {

std::string fixed1(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

// What one ligand needs during its runs, built once and shared (read-only) by them.
struct LigandJob {
    std::unique_ptr<LigandKinematics> kinematics;
    std::unique_ptr<LigandDockScoring> scoring;
    long budget = 0;
};

} // namespace

void checkDockable(const Molecule& ligand, const SearchBox& box) {
    const auto fail = [&](const std::string& what) {
        throw InputError(ligand.sourceFile, ligand.sourceRecord,
                         "ligand '" + ligand.name + "': " + what);
    };
    const int atoms = static_cast<int>(ligand.atoms.size());
    if (atoms == 0)
        fail("no atoms");
    if (atoms > kMaxDockAtoms)
        fail(std::to_string(atoms) + " atoms; the docking engine takes at most " +
             std::to_string(kMaxDockAtoms));
    const int torsions = ligand.torsionTree ? ligand.torsionTree->torsionCount() : 0;
    if (torsions > kMaxDockTorsions)
        fail(std::to_string(torsions) + " rotatable bonds; the docking engine takes at most " +
             std::to_string(kMaxDockTorsions));
    double span = 0;
    for (const Atom& a : ligand.atoms)
        for (const Atom& b : ligand.atoms)
            if (a.element != 1 && b.element != 1)
                span = std::max(span, (a.position - b.position).norm());
    const double diagonal = box.size.norm();
    if (span > diagonal)
        fail("spans " + fixed1(span) + " A, longer than the search box's diagonal (" +
             fixed1(diagonal) + " A): no pose fits in the box; enlarge the box");
}

std::vector<char> startDockBatch(const DockTarget& target, const std::vector<Molecule>& ligands,
                                 const DockOptions& options,
                                 std::vector<LigandDockResult>& results, long firstLigand) {
    const size_t n = ligands.size();
    results.assign(n, {});
    std::vector<char> ok(n, 0);
    std::vector<Molecule> checked;
    for (size_t i = 0; i < n; ++i) {
        LigandDockResult& r = results[i];
        r.ligand = static_cast<int>(firstLigand + static_cast<long>(i));
        r.name = ligands[i].name;
        r.seed = options.seed;
        try {
            checkDockable(ligands[i], target.box);
            ok[i] = 1;
            checked.push_back(ligands[i]);
        } catch (const InputError& e) {
            r.error = e.what();
        }
    }
    prepareTargetFor(target, checked);
    return ok;
}

BatchStatus dockLigands(const DockTarget& target, const std::vector<Molecule>& ligands,
                        const DockOptions& options, std::vector<LigandDockResult>& results,
                        Progress* progress, const Molecule* reference, long firstLigand) {
    const int n = static_cast<int>(ligands.size());
    const int runs = std::max(options.runs, 1);
    const double searchStart = PhaseTimings::now(); // checks and maps included
    std::vector<LigandJob> jobs(n);
    std::vector<char> ok = startDockBatch(target, ligands, options, results, firstLigand);
    for (int i = 0; i < n; ++i) {
        if (!ok[i])
            continue;
        try {
            jobs[i].kinematics =
                std::make_unique<LigandKinematics>(ligands[i], RootOrigin::RootCentroid);
            jobs[i].scoring = makeLigandDockScoring(target, ligands[i]);
            jobs[i].budget =
                evaluationBudget(options.lga, jobs[i].kinematics->torsionCount(), runs);
            results[i].evaluationBudget = jobs[i].budget;
            results[i].runs.resize(runs);
        } catch (const InputError& e) {
            results[i].error = e.what();
            ok[i] = 0;
        }
    }

    std::vector<std::pair<int, int>> tasks; // (ligand, run)
    for (int i = 0; i < n; ++i)
        if (ok[i])
            for (int r = 0; r < runs; ++r)
                tasks.emplace_back(i, r);
    const int threads = options.threads > 0
                            ? options.threads
                            : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::atomic<long> done{0};
    const long total = static_cast<long>(tasks.size());
    std::vector<char> finished(tasks.size(), 0);
    parallelFor(total, threads, [&](long t) {
        if (progress && progress->cancelled())
            return;
        const auto [i, r] = tasks[t];
        LgaRunSetup s;
        s.kinematics = jobs[i].kinematics.get();
        s.scoring = jobs[i].scoring.get();
        s.box = target.box;
        s.options = options.lga;
        s.evaluationBudget = jobs[i].budget;
        s.seed = options.seed;
        s.ligand = static_cast<std::uint64_t>(firstLigand + i);
        s.run = static_cast<std::uint64_t>(r);
        s.cancel = progress ? &progress->cancel : nullptr;
        s.observer = options.onGeneration ? &options.onGeneration : nullptr;
        DockRun run = runLga(s);
        run.score = jobs[i].scoring->rescore(run.coordinates, run.terms);
        results[i].runs[r] = std::move(run);
        if (!(progress && progress->cancelled()))
            finished[t] = 1;
        const long d = ++done;
        if (progress && progress->onProgress)
            progress->onProgress(d, total);
    });

    BatchStatus status;
    status.total = total;
    for (size_t t = 0; t < tasks.size(); ++t) {
        if (finished[t])
            ++status.done;
        else
            results[tasks[t].first].cancelled = true;
    }
    status.cancelled = progress && progress->cancelled();
    if (options.timings)
        options.timings->add("search_and_rescore", PhaseTimings::now() - searchStart, "cpu");

    finishDockBatch(target, ligands, ok, options, results, reference, status.cancelled, threads,
                    "cpu");
    return status;
}

} // namespace pw::dock
