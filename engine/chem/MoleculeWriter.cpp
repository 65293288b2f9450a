#include "MoleculeWriter.h"

#include "AtomicFile.h"
#include "PdbWriter.h"
#include "PdbqtWriter.h"
#include "SdfWriter.h"
#include "TextFields.h"
#include "core/InputError.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <stdexcept>

namespace pw {
namespace {

class SdfFileWriter final : public MoleculeWriter {
public:
    explicit SdfFileWriter(const std::string& path) : file_(path) {}
    void write(const Molecule& m) override {
        requireOpen();
        writeSdfRecord(file_.stream(), m);
    }
    void commit() override { file_.commit(); }

private:
    void requireOpen() const {
        if (file_.committed())
            throw std::logic_error("MoleculeWriter::write after commit()");
    }
    AtomicFile file_;
};

// PDB and PDBQT wrap records in MODEL/ENDMDL only when there are several, so the first one
// waits until a second arrives or commit() says it was alone.
class ModelFileWriter final : public MoleculeWriter {
public:
    ModelFileWriter(const std::string& path, bool pdbqt) : file_(path), pdbqt_(pdbqt) {}
    void write(const Molecule& m) override {
        if (file_.committed())
            throw std::logic_error("MoleculeWriter::write after commit()");
        ++count_;
        if (count_ == 1) {
            first_ = m;
            return;
        }
        if (count_ == 2) {
            emit(*first_, 1);
            first_.reset();
        }
        emit(m, count_);
    }
    void commit() override {
        if (first_)
            emit(*first_, 0);
        first_.reset();
        if (!pdbqt_)
            file_.stream() << "END\n";
        file_.commit();
    }

private:
    void emit(const Molecule& m, int model) {
        std::ostream& out = file_.stream();
        if (!pdbqt_) {
            writePdbRecord(out, m, model);
            return;
        }
        if (model > 0)
            out << "MODEL " << model << '\n';
        out << pdbqtText(m);
        if (model > 0)
            out << "ENDMDL\n";
    }

    AtomicFile file_;
    bool pdbqt_;
    int count_ = 0;
    std::optional<Molecule> first_;
};

} // namespace

std::unique_ptr<MoleculeWriter> MoleculeWriter::create(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".sdf" || ext == ".sd" || ext == ".mol")
        return std::make_unique<SdfFileWriter>(path);
    if (ext == ".pdbqt")
        return std::make_unique<ModelFileWriter>(path, true);
    if (ext == ".pdb" || ext == ".ent")
        return std::make_unique<ModelFileWriter>(path, false);
    throw InputError(path, 0,
                     "cannot write files with extension " + text::quote(ext) +
                         "; expected .sdf, .pdbqt or .pdb");
}

void writeMolecules(const std::string& path, const std::vector<Molecule>& molecules) {
    auto writer = MoleculeWriter::create(path);
    for (const Molecule& m : molecules)
        writer->write(m);
    writer->commit();
}

} // namespace pw
