// Temporary files beside outputs: the names TempPath gives, the sweep that removes those of dead
// processes (and only those), and AtomicFile/RankedSdfWriter leaving nothing behind.
#include "chem/AtomicFile.h"
#include "chem/RankedSdfWriter.h"
#include "chem/TempFiles.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/wait.h>
#include <unistd.h>

using namespace pw;

namespace {

// The PID of a process that has exited and been reaped: no process has it now (PIDs are not
// reused that fast).
long deadPid() {
    const pid_t child = ::fork();
    if (child == 0)
        ::_exit(0);
    int status = 0;
    ::waitpid(child, &status, 0);
    return child;
}

void touch(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot create %s", qPrintable(path));
    f.write("partial");
}

QStringList entries(const QTemporaryDir& dir) {
    return QDir(dir.path()).entryList(QDir::Files | QDir::Hidden, QDir::Name);
}

} // namespace

class TestTempFiles : public QObject {
    Q_OBJECT
private slots:
    void tempPathIsHiddenBesideTheTargetAndRemoved() {
        QTemporaryDir dir;
        const std::string target = dir.filePath("out.sdf").toStdString();
        std::string path;
        {
            TempPath t(target, "tmp");
            path = t.path();
            QVERIFY2(QString::fromStdString(path).startsWith(dir.filePath(".out.sdf.pw-tmp.")),
                     path.c_str());
            touch(QString::fromStdString(path));
        }
        QVERIFY(!QFile::exists(QString::fromStdString(path)));
    }

    void sweepRemovesOnlyFilesOfDeadProcesses() {
        QTemporaryDir dir;
        const QString dead = QString::number(deadPid());
        const QString alive = QString::number(::getpid());
        touch(dir.filePath(".out.sdf.pw-tmp." + dead + ".0"));
        touch(dir.filePath(".out.sdf.pw-spool." + dead + ".3"));
        touch(dir.filePath("out.sdf.spool." + dead));            // the name earlier versions used
        touch(dir.filePath(".out.sdf.pw-tmp." + alive + ".0"));  // a run still going
        touch(dir.filePath(".other.sdf.pw-tmp." + dead + ".0")); // another output's
        touch(dir.filePath("out.sdf"));                          // the output itself
        const int removed = removeStaleTempFiles(dir.filePath("out.sdf").toStdString());
        QCOMPARE(removed, 3);
        QCOMPARE(entries(dir), (QStringList{".other.sdf.pw-tmp." + dead + ".0",
                                            ".out.sdf.pw-tmp." + alive + ".0", "out.sdf"}));
    }

    void atomicFileSweepsAndCommits() {
        QTemporaryDir dir;
        const QString stale =
            dir.filePath(".ranked.sdf.pw-tmp." + QString::number(deadPid()) + ".0");
        touch(stale);
        {
            AtomicFile f(dir.filePath("ranked.sdf").toStdString());
            QVERIFY(!QFile::exists(stale));
            f.stream() << "complete\n";
            QCOMPARE(entries(dir).size(), 1); // only our own temporary file
            QVERIFY(!QFile::exists(dir.filePath("ranked.sdf")));
            f.commit();
        }
        QCOMPARE(entries(dir), QStringList{"ranked.sdf"});
    }

    void rankedWriterWithoutCommitLeavesNothing() {
        QTemporaryDir dir;
        touch(dir.filePath("ranked.sdf.spool." + QString::number(deadPid())));
        {
            RankedSdfWriter w(dir.filePath("ranked.sdf").toStdString());
            w.addFormatted("x\n$$$$\n", -1.0);
            QCOMPARE(entries(dir).size(), 1); // the stale spool went, ours is there
            QVERIFY(entries(dir).front().startsWith(".ranked.sdf.pw-spool."));
        }
        QVERIFY(entries(dir).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTempFiles)
#include "test_temp_files.moc"
