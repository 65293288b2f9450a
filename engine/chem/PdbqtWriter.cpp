#include "PdbqtWriter.h"

#include "PdbWriter.h"
#include "TextFields.h"
#include "core/Element.h"

#include "core/InputError.h"

#include <cstdio>
#include <functional>
#include <sstream>
#include <unordered_map>

namespace pw {
namespace {

// Element-based AD4 type for atoms preparation did not type: hydrogens on N/O are donors (HD),
// oxygens and sulfurs acceptors (OA, SA), nitrogens acceptors unless they carry three
// neighbours or a positive charge.
std::string fallbackAd4Type(const Molecule& m, int i, const std::vector<std::vector<int>>& adj) {
    const Atom& a = m.atoms[i];
    switch (a.element) {
    case 1:
        for (int j : adj[i])
            if (m.atoms[j].element == 7 || m.atoms[j].element == 8)
                return "HD";
        return "H";
    case 6:
        return a.aromatic ? "A" : "C";
    case 7:
        return (adj[i].size() < 3 && a.formalCharge <= 0) ? "NA" : "N";
    case 8:
        return "OA";
    case 16:
        return "SA";
    default:
        return std::string(elementSymbol(a.element));
    }
}

void walk(const TorsionTree& tree, int node, std::vector<int>& order) {
    const TorsionNode& n = tree.nodes[node];
    if (node != 0 && n.axisChildAtom >= 0)
        order.push_back(n.axisChildAtom);
    for (int a : n.atoms)
        if (node == 0 || a != n.axisChildAtom)
            order.push_back(a);
    for (int c : n.children)
        walk(tree, c, order);
}

// "6 1 7 2 ..." pairs: renumbers the members at positions `which` (0 or 1 of each pair) from
// the serials as read to the serials as written; empty when one cannot be mapped.
std::string renumberPairs(const std::string& value, int which,
                          const std::unordered_map<int, int>& serialMap, bool bothSides) {
    std::vector<std::string_view> tokens;
    text::split(value, tokens);
    if (tokens.size() % 2 != 0)
        return {};
    std::string out;
    for (size_t i = 0; i < tokens.size(); ++i) {
        int v = 0;
        if (!text::toInt(tokens[i], v))
            return {};
        if (bothSides || static_cast<int>(i % 2) == which) {
            auto it = serialMap.find(v);
            if (it == serialMap.end())
                return {};
            v = it->second;
        }
        out += (out.empty() ? "" : " ") + std::to_string(v);
    }
    return out;
}

// Writes "REMARK <key> a b c ..." lines with at most 20 numbers each (Meeko's layout).
void writeNumberRemark(std::ostream& out, const std::string& key, const std::string& numbers) {
    std::vector<std::string_view> tokens;
    text::split(numbers, tokens);
    for (size_t i = 0; i < tokens.size(); i += 20) {
        out << "REMARK " << key;
        for (size_t k = i; k < std::min(i + 20, tokens.size()); ++k)
            out << ' ' << tokens[k];
        out << '\n';
    }
}

std::string oneLine(std::string s) {
    for (char& c : s)
        if (c == '\n' || c == '\r')
            c = ' ';
    return s;
}

} // namespace

std::vector<int> pdbqtAtomOrder(const Molecule& m) {
    std::vector<int> order;
    if (m.torsionTree && !m.torsionTree->nodes.empty()) {
        walk(*m.torsionTree, 0, order);
        // Every atom must sit in exactly one node, or the written file would lose or repeat it.
        std::vector<int> seen(m.atoms.size(), 0);
        for (int a : order)
            if (a < 0 || a >= static_cast<int>(m.atoms.size()) || seen[a]++)
                throw InputError(m.sourceFile, 0,
                                 "torsion tree names atom " + std::to_string(a + 1) +
                                     " twice or out of range; expected each atom in one node");
        for (size_t a = 0; a < seen.size(); ++a)
            if (!seen[a])
                throw InputError(m.sourceFile, 0,
                                 "atom " + std::to_string(a + 1) +
                                     " is in no node of the torsion tree; expected each atom in "
                                     "one node");
    } else {
        for (size_t i = 0; i < m.atoms.size(); ++i)
            order.push_back(static_cast<int>(i));
    }
    return order;
}

std::string pdbqtText(const Molecule& m) {
    std::ostringstream out;
    const std::vector<int> order = pdbqtAtomOrder(m);
    const int n = static_cast<int>(m.atoms.size());
    std::vector<int> serialOf(n, 0);
    for (size_t k = 0; k < order.size(); ++k)
        serialOf[order[k]] = static_cast<int>(k) + 1;
    const auto adj = m.neighbours();

    // Serials as read -> serials as written, for REMARKs that cite atoms by serial.
    std::unordered_map<int, int> serialMap;
    bool serialsUnique = true;
    for (int i = 0; i < n; ++i)
        if (m.atoms[i].serial == 0 || !serialMap.emplace(m.atoms[i].serial, serialOf[i]).second)
            serialsUnique = false;
    for (const auto& [key, value] : m.properties) {
        if (key == "TORSDOF")
            continue;
        if (key == "SMILES") {
            out << "REMARK SMILES " << oneLine(value) << '\n';
        } else if (key == "SMILES IDX" || key == "H PARENT") {
            std::string renumbered =
                serialsUnique ? renumberPairs(value, 1, serialMap, key == "H PARENT") : "";
            if (!renumbered.empty())
                writeNumberRemark(out, key, renumbered);
        } else {
            out << "REMARK " << oneLine(key) << ": " << oneLine(value) << '\n';
        }
    }

    char buf[64];
    auto atomLine = [&](int i) {
        const Atom& a = m.atoms[i];
        std::string type = a.ad4Type.empty() ? fallbackAd4Type(m, i, adj) : a.ad4Type;
        std::snprintf(buf, sizeof buf, "    %6.3f %-2s\n", a.charge, type.c_str());
        out << pdbAtomColumns(m, i, serialOf[i]) << buf;
    };

    if (m.torsionTree && !m.torsionTree->nodes.empty()) {
        const TorsionTree& tree = *m.torsionTree;
        std::function<void(int)> writeNode = [&](int node) {
            const TorsionNode& nd = tree.nodes[node];
            if (node == 0) {
                out << "ROOT\n";
            } else {
                std::snprintf(buf, sizeof buf, "BRANCH%4d%4d\n", serialOf[nd.axisParentAtom],
                              serialOf[nd.axisChildAtom]);
                out << buf;
                atomLine(nd.axisChildAtom);
            }
            for (int a : nd.atoms)
                if (node == 0 || a != nd.axisChildAtom)
                    atomLine(a);
            if (node == 0)
                out << "ENDROOT\n";
            for (int c : nd.children)
                writeNode(c);
            if (node != 0) {
                std::snprintf(buf, sizeof buf, "ENDBRANCH%4d%4d\n", serialOf[nd.axisParentAtom],
                              serialOf[nd.axisChildAtom]);
                out << buf;
            }
        };
        writeNode(0);
        out << "TORSDOF " << tree.torsionCount() << '\n';
    } else if (m.residues.size() <= 1) { // a small molecule (MOL2 and PDB ligands have one)
        out << "ROOT\n";
        for (int i : order)
            atomLine(i);
        out << "ENDROOT\nTORSDOF 0\n";
    } else {
        for (int i : order)
            atomLine(i);
    }
    return out.str();
}

} // namespace pw
