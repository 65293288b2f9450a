// MoleculeLoader: reads receptor and ligand files into engine molecules, on a worker thread when
// asked, and turns every failure into one message (no exception ever crosses a thread).
#pragma once

#include "core/Molecule.h"

#include <QFuture>
#include <QString>
#include <QStringList>

#include <vector>

namespace pw {

enum class LoadKind { Receptor, Ligands };

struct LoadResult {
    LoadKind kind = LoadKind::Ligands;
    QStringList paths;
    std::vector<Molecule> molecules; // one for a receptor; every good record for ligands
    QString error;                   // "file:line: what was expected"; empty on success
    QStringList warnings;            // skipped records of a multi-record file
    bool ok() const { return error.isEmpty(); }
};

// Reads the files now. Receptor: the first record of the one file. Ligands: every record of every
// file, in order (bad records skipped with a warning); a file that cannot be read fails the whole
// load, so the caller never gets half of what was asked. Molecules read without bonds (PDB,
// PDBQT) get bonds perceived from distances.
LoadResult loadMolecules(const QStringList& paths, LoadKind kind);
// The same on Qt's global thread pool.
QFuture<LoadResult> loadMoleculesAsync(const QStringList& paths, LoadKind kind);

} // namespace pw
