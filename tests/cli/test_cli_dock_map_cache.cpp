// `posewright-cli dock --scoring ad4 --receptor R --box B` keeps the AD4 maps it builds in the
// XDG cache folder: a second run reads them (and docks to the same poses), a damaged set is
// detected, rebuilt and rewritten, and --no-map-cache neither reads nor writes the folder.
#include "CliRun.h"

#include <QDir>
#include <QFile>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QtTest>

using namespace pw::test;

namespace {

// A run with XDG_CACHE_HOME set to `cache`.
CliRun runWithCache(const QStringList& args, const QString& cache) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CACHE_HOME"), cache);
    p.setProcessEnvironment(env);
    p.start(POSEWRIGHT_CLI, args);
    const int code = normalExitCode(p, 300000);
    return {code, p.readAllStandardOutput(), p.readAllStandardError()};
}

// The one cached set's folder (cache/posewright/ad4maps/<16 hex digits>), or empty.
QString onlyEntry(const QString& cache) {
    const QDir dir(cache + QStringLiteral("/posewright/ad4maps"));
    const QStringList entries = dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    return entries.size() == 1 ? dir.filePath(entries.front()) : QString();
}

} // namespace

class TestCliDockMapCache : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString box() {
        // A small box over the 1stp pocket: maps in a moment on the CPU.
        const QString path = dir_.filePath(QStringLiteral("small_box.txt"));
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write("center_x = 11.333\ncenter_y = 1.444\ncenter_z = -10.511\n"
                    "size_x = 9\nsize_y = 9\nsize_z = 9\n");
        return path;
    }

    QStringList dockArgs(const QString& out) {
        return {"dock",
                "--scoring",
                "ad4",
                "--receptor",
                testData("complexes/1stp/receptor.pdbqt"),
                "--box",
                box(),
                "--ligands",
                testData("complexes/1stp/ligand_xtal.pdbqt"),
                "--runs",
                "2",
                "--population",
                "20",
                "--evaluations",
                "3000",
                "--ls-iterations",
                "30",
                "--seed",
                "4",
                "--device",
                "cpu",
                "--threads",
                "1",
                "--out",
                out};
    }

private slots:
    void secondRunReadsTheCachedMaps() {
        const QString cache = dir_.filePath(QStringLiteral("cache"));
        const QString out1 = dir_.filePath(QStringLiteral("one.sdf"));
        const QString out2 = dir_.filePath(QStringLiteral("two.sdf"));
        const CliRun first = runWithCache(dockArgs(out1), cache);
        QVERIFY2(first.exitCode == 0, first.err.constData());
        QVERIFY2(first.err.contains("AD4 maps: built, cached in"), first.err.constData());
        const QString entry = onlyEntry(cache);
        QVERIFY(!entry.isEmpty());
        QVERIFY(QFile::exists(entry + QStringLiteral("/maps.maps.fld")));
        QVERIFY(QFile::exists(entry + QStringLiteral("/posewright.sum")));
        QVERIFY(first.err.contains(QFileInfo(entry).fileName().toUtf8()));

        const CliRun second = runWithCache(dockArgs(out2), cache);
        QVERIFY2(second.exitCode == 0, second.err.constData());
        QVERIFY2(second.err.contains("AD4 maps: read from the map cache"), second.err.constData());
        QVERIFY(!second.err.contains("built"));
        // The same maps (the first run docked on the values it wrote): the same poses.
        QVERIFY(!readAll(out1).isEmpty());
        QCOMPARE(readAll(out2), readAll(out1));
    }

    void damagedSetIsRebuilt() {
        const QString cache = dir_.filePath(QStringLiteral("cache-damaged"));
        const QString out = dir_.filePath(QStringLiteral("d.sdf"));
        QCOMPARE(runWithCache(dockArgs(out), cache).exitCode, 0);
        const QString entry = onlyEntry(cache);
        QVERIFY(!entry.isEmpty());
        QFile map(entry + QStringLiteral("/maps.e.map"));
        QVERIFY(map.open(QIODevice::ReadWrite));
        QByteArray text = map.readAll();
        const qsizetype digit =
            text.lastIndexOf('1') >= 0 ? text.lastIndexOf('1') : text.lastIndexOf('0');
        QVERIFY(digit > 0);
        text[digit] = text[digit] == '1' ? '2' : '1'; // a wrong value, the file still well formed
        map.seek(0);
        map.write(text);
        map.close();

        const CliRun again = runWithCache(dockArgs(out), cache);
        QVERIFY2(again.exitCode == 0, again.err.constData());
        QVERIFY2(again.err.contains("AD4 maps: built (the cached set was damaged)"),
                 again.err.constData());
        const CliRun third = runWithCache(dockArgs(out), cache);
        QVERIFY2(third.exitCode == 0, third.err.constData());
        QVERIFY2(third.err.contains("AD4 maps: read from the map cache"), third.err.constData());
    }

    void noMapCacheLeavesTheFolderAlone() {
        const QString cache = dir_.filePath(QStringLiteral("cache-off"));
        QStringList args = dockArgs(dir_.filePath(QStringLiteral("off.sdf")));
        args << QStringLiteral("--no-map-cache");
        const CliRun r = runWithCache(args, cache);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(!r.err.contains("AD4 maps:"));
        QVERIFY(!QDir(cache).exists());
    }
};

QTEST_GUILESS_MAIN(TestCliDockMapCache)
#include "test_cli_dock_map_cache.moc"
