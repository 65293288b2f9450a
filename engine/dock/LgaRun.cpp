#include "LgaRun.h"

#include "AutoStop.h"
#include "DockObjective.h"
#include "DockRandom.h"
#include "Genotype.h"
#include "LocalSearch.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace pw::dock {
namespace {

struct Population {
    std::vector<Pose> poses;
    std::vector<double> energies;
};

// Binary tournament: the fitter of two random individuals wins with probability `rate`.
int tournament(const Population& p, double rate, DockRandom& rng) {
    const int n = static_cast<int>(p.poses.size());
    const int a = rng.below(n), b = rng.below(n);
    const bool aFitter = p.energies[a] <= p.energies[b];
    const bool fitterWins = rng.uniform() < rate;
    return (aFitter == fitterWins) ? a : b;
}

// Tells the observer about the generation just done: best and mean energy, best genotype.
void report(const GenerationObserver& observer, const LgaRunSetup& s, const Population& p,
            long generation) {
    const auto best = std::min_element(p.energies.begin(), p.energies.end());
    GenerationReport r;
    r.ligand = static_cast<long>(s.ligand);
    r.run = static_cast<int>(s.run);
    r.generation = generation;
    r.bestEnergy = *best;
    r.meanEnergy = std::accumulate(p.energies.begin(), p.energies.end(), 0.0) /
                   static_cast<double>(p.energies.size());
    r.best = &p.poses[static_cast<size_t>(best - p.energies.begin())];
    r.kinematics = s.kinematics;
    observer(r);
}

} // namespace

DockRun runLga(const LgaRunSetup& s) {
    const LgaOptions& o = s.options;
    const int popSize = std::max(o.populationSize, 2);
    const int torsions = s.kinematics->torsionCount();
    DockRandom rng(s.seed, s.ligand, s.run);
    DockObjective f(*s.kinematics, *s.scoring);
    LocalSearchWorkspace ws;
    AutoStop autoStop(o.autoStopTolerance, o.autoStopFrequency);

    Population pop, next;
    pop.poses.reserve(popSize);
    for (int i = 0; i < popSize; ++i) {
        pop.poses.push_back(randomGenotype(torsions, s.box, rng));
        pop.energies.push_back(f.energy(pop.poses.back()));
    }
    next = pop;

    std::vector<int> order(popSize);
    const int elite = std::clamp(o.elitism, 0, popSize);
    const int searched =
        std::clamp(static_cast<int>(std::lround(o.localSearchRate * popSize)), 0, popSize);
    DockRun result;
    long generation = 0;
    while (f.evaluations() < s.evaluationBudget && generation < o.maxGenerations) {
        if (s.cancel && s.cancel->load(std::memory_order_relaxed))
            break;
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return pop.energies[a] < pop.energies[b]; });
        for (int i = 0; i < elite; ++i) {
            next.poses[i] = pop.poses[order[i]];
            next.energies[i] = pop.energies[order[i]];
        }
        for (int i = elite; i < popSize; ++i) {
            const int a = tournament(pop, o.tournamentRate, rng);
            const int b = tournament(pop, o.tournamentRate, rng);
            if (rng.uniform() < o.crossoverRate)
                crossover(pop.poses[a], pop.poses[b], next.poses[i], rng);
            else
                next.poses[i] = pop.poses[a];
            mutate(next.poses[i], o, s.box, rng);
            next.energies[i] = f.energy(next.poses[i]);
        }
        // Lamarckian local search on the first `searched` individuals: the offspring are in
        // random order, and the elite (index 0) competes like the others.
        for (int i = 0; i < searched; ++i)
            localSearch(o.localSearch, f, next.poses[i], next.energies[i], o, s.box, rng, ws);
        std::swap(pop, next);
        ++generation;
        if (s.observer && *s.observer)
            report(*s.observer, s, pop, generation);
        if (o.autoStop && autoStop.converged(generation, pop.energies)) {
            result.autoStopped = true;
            break;
        }
    }

    const int best = static_cast<int>(std::min_element(pop.energies.begin(), pop.energies.end()) -
                                      pop.energies.begin());
    result.run = static_cast<int>(s.run);
    result.pose = pop.poses[best];
    result.searchEnergy = pop.energies[best];
    result.coordinates = s.kinematics->coordinates(result.pose);
    result.evaluations = f.evaluations();
    result.generations = generation;
    return result;
}

} // namespace pw::dock
