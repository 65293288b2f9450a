// Vina's curl (its curl.h): a positive energy e is softened to e*v/(v+e), and its derivative
// scales by (v/(v+e))^2 (returned in *scale). Used by the exact scorers of the ligand and of
// flexible side chains.
#pragma once

#include "VinaConstants.h"

namespace pw::vina {

inline double curl(double e, double* scale) {
    if (e > 0.0) {
        const double tmp = kCurlV / (kCurlV + e);
        *scale = tmp * tmp;
        return e * tmp;
    }
    *scale = 1.0;
    return e;
}

} // namespace pw::vina
