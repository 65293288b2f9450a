#include "FlexResidueReader.h"

#include "MoleculeReader.h"
#include "PdbqtReader.h"
#include "TextFields.h"
#include "core/InputError.h"

#include <cctype>
#include <fstream>
#include <sstream>

namespace pw {
namespace {

// BEGIN_RES / END_RES carry "NAME CHAIN NUMBER" (the chain may be blank).
bool parseResidueTag(std::string_view rest, FlexResidue& r) {
    std::vector<std::string_view> tok;
    text::split(rest, tok);
    if (tok.size() != 2 && tok.size() != 3)
        return false;
    r.resName.assign(tok[0]);
    r.chain = tok.size() == 3 ? (tok[1].size() == 1 ? tok[1][0] : '\0') : ' ';
    if (r.chain == '\0')
        return false;
    std::string_view num = tok.back();
    if (!num.empty() && std::isalpha(static_cast<unsigned char>(num.back()))) {
        r.insertion = num.back();
        num.remove_suffix(1);
    }
    int n = 0;
    if (!text::toInt(num, n))
        return false;
    r.resSeq = n;
    return true;
}

// The atoms of one block read by the PDBQT reader: the lines before the block are blank, so its
// messages name the lines of the --flex file itself.
Molecule readBlock(const std::vector<std::string>& lines, size_t begin, size_t end,
                   const std::string& path) {
    std::string textBlock(begin + 1, '\n');
    for (size_t i = begin + 1; i < end; ++i)
        textBlock.append(lines[i]).append("\n");
    auto reader = MoleculeReader::fromStream(std::make_unique<std::istringstream>(textBlock),
                                             FileFormat::Pdbqt, path);
    Molecule m;
    if (!reader->next(m))
        throw InputError(path, static_cast<long>(begin + 1),
                         "BEGIN_RES block without atoms; expected ROOT, the residue's atoms and "
                         "its BRANCH records before END_RES");
    return m;
}

} // namespace

std::vector<FlexResidue> readFlexResidues(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        throw InputError(path, 0, "cannot open the flexible residue file (--flex)");
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);)
        lines.push_back(std::move(l));
    return parseFlexResidues(lines, path);
}

std::vector<FlexResidue> parseFlexResidues(const std::vector<std::string>& lines,
                                           const std::string& path) {
    std::vector<FlexResidue> out;
    long open = -1; // 0-based line of the open BEGIN_RES
    FlexResidue current;
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string_view line = lines[i];
        const long lineNo = static_cast<long>(i + 1);
        if (text::startsWith(line, "BEGIN_RES")) {
            if (open >= 0)
                throw InputError(path, lineNo,
                                 "BEGIN_RES inside the block of " + current.label() +
                                     " (line " + std::to_string(open + 1) +
                                     "); expected END_RES first");
            current = FlexResidue{};
            if (!parseResidueTag(line.substr(9), current))
                throw InputError(path, lineNo,
                                 "expected 'BEGIN_RES NAME CHAIN NUMBER' (e.g. BEGIN_RES THR A "
                                 "315), found '" + std::string(text::trim(line)) + "'");
            current.sourceFile = path;
            current.line = lineNo;
            open = static_cast<long>(i);
        } else if (text::startsWith(line, "END_RES")) {
            if (open < 0)
                throw InputError(path, lineNo, "END_RES without BEGIN_RES");
            FlexResidue tag;
            if (!parseResidueTag(line.substr(7), tag) || tag.resName != current.resName ||
                tag.chain != current.chain || tag.resSeq != current.resSeq ||
                tag.insertion != current.insertion)
                throw InputError(path, lineNo,
                                 "END_RES does not match BEGIN_RES " + current.label() +
                                     " (line " + std::to_string(open + 1) + ")");
            current.mol = readBlock(lines, static_cast<size_t>(open), i, path);
            current.mol.sourceFile = path;
            current.mol.name = current.label();
            current.blockLines.assign(lines.begin() + open, lines.begin() + i + 1);
            for (size_t k = 0; k < current.blockLines.size(); ++k)
                if (text::startsWith(current.blockLines[k], "ATOM") ||
                    text::startsWith(current.blockLines[k], "HETATM"))
                    current.atomLine.push_back(static_cast<int>(k));
            if (current.atomLine.size() != current.mol.atoms.size())
                throw InputError(path, current.line,
                                 "residue " + current.label() +
                                     ": alternate locations in a flexible residue are not "
                                     "supported; expected one line per atom");
            if (!current.mol.torsionTree)
                throw InputError(path, current.line,
                                 "residue " + current.label() +
                                     " has no ROOT; expected ROOT ... ENDROOT with the fixed "
                                     "atom (CA) and BRANCH records for its rotatable bonds");
            if (current.mol.torsionTree->torsionCount() == 0)
                throw InputError(path, current.line,
                                 "residue " + current.label() +
                                     " has no rotatable bond (no BRANCH); a flexible residue "
                                     "needs at least one (leave it in the rigid receptor)");
            for (const FlexResidue& r : out)
                if (r.chain == current.chain && r.resSeq == current.resSeq &&
                    r.insertion == current.insertion)
                    throw InputError(path, current.line,
                                     "residue " + current.label() + " is given twice (also at line " +
                                         std::to_string(r.line) + ")");
            out.push_back(std::move(current));
            open = -1;
        } else if (open < 0) {
            if (text::isBlank(line) || text::startsWith(line, "REMARK") ||
                text::startsWith(line, "USER") || text::startsWith(line, "TER") ||
                text::startsWith(line, "END"))
                continue;
            throw InputError(path, lineNo,
                             "'" + std::string(text::trim(line)).substr(0, 20) +
                                 "' outside BEGIN_RES ... END_RES; expected every atom of a "
                                 "flexible residue inside its block");
        }
    }
    if (open >= 0)
        throw InputError(path, open + 1,
                         "BEGIN_RES " + current.label() + " is never closed; expected END_RES");
    if (out.empty())
        throw InputError(path, 0,
                         "no BEGIN_RES ... END_RES block; expected flexible residues as Vina's "
                         "--flex takes them (prepare_flexreceptor.py writes them)");
    return out;
}

void checkFlexResiduesInReceptor(const std::vector<FlexResidue>& residues,
                                 const Molecule& receptor, const std::string& receptorPath) {
    constexpr double kSameAtom = 0.5; // Å: a receptor atom this close is the flexible atom itself
    for (const FlexResidue& r : residues) {
        bool found = false;
        for (const Residue& res : receptor.residues)
            found = found || (res.chain == r.chain && res.number == r.resSeq &&
                              res.insertion == r.insertion);
        if (!found)
            throw InputError(r.sourceFile, r.line,
                             "flexible residue " + r.label() + " is not in the receptor " +
                                 receptorPath +
                                 " (no atom of chain " + std::string(1, r.chain) + " residue " +
                                 std::to_string(r.resSeq) +
                                 "); expected the rigid part of the same receptor");
        const std::vector<int> node = r.mol.torsionTree->nodeOfAtom(
            static_cast<int>(r.mol.atoms.size()));
        for (size_t i = 0; i < r.mol.atoms.size(); ++i) {
            if (node[i] == 0)
                continue; // the ROOT stays put
            for (const Atom& a : receptor.atoms)
                if ((a.position - r.mol.atoms[i].position).norm() < kSameAtom)
                    throw InputError(receptorPath, 0,
                                     "the receptor still holds flexible atom " +
                                         r.mol.atoms[i].name + " of " + r.label() + " (" +
                                         r.where() +
                                         "); expected the rigid part without the flexible side "
                                         "chains (as prepare_flexreceptor.py writes it)");
        }
    }
}

} // namespace pw
