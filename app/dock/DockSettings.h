// DockSettings: what the docking panel asks the engine for (scoring, runs, seed, budget, device),
// turned into the engine's DockOptions, and kept in the session file.
#pragma once

#include "dock/DockOptions.h"

#include <QJsonObject>
#include <QString>

#include <cstdint>

namespace pw {

struct DockSettings {
    dock::DockScoring scoring = dock::DockScoring::Vina;
    int runs = 10;
    std::uint64_t seed = 0;
    // Quick: population 50, 100 local-search iterations, 30,000 evaluations per run (the budget
    // of the CLI's 1stp test: seconds on a laptop, and it finds biotin's crystal pose). Full:
    // AutoDock-GPU's defaults (population 150, 300 iterations, its --heuristics budget).
    bool quick = true;
    QString device = QStringLiteral("cpu"); // "auto", "cpu", "cuda", "cuda:N"
    // Dock with the flexible side chains chosen for minimization (issue 18), when there are;
    // they dock on the CPU with Vina or Vinardo, whatever the device.
    bool flexible = true;

    // The local search follows the scoring as `posewright-cli dock` chooses it: BFGS for
    // Vina/Vinardo, ADADELTA for AD4 (tests/bench/RESULTS.md, the CPU reference LGA).
    dock::DockOptions options(int threads) const;

    QJsonObject toJson() const;
    // Missing or bad entries keep their defaults.
    static DockSettings fromJson(const QJsonObject& o);
};

inline constexpr long kQuickEvaluationsPerRun = 30000;
inline constexpr int kQuickPopulation = 50;
inline constexpr int kQuickLocalSearchIterations = 100;

} // namespace pw
