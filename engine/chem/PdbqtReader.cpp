#include "PdbqtReader.h"

#include "PdbRecords.h"
#include "PdbqtFragments.h"
#include "RecordReader.h"
#include "TextFields.h"
#include "core/BondPerception.h"
#include "core/InputError.h"
#include "core/RingClosure.h"

#include <cctype>
#include <unordered_map>
#include <vector>

namespace pw {
namespace {

struct BranchRecord {
    int parentSerial = 0, childSerial = 0;
    long line = 0;
};

void markAmmoniumCharges(Molecule& m) {
    // PDBQT has no formal charges, but an N with four single-bonded neighbours (a protonated
    // amine, as in imatinib's piperazine or a lysine) is N+: without it the molecule written as
    // SDF would not be valid chemistry (a four-valent neutral N).
    std::vector<int> degree(m.atoms.size(), 0);
    std::vector<bool> multiple(m.atoms.size(), false);
    for (const Bond& b : m.bonds) {
        ++degree[b.a];
        ++degree[b.b];
        if (b.order != BondOrder::Single || m.atoms[b.a].aromatic || m.atoms[b.b].aromatic)
            multiple[b.a] = multiple[b.b] = true;
    }
    for (size_t i = 0; i < m.atoms.size(); ++i)
        if (m.atoms[i].element == 7 && degree[i] == 4 && !multiple[i] &&
            m.atoms[i].formalCharge == 0)
            m.atoms[i].formalCharge = 1;
}

class PdbqtReader final : public RecordReader {
public:
    PdbqtReader(std::unique_ptr<std::istream> in, std::string path, ReadOptions options)
        : RecordReader(std::move(in), std::move(path), FileFormat::Pdbqt, std::move(options)),
          stem_(fileStem(path_)) {}

protected:
    bool multiRecord() const override { return multi_; }
    void skipToNextRecord() override {
        if (atRecordEnd_)
            return;
        std::string_view line;
        while (lines_.next(line))
            if (text::startsWith(line, "ENDMDL"))
                return;
    }
    bool readRecord(Molecule& out) override;

private:
    void readRemark(std::string_view line, Molecule& out);
    void resetTree();
    void startNextFragment(Molecule& out);
    void replayRemarks(Molecule& out);
    void finishTree(Molecule& out);
    void bondRingClosures(Molecule& out, const std::vector<int>& owner);

    std::string stem_;
    bool multi_ = false;
    bool atRecordEnd_ = false;
    long record_ = 0;
    // Per record: the tree being read.
    std::vector<BranchRecord> branches_; // index = node index (0 = root, unused)
    std::vector<int> openNodes_;         // ROOT/BRANCH scopes not closed yet
    bool inRoot_ = false;
    std::unordered_map<int, int> serialToIndex_;
    std::vector<long> atomLines_; // line of each atom read, for messages
    // Open Babel writes a multi-part SMILES as complete torsion trees one after another in one
    // record (REMARKs, ROOT ... TORSDOF, then again): a ROOT after a tree ended by TORSDOF starts
    // the next fragment, and the REMARKs between belong to it, as they would in its own file.
    bool treeEnded_ = false;
    std::vector<std::string> remarksAfterTree_;
    long rootLine_ = 0;
    PdbqtFragments fragments_;
    PdbAtomFields fields_;
    PdbResidueTracker residues_;
};

void PdbqtReader::resetTree() {
    branches_.clear();
    openNodes_.clear();
    inRoot_ = false;
    serialToIndex_.clear();
    atomLines_.clear();
    residues_.reset();
    treeEnded_ = false;
    remarksAfterTree_.clear();
}

bool PdbqtReader::readRecord(Molecule& out) {
    atRecordEnd_ = false;
    resetTree();
    fragments_.reset();
    bool inModel = false, sawContent = false;
    long startLine = 0;
    std::string_view line;
    while (lines_.next(line)) {
        if (text::isBlank(line))
            continue;
        if (!sawContent) {
            sawContent = true;
            startLine = lines_.lineNumber();
            ++record_;
            out.name = stem_;
            out.sourceRecord = record_;
        }
        if (text::startsWith(line, "MODEL")) {
            if (inModel || !out.atoms.empty())
                lines_.fail("expected ENDMDL before the next MODEL");
            inModel = multi_ = true;
            continue;
        }
        if (text::startsWith(line, "ENDMDL")) {
            atRecordEnd_ = true;
            break;
        }
        if (treeEnded_ && (isPdbAtomLine(line) || text::startsWith(line, "BRANCH"))) {
            // The tree goes on after its TORSDOF (accepted as before): the REMARKs read since
            // are this ligand's.
            treeEnded_ = false;
            replayRemarks(out);
        }
        if (isPdbAtomLine(line)) {
            parsePdbAtomLine(line, lines_, fields_);
            if (out.torsionTree && openNodes_.empty())
                lines_.fail("atom outside ROOT/ENDROOT or BRANCH/ENDBRANCH; expected every atom "
                            "of a ligand inside its torsion tree");
            int residue = -1;
            if (!residues_.accept(fields_, out, residue))
                continue; // another alternate location
            Atom a;
            a.name.assign(text::trim(fields_.name));
            a.serial = fields_.serial;
            a.position = fields_.position;
            a.residue = residue;
            // Columns 78-80 as Vina reads them: Meeko's ring-closure types (CG0..CG3) take three.
            std::string_view type = text::trim(text::columns(line, 78, 80));
            if (type.empty())
                lines_.fail("expected an AutoDock atom type in columns 78-79 (C, A, N, NA, OA, "
                            "HD, ...), found nothing");
            if (type == "W" && out.torsionTree)
                lines_.fail("atom type W: hydrated ligands (Vina 1.2 / AutoDock-GPU hydrated "
                            "docking, Meeko -w) are not supported; expected a ligand without "
                            "W water pseudo-atoms (prepare it without -w)");
            a.ad4Type.assign(type);
            a.element = elementOfAd4Type(type);
            if (a.element == 0 && closureDummyIndex(type) < 0)
                lines_.fail("unknown AutoDock atom type " + text::quote(type) +
                            " in columns 78-79; expected C, A, N, NA, OA, S, SA, HD, ... or an "
                            "element symbol");
            a.aromatic = type == "A";
            std::string_view charge = text::columns(line, 67, 76);
            if (!text::isBlank(charge) && !text::toDouble(charge, a.charge))
                lines_.fail("expected a partial charge in columns 71-76, found " +
                            text::quote(charge));
            if (out.torsionTree) {
                out.torsionTree->nodes[openNodes_.back()].atoms.push_back(
                    static_cast<int>(out.atoms.size()));
                if (!serialToIndex_.emplace(a.serial, static_cast<int>(out.atoms.size())).second)
                    lines_.fail("atom serial number " + std::to_string(a.serial) +
                                " is used twice; BRANCH records need unique serials");
            }
            out.atoms.push_back(std::move(a));
            atomLines_.push_back(lines_.lineNumber());
            requireAtomLimit(static_cast<long>(out.atoms.size()), lines_.lineNumber());
        } else if (text::startsWith(line, "ROOT")) {
            if (out.torsionTree && treeEnded_)
                startNextFragment(out);
            if (out.torsionTree)
                lines_.fail("second ROOT record; expected one ROOT per ligand (or complete "
                            "torsion trees one after another, each ended by TORSDOF)");
            if (!out.atoms.empty())
                lines_.fail("ROOT after ATOM records; expected ROOT before the ligand's atoms");
            out.torsionTree.emplace();
            out.torsionTree->nodes.emplace_back();
            rootLine_ = lines_.lineNumber();
            branches_.push_back(BranchRecord{0, 0, lines_.lineNumber()});
            openNodes_.push_back(0);
            inRoot_ = true;
        } else if (text::startsWith(line, "ENDROOT")) {
            if (!inRoot_)
                lines_.fail("ENDROOT without ROOT");
            inRoot_ = false;
            openNodes_.pop_back();
        } else if (text::startsWith(line, "BRANCH")) {
            std::vector<std::string_view> t;
            text::split(line, t);
            BranchRecord b{0, 0, lines_.lineNumber()};
            if (t.size() < 3 || !text::toInt(t[1], b.parentSerial) ||
                !text::toInt(t[2], b.childSerial))
                lines_.fail("expected 'BRANCH' followed by two atom serial numbers, found " +
                            text::quote(line));
            if (!out.torsionTree || inRoot_)
                lines_.fail("BRANCH outside the torsion tree; expected it after ENDROOT");
            // A BRANCH right after ENDROOT (or ENDBRANCH back at the root level) hangs on the
            // root; inside another BRANCH it hangs on that one.
            int parent = openNodes_.empty() ? 0 : openNodes_.back();
            TorsionTree& tree = *out.torsionTree;
            int node = static_cast<int>(tree.nodes.size());
            tree.nodes.emplace_back();
            tree.nodes[node].parent = parent;
            tree.nodes[parent].children.push_back(node);
            branches_.push_back(b);
            openNodes_.push_back(node);
        } else if (text::startsWith(line, "ENDBRANCH")) {
            std::vector<std::string_view> t;
            text::split(line, t);
            int a = 0, b = 0;
            if (t.size() < 3 || !text::toInt(t[1], a) || !text::toInt(t[2], b))
                lines_.fail("expected 'ENDBRANCH' followed by two atom serial numbers, found " +
                            text::quote(line));
            if (openNodes_.empty() || openNodes_.back() == 0)
                lines_.fail("ENDBRANCH without an open BRANCH");
            const BranchRecord& open = branches_[openNodes_.back()];
            if (open.parentSerial != a || open.childSerial != b)
                lines_.fail("ENDBRANCH " + std::to_string(a) + " " + std::to_string(b) +
                            " does not close the open BRANCH " + std::to_string(open.parentSerial) +
                            " " + std::to_string(open.childSerial) + " (line " +
                            std::to_string(open.line) + ")");
            openNodes_.pop_back();
        } else if (text::startsWith(line, "TORSDOF")) {
            out.setProperty("TORSDOF", std::string(text::trim(line.substr(7))));
            if (out.torsionTree && !inRoot_ && openNodes_.empty())
                treeEnded_ = true;
        } else if (text::startsWith(line, "REMARK")) {
            if (treeEnded_)
                remarksAfterTree_.emplace_back(line);
            else
                readRemark(line, out);
        } else if (text::startsWith(line, "BEGIN_RES")) {
            lines_.fail("flexible receptor residues (BEGIN_RES ... END_RES) in a ligand or "
                        "receptor file; expected them in their own file, passed with --flex "
                        "(Vina's docked output holds both: split ligand and residues)");
        }
        // TER, END, USER, CRYST1 and other records carry nothing we keep.
    }
    if (!sawContent)
        return false;
    replayRemarks(out); // REMARKs after the last TORSDOF: this ligand's, as in a one-tree file
    if (out.atoms.empty() && fragments_.count() == 0)
        lines_.fail(startLine, "no ATOM or HETATM records; expected the atoms of a receptor or "
                               "ligand");
    if (inModel && !atRecordEnd_)
        lines_.fail("unexpected end of file, expected ENDMDL");
    if (out.torsionTree) {
        finishTree(out);
    } else {
        perceiveBonds(out);
        bondRingClosures(out, std::vector<int>(out.atoms.size(), 0));
    }
    markAmmoniumCharges(out);
    if (fragments_.count() > 0) {
        fragments_.offer(std::move(out), rootLine_);
        repairNote_ = fragments_.warning(path_);
        out = fragments_.takeKept();
    }
    return true;
}

// A ROOT after a finished tree: that tree is one fragment of a multi-part ligand. It is checked
// and bonded as a ligand of its own (its BRANCH serials resolve among its own atoms: Open Babel
// numbers every fragment from 1), and out starts afresh, as for a new file.
void PdbqtReader::startNextFragment(Molecule& out) {
    std::vector<std::string> remarks = std::move(remarksAfterTree_);
    finishTree(out);
    markAmmoniumCharges(out);
    fragments_.offer(std::move(out), rootLine_);
    clearMolecule(out);
    resetTree();
    out.name = stem_;
    out.sourceRecord = record_;
    remarksAfterTree_ = std::move(remarks);
    replayRemarks(out);
}

void PdbqtReader::replayRemarks(Molecule& out) {
    for (const std::string& remark : remarksAfterTree_)
        readRemark(remark, out);
    remarksAfterTree_.clear();
}

void PdbqtReader::readRemark(std::string_view line, Molecule& out) {
    std::string_view rest = text::trim(line.substr(6));
    if (!text::isValidUtf8(rest))
        return; // commentary in another encoding: not worth refusing a structure for
    // Meeko's REMARK SMILES / SMILES IDX / H PARENT may span several lines: join them.
    for (std::string_view key : {"SMILES IDX", "H PARENT", "SMILES"}) {
        if (text::startsWith(rest, key) && (rest.size() == key.size() || rest[key.size()] == ' ')) {
            std::string value(text::trim(rest.substr(key.size())));
            if (const std::string* old = out.property(std::string(key)))
                value = *old + " " + value;
            out.setProperty(std::string(key), std::move(value));
            return;
        }
    }
    // ADT: "REMARK  Name = ligand".
    if (text::startsWith(rest, "Name = ")) {
        out.name.assign(text::trim(rest.substr(7)));
        return;
    }
    // "REMARK VINA RESULT:  -9.1  0.000  0.000", "REMARK INTER:  -8.4", "REMARK key: value".
    size_t colon = rest.find(':');
    if (colon == std::string_view::npos || colon == 0)
        return;
    std::string_view key = text::trim(rest.substr(0, colon));
    std::string_view value = text::trim(rest.substr(colon + 1));
    // ADT's torsion listing ("5 active torsions:", "1  A  between atoms: ...", "status: ...")
    // describes the tree we rebuild anyway.
    if (key.empty() || value.empty() || !std::isalpha(static_cast<unsigned char>(key[0])) ||
        key == "status")
        return;
    out.setProperty(std::string(key), std::string(value));
}

void PdbqtReader::finishTree(Molecule& out) {
    if (inRoot_ || !openNodes_.empty()) {
        long line = branches_[openNodes_.empty() ? 0 : openNodes_.back()].line;
        lines_.fail(line, inRoot_ ? "ROOT is never closed; expected ENDROOT"
                                  : "BRANCH is never closed; expected ENDBRANCH");
    }
    TorsionTree& tree = *out.torsionTree;
    std::vector<int> owner = tree.nodeOfAtom(static_cast<int>(out.atoms.size()));
    for (size_t n = 1; n < tree.nodes.size(); ++n) {
        TorsionNode& node = tree.nodes[n];
        const BranchRecord& b = branches_[n];
        auto parentIt = serialToIndex_.find(b.parentSerial);
        auto childIt = serialToIndex_.find(b.childSerial);
        if (parentIt == serialToIndex_.end() || owner[parentIt->second] != node.parent)
            lines_.fail(b.line, "BRANCH " + std::to_string(b.parentSerial) + " " +
                                    std::to_string(b.childSerial) + ": atom " +
                                    std::to_string(b.parentSerial) +
                                    " must be an atom of the enclosing ROOT or BRANCH");
        if (childIt == serialToIndex_.end() || owner[childIt->second] != static_cast<int>(n))
            lines_.fail(b.line, "BRANCH " + std::to_string(b.parentSerial) + " " +
                                    std::to_string(b.childSerial) + ": atom " +
                                    std::to_string(b.childSerial) +
                                    " must be an atom inside this BRANCH");
        node.axisParentAtom = parentIt->second;
        node.axisChildAtom = childIt->second;
    }
    if (tree.nodes[0].atoms.empty())
        lines_.fail(branches_[0].line, "ROOT has no atoms; expected at least one");

    // Rigid fragments are joined only through their BRANCH bonds, so a distance contact between
    // two fragments (a clash in a pose) is not a bond.
    perceiveBonds(out);
    std::vector<Bond> kept;
    kept.reserve(out.bonds.size());
    for (const Bond& bond : out.bonds)
        if (owner[bond.a] == owner[bond.b])
            kept.push_back(bond);
    out.bonds.swap(kept);
    for (size_t n = 1; n < tree.nodes.size(); ++n) {
        const TorsionNode& node = tree.nodes[n];
        out.bonds.push_back(Bond{node.axisParentAtom, node.axisChildAtom, BondOrder::Single, true});
    }
    bondRingClosures(out, owner);
}

// A Gn pseudo-atom has no element: distance perception may bond it to anything. Its one bond is
// to the nearest CGn carbon of its own rigid fragment (Meeko places it 1.5 Å from that carbon, on
// the partner carbon's spot); then the closures must pair up (core/RingClosure.h).
void PdbqtReader::bondRingClosures(Molecule& out, const std::vector<int>& owner) {
    if (!hasRingClosures(out))
        return;
    std::erase_if(out.bonds, [&](const Bond& b) {
        return isClosureDummy(out.atoms[b.a]) || isClosureDummy(out.atoms[b.b]);
    });
    // Å: C-C is 1.5; a CGn much closer than a bond is the partner carbon the Gn stands on.
    constexpr double kMaxHostDistance = 2.0, kMinHostDistance = 0.5;
    const int n = static_cast<int>(out.atoms.size());
    for (int g = 0; g < n; ++g) {
        const int k = closureDummyIndex(out.atoms[g].ad4Type);
        if (k < 0)
            continue;
        int host = -1;
        double best = kMaxHostDistance;
        for (int c = 0; c < n; ++c) {
            if (closureCarbonIndex(out.atoms[c].ad4Type) != k || owner[c] != owner[g])
                continue;
            const double d = (out.atoms[c].position - out.atoms[g].position).norm();
            if (d > kMinHostDistance && d < best) {
                best = d;
                host = c;
            }
        }
        if (host >= 0)
            out.bonds.push_back(Bond{host, g, BondOrder::Single, false});
    }
    std::vector<ClosureBond> closures;
    int atom = -1;
    const std::string problem = findRingClosures(out, closures, &atom);
    if (!problem.empty())
        lines_.fail(atom >= 0 ? atomLines_[atom] : 0, problem);
}

} // namespace

std::unique_ptr<MoleculeReader> makePdbqtReader(std::unique_ptr<std::istream> in, std::string path,
                                                ReadOptions options) {
    return std::make_unique<PdbqtReader>(std::move(in), std::move(path), std::move(options));
}

} // namespace pw
