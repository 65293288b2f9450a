#include "Element.h"

#include <array>
#include <cctype>

namespace pw {
namespace {

struct ElementData {
    const char* symbol;
    double covalentRadius; // Å, Cordero et al. 2008 (sp3 C; high-spin where two are given)
};

// Index = atomic number. Radii from Cordero et al., Dalton Trans. 2008, 2832-2838.
constexpr std::array<ElementData, 119> kElements{{
    {"?", 0.0},   {"H", 0.31},  {"He", 0.28}, {"Li", 1.28}, {"Be", 0.96}, {"B", 0.84},
    {"C", 0.76},  {"N", 0.71},  {"O", 0.66},  {"F", 0.57},  {"Ne", 0.58}, {"Na", 1.66},
    {"Mg", 1.41}, {"Al", 1.21}, {"Si", 1.11}, {"P", 1.07},  {"S", 1.05},  {"Cl", 1.02},
    {"Ar", 1.06}, {"K", 2.03},  {"Ca", 1.76}, {"Sc", 1.70}, {"Ti", 1.60}, {"V", 1.53},
    {"Cr", 1.39}, {"Mn", 1.61}, {"Fe", 1.52}, {"Co", 1.50}, {"Ni", 1.24}, {"Cu", 1.32},
    {"Zn", 1.22}, {"Ga", 1.22}, {"Ge", 1.20}, {"As", 1.19}, {"Se", 1.20}, {"Br", 1.20},
    {"Kr", 1.16}, {"Rb", 2.20}, {"Sr", 1.95}, {"Y", 1.90},  {"Zr", 1.75}, {"Nb", 1.64},
    {"Mo", 1.54}, {"Tc", 1.47}, {"Ru", 1.46}, {"Rh", 1.42}, {"Pd", 1.39}, {"Ag", 1.45},
    {"Cd", 1.44}, {"In", 1.42}, {"Sn", 1.39}, {"Sb", 1.39}, {"Te", 1.38}, {"I", 1.39},
    {"Xe", 1.40}, {"Cs", 2.44}, {"Ba", 2.15}, {"La", 2.07}, {"Ce", 2.04}, {"Pr", 2.03},
    {"Nd", 2.01}, {"Pm", 1.99}, {"Sm", 1.98}, {"Eu", 1.98}, {"Gd", 1.96}, {"Tb", 1.94},
    {"Dy", 1.92}, {"Ho", 1.92}, {"Er", 1.89}, {"Tm", 1.90}, {"Yb", 1.87}, {"Lu", 1.87},
    {"Hf", 1.75}, {"Ta", 1.70}, {"W", 1.62},  {"Re", 1.51}, {"Os", 1.44}, {"Ir", 1.41},
    {"Pt", 1.36}, {"Au", 1.36}, {"Hg", 1.32}, {"Tl", 1.45}, {"Pb", 1.46}, {"Bi", 1.48},
    {"Po", 1.40}, {"At", 1.50}, {"Rn", 1.50}, {"Fr", 2.60}, {"Ra", 2.21}, {"Ac", 2.15},
    {"Th", 2.06}, {"Pa", 2.00}, {"U", 1.96},  {"Np", 1.90}, {"Pu", 1.87}, {"Am", 1.80},
    {"Cm", 1.69},
    // No measured radii past curium: covalentRadius() answers the 1.5 Å default for these.
    {"Bk", 0.0},  {"Cf", 0.0},  {"Es", 0.0},  {"Fm", 0.0},  {"Md", 0.0},  {"No", 0.0},
    {"Lr", 0.0},  {"Rf", 0.0},  {"Db", 0.0},  {"Sg", 0.0},  {"Bh", 0.0},  {"Hs", 0.0},
    {"Mt", 0.0},  {"Ds", 0.0},  {"Rg", 0.0},  {"Cn", 0.0},  {"Nh", 0.0},  {"Fl", 0.0},
    {"Mc", 0.0},  {"Lv", 0.0},  {"Ts", 0.0},  {"Og", 0.0},
}};

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

} // namespace

int elementFromSymbol(std::string_view symbol) {
    if (symbol.empty() || symbol.size() > 2)
        return 0;
    if (equalsIgnoreCase(symbol, "D") || equalsIgnoreCase(symbol, "T"))
        return 1; // deuterium, tritium
    for (size_t z = 1; z < kElements.size(); ++z)
        if (equalsIgnoreCase(symbol, kElements[z].symbol))
            return static_cast<int>(z);
    return 0;
}

std::string_view elementSymbol(int z) {
    if (z <= 0 || z >= static_cast<int>(kElements.size()))
        return "?";
    return kElements[z].symbol;
}

double covalentRadius(int z) {
    if (z <= 0 || z >= static_cast<int>(kElements.size()) || kElements[z].covalentRadius == 0.0)
        return 1.5;
    return kElements[z].covalentRadius;
}

double bondiRadius(int z) {
    // Bondi 1964, Table I (the organic elements and halogens a ligand carries).
    switch (z) {
    case 1:
        return 1.20;
    case 6:
        return 1.70;
    case 7:
        return 1.55;
    case 8:
        return 1.52;
    case 9:
        return 1.47;
    case 14:
        return 2.10;
    case 15:
        return 1.80;
    case 16:
        return 1.80;
    case 17:
        return 1.75;
    case 34:
        return 1.90;
    case 35:
        return 1.85;
    case 53:
        return 1.98;
    default:
        return 1.70;
    }
}

bool isMetal(int z) {
    // Vina's Met_D set: everything that is not H, C, N, O, F, P, S, Cl, Br, I, Si, B, noble gas,
    // As, Se, Te, At (metals and metalloids that carry cations in receptors).
    switch (z) {
    case 0: case 1: case 2: case 5: case 6: case 7: case 8: case 9: case 10: case 14: case 15:
    case 16: case 17: case 18: case 33: case 34: case 35: case 36: case 52: case 53: case 54:
    case 85: case 86:
        return false;
    default:
        return true;
    }
}

} // namespace pw
