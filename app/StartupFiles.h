// StartupFiles: which files given on the command line are the receptor and which are ligands,
// and where the bundled example lives (source tree or installed share/posewright/examples).
#pragma once

#include <QString>
#include <QStringList>

namespace pw {

struct StartupFiles {
    QString receptor;    // empty when none was recognised
    QStringList ligands; // in the order given
};

// The receptor is the first .pdb/.ent/.pdbqt file that is named receptor* (case-insensitive)
// or holds more than kReceptorMinAtoms ATOM/HETATM records; every other file is a ligand file.
// Ligands are small: 300 atoms is beyond any drug-like ligand and below any protein pocket.
constexpr int kReceptorMinAtoms = 300;
StartupFiles classifyStartupFiles(const QStringList& files);

// ATOM/HETATM records in a PDB/PDBQT file, counted up to limit (then limit + 1 is returned).
int countPdbAtoms(const QString& path, int limit);

// The bundled example folder (receptor.pdbqt, ligand.pdbqt, box.txt): the installed copy next to
// the executable (../share/posewright/examples/1stp) first, then the source tree's. Empty when
// neither exists.
QString bundledExampleDir();
// The example's files, receptor first; empty when there is no example.
StartupFiles bundledExampleFiles();

} // namespace pw
