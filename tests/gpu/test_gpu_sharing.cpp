// GPU memory as users meet it (issue 16 item 3), through posewright-cli run as a user runs it:
// a GPU that refuses an allocation gives one clear message and a clean stop, and two jobs started
// at once on one GPU, each under a memory cap that splits its batch, both finish with the results
// one job alone gives; the minimize command's workers (one or two per GPU) give one output.
#include "GpuTestMain.h"
#include "cli/CliRun.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>

using namespace pw::test;

namespace {

// The ten 1iep poses, repeated: a batch of 400 ligands.
QStringList manyPoses() {
    QStringList files;
    for (int round = 0; round < 40; ++round)
        for (int i = 0; i < 10; ++i)
            files << testData(QString("complexes/1iep/poses/pose%1.pdbqt").arg(i, 2, 10, QChar('0')));
    return files;
}

QStringList minimizeArgs(const QString& out, const QString& maxMib) {
    QStringList args{"minimize", "--receptor", testData("complexes/1iep/receptor.pdbqt"),
                     "--box",    testData("complexes/1iep/box.txt"), "--device", "cuda",
                     "--vina-steps", "--json", "--out", out};
    if (!maxMib.isEmpty())
        args << "--max-gpu-memory" << maxMib;
    return args << "--ligands" << manyPoses();
}

// Starts posewright-cli as a user would, or, when POSEWRIGHT_TEST_CLI_WRAPPER is set (for example
// "compute-sanitizer --tool memcheck --error-exitcode 99 --log-file /tmp/san.%p.log"), under that
// command: the sanitizer then checks the CLI's own GPU work. (Run under the tool itself, this
// suite crashed in QProcess when the tool followed it into its children: RESULTS.md, eighth
// session.) A sanitizer's error exit code fails the exit-code checks below.
void startCli(QProcess& p, const QStringList& args,
              const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    p.setProcessEnvironment(env);
    QStringList wrapper = QProcessEnvironment::systemEnvironment()
                              .value("POSEWRIGHT_TEST_CLI_WRAPPER")
                              .split(' ', Qt::SkipEmptyParts);
    if (wrapper.isEmpty()) {
        p.start(POSEWRIGHT_CLI, args);
        return;
    }
    const QString program = wrapper.takeFirst();
    p.start(program, wrapper + QStringList{POSEWRIGHT_CLI} + args);
}

// The CLI run to its end: exit code (-1 for a crash or a time-out) and its output.
CliRun runWrappedCli(const QStringList& args) {
    QProcess p;
    startCli(p, args);
    const int code = normalExitCode(p, 300000);
    return {code, p.readAllStandardOutput(), p.readAllStandardError()};
}

// index -> affinity from the JSON lines.
QMap<int, double> affinities(const QByteArray& out) {
    QMap<int, double> a;
    for (const QJsonObject& o : jsonLines(out))
        a.insert(o["index"].toInt(), o["affinity"].toDouble());
    return a;
}

} // namespace

class TestGpuSharing : public QObject {
    Q_OBJECT
private slots:
    void allocationFailureIsOneClearMessage() {
        QTemporaryDir dir;
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("POSEWRIGHT_GPU_FAIL_ALLOCATION", "1"); // the GPU refuses the first allocation
        startCli(p, minimizeArgs(dir.filePath("min.sdf"), {}), env);
        const int code = normalExitCode(p, 300000);
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(code, 1); // a normal exit with the error status: no abort, no crash
        QVERIFY2(err.contains("error: not enough GPU memory: "), err.constData());
        QCOMPARE(err.count("error:"), 1);
        // Nothing half-written, no temporary file left.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{});
    }
    void twoJobsShareOneGpu() {
        QTemporaryDir dir;
        // One job alone, then two at once; each capped at 1 MiB, which splits 400 poses of 1iep
        // (about 1.2 KiB each in flight, two chunks at once) into several chunks.
        const CliRun alone = runWrappedCli(minimizeArgs(dir.filePath("alone.sdf"), "1"));
        QCOMPARE(alone.exitCode, 0);
        const QMap<int, double> expected = affinities(alone.out);
        QCOMPARE(expected.size(), 400);

        QProcess a, b;
        startCli(a, minimizeArgs(dir.filePath("a.sdf"), "1"));
        startCli(b, minimizeArgs(dir.filePath("b.sdf"), "1"));
        QVERIFY(a.waitForStarted() && b.waitForStarted());
        const int codeA = normalExitCode(a, 300000);
        const int codeB = normalExitCode(b, 300000);
        QVERIFY2(codeA == 0, a.readAllStandardError().constData());
        QVERIFY2(codeB == 0, b.readAllStandardError().constData());
        for (QProcess* p : {&a, &b}) {
            const QMap<int, double> got = affinities(p->readAllStandardOutput());
            QCOMPARE(got.size(), expected.size());
            int same = 0;
            for (auto it = expected.begin(); it != expected.end(); ++it)
                same += std::abs(got.value(it.key(), 1e9) - it.value()) <= 1e-3;
            QCOMPARE(same, int(expected.size()));
        }
        QVERIFY(QFile::exists(dir.filePath("a.sdf")) && QFile::exists(dir.filePath("b.sdf")));
    }
    // The minimize command's workers: one per GPU (cuda:all), or two (the default) or three per
    // GPU on backends of their own (POSEWRIGHT_MINIMIZE_LANES), each taking the next chunk; small
    // chunks finish out of order and go back into input order. The JSON stream and the ranked
    // SDF are the one-worker run's, byte for byte.
    void minimizeWorkersGiveOneOutput() {
        QTemporaryDir dir;
        const auto minimize = [&](const QString& out, const char* device, const char* lanes,
                                  const char* chunk) {
            QStringList args = minimizeArgs(dir.filePath(out), {});
            args[args.indexOf("--device") + 1] = device;
            if (chunk)
                args << "--chunk" << chunk;
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            if (lanes)
                env.insert("POSEWRIGHT_MINIMIZE_LANES", lanes);
            startCli(p, args, env);
            const int code = normalExitCode(p, 300000);
            return CliRun{code, p.readAllStandardOutput(), p.readAllStandardError()};
        };
        const CliRun one = minimize("one.sdf", "cuda", "1", nullptr);
        QVERIFY2(one.exitCode == 0, one.err.constData());
        QCOMPARE(jsonLines(one.out).size(), 400);
        const struct {
            const char* device;
            const char* lanes;
        } layouts[] = {{"cuda:all", "1"}, {"cuda", nullptr}, {"cuda:all", nullptr}, {"cuda", "3"}};
        for (const auto& layout : layouts) {
            const QString what = QString("%1 with %2 lanes")
                                     .arg(layout.device, layout.lanes ? layout.lanes : "default");
            const CliRun many = minimize("many.sdf", layout.device, layout.lanes, "23");
            QVERIFY2(many.exitCode == 0, many.err.constData());
            QVERIFY2(many.out == one.out, qPrintable(what + ": another JSON stream"));
            QVERIFY2(readAll(dir.filePath("many.sdf")) == readAll(dir.filePath("one.sdf")),
                     qPrintable(what + ": another ranked SDF"));
        }
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestGpuSharing)
#include "test_gpu_sharing.moc"
