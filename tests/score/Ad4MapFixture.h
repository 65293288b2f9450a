// Ad4MapFixture: compares built AD4 maps point by point with autogrid's .map files (read with
// Ad4MapFiles), for the AD4 map tests.
#pragma once

#include "score/ad4/Ad4MapBuilder.h"
#include "score/ad4/Ad4MapFiles.h"

#include <QtTest>

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace pwtest {

// The tolerance: 0.01 kcal/mol, or 1e-3 relative where values are large.
inline bool withinMapTolerance(double ours, double reference) {
    return std::fabs(ours - reference) <= std::max(0.01, 1e-3 * std::fabs(reference));
}

struct MapComparison {
    long values = 0, outside = 0, exact3dp = 0;
    double worstAbs = 0;
    std::string worst;
};

// Compares map `k` of `maps` with the autogrid file at `path`.
inline void compareWithAutogrid(const pw::ad4::Ad4Maps& maps, int k, const std::string& name,
                                const std::string& path, MapComparison& c) {
    pw::ad4::Ad4Maps refMaps(maps.geometry(), maps.ligandTypes());
    pw::ad4::readMapFile(path, refMaps, k); // checks the header's grid against ours
    const auto& ref = refMaps.values(k);
    const auto& ours = maps.values(k);
    QCOMPARE(static_cast<long>(ref.size()), static_cast<long>(ours.size()));
    for (size_t i = 0; i < ref.size(); ++i) {
        ++c.values;
        const double d = std::fabs(ours[i] - ref[i]);
        if (std::round(ours[i] * 1000.0) == std::round(ref[i] * 1000.0) || d <= 0.0005001)
            ++c.exact3dp;
        if (!withinMapTolerance(ours[i], ref[i])) {
            ++c.outside;
            if (d > c.worstAbs) {
                c.worstAbs = d;
                std::ostringstream s;
                s << name << " point " << i << ": ours " << ours[i] << ", autogrid " << ref[i];
                c.worst = s.str();
            }
        }
    }
}

} // namespace pwtest
