// Vina 1.2.3's numbers of the flex cases (tests/data/flex/vina_score.txt for --score_only,
// vina_local_only.txt for --local_only, both written by vina_reference.sh) as QTest rows of one
// QStringList column "fields" (14 fields: name, rigid receptor, flex file, ligand file, then
// Vina's ten numbers), for the suites that hold `score --flex` and `minimize --flex` (CPU and
// GPU) to them.
#pragma once

#include "cli/CliRun.h"

#include <QFile>
#include <QTextStream>
#include <QtTest>

namespace pw::test {

// file: "vina_score.txt" or "vina_local_only.txt".
inline void addFlexVinaRows(const QString& file) {
    QTest::addColumn<QStringList>("fields");
    QFile f(testData("flex/" + file));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QTextStream in(&f);
    int cases = 0;
    while (!in.atEnd()) {
        const QString line = in.readLine();
        if (line.startsWith('#'))
            continue; // how it was measured
        const QStringList fields = line.split(' ', Qt::SkipEmptyParts);
        if (fields.isEmpty())
            continue;
        QCOMPARE(fields.size(), 14);
        QTest::newRow(qPrintable(fields[0])) << fields;
        ++cases;
    }
    QVERIFY(cases >= 10);
}

} // namespace pw::test
