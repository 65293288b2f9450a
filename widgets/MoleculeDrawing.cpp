#include "MoleculeDrawing.h"

#include <algorithm>

namespace pw {

std::array<double, 6> MoleculeDrawing::bounds() const {
    std::array<double, 6> b{};
    if (atoms.empty())
        return b;
    for (int k = 0; k < 3; ++k) {
        b[2 * k] = b[2 * k + 1] = atoms.front().position[k];
    }
    for (const DrawAtom& a : atoms) {
        for (int k = 0; k < 3; ++k) {
            b[2 * k] = std::min(b[2 * k], a.position[k]);
            b[2 * k + 1] = std::max(b[2 * k + 1], a.position[k]);
        }
    }
    return b;
}

} // namespace pw
