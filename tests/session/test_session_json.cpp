// The session file's parser (app/SessionJson.cpp, Qt Core only; fuzzed by tests/fuzz/fuzz_session):
// a file the app wrote opens, and a damaged or hand-edited one is refused with one message naming
// the file, never taken with values the app cannot use (a box of size 0, coordinates that are not
// numbers, an active ligand that does not exist).
#include "SessionJson.h"
#include "core/InputError.h"

#include <QtTest>

using namespace pw;

namespace {

const QString kPath = QStringLiteral("/data/project/session.pws");

QByteArray session(const QByteArray& extra) {
    return R"({"format": "posewright-session", "version": 2, "receptor": "rec/receptor.pdbqt",
               "ligandFiles": ["ligands.sdf"],
               "ligands": [{"prepared": true, "coordinates": [[1, 2, 3], [1.5, 2, 3]],
                            "trajectory": [{"iteration": 4, "energy": -7.5,
                                            "interTerms": [1, 2, 3, 4, 5], "intra": -0.5,
                                            "coordinates": [1, 2, 3, 1.5, 2, 3]}]}],
               "scoring": "vinardo", "device": "cpu")" +
           extra + "}";
}

// The message of the InputError that parsing json throws ("" when it parses).
QString refusal(const QByteArray& json) {
    try {
        sessionFromJson(json, kPath);
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestSessionJson : public QObject {
    Q_OBJECT
private slots:
    void aSessionAsTheAppWritesIt() {
        const Session s = sessionFromJson(
            session(R"(, "box": {"center": [10, 11, 12], "size": [20, 22, 24], "source": "file"},
                        "activeLigand": 0, "receptorPH": 5.5,
                        "parts": {"overlay": {"reference": 0}})"),
            kPath);
        QCOMPARE(s.receptorPath, QStringLiteral("/data/project/rec/receptor.pdbqt"));
        QCOMPARE(s.ligandPaths, QStringList{"/data/project/ligands.sdf"});
        QCOMPARE(s.ligands.size(), size_t(1));
        QCOMPARE(s.ligands[0].coordinates.size(), size_t(2));
        QCOMPARE(s.ligands[0].trajectory.size(), size_t(1));
        QCOMPARE(s.ligands[0].trajectory[0].coordinates[1].x(), 1.5);
        QVERIFY(s.box && s.box->size.z() == 24);
        QCOMPARE(s.boxSource, BoxSource::File);
        QCOMPARE(s.scoring, ScoringKind::Vinardo);
        QCOMPARE(s.device, QStringLiteral("cpu"));
        QCOMPARE(s.receptorPH, 5.5);
        QCOMPARE(s.active, 0);
        QVERIFY(s.parts.contains("overlay"));
    }
    void versionOneStillOpens() {
        const Session s = sessionFromJson(
            R"({"format": "posewright-session", "version": 1, "ligands": []})", kPath);
        QVERIFY(s.receptorPath.isEmpty());
        QCOMPARE(s.scoring, ScoringKind::Vina);
        QCOMPARE(s.receptorPH, 7.4); // written before the setting: the engine's default
        QCOMPARE(s.active, -1);
    }
    void badFilesAreRefusedWithTheirName_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not JSON") << QByteArray("{\"format\": ") << "a JSON session expected";
        QTest::newRow("another format")
            << QByteArray(R"({"format": "pymol", "version": 1})") << "a Posewright session expected";
        QTest::newRow("newer version")
            << QByteArray(R"({"format": "posewright-session", "version": 3})")
            << "session version 1 to 2 expected";
        QTest::newRow("box of size 0")
            << session(R"(, "box": {"center": [0, 0, 0], "size": [20, 0, 20]})") << "box size";
        QTest::newRow("negative box")
            << session(R"(, "box": {"center": [0, 0, 0], "size": [20, -5, 20]})") << "box size";
        QTest::newRow("box larger than any config allows")
            << session(R"(, "box": {"center": [0, 0, 0], "size": [20, 1e9, 20]})") << "box size";
        QTest::newRow("box centre not numbers")
            << session(R"(, "box": {"center": [0, "x", 0], "size": [20, 20, 20]})")
            << "box center: expected an array of three finite numbers";
        QTest::newRow("coordinate not a number")
            << QByteArray(R"({"format": "posewright-session", "version": 2,
                             "ligands": [{"coordinates": [[1, 2, null]]}]})")
            << "ligand coordinates";
        QTest::newRow("trajectory coordinate not a number")
            << QByteArray(R"({"format": "posewright-session", "version": 2,
                             "ligands": [{"coordinates": [], "trajectory": [{"energy": 1,
                               "interTerms": [0, 0, 0, 0, 0], "coordinates": [1, 2, "z"]}]}]})")
            << "trajectory frame 1: coordinate 3 is not a finite number";
        QTest::newRow("scoring ad4") << session(R"(, "scoring": "ad4")") << "scoring";
        QTest::newRow("receptor pH above 14") << session(R"(, "receptorPH": 15)") << "receptorPH";
        QTest::newRow("receptor pH not a number")
            << session(R"(, "receptorPH": "7.4")") << "receptorPH";
        QTest::newRow("parts not an object") << session(R"(, "parts": [1])") << "\"parts\"";
    }
    void badFilesAreRefusedWithTheirName() {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        const QString message = refusal(json);
        QVERIFY2(message.startsWith(kPath), qPrintable(message));
        QVERIFY2(message.contains(expected), qPrintable(message));
    }
    void anActiveLigandThatDoesNotExistIsNone() {
        QCOMPARE(sessionFromJson(session(R"(, "activeLigand": 7)"), kPath).active, -1);
        QCOMPARE(sessionFromJson(session(R"(, "activeLigand": -3)"), kPath).active, -1);
    }
};

QTEST_GUILESS_MAIN(TestSessionJson)
#include "test_session_json.moc"
