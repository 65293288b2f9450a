// Vina box config parsing (good files, and bad ones with file:line messages) and Vina's grid
// rounding of a box.
#include "core/InputError.h"
#include "score/BoxConfig.h"

#include <QtTest>

#include <sstream>

using namespace pw;

class TestBoxConfig : public QObject {
    Q_OBJECT

    static QString errorOf(const std::string& text) {
        std::istringstream in(text);
        try {
            parseBoxConfig(in, "box.txt");
        } catch (const InputError& e) {
            return QString::fromStdString(e.what());
        }
        return {};
    }

private slots:
    void readsTheTestBoxes() {
        const SearchBox b =
            readBoxConfig(std::string(POSEWRIGHT_TEST_DATA) + "/complexes/1iep/box.txt");
        QCOMPARE(b.center.x(), 15.19);
        QCOMPARE(b.center.y(), 53.903);
        QCOMPARE(b.center.z(), 16.917);
        QCOMPARE(b.size, Vec3(20, 20, 20));
    }

    void acceptsCommentsAndOtherVinaKeys() {
        std::istringstream in("# a box\nreceptor = r.pdbqt\n  center_x=1 # x\ncenter_y = 2\n"
                              "center_z = -3.5\n\nsize_x = 10\nsize_y = 12\nsize_z = 14\n"
                              "exhaustiveness = 8\n");
        const SearchBox b = parseBoxConfig(in, "cfg");
        QCOMPARE(b.center, Vec3(1, 2, -3.5));
        QCOMPARE(b.size, Vec3(10, 12, 14));
    }

    void badInputNamesFileLineAndExpectation_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const QString full = "center_y = 0\ncenter_z = 0\nsize_x = 1\nsize_y = 1\nsize_z = 1\n";
        QTest::newRow("not a number") << "center_x = abc\n" + full
                                      << "box.txt:1: center_x expects a number in Å, found 'abc'";
        QTest::newRow("no equals") << full + "center_x 3\n"
                                   << "box.txt:6: expected 'key = value' (e.g. center_x = "
                                      "15.19), found 'center_x 3'";
        QTest::newRow("unknown key")
            << "centre_x = 1\n" + full << "box.txt:1: unknown key 'centre_x'";
        QTest::newRow("twice") << "center_x = 1\ncenter_x = 2\n" + full
                               << "box.txt:2: center_x is given twice";
        QTest::newRow("zero size")
            << "center_x = 1\n" + QString(full).replace("size_y = 1", "size_y = 0")
            << "box.txt:5: size_y must be greater than 0 Å, found '0'";
        QTest::newRow("trailing junk") << "center_x = 1.5A\n" + full
                                       << "box.txt:1: center_x expects a number in Å, found "
                                          "'1.5A'";
        QTest::newRow("missing") << full << "box.txt: missing center_x";
    }
    void badInputNamesFileLineAndExpectation() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const QString e = errorOf(text.toStdString());
        QVERIFY2(e.startsWith(message), qPrintable(e));
    }

    void missingFileIsAnInputError() {
        try {
            readBoxConfig("/nonexistent/box.txt");
            QFAIL("no exception");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), std::string("/nonexistent/box.txt"));
            QVERIFY(std::string(e.what()).find("cannot open") != std::string::npos);
        }
    }

    void gridFollowsVinaRounding() {
        SearchBox b;
        b.center = Vec3(15.19, 53.903, 16.917);
        b.size = Vec3(20, 20.1, 0.2);
        const GridDims g = gridDimsFor(b);
        // ceil(20 / 0.375) = 54 voxels (55 points), ceil(20.1 / 0.375) = 54, ceil(0.2/0.375) = 1.
        QCOMPARE(g.voxels[0], 54);
        QCOMPARE(g.voxels[1], 54);
        QCOMPARE(g.voxels[2], 1);
        QVERIFY(std::abs(g.begin.x() - (15.19 - 54 * 0.375 / 2)) < 1e-12);
        QVERIFY(std::abs((g.end() - g.begin).x() - 20.25) < 1e-12);
        QVERIFY(g.contains(b.center));
        QVERIFY(!g.contains(b.center + Vec3(10.2, 0, 0)));
    }
};

QTEST_GUILESS_MAIN(TestBoxConfig)
#include "test_box_config.moc"
