#include "SdfReader.h"

#include "RecordReader.h"
#include "TextFields.h"
#include "core/Element.h"
#include "core/InputError.h"

#include <unordered_map>
#include <vector>

namespace pw {

bool parseSdfCountsLine(std::string_view line, long& atoms, long& bonds, bool& v3000) {
    v3000 = line.find("V3000") != std::string_view::npos;
    if (text::toLong(text::columns(line, 1, 3), atoms) &&
        text::toLong(text::columns(line, 4, 6), bonds))
        return atoms >= 0 && bonds >= 0;
    // Some writers do not align the counts; accept them when the version stamp is there.
    if (line.find("V2000") == std::string_view::npos && !v3000)
        return false;
    std::vector<std::string_view> t;
    text::split(line, t);
    return t.size() >= 2 && text::toLong(t[0], atoms) && text::toLong(t[1], bonds) && atoms >= 0 &&
           bonds >= 0;
}

void checkSdfContent(std::string_view head, const std::string& path) {
    size_t pos = 0;
    long lineNo = 0;
    std::string_view line;
    while (lineNo < 4) {
        if (pos >= head.size())
            throw InputError(path, lineNo,
                             "expected an SDF counts line at line 4, but the file has only " +
                                 std::to_string(lineNo) + " lines");
        size_t nl = head.find('\n', pos);
        line = head.substr(pos, nl == std::string_view::npos ? head.size() - pos : nl - pos);
        pos = nl == std::string_view::npos ? head.size() : nl + 1;
        ++lineNo;
    }
    long a, b;
    bool v3000;
    if (!parseSdfCountsLine(line, a, b, v3000))
        throw InputError(path, 4,
                         "expected an SDF counts line (atom and bond counts, then V2000 or V3000), "
                         "found " +
                             text::quote(line, 60) + "; is this really an SDF/MOL file?");
}

namespace {

int chargeFromV2000Code(int code) {
    // MDL CTfile atom block charge field: 1..3 = +3..+1, 4 = doublet radical, 5..7 = -1..-3.
    switch (code) {
    case 1:
        return 3;
    case 2:
        return 2;
    case 3:
        return 1;
    case 5:
        return -1;
    case 6:
        return -2;
    case 7:
        return -3;
    default:
        return 0;
    }
}

class SdfReader final : public RecordReader, public SdfRecordSource {
public:
    SdfReader(std::unique_ptr<std::istream> in, std::string path, ReadOptions options)
        : RecordReader(std::move(in), std::move(path), FileFormat::Sdf, std::move(options)) {}
    // Over one record's text (parseSdfRecord).
    SdfReader(const SdfRecordText& record, std::string path, ReadOptions options)
        : RecordReader(record.text, std::move(path), record.firstLine, FileFormat::Sdf,
                       std::move(options)),
          record_(record.record - 1) {}

    bool nextRecordText(SdfRecordText& out) override;
    // The record of this reader's text: as next() without the skip.
    bool parseOne(Molecule& out, std::string& warning);

protected:
    bool multiRecord() const override { return true; }

    void skipToNextRecord() override {
        if (atRecordEnd_)
            return;
        std::string_view line;
        while (lines_.next(line))
            if (text::startsWith(line, "$$$$"))
                return;
    }

    bool readRecord(Molecule& out) override;

private:
    // Next line of the current record; at end of file or at "$$$$" fails with "expected ...".
    std::string_view need(const std::string& expected);
    int elementOf(std::string_view symbol, long atomNumber);
    void readV2000(Molecule& out, long atoms, long bonds);
    void readV3000(Molecule& out);
    bool nextV30(std::string_view& content);
    void readDataItems(Molecule& out);

    bool atRecordEnd_ = false;
    long record_ = 0;
    std::vector<std::string_view> tokens_;
    std::string joined_;
    std::unordered_map<long, int> v30Index_;
};

std::string_view SdfReader::need(const std::string& expected) {
    std::string_view line;
    if (!lines_.next(line))
        lines_.fail("unexpected end of file, expected " + expected);
    if (text::startsWith(line, "$$$$")) {
        atRecordEnd_ = true;
        lines_.fail("record ends ('$$$$') too early, expected " + expected);
    }
    return line;
}

// The elements of nearly every ligand atom, as written (exact case): no table search.
int commonElement(std::string_view symbol) {
    if (symbol.size() == 1)
        switch (symbol[0]) {
        case 'H':
            return 1;
        case 'C':
            return 6;
        case 'N':
            return 7;
        case 'O':
            return 8;
        case 'F':
            return 9;
        case 'P':
            return 15;
        case 'S':
            return 16;
        default:
            return 0;
        }
    if (symbol == "Cl")
        return 17;
    if (symbol == "Br")
        return 35;
    return 0;
}

int SdfReader::elementOf(std::string_view symbol, long atomNumber) {
    symbol = text::trim(symbol);
    if (const int z = commonElement(symbol))
        return z;
    int z = elementFromSymbol(symbol);
    if (z == 0 && symbol != "*")
        lines_.fail("atom " + std::to_string(atomNumber) + ": unknown element symbol " +
                    text::quote(symbol) + "; expected a chemical element (C, N, O, Cl, ...)");
    return z;
}

bool SdfReader::readRecord(Molecule& out) {
    atRecordEnd_ = false;
    std::string_view line;
    if (!lines_.next(line))
        return false;
    const long start = lines_.lineNumber();
    if (text::isBlank(line)) {
        // Blank lines at the end of a file are not a record; a blank title line is fine (and
        // the program and comment lines may be blank too), but the counts line never is.
        long blanks = 1;
        bool got;
        while ((got = lines_.next(line)) && text::isBlank(line))
            ++blanks;
        if (!got)
            return false;
        ++record_;
        if (blanks > 3)
            lines_.fail(start, "expected an SDF record (title, program and comment lines, then "
                               "the counts line), found " +
                                   std::to_string(blanks) + " blank lines");
        if (text::startsWith(line, "$$$$")) {
            atRecordEnd_ = true;
            lines_.fail("record ends ('$$$$') too early, expected an SDF counts line");
        }
        out.name.clear();
        for (long headerLine = blanks + 1; headerLine < 4; ++headerLine)
            line = need(headerLine == 2 ? "the SDF comment line (line 3 of the record)"
                                        : "an SDF counts line");
    } else {
        ++record_;
        if (text::startsWith(line, "$$$$")) {
            atRecordEnd_ = true;
            lines_.fail("empty record ('$$$$' where a molecule title was expected)");
        }
        std::string_view title = line;
        while (!title.empty() && (title.back() == ' ' || title.back() == '\t'))
            title.remove_suffix(1);
        requireUtf8(title, lines_.lineNumber(), "molecule name");
        out.name.assign(title);
        need("the SDF program line (line 2 of the record)");
        need("the SDF comment line (line 3 of the record)");
        line = need("an SDF counts line");
    }
    out.sourceRecord = record_;

    long atoms = 0, bonds = 0;
    bool v3000 = false;
    if (!parseSdfCountsLine(line, atoms, bonds, v3000))
        lines_.fail("expected an SDF counts line (atom and bond counts, then V2000 or V3000), "
                    "found " +
                    text::quote(line, 60));
    if (v3000) {
        readV3000(out);
    } else {
        requireAtomLimit(atoms, lines_.lineNumber());
        readV2000(out, atoms, bonds);
    }
    readDataItems(out);
    repairRecord(out, start);
    return true;
}

void SdfReader::readV2000(Molecule& out, long atomCount, long bondCount) {
    const long countsLine = lines_.lineNumber();
    out.atoms.reserve(static_cast<size_t>(std::min<long>(atomCount, 1 << 16)));
    for (long i = 0; i < atomCount; ++i) {
        std::string_view line;
        bool got = lines_.next(line);
        if (!got || text::startsWith(line, "$$$$")) {
            atRecordEnd_ = got;
            lines_.fail("expected " + std::to_string(atomCount) + " atom lines (counts line " +
                        std::to_string(countsLine) + "), found only " + std::to_string(i) +
                        (atRecordEnd_ ? " before '$$$$'" : " before the end of the file"));
        }
        Atom a;
        double x, y, z;
        std::string_view symbol;
        int chargeCode = 0;
        if (text::toDouble(text::columns(line, 1, 10), x) &&
            text::toDouble(text::columns(line, 11, 20), y) &&
            text::toDouble(text::columns(line, 21, 30), z)) {
            symbol = text::columns(line, 32, 34);
            text::toInt(text::columns(line, 37, 39), chargeCode);
        } else {
            text::split(line, tokens_);
            if (tokens_.size() < 4 || !text::toDouble(tokens_[0], x) ||
                !text::toDouble(tokens_[1], y) || !text::toDouble(tokens_[2], z))
                lines_.fail("atom " + std::to_string(i + 1) +
                            ": expected an atom line (x, y, z in columns 1-30, then the element), "
                            "found " +
                            text::quote(line, 60));
            symbol = tokens_[3];
            if (tokens_.size() > 5)
                text::toInt(tokens_[5], chargeCode);
        }
        if (!text::allFinite(x, y, z))
            lines_.fail("atom " + std::to_string(i + 1) +
                        ": coordinates must be finite numbers, found " + text::quote(line, 30));
        a.position = Vec3(x, y, z);
        a.element = elementOf(symbol, i + 1);
        a.formalCharge = chargeFromV2000Code(chargeCode);
        out.atoms.push_back(std::move(a));
    }
    out.bonds.reserve(static_cast<size_t>(std::min<long>(bondCount, 1 << 16)));
    for (long i = 0; i < bondCount; ++i) {
        std::string_view line;
        bool got = lines_.next(line);
        if (!got || text::startsWith(line, "$$$$")) {
            atRecordEnd_ = got;
            lines_.fail("expected " + std::to_string(bondCount) + " bond lines (counts line " +
                        std::to_string(countsLine) + "), found only " + std::to_string(i) +
                        (atRecordEnd_ ? " before '$$$$'" : " before the end of the file"));
        }
        int a = 0, b = 0, type = 0;
        if (!(text::toInt(text::columns(line, 1, 3), a) &&
              text::toInt(text::columns(line, 4, 6), b) &&
              text::toInt(text::columns(line, 7, 9), type))) {
            text::split(line, tokens_);
            if (tokens_.size() < 3 || !text::toInt(tokens_[0], a) || !text::toInt(tokens_[1], b) ||
                !text::toInt(tokens_[2], type))
                lines_.fail("bond " + std::to_string(i + 1) +
                            ": expected a bond line (first atom, second atom, type), found " +
                            text::quote(line, 60));
        }
        if (a < 1 || b < 1 || a > atomCount || b > atomCount || a == b)
            lines_.fail("bond " + std::to_string(i + 1) + ": atom numbers must be between 1 and " +
                        std::to_string(atomCount) + " and differ, found " + std::to_string(a) +
                        " and " + std::to_string(b));
        if (type < 1 || type > 4)
            lines_.fail("bond " + std::to_string(i + 1) +
                        ": expected bond type 1 (single), 2 (double), 3 (triple) or 4 (aromatic), "
                        "found " +
                        std::to_string(type) + " (query bond types do not describe a molecule)");
        requireNewBond(a - 1, b - 1, "bond " + std::to_string(i + 1));
        out.bonds.push_back(Bond{a - 1, b - 1, static_cast<BondOrder>(type), false});
        if (type == 4)
            out.atoms[a - 1].aromatic = out.atoms[b - 1].aromatic = true;
    }
    // Properties block up to "M  END". "M  CHG" supersedes the atom block's charges.
    bool chargesReset = false;
    for (;;) {
        std::string_view line;
        if (!lines_.next(line))
            return; // a .mol file may end without "M  END"
        if (text::startsWith(line, "M  END"))
            return;
        if (text::startsWith(line, "$$$$") || text::startsWith(line, ">")) {
            lines_.pushBack();
            return;
        }
        if (text::startsWith(line, "A  ") || text::startsWith(line, "G  ")) {
            need("the text line that follows an 'A  ' or 'G  ' line");
            continue;
        }
        if (!text::startsWith(line, "M  CHG"))
            continue;
        text::split(line.substr(6), tokens_);
        int n = 0;
        if (tokens_.empty() || !text::toInt(tokens_[0], n) || n < 0 ||
            tokens_.size() < static_cast<size_t>(1 + 2 * n))
            lines_.fail("expected 'M  CHG' followed by a count and that many atom/charge pairs, "
                        "found " +
                        text::quote(line, 60));
        if (!chargesReset) {
            for (Atom& a : out.atoms)
                a.formalCharge = 0;
            chargesReset = true;
        }
        for (int k = 0; k < n; ++k) {
            int atom = 0, charge = 0;
            if (!text::toInt(tokens_[1 + 2 * k], atom) ||
                !text::toInt(tokens_[2 + 2 * k], charge) || atom < 1 || atom > atomCount)
                lines_.fail("'M  CHG' pair " + std::to_string(k + 1) +
                            ": expected an atom number between 1 and " + std::to_string(atomCount) +
                            " and a charge");
            out.atoms[atom - 1].formalCharge = charge;
        }
    }
}

bool SdfReader::nextV30(std::string_view& content) {
    std::string_view line = need("a V3000 'M  V30' line or 'M  END'");
    if (text::startsWith(line, "M  END"))
        return false;
    if (!text::startsWith(line, "M  V30 "))
        lines_.fail("expected a V3000 line starting with 'M  V30 ', found " + text::quote(line));
    line.remove_prefix(7);
    if (line.empty() || line.back() != '-') {
        content = line;
        return true;
    }
    // A trailing '-' continues the line on the next 'M  V30 ' line.
    joined_.assign(line.substr(0, line.size() - 1));
    for (;;) {
        line = need("the continuation of a V3000 line");
        if (!text::startsWith(line, "M  V30 "))
            lines_.fail("expected the continuation 'M  V30 ' line, found " + text::quote(line));
        line.remove_prefix(7);
        bool more = !line.empty() && line.back() == '-';
        joined_.append(line.substr(0, line.size() - (more ? 1 : 0)));
        if (!more)
            break;
    }
    content = joined_;
    return true;
}

void SdfReader::readV3000(Molecule& out) {
    std::string_view c;
    enum class Block { None, Atom, Bond, Other } block = Block::None;
    long declaredAtoms = -1, declaredBonds = -1;
    v30Index_.clear();
    while (nextV30(c)) {
        c = text::trim(c);
        if (text::startsWith(c, "BEGIN ")) {
            std::string_view what = text::trim(c.substr(6));
            block = what == "ATOM"   ? Block::Atom
                    : what == "BOND" ? Block::Bond
                    : what == "CTAB" ? Block::None
                                     : Block::Other;
            continue;
        }
        if (text::startsWith(c, "END ")) {
            block = Block::None;
            continue;
        }
        text::split(c, tokens_);
        if (block == Block::None && !tokens_.empty() && tokens_[0] == "COUNTS") {
            // Counts below zero would size the atom vector from a negative number.
            if (tokens_.size() < 3 || !text::toLong(tokens_[1], declaredAtoms) ||
                !text::toLong(tokens_[2], declaredBonds) || declaredAtoms < 0 || declaredBonds < 0)
                lines_.fail("expected 'COUNTS' followed by atom and bond counts (0 or more), found " +
                            text::quote(c));
            requireAtomLimit(declaredAtoms, lines_.lineNumber());
            out.atoms.reserve(static_cast<size_t>(std::min<long>(declaredAtoms, 1 << 16)));
        } else if (block == Block::Atom) {
            long idx;
            double x, y, z;
            if (tokens_.size() < 5 || !text::toLong(tokens_[0], idx) ||
                !text::toDouble(tokens_[2], x) || !text::toDouble(tokens_[3], y) ||
                !text::toDouble(tokens_[4], z))
                lines_.fail("expected a V3000 atom (index, element, x, y, z, ...), found " +
                            text::quote(c, 60));
            if (!text::allFinite(x, y, z))
                lines_.fail("atom " + std::to_string(idx) +
                            ": coordinates must be finite numbers, found " + text::quote(c, 60));
            Atom a;
            a.position = Vec3(x, y, z);
            a.element = elementOf(tokens_[1], idx);
            for (size_t k = 6; k < tokens_.size(); ++k)
                if (text::startsWith(tokens_[k], "CHG="))
                    text::toInt(tokens_[k].substr(4), a.formalCharge);
            if (!v30Index_.emplace(idx, static_cast<int>(out.atoms.size())).second)
                lines_.fail("atom index " + std::to_string(idx) + " is used twice");
            out.atoms.push_back(std::move(a));
            requireAtomLimit(static_cast<long>(out.atoms.size()), lines_.lineNumber());
        } else if (block == Block::Bond) {
            long idx, type, a, b;
            if (tokens_.size() < 4 || !text::toLong(tokens_[0], idx) ||
                !text::toLong(tokens_[1], type) || !text::toLong(tokens_[2], a) ||
                !text::toLong(tokens_[3], b))
                lines_.fail("expected a V3000 bond (index, type, atom, atom), found " +
                            text::quote(c, 60));
            auto ia = v30Index_.find(a), ib = v30Index_.find(b);
            if (ia == v30Index_.end() || ib == v30Index_.end() || a == b)
                lines_.fail("bond " + std::to_string(idx) +
                            ": expected two different atom indices from the atom block, found " +
                            std::to_string(a) + " and " + std::to_string(b));
            if (type < 1 || type > 4)
                lines_.fail("bond " + std::to_string(idx) +
                            ": expected bond type 1 (single), 2 (double), 3 (triple) or 4 "
                            "(aromatic), found " +
                            std::to_string(type));
            requireNewBond(ia->second, ib->second, "bond " + std::to_string(idx));
            out.bonds.push_back(Bond{ia->second, ib->second, static_cast<BondOrder>(type), false});
            if (type == 4)
                out.atoms[ia->second].aromatic = out.atoms[ib->second].aromatic = true;
        }
    }
    if (declaredAtoms >= 0 && declaredAtoms != static_cast<long>(out.atoms.size()))
        lines_.fail("the V3000 COUNTS line declares " + std::to_string(declaredAtoms) +
                    " atoms, but the atom block has " + std::to_string(out.atoms.size()));
    if (declaredBonds >= 0 && declaredBonds != static_cast<long>(out.bonds.size()))
        lines_.fail("the V3000 COUNTS line declares " + std::to_string(declaredBonds) +
                    " bonds, but the bond block has " + std::to_string(out.bonds.size()));
}

void SdfReader::readDataItems(Molecule& out) {
    std::string_view line;
    while (lines_.next(line)) {
        if (text::startsWith(line, "$$$$")) {
            atRecordEnd_ = true;
            return;
        }
        if (line.empty() || line[0] != '>')
            continue;
        // "> <tag>", ">  <tag>  (extra)", "> 25 <tag>": the name is inside the angle brackets.
        size_t lt = line.find('<'), gt = line.rfind('>');
        std::string key;
        if (lt != std::string_view::npos && gt != std::string_view::npos && gt > lt)
            key.assign(line.substr(lt + 1, gt - lt - 1));
        else
            key.assign(text::trim(line.substr(1)));
        requireUtf8(key, lines_.lineNumber(), "SD tag name");
        const long keyLine = lines_.lineNumber();
        std::string value;
        bool first = true;
        while (lines_.next(line)) {
            if (line.empty())
                break;
            if (text::startsWith(line, "$$$$")) {
                lines_.pushBack();
                break;
            }
            if (!first)
                value += '\n';
            value.append(line);
            first = false;
        }
        requireUtf8(value, keyLine, ("value of SD tag <" + key + ">").c_str());
        out.properties.emplace_back(std::move(key), std::move(value));
    }
}

bool SdfReader::nextRecordText(SdfRecordText& out) {
    out.text.clear();
    out.firstLine = lines_.lineNumber() + 1;
    long lines = lines_.appendLinesThrough("$$$$", out.text);
    if (lines == 0)
        return false;
    // Where the text is blank up to its last line (blank lines only, then '$$$$' or the end).
    auto blankUpTo = [&](size_t end) { return out.text.find_first_not_of(" \t\r\n") >= end; };
    const size_t lastLine = out.text.rfind('\n', out.text.size() - 2) + 1; // npos + 1 == 0
    const bool endsWithMarker = out.text.compare(lastLine, 4, "$$$$") == 0;
    if (!endsWithMarker) {
        // The end of the file: blank lines there are no record.
        if (blankUpTo(out.text.size()))
            return false;
    } else if (lines - 1 > 3 && blankUpTo(lastLine)) {
        // More than three blank lines, then '$$$$': readRecord refuses the record by its blank
        // lines without reaching '$$$$', so skipToNextRecord runs on to the NEXT '$$$$' and the
        // following record is swallowed with it. Keep that: cut both together.
        lines_.appendLinesThrough("$$$$", out.text);
    }
    out.record = ++record_;
    return true;
}

bool SdfReader::parseOne(Molecule& out, std::string& warning) {
    warning.clear();
    try {
        clearMolecule(out);
        repairNote_.clear();
        if (!readRecord(out))
            return false;
        out.sourceFile = path_;
        warning = repairNote_;
        return true;
    } catch (const InputError& e) {
        warning = std::string(e.what()) + " (record skipped)";
        return false;
    }
}

} // namespace

bool parseSdfRecord(const SdfRecordText& record, const std::string& path,
                    const ReadOptions& options, Molecule& out, std::string& warning) {
    SdfReader reader(record, path, options);
    return reader.parseOne(out, warning);
}

std::unique_ptr<MoleculeReader> makeSdfReader(std::unique_ptr<std::istream> in, std::string path,
                                              ReadOptions options) {
    return std::make_unique<SdfReader>(std::move(in), std::move(path), std::move(options));
}

} // namespace pw
