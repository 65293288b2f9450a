#include "DockOptions.h"

#include <algorithm>
#include <cmath>

namespace pw::dock {

const char* localSearchName(LocalSearchMethod m) {
    switch (m) {
    case LocalSearchMethod::SolisWets:
        return "sw";
    case LocalSearchMethod::Adadelta:
        return "adadelta";
    case LocalSearchMethod::Bfgs:
        return "bfgs";
    }
    return "?";
}

std::optional<LocalSearchMethod> parseLocalSearch(std::string_view name) {
    if (name == "sw" || name == "solis-wets")
        return LocalSearchMethod::SolisWets;
    if (name == "ad" || name == "adadelta")
        return LocalSearchMethod::Adadelta;
    if (name == "bfgs")
        return LocalSearchMethod::Bfgs;
    return std::nullopt;
}

const char* dockScoringName(DockScoring s) {
    switch (s) {
    case DockScoring::Vina:
        return "vina";
    case DockScoring::Vinardo:
        return "vinardo";
    case DockScoring::Ad4:
        return "ad4";
    }
    return "?";
}

std::optional<DockScoring> parseDockScoring(std::string_view name) {
    if (name == "vina")
        return DockScoring::Vina;
    if (name == "vinardo")
        return DockScoring::Vinardo;
    if (name == "ad4")
        return DockScoring::Ad4;
    return std::nullopt;
}

long heuristicEvaluations(int torsions, int runs, LocalSearchMethod method, long heuristicsMax) {
    // The base estimates AutoDock-GPU fitted (host/src/performdocking: Solis-Wets needs more
    // evaluations per torsion than the gradient searches; BFGS takes ADADELTA's).
    const double n = std::max(torsions, 0);
    double e = method == LocalSearchMethod::SolisWets
                   ? 1000.0 * std::pow(2.0, 1.3 * n + 4.0)
                   : 64000.0 * std::pow(2.0, (0.5 - 0.2 * n / (20.0 + n)) * n);
    e = std::ceil(e);
    e = std::max(e, 500000.0);
    e *= 50.0 / std::max(runs, 1);
    const double cap = static_cast<double>(std::max(heuristicsMax, 1L));
    return static_cast<long>(std::ceil(e * cap / (cap + e)));
}

long evaluationBudget(const LgaOptions& options, int torsions, int runs) {
    if (options.maxEvaluations > 0)
        return options.maxEvaluations;
    const long heuristic =
        heuristicEvaluations(torsions, runs, options.localSearch, options.heuristicsMax);
    return std::max(1L, static_cast<long>(heuristic * options.budgetScale));
}

} // namespace pw::dock
