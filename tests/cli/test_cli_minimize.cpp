// Tests for `posewright-cli score` and `minimize` as a user runs them: Vina's numbers on the 1iep
// crystal pose, a ranked SDF with the SD tags, input order in the JSON stream, and bad ligands in
// a batch (outside the box, no heavy atoms, 300 torsions) reported while the others go on.
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/MoleculeWriter.h"
#include "minimize/PosePerturbation.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "cli/CliRun.h"

using namespace pw;

using namespace pw::test;

QString data(const QString& rel) {
    return testData(rel);
}

namespace {

// A zigzag alkane chain of n carbons (single bonds, no hydrogens: preparation adds them).
Molecule alkane(int n) {
    Molecule m;
    m.name = "C" + std::to_string(n);
    for (int i = 0; i < n; ++i) {
        Atom a;
        a.element = 6;
        // Not flat (z varies): flat input would be re-embedded in 3D first, which is slow here.
        a.position = Vec3(1.26 * i, (i % 2) * 0.89, (i % 3) * 0.3);
        m.atoms.push_back(a);
        if (i)
            m.bonds.push_back({i - 1, i});
    }
    return m;
}

} // namespace

class TestCliMinimize : public QObject {
    Q_OBJECT
private slots:
    void scoreCrystalLikeVina() {
        // Vina 1.2.3 --score_only on this pose: affinity -12.513, inter -17.634, intra -0.485
        // (tests/data/reference/1iep.json).
        CliRun r = runCli({"score", "--receptor", data("complexes/1iep/receptor.pdbqt"), "--ligand",
                           data("complexes/1iep/ligand_xtal.pdbqt"), "--box",
                           data("complexes/1iep/box.txt"), "--json"});
        QCOMPARE(r.exitCode, 0);
        QJsonObject o = jsonLines(r.out).value(0);
        QVERIFY(std::abs(o["affinity"].toDouble() - -12.513) < 0.01);
        QVERIFY(std::abs(o["inter"].toDouble() - -17.634) < 0.01);
        QVERIFY(std::abs(o["intra"].toDouble() - -0.485) < 0.01);
        QVERIFY(o["terms"].toObject().contains("hbond"));
    }
    void minimizeWritesRankedSdf() {
        QTemporaryDir dir;
        const QString out = dir.filePath("min.sdf");
        QStringList ligands;
        for (int i : {2, 7, 1})
            ligands << data(QString("complexes/1iep/poses/pose%1.pdbqt").arg(i, 2, 10, QChar('0')));
        CliRun r =
            runCli(QStringList{"minimize", "--receptor", data("complexes/1iep/receptor.pdbqt"),
                               "--box", data("complexes/1iep/box.txt"), "--device", "cpu", "--out",
                               out, "--json", "--ligands"} +
                   ligands);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("device: CPU"), r.err.constData());
        auto lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 3);
        for (int i = 0; i < 3; ++i) { // input order kept
            QCOMPARE(lines[i]["index"].toInt(), i);
            QVERIFY(lines[i]["affinity"].toDouble() < lines[i]["start_affinity"].toDouble());
            QVERIFY(lines[i]["iterations"].toInt() > 0);
            QVERIFY(lines[i].contains("rmsd_from_start"));
        }
        auto poses = readMolecules(out.toStdString());
        QCOMPARE(int(poses.size()), 3);
        double previous = -1e9;
        for (const Molecule& m : poses) { // ranked by affinity, tagged
            const double a = std::stod(*m.property("minimizedAffinity"));
            QVERIFY(a >= previous);
            previous = a;
            QVERIFY(m.property("minimizedRMSD"));
            QVERIFY(m.property("inputIndex"));
        }
        // No spool left behind (temporary files are hidden: list those too).
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{"min.sdf"});
    }
    void badLigandsInABatch() {
        QTemporaryDir dir;
        Molecule good = readMolecule(data("complexes/1iep/ligand_xtal.sdf").toStdString());
        Molecule far = good;
        far.name = "far_away";
        for (Atom& a : far.atoms)
            a.position += Vec3(60, 0, 0);
        Molecule hydrogen;
        hydrogen.name = "only_hydrogen";
        for (int i = 0; i < 2; ++i) {
            Atom h;
            h.element = 1;
            h.position = good.atoms[0].position + Vec3(0.74 * i, 0, 0);
            hydrogen.atoms.push_back(h);
        }
        hydrogen.bonds.push_back({0, 1});
        Molecule chain = alkane(302); // 299 rotatable bonds
        for (Atom& a : chain.atoms)
            a.position += good.atoms[0].position - Vec3(150, 0, 0);
        const std::string batch = dir.filePath("batch.sdf").toStdString();
        writeMolecules(batch, {good, far, hydrogen, chain, good});
        const QString out = dir.filePath("out.sdf");
        CliRun r = runCli({"minimize", "--receptor", data("complexes/1iep/receptor.pdbqt"), "--box",
                           data("complexes/1iep/box.txt"), "--device", "cpu", "--json", "--out",
                           out, "--ligands", QString::fromStdString(batch)});
        QCOMPARE(r.exitCode, 0);
        auto lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 5);
        QVERIFY(lines[0].contains("affinity"));
        QVERIFY(lines[4].contains("affinity"));
        QVERIFY2(lines[1]["error"].toString().contains("outside"), r.err.constData());
        QVERIFY2(lines[2]["error"].toString().contains("heavy atoms"), r.err.constData());
        QVERIFY2(lines[3]["error"].toString().contains("torsions"), r.err.constData());
        QVERIFY(r.err.contains("batch.sdf"));
        QCOMPARE(int(readMolecules(out.toStdString()).size()), 2);
    }
    // The streamed pipeline (reader, preparation, minimization, writer on their own threads)
    // with chunks of 2 records: output in input order across chunk borders, refused records in
    // their place, every good one in the ranked SDF, and the stage timing line.
    void streamsInSmallChunksInInputOrder() {
        QTemporaryDir dir;
        Molecule good = readMolecule(data("complexes/1iep/ligand_xtal.sdf").toStdString());
        Molecule far = good;
        far.name = "far_away";
        for (Atom& a : far.atoms)
            a.position += Vec3(60, 0, 0);
        std::vector<Molecule> batch;
        for (int i = 0; i < 7; ++i) {
            Molecule m = i == 2 || i == 5 ? far : good;
            // Distinct starts: small shifts keep every good record inside the box.
            for (Atom& a : m.atoms)
                a.position += Vec3(0.1 * i, -0.05 * i, 0);
            m.name = "rec" + std::to_string(i);
            batch.push_back(m);
        }
        const std::string file = dir.filePath("seven.sdf").toStdString();
        writeMolecules(file, batch);
        const QString out = dir.filePath("out.sdf");
        CliRun r =
            runCli({"minimize", "--receptor", data("complexes/1iep/receptor.pdbqt"), "--box",
                    data("complexes/1iep/box.txt"), "--device", "cpu", "--json", "--chunk", "2",
                    "--vina-steps", "--out", out, "--ligands", QString::fromStdString(file)});
        QCOMPARE(r.exitCode, 0);
        auto lines = jsonLines(r.out);
        QCOMPARE(lines.size(), 7);
        for (int i = 0; i < 7; ++i) {
            QCOMPARE(lines[i]["index"].toInt(), i);
            QCOMPARE(lines[i]["name"].toString(), QString("rec%1").arg(i));
            QCOMPARE(lines[i].contains("error"), i == 2 || i == 5);
        }
        QVERIFY2(r.err.contains("minimized 5 of 7 poses"), r.err.constData());
        QVERIFY2(r.err.contains("stages (busy seconds, overlapped): read "), r.err.constData());
        QVERIFY2(r.err.contains("chunk 2; peak RSS "), r.err.constData());
        QCOMPARE(int(readMolecules(out.toStdString()).size()), 5);

        // Three devices (CPU backends behind the split, as several GPUs are), one record per
        // chunk: each device's worker takes the next chunk, they finish out of order, and the
        // chunks go back into input order: the same JSON stream and ranked SDF, byte for byte.
        const QString out3 = dir.filePath("out3.sdf");
        for (const QString& devices : {"2", "3"}) {
            const CliRun r3 = runCli(
                {"minimize", "--receptor", data("complexes/1iep/receptor.pdbqt"), "--box",
                 data("complexes/1iep/box.txt"), "--device", "cpu", "--json", "--chunk", "1",
                 "--vina-steps", "--out", out3, "--ligands", QString::fromStdString(file)},
                300000, {"POSEWRIGHT_CPU_DEVICES=" + devices});
            QVERIFY2(r3.exitCode == 0, r3.err.constData());
            QVERIFY2(r3.err.contains(devices.toLatin1() + " devices: CPU"), r3.err.constData());
            QCOMPARE(r3.out, r.out);
            QCOMPARE(readAll(out3), readAll(out));
        }
    }
    // SDF records parsed in parallel and preparations reused for poses of one topology change
    // nothing: the same JSON, the same ranked SDF (byte for byte) and the same warnings as with
    // --no-reuse, across chunk borders, with an unreadable record in the middle.
    void reusedPreparationGivesTheSameOutput() {
        QTemporaryDir dir;
        // One ligand (the prepared 1iep ligand, polar hydrogens, as `bench minimize
        // --write-poses` writes it) at 12 poses near the crystal pose.
        const Molecule ligand =
            prepareLigand(readMolecule(data("complexes/1iep/ligand_xtal.pdbqt").toStdString()));
        PerturbationOptions near;
        near.maxRotationDegrees = 5, near.maxTranslation = 0.3, near.randomTorsions = false;
        near.maxTorsionDegrees = 5;
        PosePerturbation perturbation(ligand, near);
        std::vector<Molecule> poses;
        for (int i = 0; i < 12; ++i) {
            poses.push_back(perturbation.perturbed(3, i));
            poses.back().name = "pose" + std::to_string(i);
        }
        QVERIFY(poses.size() >= 10);
        const std::string file = dir.filePath("poses.sdf").toStdString();
        writeMolecules(file, poses);
        // Record 5 gets an unknown element: skipped with the reader's own message.
        QFile f(QString::fromStdString(file));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = f.readAll().split('\n');
        f.close();
        int record = 0;
        for (int i = 0; i < lines.size(); ++i) {
            if (record == 4 && lines[i].contains("V2000")) {
                lines[i + 1].replace(31, 2, "Xx");
                break;
            }
            record += lines[i].startsWith("$$$$");
        }
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(lines.join('\n'));
        f.close();
        auto run = [&](const QString& out, bool reuse) {
            QStringList args{"minimize",
                             "--receptor",
                             data("complexes/1iep/receptor.pdbqt"),
                             "--box",
                             data("complexes/1iep/box.txt"),
                             "--device",
                             "cpu",
                             "--json",
                             "--chunk",
                             "4",
                             "--out",
                             out,
                             "--ligands",
                             QString::fromStdString(file)};
            if (!reuse)
                args << "--no-reuse";
            return runCli(args);
        };
        const QString withReuse = dir.filePath("reuse.sdf"), without = dir.filePath("fresh.sdf");
        CliRun a = run(withReuse, true);
        CliRun b = run(without, false);
        QCOMPARE(a.exitCode, 0);
        QCOMPARE(b.exitCode, 0);
        QCOMPARE(a.out, b.out);
        QCOMPARE(jsonLines(a.out).size(), int(poses.size()) - 1);
        QFile x(withReuse), y(without);
        QVERIFY(x.open(QIODevice::ReadOnly) && y.open(QIODevice::ReadOnly));
        const QByteArray sdfA = x.readAll(), sdfB = y.readAll();
        QVERIFY(sdfA.size() > 1000);
        QVERIFY(sdfA == sdfB);
        auto warnings = [](const QByteArray& err) {
            QList<QByteArray> w;
            for (const QByteArray& l : err.split('\n'))
                if (l.startsWith("warning: "))
                    w << l;
            return w;
        };
        QCOMPARE(warnings(a.err), warnings(b.err));
        QCOMPARE(warnings(a.err).size(), 1);
        QVERIFY2(warnings(a.err)[0].contains("poses.sdf:") &&
                     warnings(a.err)[0].contains("unknown element symbol 'Xx'") &&
                     warnings(a.err)[0].endsWith("(record skipped)"),
                 a.err.constData());
        QVERIFY2(a.err.contains(QString("minimized %1 of %2 poses")
                                    .arg(poses.size() - 1)
                                    .arg(poses.size())
                                    .toUtf8()),
                 a.err.constData());
        // Every readable record is one topology: all but the first few (prepared concurrently
        // in the first chunk, at most its 4 records) reuse a preparation.
        QRegularExpression reusedLine("preparation reused for (\\d+) of (\\d+) records");
        auto match = reusedLine.match(QString::fromUtf8(a.err));
        QVERIFY2(match.hasMatch(), a.err.constData());
        QCOMPARE(match.captured(2).toInt(), int(poses.size()) - 1);
        QVERIFY2(match.captured(1).toInt() >= int(poses.size()) - 1 - 4, a.err.constData());
        QVERIFY(!b.err.contains("preparation reused"));
    }
    // A failure inside the pipeline (an unreadable second file) stops every stage, reports the
    // file and leaves no output file behind.
    void pipelineErrorLeavesNoOutput() {
        QTemporaryDir dir;
        const QString out = dir.filePath("out.sdf");
        const QString missing = dir.filePath("missing.sdf");
        CliRun r =
            runCli({"minimize", "--receptor", data("complexes/1iep/receptor.pdbqt"), "--box",
                    data("complexes/1iep/box.txt"), "--device", "cpu", "--chunk", "1", "--out", out,
                    "--ligands", data("complexes/1iep/ligand_xtal.sdf"), missing});
        QCOMPARE(r.exitCode, 1); // a normal exit with the input-error code, not a crash
        QVERIFY2(r.err.contains("missing.sdf"), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }
    void receptorWithoutHydrogens() {
        // The PDB as the archive gives it is protonated at pH 7.4 (said on stderr) and gives
        // the same minimized affinity as the shipped PDBQT (-7.436 on this pose).
        const QStringList rest{"--autobox-ligand", data("complexes/1stp/ligand_xtal.pdbqt"),
                               "--device", "cpu", "--ligands",
                               data("complexes/1stp/ligand_xtal.pdbqt")};
        CliRun pdb = runCli(QStringList{"minimize", "--receptor",
                                        data("complexes/1stp/receptor.pdb")} + rest);
        CliRun pdbqt = runCli(QStringList{"minimize", "--receptor",
                                          data("complexes/1stp/receptor.pdbqt")} + rest);
        QCOMPARE(pdb.exitCode, 0);
        QCOMPARE(pdbqt.exitCode, 0);
        QVERIFY2(pdb.err.contains("no polar hydrogens: added 213 polar hydrogens"),
                 pdb.err.constData());
        QVERIFY2(pdb.out.contains("affinity   -7.4"), pdb.out.constData());
        QCOMPARE(pdb.out, pdbqt.out);
    }
    void smoothMode() {
        // The well-conditioned configuration, like the default one, ends at least as low as
        // Vina 1.2.3 --local_only from the crystal pose (-6.940, tests/data/reference/1stp.json).
        const QStringList base{"minimize",
                               "--receptor",
                               data("complexes/1stp/receptor.pdbqt"),
                               "--box",
                               data("complexes/1stp/box.txt"),
                               "--device",
                               "cpu",
                               "--json",
                               "--ligands",
                               data("complexes/1stp/ligand_xtal.pdbqt")};
        CliRun plain = runCli(base);
        QCOMPARE(plain.exitCode, 0);
        CliRun smooth = runCli(base + QStringList{"--smooth"});
        QCOMPARE(smooth.exitCode, 0);
        const double a = jsonLines(plain.out).value(0)["affinity"].toDouble();
        const double b = jsonLines(smooth.out).value(0)["affinity"].toDouble();
        QVERIFY2(a <= -6.940 + 0.05 && b <= -6.940 + 0.05,
                 qPrintable(QString("default %1, smooth %2").arg(a).arg(b)));
        CliRun both = runCli(base + QStringList{"--smooth", "--vina-steps"});
        QCOMPARE(both.exitCode, 2);
    }
    void usage() {
        CliRun r = runCli({"minimize", "--receptor", data("complexes/1iep/receptor.pdbqt")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--ligands"));
        r = runCli({"minimize", "--receptor", data("complexes/1iep/receptor.pdbqt"), "--ligands",
                    data("complexes/1iep/ligand_xtal.sdf"), "--device", "tpu"});
        QCOMPARE(r.exitCode, 2); // a usage error, like every malformed option
        QVERIFY(r.err.contains("expected auto, cpu, cuda or cuda:N"));
        r = runCli({"minimize", "--receptor", data("complexes/1iep/receptor.pdbqt"), "--ligands",
                    data("complexes/1iep/ligand_xtal.sdf"), "--reduction", "tensor"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--reduction expects shuffle, shared or wmma, got 'tensor'"),
                 r.err.constData());
        // SDF under another format's name: refused before anything is written.
        QTemporaryDir dir;
        const QString pdbqt = dir.filePath("out.pdbqt");
        r = runCli({"minimize", "--receptor", data("complexes/1iep/receptor.pdbqt"), "--box",
                    data("complexes/1iep/box.txt"), "--device", "cpu", "--ligands",
                    data("complexes/1iep/ligand_xtal.sdf"), "--out", pdbqt});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("this command writes SDF"), r.err.constData());
        QVERIFY(!QFile::exists(pdbqt));
    }
};

QTEST_GUILESS_MAIN(TestCliMinimize)
#include "test_cli_minimize.moc"
