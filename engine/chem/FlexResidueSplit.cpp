#include "FlexResidueSplit.h"

#include "FlexResidueReader.h"
#include "TextFields.h"
#include "core/InputError.h"
#include "core/Element.h"

#include <cctype>
#include <cstdio>
#include <functional>

namespace pw {
namespace {

const char* kOption = "--flex-residues";

bool isBackbone(const std::string& name) {
    for (const char* b : {"N", "C", "O", "OXT", "H", "HN", "H1", "H2", "H3"})
        if (name == b)
            return true;
    return false;
}

bool isHydrogen(const Atom& a) {
    return a.element == 1;
}

// The side chain's own bonds, for its tree only (closer than 1.1 x the sum of covalent radii;
// FlexModel types the atoms later over Vina's own bond rule).
bool bonded(const Atom& a, const Atom& b) {
    const double r = 1.1 * (covalentRadius(a.element) + covalentRadius(b.element));
    return (a.position - b.position).squaredNorm() < r * r;
}

std::string atomLine(int serial, const Atom& a, const Residue& res) {
    const std::string name = a.name.size() < 4 ? " " + a.name : a.name;
    char buf[128];
    std::snprintf(buf, sizeof buf, "ATOM  %5d %-4s %3s %c%4d%c   %8.3f%8.3f%8.3f%6.2f%6.2f    %6.3f %-2s",
                  serial, name.c_str(), res.name.c_str(), res.chain, res.number, res.insertion,
                  a.position.x(), a.position.y(), a.position.z(), 1.0, 0.0, a.charge,
                  a.ad4Type.c_str());
    return buf;
}

} // namespace

std::vector<FlexResidueSpec> parseFlexResidueSpecs(const std::string& list) {
    std::vector<FlexResidueSpec> out;
    size_t start = 0;
    while (start <= list.size()) {
        size_t end = list.find(',', start);
        if (end == std::string::npos)
            end = list.size();
        const std::string item(text::trim(std::string_view(list).substr(start, end - start)));
        start = end + 1;
        if (item.empty())
            continue;
        FlexResidueSpec s;
        s.text = item;
        std::string rest = item;
        const size_t colon = item.find(':');
        if (colon != std::string::npos) {
            if (colon != 1)
                throw InputError(kOption, 0,
                                 "'" + item + "': expected CHAIN:NAMENUMBER, e.g. A:ASP86");
            s.chain = item[0];
            rest = item.substr(2);
        }
        size_t i = 0;
        while (i < rest.size() && std::isalpha(static_cast<unsigned char>(rest[i])))
            ++i;
        s.resName = rest.substr(0, i);
        for (char& c : s.resName)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        std::string num = rest.substr(i);
        if (!num.empty() && std::isalpha(static_cast<unsigned char>(num.back()))) {
            s.insertion = num.back();
            num.pop_back();
        }
        int n = 0;
        if (num.empty() || !text::toInt(num, n))
            throw InputError(kOption, 0,
                             "'" + item + "': expected CHAIN:NAMENUMBER, e.g. A:ASP86 or A:86");
        s.resSeq = n;
        out.push_back(std::move(s));
    }
    if (out.empty())
        throw InputError(kOption, 0, "no residue given; expected e.g. A:ASP86,A:LYS33");
    return out;
}

FlexSplit splitFlexResidues(const Molecule& receptor, const std::vector<FlexResidueSpec>& specs,
                            const std::string& receptorPath) {
    FlexSplit out;
    std::vector<char> leaves(receptor.atoms.size(), 0);
    std::vector<std::string> lines;
    for (const FlexResidueSpec& spec : specs) {
        int r = -1;
        for (size_t k = 0; k < receptor.residues.size() && r < 0; ++k) {
            const Residue& res = receptor.residues[k];
            if (res.chain == spec.chain && res.number == spec.resSeq &&
                res.insertion == spec.insertion &&
                (spec.resName.empty() || res.name == spec.resName))
                r = static_cast<int>(k);
        }
        if (r < 0)
            throw InputError(receptorPath, 0,
                             std::string(kOption) + " " + spec.text +
                                 ": no such residue in the receptor (expected CHAIN:NAMENUMBER "
                                 "of one of its residues)");
        const Residue& res = receptor.residues[r];
        const std::string label = res.name + " " + std::string(1, res.chain) + " " +
                                  std::to_string(res.number);
        // The side chain and CA: the residue's atoms but the backbone.
        std::vector<int> atoms;
        int ca = -1;
        for (size_t i = 0; i < receptor.atoms.size(); ++i) {
            const Atom& a = receptor.atoms[i];
            if (a.residue != r || isBackbone(a.name))
                continue;
            if (a.name == "CA")
                ca = static_cast<int>(atoms.size());
            atoms.push_back(static_cast<int>(i));
        }
        if (ca < 0)
            throw InputError(receptorPath, 0,
                             std::string(kOption) + " " + spec.text + ": " + label +
                                 " has no CA atom; expected an amino acid with its side chain");
        const int n = static_cast<int>(atoms.size());
        std::vector<std::vector<int>> adj(n);
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j)
                if (bonded(receptor.atoms[atoms[i]], receptor.atoms[atoms[j]])) {
                    adj[i].push_back(j);
                    adj[j].push_back(i);
                }
        // Atoms reached from `from` without crossing the bond (cutA, cutB).
        auto reach = [&](int from, int cutA, int cutB) {
            std::vector<char> seen(n, 0);
            std::vector<int> stack{from};
            seen[from] = 1;
            while (!stack.empty()) {
                const int u = stack.back();
                stack.pop_back();
                for (int v : adj[u]) {
                    if (seen[v] || (u == cutA && v == cutB) || (u == cutB && v == cutA))
                        continue;
                    seen[v] = 1;
                    stack.push_back(v);
                }
            }
            return seen;
        };
        const std::vector<char> connected = reach(ca, -1, -1);
        for (int i = 0; i < n; ++i)
            if (!connected[i])
                throw InputError(receptorPath, 0,
                                 std::string(kOption) + " " + spec.text + ": atom " +
                                     receptor.atoms[atoms[i]].name + " of " + label +
                                     " is not bonded to its side chain");
        // A side-chain bond turns (as prepare_flexreceptor.py takes them): between heavy atoms,
        // outside rings, not an amide or guanidinium C-N (carbon with three heavy neighbours),
        // and moving at least a heavy atom or a polar hydrogen. `parent` is the CA side.
        auto heavyDegree = [&](int i) {
            int d = 0;
            for (int j : adj[i])
                d += isHydrogen(receptor.atoms[atoms[j]]) ? 0 : 1;
            return d;
        };
        auto rotatable = [&](int parent, int child) {
            const Atom& p = receptor.atoms[atoms[parent]];
            const Atom& c = receptor.atoms[atoms[child]];
            if (isHydrogen(p) || isHydrogen(c))
                return false;
            const std::vector<char> side = reach(child, parent, child);
            if (side[parent])
                return false; // a ring bond
            bool movesSomething = false;
            for (int i = 0; i < n; ++i) {
                if (!side[i] || i == child)
                    continue;
                const Atom& a = receptor.atoms[atoms[i]];
                movesSomething = movesSomething || !isHydrogen(a) || a.ad4Type == "HD";
            }
            if (!movesSomething)
                return false;
            const bool cn = (p.element == 6 && c.element == 7) || (p.element == 7 && c.element == 6);
            if (cn && heavyDegree(p.element == 6 ? parent : child) >= 3)
                return false; // amide / guanidinium
            return true;
        };
        // The tree: ROOT is what CA reaches without a rotatable bond; each rotatable bond opens
        // a BRANCH whose first atom is its far end.
        std::string tag = res.name + " " + std::string(1, res.chain) + " " +
                          std::to_string(res.number);
        if (res.insertion != ' ')
            tag += res.insertion;
        std::vector<std::string> block{"BEGIN_RES " + tag};
        std::vector<int> serial(n, 0);
        int nextSerial = 1, branches = 0;
        std::vector<char> placed(n, 0);
        std::function<void(int, int)> writeFragment = [&](int first, int parentAtom) {
            // Flood the fragment from `first` over non-rotatable bonds (parentAtom excluded).
            std::vector<int> frag{first}, pending;
            placed[first] = 1;
            for (size_t k = 0; k < frag.size(); ++k)
                for (int v : adj[frag[k]]) {
                    if (placed[v] || v == parentAtom)
                        continue;
                    if (rotatable(frag[k], v)) {
                        pending.push_back(frag[k]);
                        pending.push_back(v);
                        continue;
                    }
                    placed[v] = 1;
                    frag.push_back(v);
                }
            for (int a : frag) {
                serial[a] = nextSerial++;
                block.push_back(atomLine(serial[a], receptor.atoms[atoms[a]], res));
            }
            if (parentAtom < 0)
                block.push_back("ENDROOT");
            for (size_t k = 0; k < pending.size(); k += 2) {
                const int u = pending[k], v = pending[k + 1];
                if (placed[v])
                    continue;
                char head[64];
                std::snprintf(head, sizeof head, "BRANCH %3d %3d", serial[u], nextSerial);
                block.push_back(head);
                const int first = nextSerial;
                ++branches;
                writeFragment(v, u);
                std::snprintf(head, sizeof head, "ENDBRANCH %3d %3d", serial[u], first);
                block.push_back(head);
            }
        };
        block.push_back("ROOT");
        writeFragment(ca, -1);
        block.push_back("END_RES " + tag);
        if (branches == 0)
            throw InputError(receptorPath, 0,
                             std::string(kOption) + " " + spec.text + ": " + label +
                                 " has no rotatable side-chain bond; a flexible residue needs one");
        for (int a : atoms)
            leaves[a] = 1;
        lines.insert(lines.end(), block.begin(), block.end());
    }
    out.pdbqt = lines;
    out.residues = parseFlexResidues(lines, receptorPath + " (" + kOption + ")");

    Molecule& rigid = out.rigid;
    rigid.name = receptor.name;
    rigid.residues = receptor.residues;
    rigid.properties = receptor.properties;
    rigid.sourceFile = receptor.sourceFile;
    std::vector<int> newIndex(receptor.atoms.size(), -1);
    for (size_t i = 0; i < receptor.atoms.size(); ++i)
        if (!leaves[i]) {
            newIndex[i] = static_cast<int>(rigid.atoms.size());
            rigid.atoms.push_back(receptor.atoms[i]);
        }
    for (const Bond& b : receptor.bonds)
        if (newIndex[b.a] >= 0 && newIndex[b.b] >= 0)
            rigid.bonds.push_back(Bond{newIndex[b.a], newIndex[b.b], b.order, b.rotatable});
    return out;
}

} // namespace pw
