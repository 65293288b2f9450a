// FlexDockRescore: what `dock --flex` wrote for its best pose, scored again by `score --flex`:
// the side chains of MODEL 1 of OUT_flex.pdbqt and the ligand's first SDF record's coordinates
// put on the input PDBQT's lines (same atom order). The CPU and GPU suites both check that this
// gives the reported affinity.
#pragma once

#include "cli/CliRun.h"

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QString>

#include <cmath>
#include <limits>

namespace pw::test {

// flexDir: the folder of tests/data/flex; work: where the two files are written. NaN (with a
// QWARN-free failure left to the caller) when the outputs are not as expected.
inline double rescoreBestFlexPose(const QString& flexDir, const QDir& work, const QByteArray& sdf,
                                  const QByteArray& flexOut, const QString& ligandPdbqt) {
    const double bad = std::numeric_limits<double>::quiet_NaN();
    QByteArray model = flexOut.mid(flexOut.indexOf("BEGIN_RES"));
    model = model.left(model.indexOf("ENDMDL"));
    QFile res(work.filePath("res.pdbqt"));
    if (!res.open(QIODevice::WriteOnly))
        return bad;
    res.write(model);
    res.close();
    const QList<QByteArray> rec = sdf.split('\n');
    QFile input(ligandPdbqt);
    if (rec.size() < 5 || !input.open(QIODevice::ReadOnly))
        return bad;
    QByteArray ligText;
    int atom = 0;
    for (QByteArray line : input.readAll().split('\n')) {
        if (line.startsWith("ATOM") || line.startsWith("HETATM")) {
            if (4 + atom >= rec.size())
                return bad;
            const QList<QByteArray> xyz = rec[4 + atom++].simplified().split(' ');
            if (xyz.size() < 3)
                return bad;
            line = line.left(30) +
                   QString::asprintf("%8.3f%8.3f%8.3f", xyz[0].toDouble(), xyz[1].toDouble(),
                                     xyz[2].toDouble())
                       .toLatin1() +
                   line.mid(54);
        }
        ligText += line + "\n";
    }
    QFile lig(work.filePath("lig.pdbqt"));
    if (!lig.open(QIODevice::WriteOnly))
        return bad;
    lig.write(ligText);
    lig.close();
    const CliRun s = runCli({"score", "--receptor", flexDir + "/1fpu_receptor_rigid.pdbqt", "--flex",
                             work.filePath("res.pdbqt"), "--ligand", work.filePath("lig.pdbqt"),
                             "--box", flexDir + "/1fpu_receptor.box.txt", "--json"});
    if (s.exitCode != 0)
        return bad;
    return jsonLines(s.out).value(0).value("affinity").toDouble();
}

} // namespace pw::test
