#include "LgaRun.h"

#include "Genotype.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace pw::dock {

LgaRun::LgaRun(const LgaRunSetup& s)
    : s_(s), rng_(s.seed, s.ligand, s.run), f_(*s.kinematics, *s.scoring) {
    const int popSize = std::max(s_.options.populationSize, 2);
    const int torsions = s_.kinematics->torsionCount();
    pop_.poses.reserve(popSize);
    for (int i = 0; i < popSize; ++i) {
        pop_.poses.push_back(randomGenotype(torsions, s_.box, rng_));
        pop_.energies.push_back(f_.energy(pop_.poses.back()));
    }
    next_ = pop_;
    order_.resize(popSize);
}

// Binary tournament: the fitter of two random individuals wins with probability `rate`.
int LgaRun::tournament(DockRandom& rng) const {
    const int n = static_cast<int>(pop_.poses.size());
    const int a = rng.below(n), b = rng.below(n);
    const bool aFitter = pop_.energies[a] <= pop_.energies[b];
    const bool fitterWins = rng.uniform() < s_.options.tournamentRate;
    return (aFitter == fitterWins) ? a : b;
}

// Tells the observer about the generation just done: best and mean energy, best genotype.
void LgaRun::report(long generation) const {
    const auto best = std::min_element(pop_.energies.begin(), pop_.energies.end());
    GenerationReport r;
    r.ligand = static_cast<long>(s_.ligand);
    r.run = static_cast<int>(s_.run);
    r.generation = generation;
    r.bestEnergy = *best;
    r.meanEnergy = std::accumulate(pop_.energies.begin(), pop_.energies.end(), 0.0) /
                   static_cast<double>(pop_.energies.size());
    r.best = &pop_.poses[static_cast<size_t>(best - pop_.energies.begin())];
    r.kinematics = s_.kinematics;
    (*s_.observer)(r);
}

void LgaRun::advance(long until) {
    const LgaOptions& o = s_.options;
    const int popSize = static_cast<int>(pop_.poses.size());
    const int elite = std::clamp(o.elitism, 0, popSize);
    const int searched =
        std::clamp(static_cast<int>(std::lround(o.localSearchRate * popSize)), 0, popSize);
    while (!ended_ && generation_ < until) {
        if (f_.evaluations() >= s_.evaluationBudget || generation_ >= o.maxGenerations) {
            ended_ = true;
            break;
        }
        if (s_.cancel && s_.cancel->load(std::memory_order_relaxed)) {
            ended_ = cancelled_ = true;
            break;
        }
        std::iota(order_.begin(), order_.end(), 0);
        std::stable_sort(order_.begin(), order_.end(),
                         [&](int a, int b) { return pop_.energies[a] < pop_.energies[b]; });
        for (int i = 0; i < elite; ++i) {
            next_.poses[i] = pop_.poses[order_[i]];
            next_.energies[i] = pop_.energies[order_[i]];
        }
        for (int i = elite; i < popSize; ++i) {
            const int a = tournament(rng_);
            const int b = tournament(rng_);
            if (rng_.uniform() < o.crossoverRate)
                crossover(pop_.poses[a], pop_.poses[b], next_.poses[i], rng_);
            else
                next_.poses[i] = pop_.poses[a];
            mutate(next_.poses[i], o, s_.box, rng_);
            next_.energies[i] = f_.energy(next_.poses[i]);
        }
        // Lamarckian local search on the first `searched` individuals: the offspring are in
        // random order, and the elite (index 0) competes like the others.
        for (int i = 0; i < searched; ++i)
            localSearch(o.localSearch, f_, next_.poses[i], next_.energies[i], o, s_.box, rng_,
                        ws_);
        std::swap(pop_, next_);
        ++generation_;
        if (s_.observer && *s_.observer)
            report(generation_);
    }
    // A run whose budget or cap ran out in this step ends now, not at the next call: the
    // engine counts it as finished and its best as final.
    if (!ended_ &&
        (f_.evaluations() >= s_.evaluationBudget || generation_ >= o.maxGenerations))
        ended_ = true;
}

double LgaRun::bestEnergy() const {
    return *std::min_element(pop_.energies.begin(), pop_.energies.end());
}

DockRun LgaRun::result() const {
    const int best = static_cast<int>(
        std::min_element(pop_.energies.begin(), pop_.energies.end()) - pop_.energies.begin());
    DockRun r;
    r.run = static_cast<int>(s_.run);
    r.pose = pop_.poses[best];
    r.searchEnergy = pop_.energies[best];
    r.coordinates = s_.kinematics->coordinates(r.pose);
    r.evaluations = f_.evaluations();
    r.generations = generation_;
    return r;
}

DockRun runLga(const LgaRunSetup& setup) {
    LgaRun run(setup);
    run.advance(setup.options.maxGenerations);
    return run.result();
}

} // namespace pw::dock
