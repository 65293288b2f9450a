// `posewright-cli dock` as a user runs it: 1stp end to end (ranked SDF with its SD tags, JSON
// summary, RMSD to the crystal), byte-identical output for the same seed, and bad input: one
// clear message, a non-zero exit and no output file.
#include "cli/CliRun.h"

#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/types.h>

using namespace pw::test;

namespace {

QStringList dock1stp(const QString& out, const QString& json, const QString& seed,
                     const QString& threads = "2") {
    return {"dock",
            "--receptor",
            testData("complexes/1stp/receptor.pdbqt"),
            "--box",
            testData("complexes/1stp/box.txt"),
            "--ligands",
            testData("complexes/1stp/ligand_xtal.pdbqt"),
            "--reference",
            testData("complexes/1stp/ligand_xtal.pdbqt"),
            "--runs",
            "6",
            "--seed",
            seed,
            "--population",
            "50",
            "--evaluations",
            "30000",
            "--ls-iterations",
            "100",
            "--device",
            "cpu",
            "--threads",
            threads,
            "--out",
            out,
            "--json",
            json};
}

} // namespace

class TestCliDock : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void docks1stpEndToEnd() {
        const QString out = dir_.filePath("a.sdf"), json = dir_.filePath("a.json");
        const CliRun r = runCli(dock1stp(out, json, "7"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.err.contains("dock: ") && r.err.contains("runs"));
        const QByteArray sdf = readAll(out);
        for (const char* tag : {"<dock_score>", "<dock_inter>", "<dock_gauss1>", "<run>",
                                "<cluster>", "<cluster_size>", "<rmsd_ref>", "<seed>"})
            QVERIFY2(sdf.contains(tag), tag);
        QVERIFY(sdf.contains("$$$$"));
        const QJsonObject summary = QJsonDocument::fromJson(readAll(json)).object();
        QCOMPARE(summary["command"].toString(), QString("dock"));
        QCOMPARE(summary["seed"].toString(), QString("7"));
        const QJsonArray ligands = summary["ligands"].toArray();
        QCOMPARE(ligands.size(), 1);
        const QJsonObject lig = ligands[0].toObject();
        QCOMPARE(lig["runs"].toArray().size(), 6);
        const QJsonObject top = lig["clusters"].toArray()[0].toObject();
        QCOMPARE(top["rank"].toInt(), 1);
        QVERIFY2(top["rmsd_ref"].toDouble() < 2.0,
                 qPrintable(QString::number(top["rmsd_ref"].toDouble())));
        QVERIFY(top["best_score"].toDouble() < -6.0);
    }

    void docksFromSmilesWithBondOrders() {
        // Any format the project reads: biotin as SMILES (3D embedded, prepared), its bond
        // orders kept in the SDF, and the crystal PDBQT (other atom order, no hydrogens on
        // carbons) still serves as the RMSD reference.
        QFile smi(dir_.filePath("biotin.smi"));
        QVERIFY(smi.open(QIODevice::WriteOnly));
        smi.write("OC(=O)CCCC[C@@H]1SC[C@@H]2NC(=O)N[C@H]12 biotin\n");
        smi.close();
        const QString out = dir_.filePath("smi.sdf");
        QStringList args = dock1stp(out, dir_.filePath("smi.json"), "3");
        args[args.indexOf("--ligands") + 1] = smi.fileName();
        const CliRun r = runCli(args);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QByteArray sdf = readAll(out);
        QVERIFY(sdf.startsWith("biotin"));
        QVERIFY(sdf.contains("  2  0")); // the C=O double bonds
        QVERIFY(sdf.contains("<rmsd_ref>"));
    }

    void sameSeedSameBytes() {
        const QString a = dir_.filePath("s1.sdf"), aj = dir_.filePath("s1.json");
        const QString b = dir_.filePath("s2.sdf"), bj = dir_.filePath("s2.json");
        QCOMPARE(runCli(dock1stp(a, aj, "11", "1")).exitCode, 0);
        QCOMPARE(runCli(dock1stp(b, bj, "11", "2")).exitCode, 0);
        QVERIFY(!readAll(a).isEmpty());
        QCOMPARE(readAll(a), readAll(b));
        QCOMPARE(readAll(aj), readAll(bj));
        const QString c = dir_.filePath("s3.sdf"), cj = dir_.filePath("s3.json");
        QCOMPARE(runCli(dock1stp(c, cj, "12", "2")).exitCode, 0);
        QVERIFY(readAll(a) != readAll(c));
    }

    void ligandLargerThanTheBox() {
        QFile box(dir_.filePath("tiny.txt"));
        QVERIFY(box.open(QIODevice::WriteOnly));
        box.write("center_x = 11.333\ncenter_y = 1.444\ncenter_z = -10.511\n"
                  "size_x = 2\nsize_y = 2\nsize_z = 2\n");
        box.close();
        const QString out = dir_.filePath("tiny.sdf");
        QStringList args = dock1stp(out, dir_.filePath("tiny.json"), "1");
        args[args.indexOf("--box") + 1] = box.fileName();
        const CliRun r = runCli(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("ligand_xtal.pdbqt") && r.err.contains("box"), r.err.constData());
        QVERIFY(!QFile::exists(out));
        QVERIFY(!QFile::exists(dir_.filePath("tiny.json")));
    }

    void tooManyTorsions() {
        QFile smi(dir_.filePath("chain.smi"));
        QVERIFY(smi.open(QIODevice::WriteOnly));
        smi.write(QByteArray(40, 'C') + " tetracontane\n"); // 37 rotatable bonds
        smi.close();
        const QString out = dir_.filePath("chain.sdf");
        QStringList args = dock1stp(out, dir_.filePath("chain.json"), "1");
        args[args.indexOf("--ligands") + 1] = smi.fileName();
        const CliRun r = runCli(args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("tetracontane") && r.err.contains("at most 32"), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    void docksWithAd4OnAutogridMaps() {
        const QString maps =
            QString(POSEWRIGHT_SHARED_DATA) + "/complexes/1stp/ad4maps/1stp_protein.maps.fld";
        const QString out = dir_.filePath("ad4.sdf");
        const CliRun r = runCli({"dock", "--maps", maps, "--ligands",
                                 testData("complexes/1stp/ligand_xtal.pdbqt"), "--runs", "2",
                                 "--population", "30", "--evaluations", "5000", "--ls-iterations",
                                 "50", "--device", "cpu", "--threads", "2", "--out", out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QByteArray sdf = readAll(out);
        for (const char* tag : {"<dock_score>", "<dock_vdw_hb_desolv>", "<dock_elec>",
                                "<dock_intra>", "<dock_torsional>", "<dock_unbound>"})
            QVERIFY2(sdf.contains(tag), tag);
    }

    void ad4BadInputs() {
        // Maps whose box is not --box.
        QFile box(dir_.filePath("off.txt"));
        QVERIFY(box.open(QIODevice::WriteOnly));
        box.write("center_x = 0\ncenter_y = 0\ncenter_z = 0\nsize_x = 22\nsize_y = 22\n"
                  "size_z = 22\n");
        box.close();
        const QString maps =
            QString(POSEWRIGHT_SHARED_DATA) + "/complexes/1stp/ad4maps/1stp_protein.maps.fld";
        const QString out = dir_.filePath("off.sdf");
        CliRun r =
            runCli({"dock", "--maps", maps, "--box", box.fileName(), "--ligands",
                    testData("complexes/1stp/ligand_xtal.pdbqt"), "--device", "cpu", "--out", out});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("off.txt") && r.err.contains("does not match the maps"),
                 r.err.constData());
        QVERIFY(!QFile::exists(out));

        // A receptor without charges: AD4 needs them.
        QFile in(testData("complexes/1stp/receptor.pdbqt"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QFile flat(dir_.filePath("uncharged.pdbqt"));
        QVERIFY(flat.open(QIODevice::WriteOnly));
        for (QByteArray line : in.readAll().split('\n')) {
            if ((line.startsWith("ATOM") || line.startsWith("HETATM")) && line.size() >= 76)
                line.replace(70, 6, " 0.000");
            flat.write(line + "\n");
        }
        flat.close();
        r = runCli({"dock", "--scoring", "ad4", "--receptor", flat.fileName(), "--box",
                    testData("complexes/1stp/box.txt"), "--ligands",
                    testData("complexes/1stp/ligand_xtal.pdbqt"), "--device", "cpu", "--out", out});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("uncharged.pdbqt") && r.err.contains("charge"), r.err.constData());
        QVERIFY(!QFile::exists(out));
    }

    void ad4TypeWithoutParametersRefusesOnlyItsLigand() {
        // Maps built from --receptor for a screen: a ligand whose type AD4.1_bound lacks (Si)
        // is refused with its message, and the others dock (it once stopped a 500-ligand screen
        // with "requested ligand map has AutoDock 4 type 'Si'").
        QFile smi(dir_.filePath("si.smi"));
        QVERIFY(smi.open(QIODevice::WriteOnly));
        smi.write("C[Si](C)(C)OC1=CC=CC=C1\tsilyl\nCC(=O)NC1=CC=C(O)C=C1\tparacetamol\n");
        smi.close();
        const QString out = dir_.filePath("si.sdf");
        const CliRun r = runCli({"dock", "--scoring", "ad4", "--receptor",
                                 testData("complexes/1stp/receptor.pdbqt"), "--box",
                                 testData("complexes/1stp/box.txt"), "--ligands", smi.fileName(),
                                 "--runs", "2", "--seed", "3", "--population", "30",
                                 "--evaluations", "3000", "--device", "cpu", "--out", out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("'Si'") && r.err.contains("AD4.1_bound"), r.err.constData());
        const QByteArray sdf = readAll(out);
        QVERIFY(sdf.startsWith("paracetamol")); // its clusters, and nothing of the silyl ether
        QVERIFY(!sdf.contains("silyl"));
    }

    void manyLigandsStreamedInBatches() {
        // Three records: one the engine refuses (37 torsions), biotin twice. Batches of one and
        // of eight give the same bytes: each ligand's random streams are keyed by its index in
        // the input, not by the batch it lands in. So do two devices (CPU stand-ins for GPUs)
        // with batches of one, each batch handed to the devices while the one before docks.
        QFile smi(dir_.filePath("three.smi"));
        QVERIFY(smi.open(QIODevice::WriteOnly));
        smi.write(QByteArray(40, 'C') + " chain\n"
                                        "OC(=O)CCCC[C@@H]1SC[C@@H]2NC(=O)N[C@H]12 biotin_a\n"
                                        "OC(=O)CCCC[C@@H]1SC[C@@H]2NC(=O)N[C@H]12 biotin_b\n");
        smi.close();
        QByteArray sdf[3], json[3];
        for (int k = 0; k < 3; ++k) {
            const QString out = dir_.filePath(QString("three%1.sdf").arg(k));
            const QString js = dir_.filePath(QString("three%1.json").arg(k));
            QStringList args = dock1stp(out, js, "4");
            args[args.indexOf("--ligands") + 1] = smi.fileName();
            args.removeAt(args.indexOf("--reference") + 1);
            args.removeAt(args.indexOf("--reference"));
            args[args.indexOf("--runs") + 1] = "2";
            args << "--batch" << (k == 1 ? "8" : "1");
            const CliRun r = runCli(args, 300000,
                                    k == 2 ? QStringList{"POSEWRIGHT_CPU_DEVICES=2"} : QStringList{});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QCOMPARE(r.err.contains("2 devices"), k == 2);
            QVERIFY2(r.err.contains("chain") && r.err.contains("at most 32"), r.err.constData());
            QVERIFY(r.err.contains("docked 2 of 3 ligands"));
            sdf[k] = readAll(out);
            json[k] = readAll(js);
        }
        QCOMPARE(sdf[0], sdf[1]);
        QCOMPARE(json[0], json[1]);
        QCOMPARE(sdf[2], sdf[0]);
        QCOMPARE(json[2], json[0]);
        const QJsonArray ligands = QJsonDocument::fromJson(json[0]).object()["ligands"].toArray();
        QCOMPARE(ligands.size(), 3);
        QVERIFY(ligands[0].toObject().contains("error"));
        QCOMPARE(ligands[1].toObject()["index"].toInt(), 1);
        QCOMPARE(ligands[2].toObject()["name"].toString(), QString("biotin_b"));
        QVERIFY(sdf[0].contains("biotin_a") && sdf[0].contains("biotin_b"));
        QVERIFY(!sdf[0].contains("chain"));
        // The two biotins are the same molecule docked with different streams (index 1 and 2).
        QVERIFY(ligands[1].toObject()["runs"] != ligands[2].toObject()["runs"]);
    }

    void ctrlCStopsAndWritesNothing() {
        // A search long enough to be interrupted, whose first runs report early: 40 short runs
        // (200,000 evaluations each, ~1 s in a Release build) with no AutoStop (biotin's runs
        // would stop together after a few generations). Six runs at the default budget (~12 s
        // each) made the first report wait past the limit below under ASan on a busy 2-core
        // machine (CI, 2026-11-27). Second pass: two devices (CPU stand-ins) and three
        // one-ligand batches, the next batch docking while the one before is in flight.
        for (int k = 0; k < 2; ++k) {
            QStringList args = dock1stp(dir_.filePath("int.sdf"), dir_.filePath("int.json"), "1");
            args[args.indexOf("--evaluations") + 1] = "200000";
            args[args.indexOf("--runs") + 1] = "40";
            args << "--no-autostop";
            QProcess p;
            if (k == 1) {
                const QString ligand = args[args.indexOf("--ligands") + 1];
                args.insert(args.indexOf("--ligands") + 1, ligand);
                args.insert(args.indexOf("--ligands") + 1, ligand);
                args << "--batch" << "1";
                QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
                env.insert("POSEWRIGHT_CPU_DEVICES", "2");
                p.setProcessEnvironment(env);
            }
            p.start(POSEWRIGHT_CLI, args);
            QVERIFY(p.waitForStarted());
            p.setReadChannel(QProcess::StandardError); // waitForReadyRead watches this channel
            QByteArray err;
            // Interrupted mid-search: after the first runs have reported.
            while (!err.contains(" runs\n") && p.waitForReadyRead(120000))
                err += p.readAllStandardError();
            QVERIFY2(err.contains(" runs\n"), err.constData());
            QCOMPARE(err.contains("2 devices"), k == 1);
            ::kill(static_cast<pid_t>(p.processId()), SIGINT);
            QVERIFY(p.waitForFinished(120000));
            err += p.readAllStandardError();
            QCOMPARE(p.exitStatus(), QProcess::NormalExit);
            QCOMPARE(p.exitCode(), 130);
            QVERIFY2(err.contains("interrupted"), err.constData());
            QVERIFY(!QFile::exists(dir_.filePath("int.sdf")));
            QVERIFY(!QFile::exists(dir_.filePath("int.json")));
        }
    }

    void usageErrorsExitTwo() {
        QStringList args = dock1stp(dir_.filePath("u.sdf"), dir_.filePath("u.json"), "1");
        args << "--local-search"
             << "newton";
        const CliRun r = runCli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--local-search"));
        QVERIFY(!QFile::exists(dir_.filePath("u.sdf")));
    }
};

QTEST_GUILESS_MAIN(TestCliDock)
#include "test_cli_dock.moc"
