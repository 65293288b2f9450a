// AtomTypes: the two atom-type systems docking uses, AutoDock 4 types (as in PDBQT files) and
// Vina's X-Score (XS) types, and the rules that map between them (AutoDock Vina 1.2 atom_constants.h).
#pragma once

#include <string>
#include <string_view>

namespace pw {

// Vina's XS types, in Vina's order (atom_constants.h): the scoring tables index by this value.
enum class XsType : int {
    C_H = 0, C_P, N_P, N_D, N_A, N_DA, O_P, O_D, O_A, O_DA, S_P, P_P, F_H, Cl_H, Br_H, I_H, Met_D,
    Count,
    None = -1 // hydrogens and atoms the scoring ignores
};

constexpr int kXsTypeCount = static_cast<int>(XsType::Count);

std::string_view xsTypeName(XsType t);
XsType xsTypeFromName(std::string_view name); // XsType::None when unknown

// XS properties (Vina atom_constants.h: xs_is_hydrophobic, xs_is_donor, xs_is_acceptor).
bool xsIsHydrophobic(XsType t);
bool xsIsDonor(XsType t);
bool xsIsAcceptor(XsType t);
bool xsIsHeteroatom(XsType t); // not C_H/C_P: N, O, S, P, halogens, metals

// AD4 types as written in PDBQT column 78-79 ("C", "A", "N", "NA", "OA", "HD", "SA", ...).
// Element of an AD4 type: "A" is carbon, "NA" nitrogen, "OA" oxygen, "SA" sulfur, "HD"/"HS" hydrogen.
int elementOfAd4Type(std::string_view ad4);
bool isKnownAd4Type(std::string_view ad4);
// AD4 acceptor types (NA, NS, OA, OS, SA) and donor hydrogen types (HD, HS).
bool ad4IsAcceptor(std::string_view ad4);
bool ad4IsDonorHydrogen(std::string_view ad4);

} // namespace pw
