// RescorePoses: the 20 1iep poses of tests/data (the ten inputs and the ten Vina outputs) as one
// SDF, for the `hits rescore` suites (Vina and AD4).
#pragma once

#include "chem/MoleculeReader.h"
#include "chem/MoleculeWriter.h"
#include "cli/CliRun.h"

#include <QString>

#include <vector>

namespace pw::test {

// Bond orders from the poses' SMILES remarks; names pose00 ... pose19.
inline void write1iepPosesSdf(const QString& path) {
    std::vector<Molecule> poses;
    for (const char* suffix : {"", "_out"})
        for (int i = 0; i < 10; ++i) {
            const QString file = testData(QString("complexes/1iep/poses/pose%1%2.pdbqt")
                                              .arg(i, 2, 10, QChar('0'))
                                              .arg(suffix));
            Molecule m = readMolecule(file.toStdString());
            m.name = "pose" + QString::number(poses.size()).rightJustified(2, '0').toStdString();
            poses.push_back(std::move(m));
        }
    writeMolecules(path.toStdString(), poses);
}

} // namespace pw::test
