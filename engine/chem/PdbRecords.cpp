#include "PdbRecords.h"

#include "TextFields.h"
#include "core/Element.h"
#include "core/InputError.h"

#include <cctype>
#include <filesystem>

namespace pw {

bool isPdbAtomLine(std::string_view line) {
    return text::startsWith(line, "ATOM  ") || text::startsWith(line, "HETATM") || line == "ATOM" ||
           text::startsWith(line, "ATOM ");
}

void parsePdbAtomLine(std::string_view line, const LineReader& lines, PdbAtomFields& f) {
    f.hetero = text::startsWith(line, "HETATM");
    f.serial = 0;
    text::toInt(text::columns(line, 7, 11), f.serial); // hybrid-36 serials stay 0
    f.name = text::columns(line, 13, 16);
    std::string_view alt = text::columns(line, 17, 17);
    f.altLoc = alt.empty() ? ' ' : alt[0];
    f.resName = text::trim(text::columns(line, 18, 21));
    std::string_view chain = text::columns(line, 22, 22);
    f.chain = chain.empty() ? ' ' : chain[0];
    f.resSeq = 0;
    std::string_view seq = text::columns(line, 23, 26);
    if (!text::isBlank(seq) && !text::toInt(seq, f.resSeq))
        lines.fail("expected a residue number in columns 23-26, found " + text::quote(seq));
    std::string_view ins = text::columns(line, 27, 27);
    f.iCode = ins.empty() ? ' ' : ins[0];
    double x, y, z;
    if (line.size() < 54 || !text::toDouble(text::columns(line, 31, 38), x) ||
        !text::toDouble(text::columns(line, 39, 46), y) ||
        !text::toDouble(text::columns(line, 47, 54), z))
        lines.fail("expected x, y, z coordinates in columns 31-38, 39-46 and 47-54, found " +
                   text::quote(text::columns(line, 31, 54), 30));
    if (!text::allFinite(x, y, z))
        lines.fail("coordinates must be finite numbers, found " +
                   text::quote(text::columns(line, 31, 54), 30));
    f.position = Vec3(x, y, z);
}

int pdbElement(std::string_view line, std::string_view atomName) {
    std::string_view symbol = text::trim(text::columns(line, 77, 78));
    if (!symbol.empty()) {
        // Tolerate charges glued on ("N1+") by keeping only the letters.
        size_t n = 0;
        while (n < symbol.size() && std::isalpha(static_cast<unsigned char>(symbol[n])))
            ++n;
        return elementFromSymbol(symbol.substr(0, n));
    }
    // Columns 13-14 hold the element right-justified: " CA " is carbon, "CA  " calcium.
    if (atomName.size() < 2)
        return elementFromSymbol(text::trim(atomName));
    char c0 = atomName[0], c1 = atomName[1];
    bool letter0 = std::isalpha(static_cast<unsigned char>(c0)) != 0;
    bool letter1 = std::isalpha(static_cast<unsigned char>(c1)) != 0;
    if (!letter0)
        return letter1 ? elementFromSymbol(std::string_view(&atomName[1], 1)) : 0;
    std::string_view trimmed = text::trim(atomName);
    // Four-character hydrogen names (HG21, HD11) start in column 13 but are hydrogens.
    if ((c0 == 'H' || c0 == 'D') && trimmed.size() == 4)
        return 1;
    if (letter1) {
        int two = elementFromSymbol(atomName.substr(0, 2));
        if (two != 0)
            return two;
    }
    return elementFromSymbol(std::string_view(&atomName[0], 1));
}

int pdbFormalCharge(std::string_view line) {
    std::string_view c = text::trim(text::columns(line, 79, 80));
    if (c.size() != 2)
        return 0;
    char digit = std::isdigit(static_cast<unsigned char>(c[0])) ? c[0] : c[1];
    char sign = std::isdigit(static_cast<unsigned char>(c[0])) ? c[1] : c[0];
    if (!std::isdigit(static_cast<unsigned char>(digit)) || (sign != '+' && sign != '-'))
        return 0;
    return (sign == '-' ? -1 : 1) * (digit - '0');
}

bool PdbResidueTracker::accept(const PdbAtomFields& f, Molecule& m, int& residueIndex) {
    bool same = false;
    if (current_ >= 0) {
        const Residue& r = m.residues[current_];
        same = r.chain == f.chain && r.number == f.resSeq && r.insertion == f.iCode &&
               (r.name == f.resName || f.altLoc != ' ');
    }
    if (same && f.altLoc != ' ') {
        if (chosenAlt_ == ' ')
            chosenAlt_ = f.altLoc;
        else if (f.altLoc != chosenAlt_)
            return false;
    }
    if (!same) {
        Residue r;
        r.name.assign(f.resName);
        r.number = f.resSeq;
        r.chain = f.chain;
        r.insertion = f.iCode;
        r.hetero = f.hetero;
        m.residues.push_back(std::move(r));
        current_ = static_cast<int>(m.residues.size()) - 1;
        chosenAlt_ = f.altLoc;
    }
    residueIndex = current_;
    return true;
}

void checkPdbContent(std::string_view head, const std::string& path, FileFormat format) {
    static const char* const kRecords[] = {
        "HEADER", "TITLE",  "COMPND", "SOURCE",  "KEYWDS", "EXPDTA",    "AUTHOR",  "REVDAT",
        "JRNL",   "REMARK", "DBREF",  "SEQRES",  "HET",    "HETNAM",    "HETSYN",  "FORMUL",
        "HELIX",  "SHEET",  "SSBOND", "LINK",    "CISPEP", "SITE",      "CRYST1",  "ORIGX",
        "SCALE",  "MTRIX",  "MODEL",  "ATOM",    "HETATM", "ANISOU",    "TER",     "ENDMDL",
        "CONECT", "MASTER", "END",    "SEQADV",  "MODRES", "NUMMDL",    "OBSLTE",  "SPLIT",
        "CAVEAT", "SPRSDE", "MDLTYP", "DBREF1",  "DBREF2", "HYDBND",    "SLTBRG",  "SIGATM",
        "SIGUIJ", "USER",   "ROOT",   "ENDROOT", "BRANCH", "ENDBRANCH", "TORSDOF", "BEGIN_RES",
        "END_RES"};
    size_t pos = 0;
    long lineNo = 0;
    while (pos < head.size()) {
        size_t nl = head.find('\n', pos);
        std::string_view line =
            head.substr(pos, nl == std::string_view::npos ? head.size() - pos : nl - pos);
        pos = nl == std::string_view::npos ? head.size() : nl + 1;
        ++lineNo;
        if (text::isBlank(line))
            continue;
        std::string_view word = line.substr(0, std::min<size_t>(line.size(), 9));
        size_t end = 0;
        while (end < word.size() &&
               (std::isupper(static_cast<unsigned char>(word[end])) ||
                std::isdigit(static_cast<unsigned char>(word[end])) || word[end] == '_'))
            ++end;
        word = word.substr(0, end);
        for (const char* r : kRecords)
            if (text::startsWith(word, r)) // "ATOM100000": large serials run into the name
                return;
        throw InputError(path, lineNo,
                         "expected a " + formatName(format) +
                             " record (ATOM, HETATM, REMARK, HEADER, ...), found " +
                             text::quote(line, 60) + "; is this really a " + formatName(format) +
                             " file?");
    }
}

std::string fileStem(const std::string& path) {
    return std::filesystem::path(path).stem().string();
}

} // namespace pw
