#include "FlexDock.h"

#include "DockRandom.h"
#include "Genotype.h"

#include "core/LigandKinematics.h"
#include "core/ParallelFor.h"
#include "minimize/BfgsMinimizer.h"
#include "minimize/FlexPoseObjective.h"
#include "minimize/FlexRefinement.h"

#include <algorithm>
#include <numeric>

namespace pw::dock {
namespace {

int tournament(const std::vector<double>& energies, double rate, DockRandom& rng) {
    const int n = static_cast<int>(energies.size());
    const int a = rng.below(n), b = rng.below(n);
    const bool aFitter = energies[a] <= energies[b];
    return (aFitter == (rng.uniform() < rate)) ? a : b;
}

FlexDockRun runOne(const LigandKinematics& kinematics, const FlexDockSetup& s, int run,
                   long budget) {
    const LgaOptions& o = s.lga;
    const int popSize = std::max(o.populationSize, 2);
    const int torsions = kinematics.torsionCount() + s.exact->flex().torsionCount();
    DockRandom rng(s.seed, s.ligandIndex, static_cast<std::uint64_t>(run));
    FlexPoseObjective onGrid(kinematics, *s.exact, *s.gridLigand, *s.grid);

    std::vector<Pose> pop, next;
    std::vector<double> energy, nextEnergy;
    for (int i = 0; i < popSize; ++i) {
        pop.push_back(randomGenotype(torsions, s.box, rng));
        energy.push_back(onGrid.evaluate(pop.back(), nullptr));
    }
    next = pop;
    nextEnergy = energy;
    MinimizeOptions ls;
    ls.lineSearch = LineSearchKind::StrongWolfe;
    ls.maxIterations = o.localSearchIterations;
    ls.maxStepNorm = 0.5;
    MinimizerWorkspace ws;
    MinimizeResult lsResult;
    std::vector<int> order(popSize);
    const int elite = std::clamp(o.elitism, 0, popSize);
    const int searched =
        std::clamp(static_cast<int>(std::lround(o.localSearchRate * popSize)), 0, popSize);
    long generation = 0;
    const auto cancelled = [&] { return s.cancel && s.cancel->load(std::memory_order_relaxed); };
    while (onGrid.evaluations() < budget && generation < o.maxGenerations && !cancelled()) {
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return energy[a] < energy[b]; });
        for (int i = 0; i < elite; ++i) {
            next[i] = pop[order[i]];
            nextEnergy[i] = energy[order[i]];
        }
        for (int i = elite; i < popSize; ++i) {
            const int a = tournament(energy, o.tournamentRate, rng);
            const int b = tournament(energy, o.tournamentRate, rng);
            if (rng.uniform() < o.crossoverRate)
                crossover(pop[a], pop[b], next[i], rng);
            else
                next[i] = pop[a];
            mutate(next[i], o, s.box, rng);
            nextEnergy[i] = onGrid.evaluate(next[i], nullptr);
        }
        // Lamarckian BFGS on the maps: the improved genotype replaces the individual.
        for (int i = 0; i < searched && onGrid.evaluations() < budget; ++i) {
            BfgsMinimizer::minimize(onGrid, next[i], ls, ws, lsResult);
            if (lsResult.energy < nextEnergy[i]) {
                next[i] = lsResult.pose;
                clampToBox(next[i], s.box);
                nextEnergy[i] = onGrid.evaluate(next[i], nullptr);
            }
        }
        std::swap(pop, next);
        std::swap(energy, nextEnergy);
        ++generation;
        if (s.onGeneration) {
            GenerationReport report;
            report.ligand = static_cast<long>(s.ligandIndex);
            report.run = run;
            report.generation = generation;
            const auto best = std::min_element(energy.begin(), energy.end());
            report.bestEnergy = *best;
            report.meanEnergy = std::accumulate(energy.begin(), energy.end(), 0.0) /
                                static_cast<double>(energy.size());
            report.best = &pop[static_cast<size_t>(best - energy.begin())];
            report.kinematics = &kinematics;
            s.onGeneration(report);
        }
    }
    if (cancelled())
        return FlexDockRun{run}; // dropped by the caller: no final minimization
    const int best =
        static_cast<int>(std::min_element(energy.begin(), energy.end()) - energy.begin());
    FlexDockRun r;
    r.run = run;
    r.searchEnergy = energy[best];
    r.generations = generation;
    // The final pose: minimized on the exact energy (as Vina refines its docked poses).
    FlexPoseObjective exact(kinematics, *s.exact);
    const MinimizeResult m = BfgsMinimizer::minimize(exact, pop[best], flexMinimizeOptions());
    r.pose = m.pose;
    exact.split(m.pose, r.ligandCoordinates, r.flexCoordinates);
    r.score = s.exact->finalScore(r.ligandCoordinates, r.flexCoordinates);
    r.evaluations = onGrid.evaluations() + exact.evaluations();
    return r;
}

} // namespace

std::vector<FlexDockRun> dockLigandWithFlex(const Molecule& ligand, const FlexDockSetup& setup) {
    const LigandKinematics kinematics(ligand, RootOrigin::RootCentroid);
    const int torsions = kinematics.torsionCount() + setup.exact->flex().torsionCount();
    const long budget = setup.evaluationsPerRun > 0
                            ? setup.evaluationsPerRun
                            : evaluationBudget(setup.lga, torsions, setup.runs);
    std::vector<FlexDockRun> runs(setup.runs);
    std::atomic<long> ended{0};
    parallelFor(setup.runs, setup.threads, [&](long r) {
        runs[r] = runOne(kinematics, setup, static_cast<int>(r), budget);
        if (setup.onRunDone)
            setup.onRunDone(++ended);
    });
    std::stable_sort(runs.begin(), runs.end(), [](const FlexDockRun& a, const FlexDockRun& b) {
        return a.score.affinity < b.score.affinity;
    });
    return runs;
}

} // namespace pw::dock
