// Ad4GridLimits: the largest AutoDock 4 grid the map and GPF readers accept, checked before any
// map is allocated, so that a typo in npts or #NELEMENTS is a message, not gigabytes of zeros.
#pragma once

#include "core/InputError.h"
#include "score/ad4/Ad4Maps.h"

#include <cmath>
#include <string>

namespace pw::ad4 {

// autogrid4 itself writes at most 128 points per axis (MAX_GRID_PTS in its autogrid.h); 256^3
// points (64 MiB of floats per map) is 8 times that, and more than any docking box needs.
constexpr long long kMaxGridPoints = 256LL * 256 * 256;

// Throws InputError(file, line, ...) when npts is not positive and even on every axis, the grid
// holds more than kMaxGridPoints points, or the spacing or the centre is not a finite number.
inline void checkGridGeometry(const GridGeometry& g, const std::string& file, long line) {
    long long points = 1;
    for (int a = 0; a < 3; ++a) {
        if (g.npts[a] <= 0 || g.npts[a] % 2 != 0)
            throw InputError(file, line, "npts must be positive even numbers (autogrid's), got " +
                                             std::to_string(g.npts[a]) + " in " +
                                             std::string(1, "xyz"[a]));
        points *= g.npts[a] + 1LL;
        if (points > kMaxGridPoints)
            throw InputError(file, line,
                             "grid of " + std::to_string(g.npts[0]) + " x " +
                                 std::to_string(g.npts[1]) + " x " + std::to_string(g.npts[2]) +
                                 " intervals is larger than the " +
                                 std::to_string(kMaxGridPoints) +
                                 " points accepted (autogrid4 writes at most 127 per axis)");
    }
    if (!std::isfinite(g.spacing) || !(g.spacing > 0))
        throw InputError(file, line, "the grid spacing must be a positive number (Å)");
    if (!g.center.allFinite())
        throw InputError(file, line, "the grid centre must be three finite numbers (Å)");
}

} // namespace pw::ad4
