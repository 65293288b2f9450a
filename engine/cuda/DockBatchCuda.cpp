// The CUDA backend's docking batch: the same steps as the CPU reference (dock::dockLigands:
// checks, target maps, exact re-scoring, clustering, RMSD to a reference) around the GPU search
// (CudaDocker: every run of every valid ligand in one launch).
#include "DockBatchCuda.h"

#include "dock/DockFinish.h"
#include "dock/DockEngine.h"
#include "dock/LigandDockScoring.h"
#include "dock/SymmetryRmsd.h"

#include "core/InputError.h"
#include "core/PhaseTimings.h"
#include "core/ParallelFor.h"

#include <algorithm>
#include <exception>
#include <thread>

namespace pw::cuda {

BatchStatus dockBatchOnGpu(CudaDocker& docker, const dock::DockTarget& target,
                           const std::vector<Molecule>& ligands, const dock::DockOptions& options,
                           std::vector<dock::LigandDockResult>& results, Progress* progress,
                           const Molecule* reference, dock::LigandKeys ligandKeys,
                           std::string_view group) {
    const int n = static_cast<int>(ligands.size());
    const int runs = std::max(options.runs, 1);
    PhaseTimer checkTimer(options.timings, "check_and_maps", group);
    std::vector<char> ok = dock::startDockBatch(target, ligands, options, results, ligandKeys);
    const int threads = options.threads > 0
                            ? options.threads
                            : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // Each ligand's exact scorer (its pair lists), on every core: a batch holds hundreds.
    std::vector<std::unique_ptr<dock::LigandDockScoring>> scoring(n);
    std::vector<std::exception_ptr> failure(n); // anything but a refusal: rethrown below
    parallelFor(n, threads, [&](long i) {
        if (!ok[i])
            return;
        try {
            scoring[i] = dock::makeLigandDockScoring(target, ligands[i]);
        } catch (const InputError& e) {
            results[i].error = e.what();
            ok[i] = 0;
        } catch (...) {
            failure[i] = std::current_exception();
        }
    });
    for (const std::exception_ptr& f : failure)
        if (f)
            std::rethrow_exception(f);
    std::vector<Molecule> valid;
    std::vector<int> validIndex;
    for (int i = 0; i < n; ++i)
        if (ok[i]) {
            valid.push_back(ligands[i]);
            validIndex.push_back(i);
        }

    dock::DockOptions o = options;
    o.runs = runs;
    std::vector<long> keys; // the CPU engine's stream keys: the ligand's index in the batch
    for (int i : validIndex)
        keys.push_back(ligandKeys[size_t(i)]);
    checkTimer.stop();
    const std::vector<GpuDockRun> gpu = docker.dock(target, valid, o, progress, &keys);
    if (options.timings) {
        const DockGpuTiming& t = docker.lastTiming();
        options.timings->add("pack_and_upload", t.pack - t.gridUpload, group);
        options.timings->add("grid_upload", t.gridUpload, group);
        options.timings->add("gpu_search", t.gpu, group);
        options.timings->add("download_and_unpack", t.total - t.pack - t.gpu, group);
    }

    BatchStatus status;
    status.total = static_cast<long>(valid.size()) * runs;
    for (size_t v = 0; v < valid.size(); ++v)
        results[validIndex[v]].runs.resize(runs);
    for (const GpuDockRun& g : gpu) {
        results[validIndex[g.ligand]].evaluationBudget = g.budget;
        results[validIndex[g.ligand]].autoStopGeneration = g.autoStopGeneration;
    }
    for (size_t v = 0; v < valid.size() && v < docker.lastAutoStopTraces().size(); ++v)
        results[validIndex[v]].autoStopTrace = docker.lastAutoStopTraces()[v];
    // Exact re-scoring on the CPU (the reported numbers do not depend on the device).
    PhaseTimer rescoreTimer(options.timings, "rescore", group);
    parallelFor(static_cast<long>(gpu.size()), threads, [&](long q) {
        const GpuDockRun& g = gpu[q];
        const int i = validIndex[g.ligand];
        dock::DockRun& d = results[i].runs[g.run];
        d.run = g.run;
        d.pose = g.pose;
        d.coordinates = g.coordinates;
        d.searchEnergy = g.energy;
        d.evaluations = g.evaluations;
        d.generations = g.generations;
        d.autoStopped = g.autostopped;
        if (d.coordinates.empty())
            return; // never launched (cancelled)
        d.score = scoring[i]->rescore(d.coordinates, d.terms);
    });
    for (const GpuDockRun& g : gpu) {
        if (g.finished)
            ++status.done;
        else
            results[validIndex[g.ligand]].cancelled = true;
    }
    status.cancelled = progress && progress->cancelled();
    rescoreTimer.stop();

    dock::finishDockBatch(target, ligands, ok, options, results, reference, status.cancelled,
                          threads, group);
    return status;
}

} // namespace pw::cuda
