// One device choice for overlay, lingo and their benches (backend/DeviceSelection through
// cli/DeviceOption): one stderr line "<command>: device: ..." naming the GPU, the CPU, or the
// reason and the CPU; an explicit CUDA device that is not there falls back with the reason; a
// malformed --device is a usage error (exit 2) before any input is read.
#include "CliRun.h"

#include <QtTest>

using namespace pw::test;

namespace {

// The stderr lines that start with `prefix`.
QStringList linesStarting(const QByteArray& err, const QString& prefix) {
    QStringList out;
    for (const QString& l : QString::fromUtf8(err).split('\n'))
        if (l.startsWith(prefix))
            out << l;
    return out;
}

} // namespace

class TestOverlayLingoDevice : public QObject {
    Q_OBJECT
    const QString ref = testData("shapes/ref.mol"), cdk2 = testData("shapes/cdk2.sdf");
    const QString nci = testData("smiles/nci_first_300.smi");

private slots:
    void cpuIsSaidWithItsThreads() {
        CliRun r = runCli({"overlay", "--reference", ref, "--fit", cdk2, "--device", "cpu",
                           "--threads", "1", "--json"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(linesStarting(r.err, "overlay: "), QStringList{"overlay: device: CPU (1 thread)"});
        QCOMPARE(jsonLines(r.out).size(), 47);
        r = runCli({"lingo", "--db", nci, "--top", "1", "--device", "cpu", "--threads", "2"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(linesStarting(r.err, "lingo: "), QStringList{"lingo: device: CPU (2 threads)"});
    }

    void missingCudaDeviceFallsBackWithTheReason() {
        // cuda:63 exists on no machine: every command runs on the CPU and says why, once.
        const QList<QStringList> commands = {
            {"overlay", "--reference", ref, "--fit", cdk2, "--score-only"},
            {"bench", "overlay", "--reference", ref, "--fit", cdk2, "--repeat", "1"},
            {"lingo", "--db", nci, "--top", "2"},
            {"bench", "lingo", "--db", nci, "--repeat", "1", "--rows", "20"}};
        const QStringList prefixes = {"overlay: ", "bench overlay: ", "lingo: ", "bench lingo: "};
        for (qsizetype i = 0; i < commands.size(); ++i) {
            CliRun r = runCli(commands[i] + QStringList{"--device", "cuda:63"});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const QStringList notes = linesStarting(r.err, prefixes[i]);
            QCOMPARE(notes.size(), 1);
            QVERIFY2(notes[0].startsWith(prefixes[i] + "device: ") &&
                         notes[0].contains("; using the CPU ("),
                     qPrintable(notes[0]));
            QVERIFY(!r.out.isEmpty());
        }
    }

    void malformedDeviceIsAUsageError() {
        const QList<QStringList> commands = {
            {"overlay", "--reference", "/nonexistent/ref.mol", "--fit", cdk2},
            {"bench", "overlay", "--reference", "/nonexistent/ref.mol", "--fit", cdk2},
            {"lingo", "--db", "/nonexistent/db.smi"},
            {"bench", "lingo", "--db", "/nonexistent/db.smi"}};
        for (const QStringList& c : commands) {
            CliRun r = runCli(c + QStringList{"--device", "cuda:x"});
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("--device: expected auto, cpu, cuda or cuda:N, got 'cuda:x'"),
                     r.err.constData());
            QVERIFY(!r.err.contains("nonexistent")); // refused before any input is read
        }
    }
};

QTEST_GUILESS_MAIN(TestOverlayLingoDevice)
#include "test_overlay_lingo_device.moc"
