#include "PdbWriter.h"

#include "core/Element.h"

#include <cstdio>
#include <vector>

namespace pw {
namespace {

// PDB atom names: up to three characters start in column 14 (" CA "), four fill 13-16; a
// two-letter element starts in column 13 ("FE  ") so that the name still says the element.
std::string alignedName(const Atom& a, int index) {
    std::string name = a.name;
    if (name.empty())
        name = std::string(a.element ? elementSymbol(a.element) : "X") + std::to_string(index + 1);
    if (name.size() > 4)
        name.resize(4);
    if (name.size() < 4 && elementSymbol(a.element).size() < 2)
        name = " " + name;
    name.resize(4, ' ');
    return name;
}

} // namespace

std::string pdbAtomColumns(const Molecule& m, int i, int serial) {
    const Atom& a = m.atoms[i];
    const Residue* r = a.residue >= 0 && a.residue < static_cast<int>(m.residues.size())
                           ? &m.residues[a.residue]
                           : nullptr;
    std::string resName = r ? r->name.substr(0, 3) : "UNL";
    char buf[96];
    std::snprintf(buf, sizeof buf, "%-6s%5d %4s %3s %c%4d%c   %8.3f%8.3f%8.3f%6.2f%6.2f",
                  (r && !r->hetero) ? "ATOM" : "HETATM", serial % 100000, alignedName(a, i).c_str(),
                  resName.c_str(), r ? r->chain : ' ', r ? r->number % 10000 : 1,
                  r ? r->insertion : ' ', a.position.x(), a.position.y(), a.position.z(), 1.0, 0.0);
    return buf;
}

void writePdbRecord(std::ostream& out, const Molecule& m, int model) {
    char buf[96];
    if (model > 0) {
        std::snprintf(buf, sizeof buf, "MODEL     %4d\n", model);
        out << buf;
    }
    if (!m.name.empty() && model <= 1) {
        std::string name = m.name.substr(0, 70);
        for (char& c : name)
            if (c == '\n' || c == '\r')
                c = ' ';
        out << "COMPND    " << name << '\n';
    }
    const int n = static_cast<int>(m.atoms.size());
    for (int i = 0; i < n; ++i) {
        const Atom& a = m.atoms[i];
        std::string charge;
        if (a.formalCharge != 0 && a.formalCharge >= -9 && a.formalCharge <= 9)
            charge = std::to_string(std::abs(a.formalCharge)) + (a.formalCharge > 0 ? "+" : "-");
        std::snprintf(buf, sizeof buf, "          %2s%-2s\n",
                      a.element ? std::string(elementSymbol(a.element)).c_str() : "X",
                      charge.c_str());
        out << pdbAtomColumns(m, i, i + 1) << buf;
    }
    // CONECT for hetero groups and residue-less molecules (standard residues' bonds are
    // implied by their templates), one line per atom with up to four partners per line.
    auto hetero = [&](int i) {
        int r = m.atoms[i].residue;
        return r < 0 || r >= static_cast<int>(m.residues.size()) || m.residues[r].hetero;
    };
    std::vector<std::vector<int>> partners(n);
    for (const Bond& b : m.bonds)
        if (hetero(b.a) || hetero(b.b)) {
            partners[b.a].push_back(b.b);
            partners[b.b].push_back(b.a);
        }
    for (int i = 0; i < n; ++i)
        for (size_t k = 0; k < partners[i].size(); k += 4) {
            std::snprintf(buf, sizeof buf, "CONECT%5d", (i + 1) % 100000);
            out << buf;
            for (size_t j = k; j < std::min(k + 4, partners[i].size()); ++j) {
                std::snprintf(buf, sizeof buf, "%5d", (partners[i][j] + 1) % 100000);
                out << buf;
            }
            out << '\n';
        }
    out << (model > 0 ? "ENDMDL\n" : "");
}

} // namespace pw
