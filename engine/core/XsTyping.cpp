#include "XsTyping.h"

#include "Element.h"

#include <string_view>

namespace pw {
namespace {

// Vina's macrocycle glue types (Meeko): CG0..CG3 are carbons, G0..G3 dummy atoms.
bool isClosureCarbon(std::string_view ad4) {
    return ad4.size() == 3 && ad4[0] == 'C' && ad4[1] == 'G' && ad4[2] >= '0' && ad4[2] <= '3';
}
bool isGlueDummy(std::string_view ad4) {
    return ad4.size() == 2 && ad4[0] == 'G' && ad4[1] >= '0' && ad4[1] <= '3';
}

// The element Vina works with: from the AD4 type when there is one (Vina reads only column 78),
// "Se" counted as sulfur (Vina's atom_equivalence_data), closure carbons as carbon.
int vinaElement(const Atom& a) {
    if (a.ad4Type.empty())
        return a.element;
    if (isClosureCarbon(a.ad4Type))
        return 6;
    if (isGlueDummy(a.ad4Type))
        return 0;
    int z = elementOfAd4Type(a.ad4Type);
    if (z == 34)
        return 16;
    return z;
}

bool isHydrogen(const Atom& a) {
    return vinaElement(a) == 1;
}

// Vina's atom_type::is_heteroatom: every typed atom except carbon and hydrogen, metals included;
// the glue atoms of macrocycles count (ad_is_heteroatom is true for G0..G3 and CG0..CG3).
bool isHeteroatom(const Atom& a) {
    if (isGlueDummy(a.ad4Type) || isClosureCarbon(a.ad4Type))
        return true;
    int z = vinaElement(a);
    return z != 0 && z != 1 && z != 6;
}

// Acceptor N/O by AD4 type. Vina tests exactly NA and OA ("X-Score apparently ignores SA");
// NS/OS are the AD4.1 spellings of the same acceptors. Without an AD4 type, an oxygen is taken
// as an acceptor (every oxygen in a prepared ligand is OA) and a nitrogen is not.
bool isAcceptor(const Atom& a, int z) {
    if (a.ad4Type.empty())
        return z == 8;
    return a.ad4Type == "NA" || a.ad4Type == "OA" || a.ad4Type == "NS" || a.ad4Type == "OS";
}

// Donor hydrogen: AD4 HD (HS in AD4.1); without AD4 types any hydrogen on N/O.
bool isDonorHydrogen(const Atom& h) {
    if (h.ad4Type.empty())
        return h.element == 1;
    return ad4IsDonorHydrogen(h.ad4Type);
}

XsType typeOf(const Molecule& m, int i, const std::vector<int>& nbrs) {
    const Atom& a = m.atoms[i];
    const int z = vinaElement(a);
    bool bondedToDonorH = false;
    bool bondedToHetero = false;
    for (int j : nbrs) {
        const Atom& b = m.atoms[j];
        bondedToDonorH = bondedToDonorH || isDonorHydrogen(b);
        bondedToHetero = bondedToHetero || isHeteroatom(b);
    }
    switch (z) {
    case 0:
    case 1:
        return XsType::None;
    case 6:
        return bondedToHetero ? XsType::C_P : XsType::C_H;
    case 7:
    case 8: {
        const bool acc = isAcceptor(a, z);
        const bool don = bondedToDonorH;
        if (z == 7)
            return acc && don ? XsType::N_DA : acc ? XsType::N_A : don ? XsType::N_D : XsType::N_P;
        return acc && don ? XsType::O_DA : acc ? XsType::O_A : don ? XsType::O_D : XsType::O_P;
    }
    case 16:
        return XsType::S_P;
    case 15:
        return XsType::P_P;
    case 9:
        return XsType::F_H;
    case 17:
        return XsType::Cl_H;
    case 35:
        return XsType::Br_H;
    case 53:
        return XsType::I_H;
    default:
        // Vina 1.2 also has Si and At types; they carry no XS type here (ignored by scoring).
        return isMetal(z) ? XsType::Met_D : XsType::None;
    }
}

} // namespace

void assignXsTypes(Molecule& m) {
    std::vector<std::vector<int>> adjacency(m.atoms.size());
    for (const Bond& b : m.bonds) {
        if (b.a < 0 || b.b < 0 || b.a >= static_cast<int>(m.atoms.size()) ||
            b.b >= static_cast<int>(m.atoms.size()))
            continue;
        adjacency[b.a].push_back(b.b);
        adjacency[b.b].push_back(b.a);
    }
    assignXsTypes(m, adjacency);
}

void assignXsTypes(Molecule& m, const std::vector<std::vector<int>>& adjacency) {
    for (size_t i = 0; i < m.atoms.size(); ++i) {
        static const std::vector<int> kNone;
        const std::vector<int>& nbrs = i < adjacency.size() ? adjacency[i] : kNone;
        m.atoms[i].xs =
            isHydrogen(m.atoms[i]) ? XsType::None : typeOf(m, static_cast<int>(i), nbrs);
    }
}

} // namespace pw
