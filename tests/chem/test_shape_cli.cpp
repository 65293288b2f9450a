// `posewright-cli overlay` end to end on real files (JSON, ranked SDF with tags, bad input) and
// the RDKit colour features behind --color.
#include "chem/MoleculeReader.h"
#include "chem/ShapeFeatures.h"
#include "cli/CliRun.h"
#include "shape/GaussianOverlap.h"

#include <QtTest>

using namespace pw;

class TestShapeCli : public QObject {
    Q_OBJECT

    struct Run {
        int code;
        QString out, err;
    };
    static Run cli(const QStringList& args) {
        QProcess p;
        p.start(POSEWRIGHT_CLI, args);
        const int code = pw::test::normalExitCode(p, 120000); // -1 for a crash or a hang
        return {code, QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }
    const QString cdk2 = POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf";
    const QString ref = POSEWRIGHT_TEST_DATA "/shapes/ref.mol";

private slots:
    void colourFeaturesOfARealLigand() {
        const Molecule m = readMolecules(POSEWRIGHT_TEST_DATA "/shapes/cdk2.sdf").front();
        const auto f = colourFeatures(m);
        int counts[shape::kColourTypeCount] = {};
        for (const auto& c : f)
            ++counts[int(c.type)];
        // ZINC03814457 has aromatic rings, NH donors and N/O acceptors.
        QVERIFY(counts[int(shape::ColourType::Aromatic)] >= 1);
        QVERIFY(counts[int(shape::ColourType::Donor)] >= 1);
        QVERIFY(counts[int(shape::ColourType::Acceptor)] >= 1);
        shape::ShapeModel model = shape::makeShapeModel(m, {}, f);
        QVERIFY(shape::colourSelfVolume(model) > 0);
    }

    void scoreOnlyJson() {
        Run r = cli({"overlay", "--reference", cdk2, "--fit", cdk2, "--score-only", "--json",
                     "--device", "cpu"});
        QCOMPARE(r.code, 0);
        const QStringList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 47);
        const QJsonObject o = QJsonDocument::fromJson(lines[1].toUtf8()).object();
        QCOMPARE(o["name"].toString(), QString("ZINC03814459"));
        QVERIFY(std::abs(o["shape_tanimoto"].toDouble() - 0.5243) < 1e-3);
        QVERIFY(std::abs(o["overlap"].toDouble() - 550.9447) < 0.1);
        QVERIFY(o["color_tanimoto"].isNull());
        for (const char* key : {"tversky_ref", "tversky_fit", "combo", "volume_ref", "volume_fit"})
            QVERIFY2(o.contains(key), key);
    }

    void colourAndRankedSdf() {
        QTemporaryDir dir;
        const QString out = dir.filePath("aligned.sdf");
        Run r = cli({"overlay", "--reference", ref, "--fit", cdk2, "--color", "--json", "--device",
                     "cpu", "--out", out});
        QCOMPARE(r.code, 0);
        const auto aligned = readMolecules(out.toStdString());
        QCOMPARE(int(aligned.size()), 47);
        double last = 3;
        for (size_t i = 0; i < aligned.size(); ++i) {
            const std::string* combo = aligned[i].property("PW_COMBO");
            QVERIFY(combo && aligned[i].property("PW_SHAPE_TANIMOTO") &&
                    aligned[i].property("PW_COLOR_TANIMOTO"));
            QVERIFY(std::stod(*combo) <= last + 1e-9); // ranked best first
            last = std::stod(*combo);
            QCOMPARE(*aligned[i].property("PW_RANK"), std::to_string(i + 1));
        }
        const QJsonObject o =
            QJsonDocument::fromJson(r.out.trimmed().split('\n').front().toUtf8()).object();
        QVERIFY(o["color_tanimoto"].toDouble() > 0);
        QVERIFY(std::abs(o["combo"].toDouble() - o["shape_tanimoto"].toDouble() -
                         o["color_tanimoto"].toDouble()) < 1e-4);
    }

    // --ring-starts adds starts (never removes the centroid ones): no fit may score lower, and
    // on cdk2 against ref.mol some score higher.
    void ringStartsNeverLower() {
        auto tanimotos = [&](const QStringList& extra) {
            Run r = cli(QStringList{"overlay", "--reference", ref, "--fit", cdk2, "--json",
                                    "--device", "cpu"} +
                        extra);
            QList<double> t;
            for (const QString& line : r.out.trimmed().split('\n'))
                t.append(
                    QJsonDocument::fromJson(line.toUtf8()).object()["shape_tanimoto"].toDouble());
            return std::make_pair(r.code, t);
        };
        const auto [plainCode, plain] = tanimotos({});
        const auto [ringCode, ring] = tanimotos({"--ring-starts"});
        QCOMPARE(plainCode, 0);
        QCOMPARE(ringCode, 0);
        QCOMPARE(ring.size(), 47);
        QCOMPARE(ring.size(), plain.size());
        int higher = 0;
        for (int i = 0; i < ring.size(); ++i) {
            QVERIFY2(ring[i] >= plain[i] - 1e-6, qPrintable(QString::number(i)));
            higher += ring[i] > plain[i] + 1e-4;
        }
        QVERIFY(higher > 0);
    }

    void badInput() {
        QTemporaryDir dir;
        Run r = cli({"overlay", "--reference", dir.filePath("missing.sdf"), "--fit", cdk2});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("missing.sdf"), qPrintable(r.err));
        r = cli({"overlay", "--reference", ref, "--fit", cdk2, "--starts", "3"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--starts: expected 1, 4 or 12"), qPrintable(r.err));
        r = cli({"overlay", "--reference", ref, "--fit", cdk2, "--device", "gpu"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("expected auto, cpu, cuda or cuda:N"), qPrintable(r.err));
        r = cli({"overlay", "--reference", ref, "--fit", cdk2, "--radii", "vdw"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--radii: expected carbon or element"), qPrintable(r.err));
        // Nothing half-written when the job fails.
        const QString out = dir.filePath("never.sdf");
        r = cli({"overlay", "--reference", ref, "--fit", dir.filePath("nope.sdf"), "--out", out});
        QCOMPARE(r.code, 1);
        QVERIFY(!QFile::exists(out));
        r = cli({"bench", "overlay", "--reference", ref, "--fit", cdk2, "--device", "cpu",
                 "--repeat", "1", "--threads", "1"});
        QCOMPARE(r.code, 0);
        const QJsonObject b = QJsonDocument::fromJson(r.out.trimmed().toUtf8()).object();
        QCOMPARE(b["what"].toString(), QString("overlay"));
        QCOMPARE(b["overlays"].toInt(), 47 * 4);
        QVERIFY(b["overlays_per_second"].toDouble() > 0 &&
                b["mean_best_tanimoto"].toDouble() > 0.3);
    }
};

QTEST_GUILESS_MAIN(TestShapeCli)
#include "test_shape_cli.moc"
