#include "PdbReader.h"

#include "PdbRecords.h"
#include "RecordReader.h"
#include "TextFields.h"
#include "core/BondPerception.h"
#include "core/InputError.h"

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace pw {
namespace {

class PdbReader final : public RecordReader {
public:
    PdbReader(std::unique_ptr<std::istream> in, std::string path, ReadOptions options)
        : RecordReader(std::move(in), std::move(path), FileFormat::Pdb, std::move(options)) {}

protected:
    bool multiRecord() const override { return false; } // one receptor per file
    void skipToNextRecord() override {}
    bool readRecord(Molecule& out) override;

private:
    bool done_ = false;
};

bool PdbReader::readRecord(Molecule& out) {
    if (done_)
        return false;
    done_ = true;
    out.name = fileStem(path_);
    out.sourceRecord = 0;

    std::unordered_map<int, int> serialToIndex;
    std::vector<std::pair<int, int>> conect; // serial pairs
    PdbAtomFields f;
    PdbResidueTracker residues;
    bool firstModelDone = false, sawModel = false;
    std::string_view line;
    while (lines_.next(line)) {
        if (isPdbAtomLine(line)) {
            if (firstModelDone)
                continue; // later models: the receptor is the first one
            parsePdbAtomLine(line, lines_, f);
            int residue = -1;
            if (!residues.accept(f, out, residue))
                continue; // another alternate location
            Atom a;
            a.name.assign(text::trim(f.name));
            a.serial = f.serial;
            a.position = f.position;
            a.residue = residue;
            a.element = pdbElement(line, f.name);
            if (a.element == 0)
                lines_.fail("unknown element symbol " +
                            text::quote(text::trim(text::columns(line, 77, 78)).empty()
                                            ? text::trim(f.name)
                                            : text::trim(text::columns(line, 77, 78))) +
                            " (columns 77-78, or the atom name in columns 13-16); expected a "
                            "chemical element");
            a.formalCharge = pdbFormalCharge(line);
            if (f.serial != 0)
                serialToIndex.emplace(f.serial, static_cast<int>(out.atoms.size()));
            out.atoms.push_back(std::move(a));
            requireAtomLimit(static_cast<long>(out.atoms.size()), lines_.lineNumber());
        } else if (text::startsWith(line, "MODEL")) {
            if (sawModel)
                firstModelDone = true;
            sawModel = true;
        } else if (text::startsWith(line, "ENDMDL")) {
            firstModelDone = true;
        } else if (text::startsWith(line, "CONECT")) {
            int from = 0;
            if (!text::toInt(text::columns(line, 7, 11), from))
                lines_.fail("expected an atom serial number in columns 7-11 of CONECT, found " +
                            text::quote(text::columns(line, 7, 11)));
            for (size_t col = 12; col <= 27; col += 5) {
                std::string_view field = text::columns(line, col, col + 4);
                int to = 0;
                if (text::isBlank(field))
                    continue;
                if (!text::toInt(field, to))
                    lines_.fail("expected an atom serial number in columns " + std::to_string(col) +
                                "-" + std::to_string(col + 4) + " of CONECT, found " +
                                text::quote(field));
                conect.emplace_back(from, to);
            }
        } else if (text::trim(line) == "END") {
            break;
        } else {
            std::string_view word = text::trim(line.substr(0, std::min<size_t>(6, line.size())));
            if (word == "ROOT" || word == "BRANCH" || word == "TORSDOF")
                lines_.fail("PDBQT torsion tree record " + text::quote(word) +
                            " in a .pdb file; expected a PDB file (rename it to .pdbqt)");
        }
    }
    if (out.atoms.empty())
        lines_.fail(0, "no ATOM or HETATM records; expected the atoms of a receptor");

    // CONECT first (it knows hetero groups' bonds), then bonds by distance for the rest. A pair
    // listed twice (some writers' way of saying "double") is one bond.
    std::unordered_set<uint64_t> seen;
    for (auto [a, b] : conect) {
        auto ia = serialToIndex.find(a), ib = serialToIndex.find(b);
        if (ia == serialToIndex.end() || ib == serialToIndex.end() || ia->second == ib->second)
            continue; // an atom of a skipped alternate location or a later model
        int i = std::min(ia->second, ib->second), j = std::max(ia->second, ib->second);
        uint64_t key = (static_cast<uint64_t>(i) << 32) | static_cast<uint32_t>(j);
        if (seen.insert(key).second)
            out.bonds.push_back(Bond{i, j, BondOrder::Single, false});
    }
    perceiveBonds(out);
    return true;
}

} // namespace

std::unique_ptr<MoleculeReader> makePdbReader(std::unique_ptr<std::istream> in, std::string path,
                                              ReadOptions options) {
    return std::make_unique<PdbReader>(std::move(in), std::move(path), std::move(options));
}

} // namespace pw
