#include "DockSettings.h"

#include <algorithm>

namespace pw {

dock::DockOptions DockSettings::options(int threads) const {
    dock::DockOptions o;
    o.threads = threads;
    o.runs = std::max(runs, 1);
    o.seed = seed;
    o.scoring = scoring;
    if (quick) {
        o.lga.populationSize = kQuickPopulation;
        o.lga.localSearchIterations = kQuickLocalSearchIterations;
        o.lga.maxEvaluations = kQuickEvaluationsPerRun;
    }
    return o;
}

QJsonObject DockSettings::toJson() const {
    return {{"scoring", QString::fromLatin1(dock::dockScoringName(scoring))},
            {"runs", runs},
            {"seed", QString::number(seed)},
            {"budget", quick ? "quick" : "full"},
            {"device", device},
            {"flexible", flexible}};
}

DockSettings DockSettings::fromJson(const QJsonObject& o) {
    DockSettings s;
    if (auto k = dock::parseDockScoring(o["scoring"].toString().toStdString()))
        s.scoring = *k;
    s.runs = std::clamp(o["runs"].toInt(s.runs), 1, 1000);
    bool ok = false;
    const std::uint64_t seed = o["seed"].toString().toULongLong(&ok);
    if (ok)
        s.seed = seed;
    s.quick = o["budget"].toString(QStringLiteral("quick")) != QLatin1String("full");
    if (const QString d = o["device"].toString(); !d.isEmpty())
        s.device = d;
    s.flexible = o["flexible"].toBool(s.flexible);
    return s;
}

} // namespace pw
