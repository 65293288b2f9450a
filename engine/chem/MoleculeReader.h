// MoleculeReader: opens a molecule file by format (extension, checked against the content) and
// streams its records one at a time, so that million-record files are read in bounded memory.
#pragma once

#include "core/Molecule.h"

#include <functional>
#include <istream>
#include <memory>
#include <string>
#include <vector>

namespace pw {

enum class FileFormat { Unknown, Pdb, Pdbqt, Sdf, Mol2, Smiles };

// From the file name's extension (.pdb/.ent, .pdbqt, .sdf/.mol/.sd, .mol2, .smi/.smiles/.ism);
// a trailing .gz is not supported and gives Unknown.
FileFormat formatFromPath(const std::string& path);
std::string formatName(FileFormat f);

struct ReadOptions {
    // Called once per skipped bad record with a full message (file:line: what was expected).
    std::function<void(const std::string&)> warn;
    // Upper bound on atoms per record; larger records are refused as "not a ligand/molecule".
    int maxAtoms = 1000000;
    // SMILES without coordinates get 3D coordinates (RDKit ETKDG + MMFF) when true.
    bool embedSmiles = true;
    // Checked on the graph before any 3D embedding (which can run for many minutes on a large
    // molecule, and can only be stopped between attempts): larger SMILES records are refused
    // with a message (the ligand limits of LigandPreparationOptions).
    int maxEmbedHeavyAtoms = 1000;
    int maxEmbedTorsions = 64;
};

class MoleculeReader {
public:
    virtual ~MoleculeReader() = default;

    // Opens PATH; throws InputError when the file is missing, unreadable, empty, binary, or its
    // content does not match the format its extension names.
    static std::unique_ptr<MoleculeReader> open(const std::string& path, ReadOptions options = {});
    // Reads from a stream that is already open (in-memory text, tests); name stands for the
    // file in messages. No extension or content check is made; SMILES is not available here.
    static std::unique_ptr<MoleculeReader> fromStream(std::unique_ptr<std::istream> in,
                                                      FileFormat format, const std::string& name,
                                                      ReadOptions options = {});

    // Reads the next good record into out; returns false at end of file. A bad record is
    // skipped (options.warn is told) in multi-record formats; in single-record formats
    // (PDB, PDBQT receptor) it throws InputError. out is reused (its vectors keep their
    // capacity) and is left cleared when next() returns false.
    virtual bool next(Molecule& out) = 0;

    int recordsRead() const { return read_; }
    int recordsSkipped() const { return skipped_; }
    FileFormat format() const { return format_; }
    const std::string& path() const { return path_; }

protected:
    std::string path_;
    FileFormat format_ = FileFormat::Unknown;
    ReadOptions options_;
    int read_ = 0;
    int skipped_ = 0;
};

// Every record of a file (throws InputError when none could be read).
std::vector<Molecule> readMolecules(const std::string& path, ReadOptions options = {});
// The first record (throws InputError when there is none).
Molecule readMolecule(const std::string& path, ReadOptions options = {});

} // namespace pw
