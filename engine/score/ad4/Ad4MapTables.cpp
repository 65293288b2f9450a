#include "score/ad4/Ad4MapTables.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

namespace pw::ad4 {

namespace {

double tableDistance(int index) {
    return static_cast<double>(index) / kMapTableDivisions;
}

} // namespace

std::vector<double> mapPairTable(const AtomParameters& map, const AtomParameters& receptor,
                                 double smooth, const FreeEnergyCoefficients& fe) {
    const PairCoefficients c = pairCoefficients(map, receptor, fe);
    std::vector<double> raw(kMapPairTableSize);
    raw[0] = kEnergyClamp;
    for (int i = 1; i < kMapPairTableSize; ++i)
        raw[i] = pairEnergy(c, tableDistance(i));
    raw[kMapPairTableSize - 1] = 0.0;
    // autogrid's window is a whole number of samples either side: (int)(smooth * 100 / 2).
    const int half = static_cast<int>(smooth * kMapTableDivisions / 2.0);
    if (half <= 0)
        return raw;
    return smoothWithWindowMinimum(
        raw, 2.0 * half / kMapTableDivisions, tableDistance,
        [](double r) { return static_cast<int>(std::lround(r * kMapTableDivisions)); });
}

std::vector<double> cachedMapPairTable(const AtomParameters& map, const AtomParameters& receptor,
                                       double smooth, const FreeEnergyCoefficients& fe) {
    using Key = std::tuple<std::string, std::string, double, double, double>;
    static std::mutex mutex;
    static std::map<Key, std::vector<double>> tables;
    const Key key{std::string(map.type), std::string(receptor.type), smooth, fe.vdW, fe.hbond};
    {
        std::lock_guard lock(mutex);
        if (auto it = tables.find(key); it != tables.end())
            return it->second;
    }
    std::vector<double> t = mapPairTable(map, receptor, smooth, fe);
    std::lock_guard lock(mutex);
    tables.emplace(key, t);
    return t;
}

std::vector<double> mapDesolvationTable(const FreeEnergyCoefficients& fe) {
    std::vector<double> t(kMapLongTableSize, 0.0);
    for (int i = 1; i < kMapLongTableSize; ++i)
        t[i] = fe.desolv * desolvationGaussian(tableDistance(i));
    return t;
}

std::vector<double> mapInverseDielectricTable(bool distanceDependent, double constant) {
    std::vector<double> t(kMapLongTableSize);
    if (!distanceDependent) {
        const double diel = constant <= kMapApproxZero ? 40.0 : constant;
        std::fill(t.begin(), t.end(), kMapCoulombFactor / diel);
        return t;
    }
    t[0] = kMapCoulombFactor; // eps(0) = 1
    for (int i = 1; i < kMapLongTableSize; ++i)
        t[i] = kMapCoulombFactor / mehlerSolmajerDielectric(tableDistance(i));
    return t;
}

} // namespace pw::ad4
