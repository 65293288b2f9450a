// Vina box config parsing (good files, and bad ones with file:line messages) and Vina's grid
// rounding of a box.
#include "core/InputError.h"
#include "score/BoxConfig.h"

#include <QtTest>

#include <cmath>
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

    void otherVinaKeysAreWarnedAbout() {
        std::istringstream in("receptor = r.pdbqt\ncenter_x = 1\ncenter_y = 2\ncenter_z = 3\n"
                              "size_x = 10\nsize_y = 12\nsize_z = 14\nexhaustiveness = 8\n"
                              "weight_rot = 0.2\nreceptor = again.pdbqt\n");
        const VinaConfig c = parseVinaConfig(in, "cfg");
        QCOMPARE(int(c.warnings.size()), 4); // a repeated unused key is a warning, not an error
        QVERIFY2(c.warnings[0].rfind("cfg:1: warning: the Vina option 'receptor'", 0) == 0,
                 c.warnings[0].c_str());
        QVERIFY2(c.warnings[1].rfind("cfg:8: warning: the Vina option 'exhaustiveness'", 0) == 0,
                 c.warnings[1].c_str());
        QVERIFY2(c.warnings[2].rfind("cfg:9: warning: weight_rot is ignored, as Vina", 0) == 0,
                 c.warnings[2].c_str());
        QVERIFY(!c.scoring.has_value());
        // weight_rot changes nothing: Vina 1.2.3 keeps 0.05846 whatever it says.
        QCOMPARE(c.scoringFunction(ScoringKind::Vina, nullptr).weightRot(),
                 ScoringFunction(ScoringKind::Vina).weightRot());
    }

    void scoringAndWeightsAreHonoured() {
        std::istringstream in("center_x = 1\ncenter_y = 2\ncenter_z = 3\nsize_x = 10\n"
                              "size_y = 12\nsize_z = 14\nscoring = vinardo\n"
                              "weight_vinardo_hydrogen = -0.7\nweight_gauss1 = -0.05\n");
        const VinaConfig c = parseVinaConfig(in, "cfg");
        QVERIFY(c.warnings.empty());
        QCOMPARE(c.scoringOr(ScoringKind::Vina), ScoringKind::Vinardo);
        std::vector<std::string> notes;
        const ScoringFunction vinardo = c.scoringFunction(ScoringKind::Vinardo, &notes);
        QCOMPARE(vinardo.kind(), ScoringKind::Vinardo);
        QCOMPARE(vinardo.weights()[HydrogenBond], -0.7);
        QCOMPARE(vinardo.weights()[Gauss1],
                 ScoringFunction::defaultWeights(ScoringKind::Vinardo)[Gauss1]);
        // weight_gauss1 belongs to Vina's function: ignored with vinardo, and said so.
        QCOMPARE(int(notes.size()), 1);
        QVERIFY2(
            notes[0].rfind("cfg:9: warning: weight_gauss1 is ignored with scoring vinardo", 0) == 0,
            notes[0].c_str());
        notes.clear();
        const ScoringFunction vina = c.scoringFunction(ScoringKind::Vina, &notes);
        QCOMPARE(vina.weights()[Gauss1], -0.05);
        QCOMPARE(vina.weights()[Repulsion],
                 ScoringFunction::defaultWeights(ScoringKind::Vina)[Repulsion]);
        QCOMPARE(int(notes.size()), 1);
        QVERIFY2(notes[0].rfind("cfg:8: warning: weight_vinardo_hydrogen is ignored", 0) == 0,
                 notes[0].c_str());
        // The weights reach the pair energy, not only the accessor.
        double d1 = 0, d2 = 0;
        const int c3 = static_cast<int>(XsType::C_H);
        const double standard = ScoringFunction(ScoringKind::Vina).pairEnergy(c3, c3, 4.0, &d1);
        QVERIFY(std::abs(vina.pairEnergy(c3, c3, 4.0, &d2) - standard) > 1e-6);
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
        // Found by fuzz_box_config: the voxel count overflowed int (undefined behaviour).
        QTest::newRow("huge size")
            << "center_x = 1\n" + QString(full).replace("size_y = 1", "size_y = 25.8e95")
            << "box.txt:5: size_y must be at most 1000 Å";
        QTest::newRow("ad4 scoring") << full + "center_x = 1\nscoring = ad4\n"
                                     << "box.txt:7: scoring expects vina or vinardo, found 'ad4'";
        QTest::newRow("bad weight")
            << full + "center_x = 1\nweight_hydrogen = strong\n"
            << "box.txt:7: weight_hydrogen expects a number, found 'strong'";
        QTest::newRow("weight twice")
            << full + "center_x = 1\nweight_gauss1 = 1\nweight_gauss1 = 2\n"
            << "box.txt:8: weight_gauss1 is given twice";
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
