// SDF export of the hit store, byte for byte: a few thousand poses with a cell of every kind
// SQLite can hand back (integers, reals from tiny to huge and -0, texts with newlines and carriage
// returns, empty texts, NULLs, blobs, a text in an INTEGER column) are exported on the serial
// path and on the placed one (read in storage order on several threads, each record written at
// its offset: through a mapping and by pwrite), and every file is compared with a record text
// built here, independently, from forEachSelected() and cellText(): the format the export has
// always written.
#include "chem/AtomicFile.h"
#include "chem/RankedSdfWriter.h"
#include "hits/HitExport.h"
#include "hits/HitImport.h"
#include "hits/HitStore.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>

#include "HitsTestData.h"

using namespace pw;
using namespace pw::hits;
using namespace pw::test;

namespace {

constexpr int kPoses = 3000;

// The export's record format, from the specification: the stored molblock and tag block, then a
// pw_hit_ tag for every non-tag column that is not NULL (its cellText, newlines as spaces, " "
// for an empty text), then $$$$.
std::string expectedSdf(const HitStore& s, const Selection& selection) {
    std::vector<std::string> extra;
    for (const ColumnInfo& c : s.columns())
        if (c.origin != ColumnOrigin::Tag)
            extra.push_back(c.name);
    std::vector<std::string> cols = extra;
    cols.insert(cols.begin(), "id");
    Statement blocks = s.prepare("SELECT molblock, sd_tags FROM pose_blocks WHERE id = ?");
    std::string out;
    forEachSelected(s, selection, cols, [&](const Statement& row) {
        blocks.bind(1, row.integer(0));
        if (blocks.step())
            out += blocks.text(0) + blocks.text(1);
        blocks.reset();
        for (size_t i = 0; i < extra.size(); ++i) {
            const int col = static_cast<int>(i) + 1;
            if (row.isNull(col))
                continue;
            std::string v = cellText(row, col);
            for (char& c : v)
                if (c == '\n' || c == '\r')
                    c = ' ';
            out += "> <" + std::string(kExportTagPrefix) + extra[i] + ">\n" +
                   (v.empty() ? std::string(" ") : v) + "\n\n";
        }
        out += "$$$$\n";
    });
    return out;
}

// A literal's bytes, NULs included.
template <size_t N> QByteArray bytes(const char (&text)[N]) {
    return QByteArray(text, int(N - 1));
}

struct RestoreTuning {
    ExportTuning was = exportTuning();
    ~RestoreTuning() { setExportTuning(was); }
};

} // namespace

class TestHitExport : public QObject {
    Q_OBJECT

private slots:
    void serialAndParallelExportsAreTheSpecifiedBytes() {
        QTemporaryDir dir;
        // Poses with tags some records lack (NULL cells) and a text tag.
        std::string sdf;
        for (int i = 0; i < kPoses; ++i) {
            char score[32];
            std::snprintf(score, sizeof score, "%.3f", -3.0 - (i * 7919 % 1000) / 100.0);
            std::string tags = tag("dock_score", score);
            if (i % 3)
                tags += tag("run", std::to_string(i % 10));
            if (i % 5 == 0)
                tags += tag("note", "pose " + std::to_string(i));
            sdf += ethanolRecord("e" + std::to_string(i), tags);
        }
        const QString in = dir.filePath("in.sdf");
        writeText(in, sdf);
        HitStore s(dir.filePath("h.db").toStdString(), HitStore::Mode::Create);
        {
            HitStore::Transaction tx(s);
            QCOMPARE(importSdf(s, in.toStdString(), ImportOptions{}).poses, long(kPoses));
            // Derived columns of each declared type, filled with every kind of cell.
            s.ensureDerivedColumn("x_int", ColumnType::Integer);
            s.ensureDerivedColumn("x_real", ColumnType::Real);
            s.ensureDerivedColumn("x_text", ColumnType::Text);
            s.exec("UPDATE poses SET"
                   " x_int = CASE id % 7 WHEN 0 THEN NULL WHEN 1 THEN 'not a number'"
                   "   WHEN 2 THEN -9223372036854775808 WHEN 3 THEN 9223372036854775807"
                   "   ELSE id * 37 - 50000 END,"
                   " x_real = CASE id % 6 WHEN 0 THEN NULL WHEN 1 THEN 1e-300 WHEN 2 THEN -0.0"
                   "   WHEN 3 THEN 1.0 / 3 WHEN 4 THEN 1.7976931348623157e308"
                   "   ELSE id * -0.125 END,"
                   " x_text = CASE id % 8 WHEN 0 THEN NULL WHEN 1 THEN ''"
                   "   WHEN 2 THEN 'two' || char(10) || 'lines' || char(13) || char(10) || 'end'"
                   "   WHEN 3 THEN x'00ff41' WHEN 4 THEN 'ünïcödé, \"quoted\"'"
                   "   WHEN 5 THEN x'' ELSE 'id ' || id END");
            tx.commit();
        }
        RestoreTuning restore;
        // Whether this file system lets the placed export map its output (else it writes by
        // pwrite, and only that variant can be checked here).
        bool mappable = false;
        {
            AtomicFile probe(dir.filePath("probe.sdf").toStdString());
            mappable = RankedSdfWriter::reservedBlocksStay(probe.positionalFd());
        }
        // The default order, a subset, orders by other columns, limits: each exported serially,
        // placed through a mapping and placed by pwrite (small chunks finished out of order).
        const Selection selections[] = {{},
                                        {"x_real < 0", "-x_real", -1},
                                        {"", "x_text", 1234},
                                        {"x_int > 0", "name", -1},
                                        {"x_int > 0", "", -1},
                                        {"", "", 100}};
        int k = 0;
        for (const Selection& sel : selections) {
            const std::string expected = expectedSdf(s, sel);
            QVERIFY(expected.size() > 1000);
            ExportTuning serial;
            serial.parallelAfter = size_t(1) << 40;
            setExportTuning(serial);
            const QString a = dir.filePath(QString("serial%1.sdf").arg(k));
            const long n = exportSdf(s, sel, a.toStdString());
            QCOMPARE(lastSdfExportPath(), SdfExportPath::Serial);
            QCOMPARE(long(QByteArray::fromStdString(expected).count("$$$$\n")), n);
            QVERIFY(readBytes(a) == QByteArray::fromStdString(expected));
            serial.sqlLimitUpTo = 0; // every limit applied while stepping, none in the SQL
            setExportTuning(serial);
            const QString stepped = dir.filePath(QString("stepped%1.sdf").arg(k));
            QCOMPARE(exportSdf(s, sel, stepped.toStdString()), n);
            QVERIFY(readBytes(stepped) == QByteArray::fromStdString(expected));
            ExportTuning parallel;
            parallel.parallelAfter = 0;
            parallel.chunk = 7; // many chunks, finished out of order
            parallel.threads = 3;
            setExportTuning(parallel);
            const QString b = dir.filePath(QString("placed%1.sdf").arg(k));
            QCOMPARE(exportSdf(s, sel, b.toStdString()), n);
            QCOMPARE(lastSdfExportPath(),
                     mappable ? SdfExportPath::PlacedMapped : SdfExportPath::PlacedPwrite);
            QVERIFY(readBytes(b) == QByteArray::fromStdString(expected));
            qputenv("POSEWRIGHT_COMMIT_PWRITE", "1");
            const QString c = dir.filePath(QString("pwrite%1.sdf").arg(k));
            const long pwritten = exportSdf(s, sel, c.toStdString());
            qunsetenv("POSEWRIGHT_COMMIT_PWRITE");
            QCOMPARE(pwritten, n);
            QCOMPARE(lastSdfExportPath(), SdfExportPath::PlacedPwrite);
            QVERIFY(readBytes(c) == QByteArray::fromStdString(expected));
            ++k;
        }
        // No temporary file was left beside the outputs.
        for (const QString& name : QDir(dir.path()).entryList(QDir::Files | QDir::Hidden))
            QVERIFY2(name.endsWith(".sdf") || name.endsWith(".db") || name == "in.sdf",
                     qPrintable(name));
        // Every kind of cell was exported.
        const QByteArray all = readBytes(dir.filePath("serial0.sdf"));
        QCOMPARE(all.count("$$$$\n"), kPoses);
        const QByteArray cells[] = {bytes("<pw_hit_x_int>\nnot a number\n"),
                                    bytes("<pw_hit_x_int>\n-9223372036854775808\n"),
                                    bytes("<pw_hit_x_int>\n9223372036854775807\n"),
                                    bytes("<pw_hit_x_real>\n1e-300\n"),
                                    bytes("<pw_hit_x_real>\n0\n"), // -0.0 is stored as 0
                                    bytes("<pw_hit_x_real>\n0.3333333333333333\n"),
                                    bytes("<pw_hit_x_real>\n1.7976931348623157e+308\n"),
                                    bytes("<pw_hit_x_text>\n \n"),
                                    bytes("<pw_hit_x_text>\ntwo lines  end\n"),
                                    bytes("<pw_hit_x_text>\n\0\xff"
                                          "A\n")};
        for (const QByteArray& cell : cells)
            QVERIFY2(all.contains(cell), cell.constData());
    }

    // A worker of the placed export that fails (here: its connection cannot open the store,
    // whose file was removed under the open store) stops the export with the store's error,
    // and leaves the target as it was and no temporary file beside it.
    void aFailedPlacedExportLeavesTheTargetUntouched() {
        QTemporaryDir dir;
        std::string sdf;
        for (int i = 0; i < 200; ++i)
            sdf += ethanolRecord("e" + std::to_string(i), tag("dock_score", std::to_string(-i)));
        const QString in = dir.filePath("in.sdf");
        writeText(in, sdf);
        const QString db = dir.filePath("h.db");
        HitStore s(db.toStdString(), HitStore::Mode::Create);
        {
            HitStore::Transaction tx(s);
            QCOMPARE(importSdf(s, in.toStdString(), ImportOptions{}).poses, 200L);
            tx.commit();
        }
        const QString target = dir.filePath("out.sdf");
        writeText(target, "keep me\n");
        RestoreTuning restore;
        ExportTuning placed;
        placed.parallelAfter = 0;
        placed.chunk = 16;
        placed.threads = 3;
        setExportTuning(placed);
        QVERIFY(QFile::remove(db)); // the open connection still reads it; new ones cannot
        try {
            exportSdf(s, {}, target.toStdString());
            QFAIL("the export succeeded without a readable store file");
        } catch (const StoreError& e) {
            QVERIFY2(std::string(e.what()).find("cannot open it again") != std::string::npos,
                     e.what());
        }
        QCOMPARE(readBytes(target), QByteArray("keep me\n"));
        for (const QString& name : QDir(dir.path()).entryList(QDir::Files | QDir::Hidden))
            QVERIFY2(name == "in.sdf" || name == "out.sdf", qPrintable(name));
    }
};

QTEST_GUILESS_MAIN(TestHitExport)
#include "test_hit_export.moc"
