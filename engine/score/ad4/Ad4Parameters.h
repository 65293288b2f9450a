// Ad4Parameters: the AutoDock 4.2 force field with its AD4.1_bound parameter set, as the Debian
// autodock4/autogrid4 4.2.6 binaries use it (their built-in default, "unbound model: same as
// bound"). One entry per AutoDock 4 atom type; the free-energy coefficients weight the terms.
//
// The numbers are facts of the published force field (Huey et al. 2007, AD4.1_bound.dat), checked
// against the strings compiled into /usr/bin/autodock4 4.2.6-9.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace pw::ad4 {

// AutoDock's hydrogen-bond character of an atom type (its parameter file's column 8).
enum class HbondType : int {
    None = 0,
    DonorSpherical = 1,    // HS
    Donor1 = 2,            // HD: one directional H-bond
    AcceptorSpherical = 3, // NS, OS
    Acceptor1 = 4,         // NA
    Acceptor2 = 5,         // OA, SA
};

struct AtomParameters {
    std::string_view type; // AutoDock 4 type name: "C", "A", "OA", "HD", "Zn", ...
    double Rii;            // sum of vdW radii of two like atoms (Å)
    double epsii;          // vdW well depth (kcal/mol), unweighted
    double vol;            // atomic solvation volume (Å^3)
    double solpar;         // atomic solvation parameter
    double Rij_hb;         // H-bond equilibrium distance (Å); 0 unless an acceptor
    double epsij_hb;       // H-bond well depth (kcal/mol), unweighted
    HbondType hbond;
    int bondIndex;         // covalent-radius class AutoDock uses to find bonds (0 C .. 6 S)

    bool isDonor() const { return hbond == HbondType::Donor1 || hbond == HbondType::DonorSpherical; }
    bool isAcceptor() const {
        return hbond == HbondType::Acceptor1 || hbond == HbondType::Acceptor2 ||
               hbond == HbondType::AcceptorSpherical;
    }
};

// Free-energy model coefficients (AD4.1_bound FE_coeff_*).
struct FreeEnergyCoefficients {
    double vdW;
    double hbond;
    double estat;
    double desolv;
    double tors;
};

const FreeEnergyCoefficients& boundCoefficients();

// Every AD4.1_bound atom type, in the parameter file's order.
std::span<const AtomParameters> parameterTable();

// Lookup by exact type name (case-sensitive, as AutoDock: "Zn" and "ZN" are both listed).
// Returns nullptr for a type the force field does not know.
const AtomParameters* findParameters(std::string_view type);

// Lookup that throws pw::InputError("", 0, "unknown AutoDock 4 atom type 'X' (known: ...)").
const AtomParameters& parameters(std::string_view type);

// Constants of the AutoDock 4.2 energy model (autodock4 4.2.6 main.cc / constants.h values).
inline constexpr double kElecScale = 332.06363;      // kcal/mol * Å / e^2 (Coulomb constant)
inline constexpr double kDesolvSigma = 3.6;          // Å, width of the desolvation Gaussian
inline constexpr double kQSolPar = 0.01097;          // charge-dependent solvation parameter
inline constexpr double kNonbondCutoff = 8.0;        // Å, vdW/H-bond cutoff of the internal energy
inline constexpr double kEnergyClamp = 100000.0;     // kcal/mol, pair-energy ceiling (EINTCLAMP)
inline constexpr double kSmoothWidth = 0.5;          // Å, default `smooth` of autodock4/autogrid4
inline constexpr double kMinElecDistance = 0.5;      // Å, closer pairs are evaluated at this distance

} // namespace pw::ad4
