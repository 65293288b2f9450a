#include "FlexMinimizeDevice.h"

#include "core/InputError.h"
#include "core/ParallelFor.h"
#include "core/RingClosure.h"

#include <iostream>

namespace pw::cli {

Molecule withSideChains(const Molecule& ligand, const FlexModel& flex,
                        const std::vector<Vec3>& flexCoords) {
    Molecule m = ligand;
    for (int r = 0; r < flex.residueCount(); ++r)
        for (const Atom& a : flex.residue(r).mol.atoms)
            m.atoms.push_back(a);
    const size_t n = ligand.atoms.size();
    for (size_t f = 0; f < flexCoords.size(); ++f)
        m.atoms[n + f].position = flexCoords[f];
    return m;
}

namespace {

// One descent of every start on the device: the exact energy, or Vina's path on the maps.
MinimizeBatchOptions descent(const FlexModel& flex, const MinimizeOptions& options,
                             bool vinaPath) {
    MinimizeBatchOptions o;
    o.refinement.minimize = options;
    o.refinement.minimize.cancel = nullptr;
    o.refinement.minimize.recordTrajectory = false;
    o.refinement.vinaSteps = vinaPath; // Armijo, Vina's step count with the side chains' atoms
    o.exact = !vinaPath;
    o.gridReport = true;
    o.flex = &flex;
    return o;
}

// Vina's reported objective, as refineWithFlex compares ends.
double reported(const FlexScore& s) {
    return s.inter() + s.intra();
}

struct Ligand {
    const Molecule* mol = nullptr;
    bool onCpu = false; // a macrocycle's ring closure: refineWithFlex on the CPU
    std::vector<Vec3> start;
    FlexRefinementResult startResult; // the start as a kept end (what a retry begins from)
    std::unique_ptr<LigandScorer> exact;
    std::unique_ptr<FlexScorer> scorer;
    FlexDeviceItem item;
};

// Keeps an end if Vina's numbers put it strictly lower than the best so far (refineWithFlex's
// rule: on a tie the earlier candidate stays).
void consider(Ligand& l, const RefinementResult& end, const char* path) {
    FlexRefinementResult& best = l.item.result;
    best.iterations += end.iterations;
    best.evaluations += end.evaluations;
    const size_t n = l.start.size();
    if (end.coordinates.size() != n + static_cast<size_t>(l.scorer->flex().atomCount()))
        return; // not minimized (no coordinates)
    std::vector<Vec3> lig(end.coordinates.begin(), end.coordinates.begin() + n);
    std::vector<Vec3> side(end.coordinates.begin() + n, end.coordinates.end());
    const FlexScore score = l.scorer->finalScore(lig, side);
    if (!(reported(score) < reported(best.score)))
        return;
    best.ligandCoordinates = std::move(lig);
    best.flexCoordinates = std::move(side);
    best.score = score;
    best.energy = end.energy;
    best.reason = end.reason;
    best.path = path;
    best.keptStart = false;
}

// Runs each descent over `batch` (indices into ls) and keeps the ends. Throws what the backend
// throws (an InputError names the ligand that stopped the batch).
void refineBatch(Backend& backend, const DockingTarget& target, const FlexModel& flex,
                 std::vector<Ligand>& ls, const std::vector<long>& batch,
                 const MinimizeOptions& options, bool guard, int threads) {
    auto run = [&](const std::vector<Molecule>& starts, const MinimizeOptions& o, bool vinaPath) {
        std::vector<RefinementResult> out;
        backend.minimize(target, starts, descent(flex, o, vinaPath), out);
        return out;
    };
    std::vector<Molecule> starts;
    for (long i : batch)
        starts.push_back(withSideChains(*ls[i].mol, flex, flex.referenceCoordinates()));
    auto keep = [&](const std::vector<RefinementResult>& ends, const char* path) {
        parallelFor(static_cast<long>(batch.size()), threads,
                    [&](long k) { consider(ls[batch[k]], ends[k], path); });
    };
    keep(run(starts, options, false), "main");
    if (!guard)
        return;
    MinimizeOptions armijo = options;
    armijo.lineSearch = LineSearchKind::Armijo;
    MinimizeOptions uncapped = options;
    uncapped.maxStepNorm = 0;
    keep(run(starts, armijo, false), "main-armijo");
    keep(run(starts, uncapped, false), "main-uncapped");
    const std::vector<RefinementResult> vina = run(starts, options, true);
    keep(vina, "vina");
    // The polishes start where Vina's path ended (the kernel takes a start's coordinates as
    // its reference conformation, side chains included).
    for (size_t k = 0; k < batch.size(); ++k)
        if (vina[k].coordinates.size() == starts[k].atoms.size())
            for (size_t a = 0; a < starts[k].atoms.size(); ++a)
                starts[k].atoms[a].position = vina[k].coordinates[a];
    keep(run(starts, options, false), "vina+polish");
    keep(run(starts, armijo, false), "vina+polish-armijo");
    keep(run(starts, uncapped, false), "vina+polish-uncapped");
}

} // namespace

std::vector<FlexDeviceItem> refineWithFlexOnDevice(Backend& backend, const DockingTarget& target,
                                                   const FlexModel& flex,
                                                   const ReceptorGrid& grid,
                                                   const std::vector<Molecule>& ligands,
                                                   const MinimizeOptions& options, bool vinaGuard,
                                                   int threads) {
    std::vector<Ligand> ls(ligands.size());
    std::vector<long> onDevice, onCpu;
    parallelFor(static_cast<long>(ligands.size()), threads, [&](long i) {
        Ligand& l = ls[i];
        l.mol = &ligands[i];
        try {
            for (const Atom& a : ligands[i].atoms)
                l.start.push_back(a.position);
            l.exact = std::make_unique<LigandScorer>(ligands[i], target.scoring(),
                                                     target.receptor());
            l.scorer = std::make_unique<FlexScorer>(*l.exact, flex, &grid);
            FlexRefinementResult& r = l.startResult;
            r.ligandCoordinates = l.start;
            r.flexCoordinates = flex.referenceCoordinates();
            r.start = l.scorer->finalScore(r.ligandCoordinates, r.flexCoordinates);
            r.score = r.start;
            r.energy = l.scorer->evaluate(r.ligandCoordinates, r.flexCoordinates, nullptr, nullptr);
            r.path = "start";
            r.keptStart = true;
            l.item.result = r;
            l.onCpu = hasRingClosures(ligands[i]);
        } catch (const InputError& e) {
            l.item.error = e.what();
        }
    });
    for (size_t i = 0; i < ls.size(); ++i) {
        if (!ls[i].item.error.empty())
            continue;
        (ls[i].onCpu ? onCpu : onDevice).push_back(static_cast<long>(i));
    }
    if (!onDevice.empty()) {
        try {
            refineBatch(backend, target, flex, ls, onDevice, options, vinaGuard, threads);
        } catch (const InputError&) {
            // One ligand the kernel cannot take stopped the batch: each alone, so that only
            // that one fails (with its own message).
            for (long i : onDevice) {
                Ligand& l = ls[i];
                l.item.result = l.startResult;
                try {
                    refineBatch(backend, target, flex, ls, {i}, options, vinaGuard, threads);
                } catch (const InputError& e) {
                    l.item.error = e.what();
                }
            }
        }
    }
    if (!onCpu.empty())
        std::cerr << "note: " << onCpu.size()
                  << " ligand(s) with a macrocycle's ring closure minimize on the CPU; the CUDA "
                     "kernels have no ring-closure term\n";
    for (long i : onCpu) {
        Ligand& l = ls[i];
        LigandScorer onGrid(ligands[i], target.scoring(), target.receptor(), &grid);
        const FlexVinaPath vina{&onGrid, &grid};
        l.item.result = refineWithFlex(ligands[i], *l.scorer, options, vinaGuard ? &vina : nullptr);
    }
    std::vector<FlexDeviceItem> out(ls.size());
    for (size_t i = 0; i < ls.size(); ++i) {
        Ligand& l = ls[i];
        if (l.item.error.empty() && !l.onCpu)
            l.item.result.ligandRmsd =
                heavyAtomRmsd(ligands[i], l.start, l.item.result.ligandCoordinates);
        out[i] = std::move(l.item);
    }
    return out;
}

} // namespace pw::cli
