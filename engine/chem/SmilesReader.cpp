// SMILES files through RDKit: one record per line, streamed, bad lines reported and skipped.
#include "SmilesReader.h"

#include "RdkitConvert.h"
#include "StructureRepair.h"
#include "core/InputError.h"
#include "core/RotatableBonds.h"

#include <GraphMol/MolOps.h>
#include <GraphMol/SmilesParse/SmilesParse.h>
#include <RDGeneral/RDLog.h>

#include <filesystem>
#include <fstream>

namespace pw {
namespace {

// The SMILES as messages show it: long ones cut (a 102-nucleotide RNA is 6900 characters).
std::string smilesLabel(const std::string& smiles) {
    constexpr size_t kShown = 60;
    if (smiles.size() <= kShown)
        return "SMILES '" + smiles + "'";
    return "SMILES '" + smiles.substr(0, kShown) + "...' (" + std::to_string(smiles.size()) +
           " characters)";
}

// Refuses, from the graph alone, what is too large to embed in 3D: the embedding is the one
// step that can run for minutes, and RDKit can stop it only between attempts.
void checkEmbeddable(const RDKit::RWMol& mol, const Molecule& origin, const std::string& label,
                     const ReadOptions& limits) {
    Molecule graph = fromRdkit(mol, origin);
    const int heavy = graph.heavyAtomCount();
    if (heavy > limits.maxEmbedHeavyAtoms)
        throw InputError(origin.sourceFile, origin.sourceRecord,
                         label + " has " + std::to_string(heavy) +
                             " heavy atoms; 3D coordinates are generated for at most " +
                             std::to_string(limits.maxEmbedHeavyAtoms) +
                             " (a ligand): give it with 3D coordinates (SDF, MOL2, PDB)");
    const int torsions = markRotatableBonds(graph);
    if (torsions > limits.maxEmbedTorsions)
        throw InputError(origin.sourceFile, origin.sourceRecord,
                         label + " has " + std::to_string(torsions) +
                             " torsions; 3D coordinates are generated for at most " +
                             std::to_string(limits.maxEmbedTorsions) +
                             " (a ligand): give it with 3D coordinates (SDF, MOL2, PDB)");
}

// A SMILES that RDKit parses but cannot sanitize (Open Babel's aromatic chains such as "ccc",
// a four-valent N written without its charge): its graph through StructureRepair, sanitized
// again; the repair is reported through options.warn. Null when it cannot be mended.
std::unique_ptr<RDKit::RWMol> repairedSmiles(const std::string& smiles, const Molecule& origin,
                                             const ReadOptions& options) {
    std::unique_ptr<RDKit::RWMol> raw;
    try {
        raw.reset(RDKit::SmilesToMol(smiles, 0, /*sanitize=*/false));
    } catch (const std::exception&) {
        return nullptr;
    }
    if (!raw || raw->getNumAtoms() == 0)
        return nullptr;
    Molecule graph = origin;
    for (const RDKit::Atom* ra : raw->atoms()) {
        Atom a;
        a.element = ra->getAtomicNum();
        a.formalCharge = ra->getFormalCharge();
        a.aromatic = ra->getIsAromatic();
        graph.atoms.push_back(a);
    }
    for (const RDKit::Bond* rb : raw->bonds()) {
        BondOrder o = BondOrder::Single;
        switch (rb->getBondType()) {
        case RDKit::Bond::DOUBLE: o = BondOrder::Double; break;
        case RDKit::Bond::TRIPLE: o = BondOrder::Triple; break;
        case RDKit::Bond::AROMATIC: o = BondOrder::Aromatic; break;
        case RDKit::Bond::SINGLE: break;
        default: return nullptr; // dative, zero-order...: not ours to mend
        }
        graph.bonds.push_back(Bond{static_cast<int>(rb->getBeginAtomIdx()),
                                   static_cast<int>(rb->getEndAtomIdx()), o});
    }
    const std::vector<std::string> changes = repairStructure(graph);
    if (changes.empty())
        return nullptr;
    std::unique_ptr<RDKit::RWMol> mol = toRdkit(graph);
    for (const RDKit::Atom* ra : raw->atoms()) { // bracket atoms keep their hydrogen counts
        RDKit::Atom* a = mol->getAtomWithIdx(ra->getIdx());
        a->setNumExplicitHs(ra->getNumExplicitHs());
        a->setNoImplicit(ra->getNoImplicit());
    }
    try {
        RDKit::MolOps::sanitizeMol(*mol);
    } catch (const std::exception&) {
        return nullptr;
    }
    if (options.warn)
        options.warn(repairWarning(origin.sourceFile, origin.sourceRecord, origin, changes));
    return mol;
}

Molecule smilesToMolecule(const std::string& smiles, const std::string& name,
                          const ReadOptions& options, const std::string& file, long line) {
    const bool embed = options.embedSmiles;
    Molecule origin;
    origin.name = name;
    origin.sourceFile = file;
    origin.sourceRecord = line;
    const std::string label = smilesLabel(smiles);

    // RDKit prints parse and sanitization errors itself; we report them once, our way.
    RDLog::LogStateSetter quiet;
    std::unique_ptr<RDKit::RWMol> mol;
    try {
        mol.reset(RDKit::SmilesToMol(smiles));
    } catch (const std::exception& e) {
        mol = repairedSmiles(smiles, origin, options);
        if (!mol)
            throw InputError(file, line, label + " is not a valid molecule (" + e.what() + ")");
    }
    if (!mol)
        throw InputError(file, line, "cannot parse " + label + ": expected a SMILES string");
    if (mol->getNumAtoms() == 0)
        throw InputError(file, line, label + " has no atoms");

    RDKit::MolOps::addHs(*mol);
    if (static_cast<long>(mol->getNumAtoms()) > options.maxAtoms)
        throw InputError(file, line,
                         moleculeLabel(origin) + " has " + std::to_string(mol->getNumAtoms()) +
                             " atoms with hydrogens; at most " + std::to_string(options.maxAtoms) +
                             " are accepted");
    if (embed) {
        checkEmbeddable(*mol, origin, label, options);
        embed3D(*mol, origin);
    }
    Molecule out = fromRdkit(*mol, origin);
    out.setProperty("SMILES", smiles);
    return out;
}

std::string trim(const std::string& s) {
    const char* ws = " \t\r\n";
    size_t b = s.find_first_not_of(ws);
    if (b == std::string::npos)
        return {};
    return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

class SmilesFileReader : public MoleculeReader {
public:
    SmilesFileReader(const std::string& path, ReadOptions options) : in_(path) {
        path_ = path;
        format_ = FileFormat::Smiles;
        options_ = std::move(options);
        if (!in_)
            throw InputError(path, 0, "cannot open file for reading");
        stem_ = std::filesystem::path(path).stem().string();
    }

    bool next(Molecule& out) override {
        std::string text;
        while (std::getline(in_, text)) {
            ++line_;
            if (text.find('\0') != std::string::npos)
                throw InputError(path_, line_, "binary data in a SMILES file: expected text");
            text = trim(text);
            if (text.empty() || text[0] == '#')
                continue;
            size_t cut = text.find_first_of(" \t");
            std::string smiles = text.substr(0, cut);
            std::string name = cut == std::string::npos ? std::string() : trim(text.substr(cut));
            if (name.empty())
                name = stem_ + "_" + std::to_string(line_);
            try {
                out = smilesToMolecule(smiles, name, options_, path_, line_);
                ++read_;
                return true;
            } catch (const InputError& e) {
                ++skipped_;
                if (options_.warn)
                    options_.warn(e.what());
            }
        }
        return false;
    }

private:
    std::ifstream in_;
    std::string stem_;
    long line_ = 0;
};

} // namespace

std::unique_ptr<MoleculeReader> openSmilesReader(const std::string& path, ReadOptions options) {
    return std::make_unique<SmilesFileReader>(path, std::move(options));
}

Molecule moleculeFromSmiles(const std::string& smiles, const std::string& name, bool embed,
                            const std::string& where) {
    ReadOptions options;
    options.embedSmiles = embed;
    return smilesToMolecule(smiles, name, options, where, 0);
}

Molecule moleculeFromSmilesRecord(const std::string& smiles, const std::string& name,
                                  const ReadOptions& options, const std::string& file, long line) {
    return smilesToMolecule(smiles, name, options, file, line);
}

} // namespace pw
