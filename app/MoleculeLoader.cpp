#include "MoleculeLoader.h"

#include "chem/MoleculeReader.h"
#include "core/BondPerception.h"
#include "core/InputError.h"

#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <iterator>

namespace pw {
namespace {

void ensureBonds(Molecule& m) {
    if (m.bonds.empty() && m.atoms.size() > 1)
        perceiveBonds(m);
}

} // namespace

LoadResult loadMolecules(const QStringList& paths, LoadKind kind) {
    LoadResult result;
    result.kind = kind;
    result.paths = paths;
    std::string file;
    try {
        if (paths.isEmpty())
            throw InputError("", 0, "no file given");
        if (kind == LoadKind::Receptor && paths.size() > 1)
            throw InputError(paths[1].toStdString(), 0, "one receptor file expected");
        for (const QString& path : paths) {
            file = path.toStdString();
            if (kind == LoadKind::Receptor) {
                result.molecules.push_back(readMolecule(file));
                continue;
            }
            ReadOptions options;
            options.warn = [&result](const std::string& message) {
                result.warnings << QString::fromStdString(message);
            };
            std::vector<Molecule> read = readMolecules(file, options);
            std::move(read.begin(), read.end(), std::back_inserter(result.molecules));
        }
        for (Molecule& m : result.molecules)
            ensureBonds(m);
    } catch (const InputError& e) {
        result.molecules.clear();
        result.error = QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        // Anything else (out of memory, a toolkit error) still names the file.
        result.molecules.clear();
        result.error = QString::fromStdString(InputError::format(file, 0, e.what()));
    }
    return result;
}

QFuture<LoadResult> loadMoleculesAsync(const QStringList& paths, LoadKind kind) {
    return QtConcurrent::run([paths, kind] { return loadMolecules(paths, kind); });
}

} // namespace pw
