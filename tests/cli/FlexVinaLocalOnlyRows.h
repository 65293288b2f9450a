// The starts of tests/data/flex/vina_local_only.txt (Vina 1.2.3's --local_only --flex numbers,
// written by vina_reference.sh) as QTest rows of one QStringList column "fields" (14 fields: name,
// rigid receptor, flex file, ligand file, then Vina's ten numbers), for the CPU and GPU suites
// that hold `minimize --flex` to them.
#pragma once

#include "cli/CliRun.h"

#include <QFile>
#include <QTextStream>
#include <QtTest>

namespace pw::test {

inline void addVinaLocalOnlyRows() {
    QTest::addColumn<QStringList>("fields");
    QFile f(testData("flex/vina_local_only.txt"));
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
