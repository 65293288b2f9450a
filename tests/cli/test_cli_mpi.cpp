// posewright-cli under `mpirun` (a build with -DPOSEWRIGHT_MPI=ON; skipped otherwise): minimize,
// dock, overlay and lingo on 2 and 3 ranks (CPU backend) write the file one process writes, byte
// for byte (also with several parts per rank); a rank that dies is reported with the records it
// held, every finished part is kept, and `--resume` runs only the missing shard and completes the
// file.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <cstdio>

#include "cli/CliRun.h"

using namespace pw::test;

namespace {

// mpirun -n N posewright-cli ARGS (root allowed, more ranks than cores allowed).
CliRun mpirun(int ranks, const QStringList& args, const QString& killRank = {}) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("OMPI_ALLOW_RUN_AS_ROOT", "1");
    env.insert("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    env.insert("OMPI_MCA_rmaps_base_oversubscribe", "1");
    if (!killRank.isEmpty())
        env.insert("POSEWRIGHT_MPI_TEST_KILL_RANK", killRank);
    p.setProcessEnvironment(env);
    p.start(QStandardPaths::findExecutable("mpirun"),
            QStringList{"-n", QString::number(ranks), "--oversubscribe", POSEWRIGHT_CLI} + args);
    const int code = normalExitCode(p, 600000);
    return {code, p.readAllStandardOutput(), p.readAllStandardError()};
}

} // namespace

class TestCliMpi : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path(const QString& name) const { return dir_.filePath(name); }

    QStringList minimizeCommand() {
        const QByteArray xtal = readAll(testData("complexes/1iep/ligand_xtal.sdf"));
        QFile f(path("mix.sdf"));
        if (!f.exists() && f.open(QIODevice::WriteOnly))
            f.write(xtal + "broken\n  junk\n\nnot a counts line\n$$$$\n" + xtal + xtal);
        f.close();
        return {"minimize", "--receptor", testData("complexes/1iep/receptor.pdbqt"), "--box",
                testData("complexes/1iep/box.txt"), "--device", "cpu", "--threads", "1",
                "--shard-block", "1", "--ligands", path("mix.sdf"),
                testData("complexes/1iep/poses/pose01.pdbqt"),
                testData("complexes/1iep/poses/pose02.pdbqt"), path("mix.sdf")};
    }

    // One process, then N ranks: the same bytes.
    void ranksMatchOneProcess(const QStringList& command, int ranks, const QString& tag,
                              const QString& ext = "sdf", const QStringList& mpiOnly = {}) {
        const QString one = path(tag + "_one." + ext), many = path(tag + "_mpi." + ext);
        CliRun r = runCli(command + QStringList{"--out", one});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = mpirun(ranks, command + mpiOnly + QStringList{"--out", many});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("merge: "), r.err.constData());
        QVERIFY(!readAll(one).isEmpty());
        QCOMPARE(readAll(many), readAll(one));
        QVERIFY(!QDir(many + ".mpi-parts").exists()); // parts removed once merged
    }

private slots:
    void minimizeOnTwoAndThreeRanks() {
        ranksMatchOneProcess(minimizeCommand(), 2, "min2");
        ranksMatchOneProcess(minimizeCommand(), 3, "min3");
        ranksMatchOneProcess(minimizeCommand(), 2, "min2x3", "sdf", {"--parts-per-rank", "3"});
    }

    void dockOverlayLingoOnRanks() {
        const QString lig = testData("complexes/1stp/ligand_xtal.pdbqt");
        ranksMatchOneProcess({"dock", "--receptor", testData("complexes/1stp/receptor.pdbqt"),
                              "--box", testData("complexes/1stp/box.txt"), "--runs", "3", "--seed",
                              "5", "--population", "30", "--evaluations", "5000",
                              "--ls-iterations", "50", "--device", "cpu", "--threads", "1",
                              "--shard-block", "2", "--ligands", lig, lig, lig, lig, lig},
                             2, "dock");
        ranksMatchOneProcess({"overlay", "--reference", testData("shapes/ref.mol"), "--fit",
                              testData("shapes/cdk2.sdf"), "--device", "cpu", "--threads", "1",
                              "--shard-block", "5"},
                             3, "overlay");
        ranksMatchOneProcess({"lingo", "--db", testData("smiles/nci_first_300.smi"), "--top", "5",
                              "--device", "cpu", "--threads", "1", "--shard-block", "7"},
                             3, "lingo", "tsv");
    }

    void deadRankIsReportedAndResumeCompletesIt() {
        // 3 ranks x 2 parts each: rank 1 makes shards 2/6 and 5/6 and dies before committing 5/6.
        const QStringList cmd = minimizeCommand() + QStringList{"--parts-per-rank", "2"};
        const QString one = path("k_one.sdf"), out = path("k.sdf");
        QCOMPARE(runCli(minimizeCommand() + QStringList{"--out", one}).exitCode, 0);
        CliRun r = mpirun(3, cmd + QStringList{"--out", out}, "1");
        // Rank 0 reports the lost shard, then rank 1 dies by SIGKILL while the others wait for it
        // in MPI_Finalize; mpirun (Open MPI) ends the job and exits 128 + the dead rank's signal.
        QCOMPARE(r.exitCode, 128 + SIGKILL);
        QVERIFY2(r.err.contains("exited on signal 9"), r.err.constData());
        QVERIFY2(r.err.contains("rank 1 (shard 5/6@1) did not finish; it held input records 4, 10, 16"),
                 r.err.constData());
        QCOMPARE(r.err.count("did not finish"), 1);
        QVERIFY2(r.err.contains("error: " + out.toUtf8() + " not written; the finished parts are "
                                "kept in " + out.toUtf8() + ".mpi-parts: run the same command "
                                "with --resume to complete it"),
                 r.err.constData());
        QVERIFY(!QFile::exists(out));
        const QString parts = out + ".mpi-parts/";
        for (int k : {1, 2, 3, 4, 6}) // nothing finished is lost, the dead rank's first part too
            QVERIFY(QFile::exists(parts + QString("part-%1-of-6.sdf").arg(k)));
        QVERIFY(!QFile::exists(parts + "part-5-of-6.sdf"));

        // Another command line does not resume these parts.
        r = mpirun(3, cmd + QStringList{"--out", out, "--resume", "--max-iterations", "3"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("come from another command line"), r.err.constData());

        r = mpirun(3, cmd + QStringList{"--out", out, "--resume"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.err.count("finished before, kept"), 5);
        QVERIFY(r.err.contains("shard 5/6@1 (rank 1) not finished, runs again"));
        QCOMPARE(r.err.count("minimized "), 1); // only the missing shard ran
        QCOMPARE(readAll(out), readAll(one));
        QVERIFY(!QDir(out + ".mpi-parts").exists());
    }

    void usageErrors() {
        const CliRun r = mpirun(2, minimizeCommand()); // no --out
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--out FILE is required"), r.err.constData());
        QCOMPARE(mpirun(2, minimizeCommand() + QStringList{"--out", path("x.sdf"), "--shard",
                                                           "1/2"})
                     .exitCode,
                 2);
        QCOMPARE(mpirun(2, minimizeCommand() + QStringList{"--out", path("x.sdf"),
                                                           "--parts-per-rank", "0"})
                     .exitCode,
                 2);
        const CliRun dock = mpirun(2, {"dock", "--receptor", testData("complexes/1stp/receptor.pdbqt"),
                                       "--box", testData("complexes/1stp/box.txt"), "--ligands",
                                       testData("complexes/1stp/ligand_xtal.pdbqt"), "--out",
                                       path("d.sdf"), "--json", path("d.json")});
        QCOMPARE(dock.exitCode, 2);
        QVERIFY2(dock.err.contains("--json summary is not merged"), dock.err.constData());
    }
};

// Exit 77 (CTest: skipped) in a build without MPI or on a machine without mpirun.
int main(int argc, char** argv) {
#ifndef POSEWRIGHT_MPI_BUILD
    std::printf("SKIP: posewright-cli built without MPI (-DPOSEWRIGHT_MPI=ON)\n");
    return 77;
#endif
    QCoreApplication app(argc, argv);
    if (QStandardPaths::findExecutable("mpirun").isEmpty()) {
        std::printf("SKIP: no mpirun on this machine (Debian: openmpi-bin)\n");
        return 77;
    }
    TestCliMpi tc;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&tc, argc, argv);
}
#include "test_cli_mpi.moc"
