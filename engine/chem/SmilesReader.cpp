// SMILES files through RDKit: one record per line, streamed, bad lines reported and skipped.
#include "SmilesReader.h"

#include "RdkitConvert.h"
#include "core/InputError.h"

#include <GraphMol/MolOps.h>
#include <GraphMol/SmilesParse/SmilesParse.h>
#include <RDGeneral/RDLog.h>

#include <filesystem>
#include <fstream>

namespace pw {
namespace {

Molecule smilesToMolecule(const std::string& smiles, const std::string& name, bool embed,
                          const std::string& file, long line) {
    Molecule origin;
    origin.name = name;
    origin.sourceFile = file;
    origin.sourceRecord = line;
    const std::string label = "SMILES '" + smiles + "'";

    // RDKit prints parse and sanitization errors itself; we report them once, our way.
    RDLog::LogStateSetter quiet;
    std::unique_ptr<RDKit::RWMol> mol;
    try {
        mol.reset(RDKit::SmilesToMol(smiles));
    } catch (const std::exception& e) {
        throw InputError(file, line, label + " is not a valid molecule (" + e.what() + ")");
    }
    if (!mol)
        throw InputError(file, line, "cannot parse " + label + ": expected a SMILES string");
    if (mol->getNumAtoms() == 0)
        throw InputError(file, line, label + " has no atoms");

    RDKit::MolOps::addHs(*mol);
    if (embed) {
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
                Molecule m = smilesToMolecule(smiles, name, options_.embedSmiles, path_, line_);
                if (static_cast<int>(m.atoms.size()) > options_.maxAtoms)
                    throw InputError(path_, line_,
                                     "molecule '" + name + "' has " +
                                         std::to_string(m.atoms.size()) +
                                         " atoms with hydrogens; at most " +
                                         std::to_string(options_.maxAtoms) + " are accepted");
                out = std::move(m);
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
    return smilesToMolecule(smiles, name, embed, where, 0);
}

} // namespace pw
