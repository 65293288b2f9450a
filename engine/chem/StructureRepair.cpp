#include "StructureRepair.h"

#include "core/Element.h"
#include "core/InputError.h"
#include "core/Rings.h"

#include <algorithm>
#include <cmath>

namespace pw {
namespace {

double bondValence(BondOrder o) {
    return o == BondOrder::Aromatic ? 1.5 : static_cast<double>(static_cast<int>(o));
}

// Bond-order sums, degrees and "has an aromatic bond" per atom, kept current as bonds change.
struct Valences {
    std::vector<double> sum;
    std::vector<int> degree;
    std::vector<bool> aromaticBond;
    explicit Valences(const Molecule& m)
        : sum(m.atoms.size(), 0.0), degree(m.atoms.size(), 0),
          aromaticBond(m.atoms.size(), false) {
        for (const Bond& b : m.bonds)
            for (int i : {b.a, b.b}) {
                sum[i] += bondValence(b.order);
                ++degree[i];
                aromaticBond[i] = aromaticBond[i] || b.order == BondOrder::Aromatic;
            }
    }
};

// Names a list of atoms ("N atom 38", "O atoms 20, 34"), at most five numbers.
std::string atomList(const Molecule& m, const std::vector<int>& atoms) {
    std::string s = std::string(elementSymbol(m.atoms[atoms.front()].element)) +
                    (atoms.size() == 1 ? " atom " : " atoms ");
    for (size_t k = 0; k < atoms.size() && k < 5; ++k)
        s += (k ? ", " : "") + std::to_string(atoms[k] + 1);
    if (atoms.size() > 5)
        s += ", ...";
    return s;
}

// Groups atoms by element for messages ("N atoms 3, 9; O atom 12").
std::string atomsByElement(const Molecule& m, std::vector<int> atoms) {
    std::stable_sort(atoms.begin(), atoms.end(), [&](int x, int y) {
        return m.atoms[x].element < m.atoms[y].element;
    });
    std::string s;
    for (size_t i = 0; i < atoms.size();) {
        size_t j = i;
        while (j < atoms.size() && m.atoms[atoms[j]].element == m.atoms[atoms[i]].element)
            ++j;
        s += (s.empty() ? "" : "; ") +
             atomList(m, std::vector<int>(atoms.begin() + i, atoms.begin() + j));
        i = j;
    }
    return s;
}

bool isTerminalOxygen(const Molecule& m, const Valences& v, int i) {
    return m.atoms[i].element == 8 && v.degree[i] == 1;
}

// How many bonds (valence) a centre atom needs, given the terminal oxygens it reaches across
// mended bonds (a nitro N is N+, sulfonate S and phosphate P are hypervalent).
double targetValence(const Molecule& m, const Valences& v, int c, int mendedOxygens) {
    const Atom& a = m.atoms[c];
    switch (a.element) {
    case 6:
        return 4 - std::abs(a.formalCharge);
    case 7:
        return a.formalCharge == 1 || mendedOxygens >= 2 ? 4 : 3;
    case 15:
        return mendedOxygens >= 2 || v.sum[c] > 3 ? 5 : 3;
    case 16:
        return mendedOxygens >= 3 || v.sum[c] > 4 ? 6 : mendedOxygens == 2 || v.sum[c] > 2 ? 4 : 2;
    default:
        return v.sum[c]; // not a centre we mend
    }
}

// Preference for taking a centre's new double bond (higher first); 0 = cannot take one.
int doubleBondPreference(const Molecule& m, const Valences& v, int n) {
    const Atom& a = m.atoms[n];
    if (a.element == 8 && a.formalCharge == 0 && v.sum[n] < 1.5)
        return 3;
    if (a.element == 7 && a.formalCharge == 1 && v.sum[n] < 3.5)
        return 2;
    if (a.element == 7 && a.formalCharge == 0 && v.sum[n] < 3.5)
        return 1;
    return 0;
}

// Aromatic bonds outside rings become single bonds plus what the valences then require.
void mendChainAromatics(Molecule& m, std::vector<std::string>& changes) {
    bool any = std::any_of(m.bonds.begin(), m.bonds.end(),
                           [](const Bond& b) { return b.order == BondOrder::Aromatic; }) ||
               std::any_of(m.atoms.begin(), m.atoms.end(),
                           [](const Atom& a) { return a.aromatic; });
    if (!any)
        return;
    const RingMembership rings = findRingMembership(m);
    std::vector<int> mended; // bond indices
    for (size_t k = 0; k < m.bonds.size(); ++k)
        if (m.bonds[k].order == BondOrder::Aromatic && !rings.bondInRing[k]) {
            m.bonds[k].order = BondOrder::Single;
            mended.push_back(static_cast<int>(k));
        }
    std::vector<int> unflagged;
    for (size_t i = 0; i < m.atoms.size(); ++i)
        if (m.atoms[i].aromatic && !rings.atomInRing[i]) {
            m.atoms[i].aromatic = false;
            unflagged.push_back(static_cast<int>(i));
        }
    if (mended.empty() && unflagged.empty())
        return;
    if (!mended.empty())
        changes.push_back("made " + std::to_string(mended.size()) + " aromatic bond" +
                          (mended.size() == 1 ? "" : "s") + " outside rings single");
    if (!unflagged.empty())
        changes.push_back("cleared the aromatic flag of " + atomsByElement(m, unflagged) +
                          " (not in a ring)");

    Valences v(m);
    std::vector<std::vector<int>> across(m.atoms.size()); // mended bonds per atom
    for (int k : mended) {
        across[m.bonds[k].a].push_back(k);
        across[m.bonds[k].b].push_back(k);
    }
    std::vector<std::string> doubled;
    // Centres: atoms with a mended bond that are not terminal oxygens, most mended bonds first
    // (the carbon of a carboxylate before anything else touching it).
    std::vector<int> centres;
    for (size_t i = 0; i < m.atoms.size(); ++i)
        if (!across[i].empty() && !isTerminalOxygen(m, v, static_cast<int>(i)))
            centres.push_back(static_cast<int>(i));
    std::stable_sort(centres.begin(), centres.end(),
                     [&](int x, int y) { return across[x].size() > across[y].size(); });
    for (int c : centres) {
        int oxygens = 0;
        for (int k : across[c]) {
            const int n = m.bonds[k].a == c ? m.bonds[k].b : m.bonds[k].a;
            oxygens += isTerminalOxygen(m, v, n);
        }
        while (v.sum[c] + 1 <= targetValence(m, v, c, oxygens) + 1e-6) {
            int best = -1, bestPreference = 0;
            for (int k : across[c]) {
                if (m.bonds[k].order != BondOrder::Single)
                    continue;
                const int n = m.bonds[k].a == c ? m.bonds[k].b : m.bonds[k].a;
                const int p = doubleBondPreference(m, v, n);
                if (p > bestPreference) {
                    best = k;
                    bestPreference = p;
                }
            }
            if (best < 0)
                break;
            Bond& b = m.bonds[best];
            b.order = BondOrder::Double;
            v.sum[b.a] += 1;
            v.sum[b.b] += 1;
            doubled.push_back(std::to_string(b.a + 1) + "=" + std::to_string(b.b + 1));
        }
    }
    // Conjugated chains written aromatic (SMILES "C=Cc" as "ccc", a C.ar chain): atoms still
    // short of a bond pair up across mended bonds, in file order, as a Kekule structure would.
    // Each atom takes at most one double bond (its hydrogens may be implicit, as in SMILES).
    std::vector<bool> multiple(m.atoms.size(), false);
    for (const Bond& b : m.bonds)
        if (b.order == BondOrder::Double || b.order == BondOrder::Triple)
            multiple[b.a] = multiple[b.b] = true;
    auto shortOfABond = [&](int i) {
        const Atom& a = m.atoms[i];
        return (a.element == 6 || a.element == 7) && a.formalCharge == 0 && !multiple[i] &&
               v.sum[i] + 1 <= targetValence(m, v, i, 0) + 1e-6;
    };
    for (int k : mended) {
        Bond& b = m.bonds[k];
        if (b.order == BondOrder::Single && shortOfABond(b.a) && shortOfABond(b.b)) {
            b.order = BondOrder::Double;
            multiple[b.a] = multiple[b.b] = true;
            v.sum[b.a] += 1;
            v.sum[b.b] += 1;
            doubled.push_back(std::to_string(b.a + 1) + "=" + std::to_string(b.b + 1));
        }
    }
    if (!doubled.empty()) {
        std::string s = "made bond" + std::string(doubled.size() == 1 ? " " : "s ");
        for (size_t k = 0; k < doubled.size() && k < 5; ++k)
            s += (k ? ", " : "") + doubled[k];
        if (doubled.size() > 5)
            s += ", ... (" + std::to_string(doubled.size()) + " in all)";
        changes.push_back(s + " double");
    }
    // Terminal oxygens left with one bond across a mended bond are the anions of the group.
    std::vector<int> anions;
    for (size_t i = 0; i < m.atoms.size(); ++i) {
        const int n = static_cast<int>(i);
        if (!across[i].empty() && isTerminalOxygen(m, v, n) && m.atoms[i].formalCharge == 0 &&
            v.sum[i] < 1.5) {
            m.atoms[i].formalCharge = -1;
            anions.push_back(n);
        }
    }
    if (!anions.empty())
        changes.push_back("charged " + atomList(m, anions) + " -1");
}

// Four-valent neutral nitrogens become N+; a terminal N double-bonded to one becomes N-.
void chargeNitrogens(Molecule& m, std::vector<std::string>& changes) {
    Valences v(m);
    std::vector<int> cations;
    for (size_t i = 0; i < m.atoms.size(); ++i) {
        const Atom& a = m.atoms[i];
        if (a.element == 7 && a.formalCharge == 0 && !v.aromaticBond[i] &&
            std::abs(v.sum[i] - 4.0) < 1e-6)
            cations.push_back(static_cast<int>(i));
    }
    if (cations.empty())
        return;
    for (int i : cations)
        m.atoms[i].formalCharge = 1;
    changes.push_back("charged " + atomList(m, cations) + " +1 (four bonds, no charge given)");
    std::vector<int> anions;
    for (const Bond& b : m.bonds) {
        if (b.order != BondOrder::Double)
            continue;
        for (auto [cation, end] : {std::pair{b.a, b.b}, std::pair{b.b, b.a}}) {
            const Atom& e = m.atoms[end];
            if (std::find(cations.begin(), cations.end(), cation) != cations.end() &&
                e.element == 7 && e.formalCharge == 0 && v.degree[end] == 1) {
                m.atoms[end].formalCharge = -1;
                anions.push_back(end);
            }
        }
    }
    if (!anions.empty())
        changes.push_back("charged " + atomList(m, anions) + " -1 (end of an azide or diazo group)");
}

} // namespace

std::vector<std::string> repairStructure(Molecule& m) {
    std::vector<std::string> changes;
    for (const Bond& b : m.bonds) // a reader's bad bond is its own error, not ours to mend
        if (b.a < 0 || b.b < 0 || b.a >= static_cast<int>(m.atoms.size()) ||
            b.b >= static_cast<int>(m.atoms.size()))
            return changes;
    mendChainAromatics(m, changes);
    chargeNitrogens(m, changes);
    return changes;
}

std::string repairWarning(const std::string& file, long line, const Molecule& m,
                          const std::vector<std::string>& changes) {
    std::string s = (m.name.empty() ? std::string("molecule") : "molecule '" + m.name + "'") +
                    " was repaired as Open Babel reads it: ";
    for (size_t k = 0; k < changes.size(); ++k)
        s += (k ? "; " : "") + changes[k];
    return InputError::format(file, line, s);
}

} // namespace pw
