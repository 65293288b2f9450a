// AutoDock 4 scoring of the 30 crystal ligands of ../shared/data/docking (dock30.tar.xz) against
// autodock4 4.2.6's epdb numbers (tests/data/reference/ad4/epdb_dock30.tsv). The set ships no
// maps: they are made here with Debian's autogrid4 4.2.6, from a GPF built out of each
// protein.maps.fld header exactly as the reference was made (README there), into a cache under
// the temporary folder that later runs reuse. Shared data and autogrid4 are always present on the
// project's machines: without them the test fails, it does not skip.
#include "Ad4ReferenceFixture.h"
#include "PdbqtFixture.h"

#include "score/ad4/Ad4LigandScorer.h"
#include "score/ad4/Ad4MapFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTextStream>
#include <QtTest>

#include <set>

using namespace pw;
using namespace pw::ad4;

namespace {

const QString kArchive = QString(POSEWRIGHT_SHARED_DATA) + "/docking/dock30.tar.xz";

QStringList adTypesOf(const QString& pdbqt, bool sorted) {
    QFile f(pdbqt);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QStringList types;
    for (const QByteArray& line : f.readAll().split('\n'))
        if ((line.startsWith("ATOM") || line.startsWith("HETATM")) && line.size() > 77) {
            const QString t = QString::fromLatin1(line.mid(77)).trimmed();
            if (!t.isEmpty() && !types.contains(t))
                types << t;
        }
    if (sorted)
        types.sort();
    return types;
}

// The GPF for one complex: the .fld header's grid, receptor and ligand types, smooth 0.5,
// the AD4 distance-dependent dielectric.
QString gpfFor(const QString& dir) {
    QFile fld(dir + "/protein.maps.fld");
    if (!fld.open(QIODevice::ReadOnly))
        return {};
    QString spacing, npts, center;
    for (const QByteArray& line : fld.readAll().split('\n')) {
        const QString l = QString::fromLatin1(line).trimmed();
        if (l.startsWith("#SPACING")) spacing = l.mid(8).trimmed();
        if (l.startsWith("#NELEMENTS")) npts = l.mid(10).trimmed();
        if (l.startsWith("#CENTER")) center = l.mid(7).trimmed();
    }
    const QStringList lig = adTypesOf(dir + "/flex-xray.pdbqt", false);
    QString g;
    QTextStream s(&g);
    s << "npts " << npts << "\ngridfld protein.maps.fld\nspacing " << spacing << "\nreceptor_types "
      << adTypesOf(dir + "/protein.pdbqt", true).join(' ') << "\nligand_types " << lig.join(' ')
      << "\nreceptor protein.pdbqt\ngridcenter " << center << "\nsmooth 0.5\n";
    for (const QString& t : lig)
        s << "map protein." << t << ".map\n";
    s << "elecmap protein.e.map\ndsolvmap protein.d.map\ndielectric -0.1465\n";
    return g;
}

} // namespace

class TestAd4Dock30 : public QObject {
    Q_OBJECT

    QString cache_;

private slots:
    void initTestCase() {
        QVERIFY2(QFileInfo::exists(kArchive), qPrintable("missing shared data: " + kArchive));
        const QString autogrid = QStandardPaths::findExecutable("autogrid4");
        QVERIFY2(!autogrid.isEmpty(), "autogrid4 (Debian package autogrid) is needed to make the dock30 maps");
        cache_ = QDir::tempPath() + QString("/posewright-ad4-dock30-%1").arg(QFileInfo(kArchive).size());
        QDir().mkpath(cache_);
        // Several build trees may run this test at once: one of them fills the cache at a time.
        QLockFile lock(cache_ + "/lock");
        lock.setStaleLockTime(0); // a crashed holder's lock is taken over, a live one is waited for
        QVERIFY2(lock.lock(), qPrintable("cannot lock " + cache_ + "/lock"));
        if (!QFileInfo::exists(cache_ + "/dock30/unpacked")) {
            QProcess tar;
            tar.setWorkingDirectory(cache_);
            tar.start("tar", {"xJf", kArchive});
            QVERIFY(tar.waitForFinished(300000));
            QCOMPARE(tar.exitCode(), 0);
            QFile stamp(cache_ + "/dock30/unpacked");
            QVERIFY(stamp.open(QIODevice::WriteOnly));
        }
        // autogrid4, one complex at a time (one core), for those without finished maps.
        for (const QString& id : QDir(cache_ + "/dock30").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            const QString dir = cache_ + "/dock30/" + id;
            if (QFileInfo::exists(dir + "/maps.done"))
                continue;
            QFile gpf(dir + "/maps.gpf");
            QVERIFY(gpf.open(QIODevice::WriteOnly));
            gpf.write(gpfFor(dir).toLatin1());
            gpf.close();
            QProcess p;
            p.setWorkingDirectory(dir);
            p.setStandardOutputFile(QProcess::nullDevice());
            p.start(autogrid, {"-p", "maps.gpf", "-l", "maps.glg"});
            QVERIFY2(p.waitForFinished(900000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                     qPrintable("autogrid4 failed for " + id + " (see " + dir + "/maps.glg)"));
            QFile done(dir + "/maps.done");
            QVERIFY(done.open(QIODevice::WriteOnly));
        }
    }

    void equalsAutodock4OnTheThirty() {
        const auto refs = pwtest::readAd4References(pwtest::dataPath("reference/ad4/epdb_dock30.tsv"));
        QCOMPARE(static_cast<int>(refs.size()), 30);
        std::set<std::string> seen;
        for (const pwtest::Ad4Reference& r : refs) {
            const std::string id = r.label.substr(0, r.label.find('/'));
            const std::string dir = cache_.toStdString() + "/dock30/" + id;
            const Ad4Maps maps = readMapsFld(dir + "/protein.maps.fld");
            const Molecule lig = pwtest::readPdbqtForTest(dir + "/flex-xray.pdbqt");
            const Ad4LigandScorer scorer(lig, maps);
            const Ad4Energy e = scorer.score(pwtest::positions(lig));
            const QString diff = pwtest::compareAd4(e, static_cast<int>(scorer.internalPairs().size()), r);
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
            seen.insert(id);
        }
        QCOMPARE(static_cast<int>(seen.size()), 30);
    }
};

QTEST_GUILESS_MAIN(TestAd4Dock30)
#include "test_ad4_dock30.moc"
