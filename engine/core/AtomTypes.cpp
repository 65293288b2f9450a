#include "AtomTypes.h"

#include "Element.h"

#include <array>

namespace pw {
namespace {

constexpr std::array<std::string_view, kXsTypeCount> kXsNames{
    "C_H", "C_P", "N_P", "N_D", "N_A", "N_DA", "O_P", "O_D", "O_A",
    "O_DA", "S_P", "P_P", "F_H", "Cl_H", "Br_H", "I_H", "Met_D"};

struct Ad4Info {
    std::string_view type;
    int element;
};
// AutoDock 4 types (AD4_parm.dat / Vina atom_constants.h ad_type names).
constexpr std::array<Ad4Info, 30> kAd4{{
    {"C", 6},   {"A", 6},   {"N", 7},   {"NA", 7},  {"NS", 7},  {"O", 8},   {"OA", 8},
    {"OS", 8},  {"S", 16},  {"SA", 16}, {"H", 1},   {"HD", 1},  {"HS", 1},  {"P", 15},
    {"F", 9},   {"Cl", 17}, {"CL", 17}, {"Br", 35}, {"BR", 35}, {"I", 53},  {"Mg", 12},
    {"Mn", 25}, {"Zn", 30}, {"Ca", 20}, {"Fe", 26}, {"Si", 14},
    // Meeko's macrocycle ring-closure carbons (core/RingClosure.h); their Gn pseudo-atoms have
    // no element (0).
    {"CG0", 6}, {"CG1", 6}, {"CG2", 6}, {"CG3", 6}}};

} // namespace

std::string_view xsTypeName(XsType t) {
    int i = static_cast<int>(t);
    if (i < 0 || i >= kXsTypeCount)
        return "None";
    return kXsNames[i];
}

XsType xsTypeFromName(std::string_view name) {
    for (int i = 0; i < kXsTypeCount; ++i)
        if (kXsNames[i] == name)
            return static_cast<XsType>(i);
    return XsType::None;
}

bool xsIsHydrophobic(XsType t) {
    return t == XsType::C_H || t == XsType::F_H || t == XsType::Cl_H || t == XsType::Br_H ||
           t == XsType::I_H;
}
bool xsIsDonor(XsType t) {
    return t == XsType::N_D || t == XsType::N_DA || t == XsType::O_D || t == XsType::O_DA ||
           t == XsType::Met_D;
}
bool xsIsAcceptor(XsType t) {
    return t == XsType::N_A || t == XsType::N_DA || t == XsType::O_A || t == XsType::O_DA;
}
bool xsIsHeteroatom(XsType t) {
    return t != XsType::C_H && t != XsType::C_P && t != XsType::None;
}

int elementOfAd4Type(std::string_view ad4) {
    for (const auto& info : kAd4)
        if (info.type == ad4)
            return info.element;
    // Unusual PDBQT types are usually a bare element symbol ("Cu", "Se", "B").
    return elementFromSymbol(ad4);
}

bool isKnownAd4Type(std::string_view ad4) { return elementOfAd4Type(ad4) != 0; }

bool ad4IsAcceptor(std::string_view ad4) {
    return ad4 == "NA" || ad4 == "NS" || ad4 == "OA" || ad4 == "OS" || ad4 == "SA";
}
bool ad4IsDonorHydrogen(std::string_view ad4) { return ad4 == "HD" || ad4 == "HS"; }

} // namespace pw
