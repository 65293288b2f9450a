// Tests that `posewright-cli --help` tells the truth (issue 16 item 9): every command it lists
// exists and answers a bad option with a usage error (exit 2), and the benchmarks it names are
// exactly those `bench` runs.
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

#include "cli/CliRun.h"

using namespace pw::test;

namespace {

// "  name\tsummary" lines of the help's command list.
QMap<QString, QString> listedCommands(const QByteArray& help) {
    QMap<QString, QString> commands;
    static const QRegularExpression line(QStringLiteral("^  ([a-z0-9-]+)\\t(.*)$"));
    for (const QByteArray& l : help.split('\n')) {
        const auto m = line.match(QString::fromUtf8(l));
        if (m.hasMatch())
            commands.insert(m.captured(1), m.captured(2));
    }
    return commands;
}

// "a, b, c or d" -> {a, b, c, d}
QSet<QString> wordList(QString text) {
    text.replace(QStringLiteral(" or "), QStringLiteral(", "));
    QSet<QString> words;
    for (const QString& w : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        words.insert(w.trimmed());
    return words;
}

} // namespace

class TestCliHelp : public QObject {
    Q_OBJECT
private slots:
    void everyListedCommandExists() {
        CliRun help = runCli({"--help"});
        QCOMPARE(help.exitCode, 0);
        const auto commands = listedCommands(help.out);
        for (const char* expected : {"info", "score", "minimize", "dock", "overlay", "lingo",
                                     "maps", "hits", "bench"})
            QVERIFY2(commands.contains(QLatin1String(expected)), expected);
        for (const QString& name : commands.keys()) {
            CliRun r = runCli({name, "--no-such-option"});
            QVERIFY2(r.exitCode == 2, qPrintable(name + ": exit " + QString::number(r.exitCode)));
            QVERIFY2(!r.err.contains("unknown command"), qPrintable(name));
            QVERIFY2(r.err.contains("usage: posewright-cli " + name.toUtf8()), qPrintable(name));
        }
    }
    void benchSummaryNamesExactlyTheBenchmarks() {
        const QString summary = listedCommands(runCli({"--help"}).out).value("bench");
        static const QRegularExpression listed(QStringLiteral("^benchmarks: ([^(]*) \\("));
        const auto m = listed.match(summary);
        QVERIFY2(m.hasMatch(), qPrintable(summary));
        // The dispatcher's own list, from its usage error.
        CliRun r = runCli({"bench", "no-such-benchmark"});
        QCOMPARE(r.exitCode, 2);
        static const QRegularExpression accepted(QStringLiteral("expected a benchmark: ([^\\n]*), got"));
        const auto a = accepted.match(QString::fromUtf8(r.err));
        QVERIFY2(a.hasMatch(), r.err.constData());
        QCOMPARE(wordList(m.captured(1)), wordList(a.captured(1)));
    }
    void unknownCommandIsAUsageError() {
        CliRun r = runCli({"frobnicate"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unknown command 'frobnicate'"));
        QVERIFY(r.err.contains("commands:"));
    }
};

QTEST_GUILESS_MAIN(TestCliHelp)
#include "test_cli_help.moc"
