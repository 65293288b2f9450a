// RankedSdfWriter's commit: many records of random lengths and tied scores come out in stable
// rank order byte for byte (the copy runs on several threads, into a mapping of the output or by
// pwrite), no record gives an empty file, and a write that fails (file size limit: the disk full
// seen from the writer) leaves nothing behind.
#include "chem/RankedSdfWriter.h"
#include "core/InputError.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <csignal>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace pw;

namespace {

QStringList entries(const QTemporaryDir& dir) {
    return QDir(dir.path()).entryList(QDir::Files | QDir::Hidden, QDir::Name);
}

QByteArray readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

// A record of `length` bytes that names itself, so that a misplaced one is easy to tell.
std::string record(long index, std::size_t length) {
    std::string text = "record " + std::to_string(index) + "\n";
    const std::string tail = "$$$$\n";
    const std::size_t fill =
        length > text.size() + tail.size() ? length - text.size() - tail.size() : 0;
    text.append(fill, static_cast<char>('a' + index % 26));
    return text.append(tail);
}

// Whether RankedSdfWriter fills outputs in this directory through a mapping.
bool mapsOutputs(const QString& dir) {
    const int fd = ::open(QFile::encodeName(dir).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool maps = RankedSdfWriter::reservedBlocksStay(fd);
    ::close(fd);
    return maps;
}

// The first byte where two outputs differ, for a readable failure.
QByteArray firstDifference(const QByteArray& got, const QByteArray& expected) {
    const qsizetype n = std::min(got.size(), expected.size());
    qsizetype i = 0;
    while (i < n && got[i] == expected[i])
        ++i;
    return "sizes " + QByteArray::number(got.size()) + " and " +
           QByteArray::number(expected.size()) + ", first difference at byte " +
           QByteArray::number(i) + ": got \"" + got.mid(std::max<qsizetype>(0, i - 20), 60) +
           "\", expected \"" + expected.mid(std::max<qsizetype>(0, i - 20), 60) + "\"";
}

} // namespace

class TestRankedSdfWriter : public QObject {
    Q_OBJECT
private slots:
    void manyRecordsComeOutInStableRankOrder_data() {
        QTest::addColumn<bool>("byPwrite");
        QTest::newRow("through a mapping") << false;
        QTest::newRow("by pwrite") << true;
    }

    void manyRecordsComeOutInStableRankOrder() {
        QFETCH(bool, byPwrite);
        if (byPwrite)
            qputenv("POSEWRIGHT_COMMIT_PWRITE", "1");
        else
            qunsetenv("POSEWRIGHT_COMMIT_PWRITE");
        // The writer maps the output only on file systems that write reserved blocks in place:
        // the mapping's row runs on one (the temporary directory, or else /dev/shm).
        QString base = QDir::tempPath();
        if (!byPwrite && !mapsOutputs(base))
            base = "/dev/shm";
        QVERIFY2(byPwrite || mapsOutputs(base),
                 "neither the temporary directory nor /dev/shm is on ext4, XFS or tmpfs");
        QTemporaryDir dir(base + "/ranked-XXXXXX");
        QVERIFY(dir.isValid());
        const QString target = dir.filePath("ranked.sdf");
        std::mt19937_64 rng(17);
        const long n = 50000;
        std::vector<std::string> records;
        std::vector<double> scores;
        for (long i = 0; i < n; ++i) {
            std::size_t length = 10 + rng() % 2000;
            if (i == 777)
                length = std::size_t{5} << 20; // larger than any copy buffer
            records.push_back(record(i, length));
            // Few distinct values: many ties, which must keep arrival order. A stretch of
            // consecutive records shares the best score, so they are adjacent in the spool too.
            double score = -static_cast<double>(rng() % 100) / 4;
            if (i >= 20000 && i < 24000)
                score = -30.0;
            scores.push_back(score);
        }
        {
            RankedSdfWriter w(target.toStdString());
            for (long i = 0; i < n; ++i)
                w.addFormatted(records[i], scores[i]);
            QCOMPARE(w.count(), n);
            w.commit();
        }
        std::vector<long> order(n);
        std::iota(order.begin(), order.end(), 0L);
        std::stable_sort(order.begin(), order.end(),
                         [&](long a, long b) { return scores[a] < scores[b]; });
        QByteArray expected;
        for (long i : order)
            expected.append(records[i].data(), static_cast<qsizetype>(records[i].size()));
        const QByteArray got = readAll(target);
        QVERIFY2(got == expected, firstDifference(got, expected).constData());
        QCOMPARE(entries(dir), QStringList{"ranked.sdf"}); // no spool, no temporary output
    }

    void noRecordGivesAnEmptyFile() {
        QTemporaryDir dir;
        const QString target = dir.filePath("ranked.sdf");
        {
            RankedSdfWriter w(target.toStdString());
            w.commit();
        }
        QVERIFY(QFile::exists(target));
        QCOMPARE(QFileInfo(target).size(), 0);
        QCOMPARE(entries(dir), QStringList{"ranked.sdf"});
    }

    // The output cannot be written in full (RLIMIT_FSIZE makes writes past a size fail with
    // EFBIG, as a full disk fails them with ENOSPC): commit throws naming the target, and neither
    // the target nor a temporary output is left. Runs in a child process (the limit is the
    // process's); the child answers with its exit code.
    void failedWriteLeavesNothing() {
        QTemporaryDir dir;
        const std::string target = dir.filePath("ranked.sdf").toStdString();
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            int code = 0;
            {
                RankedSdfWriter w(target);
                // Records until the spool file holds all of them (the writer buffers some):
                // then only the output's writes meet the limit set below.
                qint64 added = 0;
                bool spooled = false;
                const std::string text = record(1, 64 << 10);
                for (int i = 0; i < 4096 && !spooled; ++i) {
                    w.addFormatted(text, -i);
                    added += static_cast<qint64>(text.size());
                    const QStringList files = entries(dir);
                    spooled =
                        files.size() == 1 && QFileInfo(dir.filePath(files.front())).size() == added;
                }
                if (!spooled)
                    ::_exit(10);
                std::signal(SIGXFSZ, SIG_IGN);
                const rlimit limit{static_cast<rlim_t>(added / 2), static_cast<rlim_t>(added / 2)};
                if (::setrlimit(RLIMIT_FSIZE, &limit) != 0)
                    ::_exit(11);
                try {
                    w.commit();
                    code = 12; // no error reported
                } catch (const InputError& e) {
                    if (e.file() != target)
                        code = 13;
                } catch (...) {
                    code = 14;
                }
                const QStringList files = entries(dir);
                if (files.size() != 1 || !files.front().startsWith(".ranked.sdf.pw-spool."))
                    code = code ? code : 15; // only the spool, which goes with the writer
            }
            if (!entries(dir).isEmpty())
                code = code ? code : 16;
            ::_exit(code);
        }
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status));
        QCOMPARE(WEXITSTATUS(status), 0);
        QVERIFY(entries(dir).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestRankedSdfWriter)
#include "test_ranked_sdf_writer.moc"
