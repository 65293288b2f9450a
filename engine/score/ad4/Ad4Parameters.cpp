#include "score/ad4/Ad4Parameters.h"

#include "core/InputError.h"

#include <array>

namespace pw::ad4 {

namespace {

using H = HbondType;

// AD4.1_bound: type, Rii, epsii, vol, solpar, Rij_hb, epsij_hb, hbond, bond index.
constexpr std::array kTable = {
    AtomParameters{"H", 2.00, 0.020, 0.0000, 0.00051, 0.0, 0.0, H::None, 3},
    AtomParameters{"HD", 2.00, 0.020, 0.0000, 0.00051, 0.0, 0.0, H::Donor1, 3},
    AtomParameters{"HS", 2.00, 0.020, 0.0000, 0.00051, 0.0, 0.0, H::DonorSpherical, 3},
    AtomParameters{"C", 4.00, 0.150, 33.5103, -0.00143, 0.0, 0.0, H::None, 0},
    AtomParameters{"A", 4.00, 0.150, 33.5103, -0.00052, 0.0, 0.0, H::None, 0},
    AtomParameters{"N", 3.50, 0.160, 22.4493, -0.00162, 0.0, 0.0, H::None, 1},
    AtomParameters{"NA", 3.50, 0.160, 22.4493, -0.00162, 1.9, 5.0, H::Acceptor1, 1},
    AtomParameters{"NS", 3.50, 0.160, 22.4493, -0.00162, 1.9, 5.0, H::AcceptorSpherical, 1},
    AtomParameters{"OA", 3.20, 0.200, 17.1573, -0.00251, 1.9, 5.0, H::Acceptor2, 2},
    AtomParameters{"OS", 3.20, 0.200, 17.1573, -0.00251, 1.9, 5.0, H::AcceptorSpherical, 2},
    AtomParameters{"F", 3.09, 0.080, 15.4480, -0.00110, 0.0, 0.0, H::None, 4},
    AtomParameters{"Mg", 1.30, 0.875, 1.5600, -0.00110, 0.0, 0.0, H::None, 4},
    AtomParameters{"MG", 1.30, 0.875, 1.5600, -0.00110, 0.0, 0.0, H::None, 4},
    AtomParameters{"P", 4.20, 0.200, 38.7924, -0.00110, 0.0, 0.0, H::None, 5},
    AtomParameters{"SA", 4.00, 0.200, 33.5103, -0.00214, 2.5, 1.0, H::Acceptor2, 6},
    AtomParameters{"S", 4.00, 0.200, 33.5103, -0.00214, 0.0, 0.0, H::None, 6},
    AtomParameters{"Cl", 4.09, 0.276, 35.8235, -0.00110, 0.0, 0.0, H::None, 4},
    AtomParameters{"CL", 4.09, 0.276, 35.8235, -0.00110, 0.0, 0.0, H::None, 4},
    AtomParameters{"Ca", 1.98, 0.550, 2.7700, -0.00110, 0.0, 0.0, H::None, 4},
    AtomParameters{"CA", 1.98, 0.550, 2.7700, -0.00110, 0.0, 0.0, H::None, 4},
    AtomParameters{"Mn", 1.30, 0.875, 2.1400, -0.00110, 0.0, 0.0, H::None, 4},
    AtomParameters{"MN", 1.30, 0.875, 2.1400, -0.00110, 0.0, 0.0, H::None, 4},
    AtomParameters{"Fe", 1.30, 0.010, 1.8400, -0.00110, 0.0, 0.0, H::None, 4},
    AtomParameters{"FE", 1.30, 0.010, 1.8400, -0.00110, 0.0, 0.0, H::None, 4},
    AtomParameters{"Zn", 1.48, 0.550, 1.7000, -0.00110, 0.0, 0.0, H::None, 4},
    AtomParameters{"ZN", 1.48, 0.550, 1.7000, -0.00110, 0.0, 0.0, H::None, 4},
    AtomParameters{"Br", 4.33, 0.389, 42.5661, -0.00110, 0.0, 0.0, H::None, 4},
    AtomParameters{"BR", 4.33, 0.389, 42.5661, -0.00110, 0.0, 0.0, H::None, 4},
    AtomParameters{"I", 4.72, 0.550, 55.0585, -0.00110, 0.0, 0.0, H::None, 4},
    AtomParameters{"Z", 4.00, 0.150, 33.5103, -0.00143, 0.0, 0.0, H::None, 0},
    AtomParameters{"G", 4.00, 0.150, 33.5103, -0.00143, 0.0, 0.0, H::None, 0},
    AtomParameters{"GA", 4.00, 0.150, 33.5103, -0.00052, 0.0, 0.0, H::None, 0},
    AtomParameters{"J", 4.00, 0.150, 33.5103, -0.00143, 0.0, 0.0, H::None, 0},
    AtomParameters{"Q", 4.00, 0.150, 33.5103, -0.00143, 0.0, 0.0, H::None, 0},
};

constexpr FreeEnergyCoefficients kBound{0.1662, 0.1209, 0.1406, 0.1322, 0.2983};

} // namespace

const FreeEnergyCoefficients& boundCoefficients() { return kBound; }

std::span<const AtomParameters> parameterTable() { return kTable; }

const AtomParameters* findParameters(std::string_view type) {
    for (const AtomParameters& p : kTable)
        if (p.type == type)
            return &p;
    return nullptr;
}

const AtomParameters& parameters(std::string_view type) {
    if (const AtomParameters* p = findParameters(type))
        return *p;
    std::string known;
    for (const AtomParameters& p : kTable)
        known.append(known.empty() ? "" : " ").append(p.type);
    throw InputError("", 0,
                     "unknown AutoDock 4 atom type '" + std::string(type) +
                         "' (AD4.1_bound knows: " + known + ")");
}

} // namespace pw::ad4
