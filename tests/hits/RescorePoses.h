// RescorePoses: the 20 1iep poses of tests/data (the ten inputs and the ten Vina outputs) as one
// SDF, and the rescore columns a store holds, for the `hits rescore` suites (Vina and AD4).
#pragma once

#include "chem/MoleculeReader.h"
#include "chem/MoleculeWriter.h"
#include "cli/CliRun.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <cmath>
#include <map>
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

struct Energies {
    double affinity = NAN, inter = NAN, intra = NAN;
};

// `hits query --json` rows by source record (1-based), the rescore columns read as numbers
// (NaN for an empty cell).
inline std::map<int, Energies> storedEnergies(const QString& db, const QString& where = {}) {
    QStringList args{"hits", "query", db, "--columns",
                     "source_record,rescore_affinity,rescore_inter,rescore_intra", "--json"};
    if (!where.isEmpty())
        args << "--where" << where;
    const CliRun r = runCli(args);
    if (r.exitCode != 0)
        qFatal("hits query failed: %s", r.err.constData());
    std::map<int, Energies> out;
    auto num = [](const QJsonValue& v) { return v.isNull() ? NAN : v.toDouble(); };
    for (const QJsonObject& o : jsonLines(r.out))
        out[o["source_record"].toInt()] = {num(o["rescore_affinity"]), num(o["rescore_inter"]),
                                           num(o["rescore_intra"])};
    return out;
}

} // namespace pw::test
