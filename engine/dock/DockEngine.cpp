#include "DockEngine.h"

#include "AutoStop.h"
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
#include <map>
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

// The search of a batch: what every group of ligands shares.
struct SearchContext {
    const DockTarget& target;
    const DockOptions& options;
    std::vector<LigandJob>& jobs;
    std::vector<LigandDockResult>& results;
    Progress* progress;
    LigandKeys keys;
    int runs, threads;
    long total;
    long done = 0;                   // runs ended (budget, cap or AutoStop), not cancelled
    std::map<int, int> finishedRuns; // per ligand
};

// Runs of one group live at once (the bound on the search's memory).
constexpr int kMaxLiveRuns = 2048;

// Every run of the group's ligands, in steps from one AutoStop checkpoint to the next (all runs
// of all the group's ligands share the threads within a step); at each checkpoint each ligand's
// runs are tested together and, when converged, stopped together.
void searchGroup(SearchContext& c, const std::vector<int>& group) {
    const DockOptions& options = c.options;
    const int runs = c.runs;
    struct RunSlot {
        int ligand = 0, run = 0;
        std::unique_ptr<LgaRun> lga;
        bool stopped = false; // ended, or stopped by AutoStop
    };
    std::vector<RunSlot> slots;
    for (int i : group)
        for (int r = 0; r < runs; ++r)
            slots.push_back({i, r, nullptr, false});
    std::atomic<long> done{c.done};
    auto finishOne = [&] {
        const long d = ++done;
        if (c.progress && c.progress->onProgress)
            c.progress->onProgress(d, c.total);
    };
    parallelFor(static_cast<long>(slots.size()), c.threads, [&](long t) {
        RunSlot& slot = slots[t];
        LgaRunSetup s;
        s.kinematics = c.jobs[slot.ligand].kinematics.get();
        s.scoring = c.jobs[slot.ligand].scoring.get();
        s.box = c.target.box;
        s.options = options.lga;
        s.evaluationBudget = c.jobs[slot.ligand].budget;
        s.seed = options.seed;
        s.ligand = static_cast<std::uint64_t>(c.keys[size_t(slot.ligand)]);
        s.run = static_cast<std::uint64_t>(slot.run);
        s.cancel = c.progress ? &c.progress->cancel : nullptr;
        s.observer = options.onGeneration ? &options.onGeneration : nullptr;
        slot.lga = std::make_unique<LgaRun>(s);
    });

    std::map<int, PooledAutoStop> stops;
    for (int i : group)
        stops.emplace(i, PooledAutoStop(options.lga, runs));
    const PooledAutoStop schedule(options.lga, runs);
    std::vector<long> live;
    for (long generation = 0;;) {
        live.clear();
        for (size_t t = 0; t < slots.size(); ++t)
            if (!slots[t].stopped)
                live.push_back(static_cast<long>(t));
        if (live.empty())
            break;
        const long until = schedule.nextCheckpoint(generation);
        parallelFor(static_cast<long>(live.size()), c.threads, [&](long q) {
            RunSlot& slot = slots[live[q]];
            slot.lga->advance(until);
            if (slot.lga->ended() && !slot.lga->cancelled())
                finishOne();
        });
        generation = until;
        // Each ligand's test, from its runs' bests at this checkpoint (in run order).
        for (size_t first = 0; first < slots.size(); first += runs) {
            bool anyLive = false;
            for (int r = 0; r < runs; ++r) {
                RunSlot& slot = slots[first + r];
                if (!slot.stopped && slot.lga->ended())
                    slot.stopped = true;
                anyLive = anyLive || !slot.stopped;
            }
            if (!anyLive || !schedule.isCheckpoint(generation))
                continue;
            std::vector<double> best(runs);
            for (int r = 0; r < runs; ++r)
                best[r] = slots[first + r].lga->bestEnergy();
            const int i = slots[first].ligand;
            if (!stops.at(i).check(generation, best))
                continue;
            c.results[i].autoStopGeneration = generation;
            for (int r = 0; r < runs; ++r)
                if (!slots[first + r].stopped) {
                    slots[first + r].stopped = true;
                    finishOne();
                }
        }
    }

    // Results: every run's best, re-scored exactly.
    parallelFor(static_cast<long>(slots.size()), c.threads, [&](long t) {
        RunSlot& slot = slots[t];
        DockRun run = slot.lga->result();
        run.autoStopped = !slot.lga->ended();
        run.score = c.jobs[slot.ligand].scoring->rescore(run.coordinates, run.terms);
        c.results[slot.ligand].runs[slot.run] = std::move(run);
    });
    for (const RunSlot& slot : slots)
        if (!slot.lga->cancelled())
            ++c.finishedRuns[slot.ligand];
    for (int i : group)
        c.results[i].autoStopTrace = stops.at(i).trace();
    c.done = done;
}

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
                                 std::vector<LigandDockResult>& results, LigandKeys keys) {
    const size_t n = ligands.size();
    results.assign(n, {});
    std::vector<char> ok(n, 0);
    std::vector<Molecule> checked;
    for (size_t i = 0; i < n; ++i) {
        LigandDockResult& r = results[i];
        r.ligand = static_cast<int>(keys[i]);
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
                        Progress* progress, const Molecule* reference, LigandKeys keys) {
    const int n = static_cast<int>(ligands.size());
    const int runs = std::max(options.runs, 1);
    const double searchStart = PhaseTimings::now(); // checks and maps included
    std::vector<LigandJob> jobs(n);
    std::vector<char> ok = startDockBatch(target, ligands, options, results, keys);
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

    const int threads = options.threads > 0
                            ? options.threads
                            : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    long total = 0;
    for (int i = 0; i < n; ++i)
        total += ok[i] ? runs : 0;
    SearchContext c{target, options, jobs,  results, progress, keys,
                    runs,   threads, total, 0,       {}};
    // Ligands in groups (each live run holds two populations); a group holds whole ligands, and
    // a ligand's result does not depend on its group.
    const int groupSize = std::max(1, kMaxLiveRuns / runs);
    for (int g = 0; g < n; g += groupSize) {
        if (progress && progress->cancelled())
            break; // the ligands left keep no runs: cancelled
        std::vector<int> group;
        for (int i = g; i < std::min(n, g + groupSize); ++i)
            if (ok[i])
                group.push_back(i);
        searchGroup(c, group);
    }

    BatchStatus status;
    status.total = total;
    status.done = c.done;
    for (int i = 0; i < n; ++i)
        if (ok[i] && static_cast<int>(c.finishedRuns[i]) < runs)
            results[i].cancelled = true;
    status.cancelled = progress && progress->cancelled();
    if (options.timings)
        options.timings->add("search_and_rescore", PhaseTimings::now() - searchStart, "cpu");

    finishDockBatch(target, ligands, ok, options, results, reference, status.cancelled, threads,
                    "cpu");
    return status;
}

} // namespace pw::dock
