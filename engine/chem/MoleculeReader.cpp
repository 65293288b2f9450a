#include "MoleculeReader.h"

#include "Mol2Reader.h"
#include "PdbReader.h"
#include "PdbRecords.h"
#include "PdbqtReader.h"
#include "SdfReader.h"
#include "SmilesReader.h"
#include "TextFields.h"
#include "core/InputError.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

namespace pw {

FileFormat formatFromPath(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".pdb" || ext == ".ent")
        return FileFormat::Pdb;
    if (ext == ".pdbqt")
        return FileFormat::Pdbqt;
    if (ext == ".sdf" || ext == ".mol" || ext == ".sd")
        return FileFormat::Sdf;
    if (ext == ".mol2")
        return FileFormat::Mol2;
    if (ext == ".smi" || ext == ".smiles" || ext == ".ism")
        return FileFormat::Smiles;
    return FileFormat::Unknown;
}

std::string formatName(FileFormat f) {
    switch (f) {
    case FileFormat::Pdb:
        return "PDB";
    case FileFormat::Pdbqt:
        return "PDBQT";
    case FileFormat::Sdf:
        return "SDF";
    case FileFormat::Mol2:
        return "MOL2";
    case FileFormat::Smiles:
        return "SMILES";
    default:
        return "unknown";
    }
}

namespace {

constexpr size_t kHeadBytes = 64 * 1024;

// Refuses compressed and binary files before any parser sees them: a NUL byte, or more than
// one byte in ten that is a control character no text file contains.
void checkText(std::string_view head, const std::string& path, FileFormat format) {
    const std::string expected = "; expected a plain-text " + formatName(format) + " file";
    if (head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
        static_cast<unsigned char>(head[1]) == 0x8b)
        throw InputError(path, 0, "file is gzip-compressed; decompress it first" + expected);
    size_t control = 0;
    long line = 1;
    for (size_t i = 0; i < head.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(head[i]);
        if (c == 0)
            throw InputError(path, line,
                             "binary file (NUL byte at offset " + std::to_string(i) + ")" +
                                 expected);
        if (c == '\n')
            ++line;
        else if (c < 0x20 && c != '\t' && c != '\r' && c != '\f' && c != '\v')
            ++control;
        else if (c == 0x7f)
            ++control;
    }
    if (control * 10 > head.size())
        throw InputError(path, 0,
                         "binary file (" + std::to_string(control) +
                             " control bytes in the first " + std::to_string(head.size()) + ")" +
                             expected);
    if (text::isBlank(head) || head.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos)
        throw InputError(path, 0, "file contains only blank lines" + expected);
}

} // namespace

std::unique_ptr<MoleculeReader> MoleculeReader::open(const std::string& path, ReadOptions options) {
    namespace fs = std::filesystem;
    if (path.empty())
        throw InputError(path, 0, "no file name given; expected a molecule file");
    std::error_code ec;
    fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st))
        throw InputError(path, 0, "file not found; expected an existing molecule file");
    if (fs::is_directory(st))
        throw InputError(path, 0, "is a directory; expected a molecule file");
    FileFormat format = formatFromPath(path);
    if (format == FileFormat::Unknown)
        throw InputError(path, 0,
                         "unknown file extension " +
                             text::quote(fs::path(path).extension().string()) +
                             "; expected .pdb, .pdbqt, .sdf, .mol, .mol2 or .smi");

    auto in = std::make_unique<std::ifstream>(path, std::ios::binary);
    if (!*in)
        throw InputError(path, 0, "cannot be opened for reading (check its permissions)");
    std::string head(kHeadBytes, '\0');
    in->read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in->gcount()));
    if (head.empty())
        throw InputError(path, 0,
                         std::string("file is empty; expected ") +
                             (format == FileFormat::Sdf ? "an " : "a ") + formatName(format) +
                             " file");
    checkText(head, path, format);
    switch (format) {
    case FileFormat::Sdf:
        checkSdfContent(head, path);
        break;
    case FileFormat::Pdb:
    case FileFormat::Pdbqt:
        checkPdbContent(head, path, format);
        break;
    case FileFormat::Mol2:
        checkMol2Content(head, path);
        break;
    case FileFormat::Smiles:
        return openSmilesReader(path, std::move(options));
    default:
        break;
    }
    in->clear();
    in->seekg(0);
    return fromStream(std::move(in), format, path, std::move(options));
}

std::unique_ptr<MoleculeReader> MoleculeReader::fromStream(std::unique_ptr<std::istream> in,
                                                           FileFormat format,
                                                           const std::string& name,
                                                           ReadOptions options) {
    switch (format) {
    case FileFormat::Sdf:
        return makeSdfReader(std::move(in), name, std::move(options));
    case FileFormat::Pdbqt:
        return makePdbqtReader(std::move(in), name, std::move(options));
    case FileFormat::Pdb:
        return makePdbReader(std::move(in), name, std::move(options));
    case FileFormat::Mol2:
        return makeMol2Reader(std::move(in), name, std::move(options));
    default:
        throw InputError(name, 0,
                         formatName(format) + " cannot be read from a stream; expected a file");
    }
}

namespace {

// Wraps warn so that the first skipped record's message can be repeated when nothing was read.
ReadOptions rememberFirstWarning(ReadOptions options, std::shared_ptr<std::string> first) {
    auto user = options.warn;
    options.warn = [user, first](const std::string& message) {
        if (first->empty())
            *first = message;
        if (user)
            user(message);
    };
    return options;
}

[[noreturn]] void throwNothingRead(const MoleculeReader& reader, const std::string& first) {
    std::string what = "no molecule could be read";
    if (reader.recordsSkipped() > 0)
        what += " (" + std::to_string(reader.recordsSkipped()) +
                " bad records skipped; the first: " + first + ")";
    throw InputError(reader.path(), 0, what);
}

} // namespace

std::vector<Molecule> readMolecules(const std::string& path, ReadOptions options) {
    auto first = std::make_shared<std::string>();
    auto reader = MoleculeReader::open(path, rememberFirstWarning(std::move(options), first));
    std::vector<Molecule> result;
    Molecule m;
    while (reader->next(m))
        result.push_back(std::move(m));
    if (result.empty())
        throwNothingRead(*reader, *first);
    return result;
}

Molecule readMolecule(const std::string& path, ReadOptions options) {
    auto first = std::make_shared<std::string>();
    auto reader = MoleculeReader::open(path, rememberFirstWarning(std::move(options), first));
    Molecule m;
    if (!reader->next(m))
        throwNothingRead(*reader, *first);
    return m;
}

} // namespace pw
