#include "Mol2Reader.h"

#include "RecordReader.h"
#include "TextFields.h"
#include "core/Element.h"
#include "core/InputError.h"

#include <cctype>
#include <unordered_map>
#include <vector>

namespace pw {

int elementOfSybylType(std::string_view type) {
    std::string_view base = type.substr(0, type.find('.'));
    if (base == "Du" || base == "LP")
        return 0; // dummy atom, lone pair
    int z = elementFromSymbol(base);
    // "Any", "Hal", "Het", "Hev" are query types, not atoms.
    return z == 0 ? -1 : z;
}

void checkMol2Content(std::string_view head, const std::string& path) {
    size_t pos = 0;
    long lineNo = 0;
    while (pos < head.size()) {
        size_t nl = head.find('\n', pos);
        std::string_view line =
            head.substr(pos, nl == std::string_view::npos ? head.size() - pos : nl - pos);
        pos = nl == std::string_view::npos ? head.size() : nl + 1;
        ++lineNo;
        std::string_view t = text::trim(line);
        if (t.empty() || t[0] == '#')
            continue;
        if (text::startsWith(t, "@<TRIPOS>"))
            return;
        throw InputError(path, lineNo,
                         "expected a MOL2 section line (@<TRIPOS>MOLECULE), found " +
                             text::quote(line, 60) + "; is this really a MOL2 file?");
    }
    throw InputError(path, lineNo, "expected a MOL2 section line (@<TRIPOS>MOLECULE), found none");
}

namespace {

class Mol2Reader final : public RecordReader {
public:
    Mol2Reader(std::unique_ptr<std::istream> in, std::string path, ReadOptions options)
        : RecordReader(std::move(in), std::move(path), FileFormat::Mol2, std::move(options)) {}

protected:
    bool multiRecord() const override { return true; }
    void skipToNextRecord() override {
        std::string_view line;
        while (lines_.next(line))
            if (text::startsWith(line, "@<TRIPOS>MOLECULE")) {
                lines_.pushBack();
                return;
            }
    }
    bool readRecord(Molecule& out) override;

private:
    void readAtom(std::string_view line, Molecule& out, long declared);
    void readBond(std::string_view line, Molecule& out);
    void readAtomAttribute(std::string_view line, Molecule& out, long& atom, long& left);

    long record_ = 0;
    std::vector<std::string_view> tokens_;
    std::unordered_map<long, int> idToIndex_;
    std::string lastSubst_, lastSubstId_;
};

bool Mol2Reader::readRecord(Molecule& out) {
    std::string_view line;
    // Up to the next MOLECULE section: comments, blank lines, or sections we do not keep.
    for (;;) {
        if (!lines_.next(line))
            return false;
        if (text::startsWith(line, "@<TRIPOS>MOLECULE"))
            break;
        std::string_view t = text::trim(line);
        if (!t.empty() && t[0] != '#' && record_ == 0 && !text::startsWith(t, "@<TRIPOS>"))
            lines_.fail("expected @<TRIPOS>MOLECULE, found " + text::quote(line, 60));
    }
    ++record_;
    out.sourceRecord = record_;
    const long moleculeLine = lines_.lineNumber();
    idToIndex_.clear();
    lastSubst_.clear();
    lastSubstId_.clear();

    auto need = [&](const char* expected) {
        if (!lines_.next(line) || text::startsWith(line, "@<TRIPOS>"))
            lines_.fail(std::string("expected ") + expected + " after @<TRIPOS>MOLECULE (line " +
                        std::to_string(moleculeLine) + ")");
        return line;
    };
    std::string_view name = text::trim(need("the molecule name"));
    requireUtf8(name, lines_.lineNumber(), "molecule name");
    out.name.assign(name);
    text::split(need("the counts line (atoms, bonds, ...)"), tokens_);
    long atoms = 0, bonds = 0;
    if (tokens_.empty() || !text::toLong(tokens_[0], atoms) || atoms < 0 ||
        (tokens_.size() > 1 && (!text::toLong(tokens_[1], bonds) || bonds < 0)))
        lines_.fail("expected the MOL2 counts line (number of atoms, then bonds), found " +
                    text::quote(line, 60));
    requireAtomLimit(atoms, lines_.lineNumber());
    const long countsLine = lines_.lineNumber();
    out.atoms.reserve(static_cast<size_t>(std::min<long>(atoms, 1 << 16)));

    enum class Section { Other, Atom, Bond, AtomAttributes } section = Section::Other;
    long attributeAtom = -1, attributesLeft = 0; // UNITY_ATOM_ATTR: the atom being described
    while (lines_.next(line)) {
        if (text::startsWith(line, "@<TRIPOS>")) {
            std::string_view s = text::trim(line.substr(9));
            if (s == "MOLECULE") {
                lines_.pushBack();
                break;
            }
            section = s == "ATOM"              ? Section::Atom
                      : s == "BOND"            ? Section::Bond
                      : s == "UNITY_ATOM_ATTR" ? Section::AtomAttributes
                                               : Section::Other;
            attributesLeft = 0;
            continue;
        }
        std::string_view t = text::trim(line);
        if (t.empty() || t[0] == '#')
            continue;
        if (section == Section::Atom)
            readAtom(t, out, atoms);
        else if (section == Section::Bond)
            readBond(t, out);
        else if (section == Section::AtomAttributes)
            readAtomAttribute(t, out, attributeAtom, attributesLeft);
    }
    if (static_cast<long>(out.atoms.size()) != atoms)
        lines_.fail(countsLine, "the counts line declares " + std::to_string(atoms) +
                                    " atoms, but @<TRIPOS>ATOM has " +
                                    std::to_string(out.atoms.size()));
    if (static_cast<long>(out.bonds.size()) > bonds && bonds > 0)
        lines_.fail(countsLine, "the counts line declares " + std::to_string(bonds) +
                                    " bonds, but @<TRIPOS>BOND has " +
                                    std::to_string(out.bonds.size()));
    if (out.atoms.empty())
        lines_.fail(moleculeLine, "molecule has no atoms; expected an @<TRIPOS>ATOM section");
    repairRecord(out, moleculeLine);
    return true;
}

// @<TRIPOS>UNITY_ATOM_ATTR: "ATOM_ID COUNT", then COUNT lines "NAME VALUE". Open Babel writes the
// formal charges there ("charge -1"); other attributes are skipped.
void Mol2Reader::readAtomAttribute(std::string_view line, Molecule& out, long& atom,
                                   long& left) {
    text::split(line, tokens_);
    if (left == 0) {
        long id = 0;
        if (tokens_.size() < 2 || !text::toLong(tokens_[0], id) ||
            !text::toLong(tokens_[1], left) || left < 0)
            lines_.fail("expected a UNITY_ATOM_ATTR header (atom id, number of attributes), "
                        "found " +
                        text::quote(line, 60));
        auto it = idToIndex_.find(id);
        if (it == idToIndex_.end())
            lines_.fail("UNITY_ATOM_ATTR names atom id " + std::to_string(id) +
                        ", which @<TRIPOS>ATOM does not have");
        atom = it->second;
        return;
    }
    --left;
    if (tokens_.size() >= 2 && tokens_[0] == "charge") {
        int charge = 0;
        if (!text::toInt(tokens_[1], charge) || charge < -8 || charge > 8)
            lines_.fail("expected a formal charge (an integer) after 'charge', found " +
                        text::quote(line, 60));
        out.atoms[atom].formalCharge = charge;
    }
}

void Mol2Reader::readAtom(std::string_view line, Molecule& out, long declared) {
    text::split(line, tokens_);
    long id;
    double x, y, z;
    if (tokens_.size() < 6 || !text::toLong(tokens_[0], id) || !text::toDouble(tokens_[2], x) ||
        !text::toDouble(tokens_[3], y) || !text::toDouble(tokens_[4], z))
        lines_.fail("expected a MOL2 atom line (id, name, x, y, z, SYBYL type, ...), found " +
                    text::quote(line, 60));
    if (!text::allFinite(x, y, z))
        lines_.fail("atom " + std::to_string(id) + ": coordinates must be finite numbers, found " +
                    text::quote(line, 60));
    if (static_cast<long>(out.atoms.size()) >= declared)
        lines_.fail("more atoms than the " + std::to_string(declared) +
                    " the counts line declares");
    Atom a;
    a.name.assign(tokens_[1]);
    a.position = Vec3(x, y, z);
    std::string_view type = tokens_[5];
    a.element = elementOfSybylType(type);
    if (a.element < 0)
        lines_.fail("atom " + std::to_string(id) + ": unknown SYBYL atom type " +
                    text::quote(type) +
                    "; expected an element symbol with an optional suffix "
                    "(C.3, N.ar, O.2, Cl, ...)");
    a.aromatic = type.size() > 3 && type.substr(type.size() - 3) == ".ar";
    if (type == "N.4")
        a.formalCharge = 1; // the only SYBYL type that fixes a formal charge
    if (tokens_.size() > 8 && !text::toDouble(tokens_[8], a.charge))
        lines_.fail("atom " + std::to_string(id) +
                    ": expected a partial charge in the 9th field, "
                    "found " +
                    text::quote(tokens_[8]));
    if (tokens_.size() > 7) {
        // Substructures become residues ("ALA12" -> ALA 12) when their id or name changes.
        std::string_view substId = tokens_[6], subst = tokens_[7];
        if (out.residues.empty() || subst != lastSubst_ || substId != lastSubstId_) {
            Residue r;
            size_t digits = subst.size();
            while (digits > 0 && std::isdigit(static_cast<unsigned char>(subst[digits - 1])))
                --digits;
            r.name.assign(subst.substr(0, digits == 0 ? subst.size() : digits));
            if (digits == 0 || digits == subst.size() ||
                !text::toInt(subst.substr(digits), r.number))
                text::toInt(substId, r.number);
            out.residues.push_back(std::move(r));
            lastSubst_.assign(subst);
            lastSubstId_.assign(substId);
        }
        a.residue = static_cast<int>(out.residues.size()) - 1;
    }
    if (!idToIndex_.emplace(id, static_cast<int>(out.atoms.size())).second)
        lines_.fail("atom id " + std::to_string(id) + " is used twice");
    out.atoms.push_back(std::move(a));
}

void Mol2Reader::readBond(std::string_view line, Molecule& out) {
    text::split(line, tokens_);
    long id, a, b;
    if (tokens_.size() < 4 || !text::toLong(tokens_[0], id) || !text::toLong(tokens_[1], a) ||
        !text::toLong(tokens_[2], b))
        lines_.fail("expected a MOL2 bond line (id, atom, atom, type), found " +
                    text::quote(line, 60));
    auto ia = idToIndex_.find(a), ib = idToIndex_.find(b);
    if (ia == idToIndex_.end() || ib == idToIndex_.end() || a == b)
        lines_.fail("bond " + std::to_string(id) +
                    ": expected two different atom ids from @<TRIPOS>ATOM, found " +
                    std::to_string(a) + " and " + std::to_string(b));
    std::string_view type = tokens_[3];
    BondOrder order;
    if (type == "1" || type == "am" || type == "du" || type == "un")
        order = BondOrder::Single; // amide bonds are single bonds with a planar geometry
    else if (type == "2")
        order = BondOrder::Double;
    else if (type == "3")
        order = BondOrder::Triple;
    else if (type == "ar")
        order = BondOrder::Aromatic;
    else if (type == "nc")
        return; // "not connected"
    else
        lines_.fail("bond " + std::to_string(id) + ": unknown bond type " + text::quote(type) +
                    "; expected 1, 2, 3, am, ar, du, un or nc");
    requireNewBond(ia->second, ib->second, "bond " + std::to_string(id));
    out.bonds.push_back(Bond{ia->second, ib->second, order, false});
    if (order == BondOrder::Aromatic)
        out.atoms[ia->second].aromatic = out.atoms[ib->second].aromatic = true;
}

} // namespace

std::unique_ptr<MoleculeReader> makeMol2Reader(std::unique_ptr<std::istream> in, std::string path,
                                               ReadOptions options) {
    return std::make_unique<Mol2Reader>(std::move(in), std::move(path), std::move(options));
}

} // namespace pw
