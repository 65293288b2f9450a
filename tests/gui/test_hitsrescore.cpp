// Qt Test for columns a command adds to a hit store after it was imported (issue 15 item 3 with
// issue 18 item 2): 20 1iep poses are imported, the Hits panel opens the store, then
// `posewright-cli hits rescore` writes rescore_affinity, rescore_inter and rescore_intra into it
// while the panel is open; Reload hit store shows them: the table has the three columns with the
// store's values, sorts by rescore_affinity from the header (against a sort of the stored values),
// filters by a range of it from the filter bar (against a brute-force pass), and exports them as
// SD tags and CSV columns.
#include "GuiTestSetup.h"
#include "HitTableModel.h"
#include "HitTableView.h"
#include "HitsPart.h"
#include "MainWindow.h"
#include "chem/MoleculeReader.h"
#include "chem/MoleculeWriter.h"
#include "hits/HitColumns.h"
#include "hits/HitImport.h"
#include "hits/HitStore.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace pw;

namespace {

const QString kComplex = QStringLiteral(POSEWRIGHT_TEST_DATA "/complexes/1iep/");
const QStringList kRescoreColumns = {QStringLiteral("rescore_affinity"),
                                     QStringLiteral("rescore_inter"),
                                     QStringLiteral("rescore_intra")};

// The 20 1iep poses of tests/data (ten inputs, ten Vina outputs) imported into a new store.
void makeStore(const QString& db, const QString& sdf) {
    std::vector<Molecule> poses;
    for (const char* suffix : {"", "_out"})
        for (int i = 0; i < 10; ++i) {
            const QString file =
                kComplex + QStringLiteral("poses/pose%1%2.pdbqt").arg(i, 2, 10, QChar('0')).arg(suffix);
            Molecule m = readMolecule(file.toStdString());
            m.name = "pose" + QString::number(poses.size()).rightJustified(2, '0').toStdString();
            poses.push_back(std::move(m));
        }
    writeMolecules(sdf.toStdString(), poses);
    hits::HitStore store(db.toStdString(), hits::HitStore::Mode::Create);
    hits::HitStore::Transaction tx(store);
    hits::importSdf(store, sdf.toStdString(), {});
    tx.commit();
}

bool openAndWait(HitsPart* part, const std::function<void()>& open) {
    QSignalSpy opened(part, &HitsPart::storeOpened);
    open();
    if (opened.isEmpty() && !opened.wait(120000))
        return false;
    return opened.first().first().toBool();
}

// id -> rescore_affinity as stored (NaN for NULL), read with the store's own API.
std::map<qint64, double> storedAffinities(const QString& db) {
    hits::HitStore store(db.toStdString(), hits::HitStore::Mode::ReadOnly);
    hits::Statement q = store.prepare("SELECT id, rescore_affinity FROM poses");
    std::map<qint64, double> out;
    while (q.step())
        out[q.integer(0)] = q.isNull(1) ? NAN : q.real(1);
    return out;
}

// The SD tag `name`'s value of every record, in file order.
QStringList sdTagValues(const QString& path, const QString& name) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    QStringList out;
    for (qsizetype i = 0; i + 1 < lines.size(); ++i)
        if (lines[i].startsWith(QStringLiteral(">")) &&
            lines[i].contains(QStringLiteral("<") + name + QStringLiteral(">")))
            out << lines[i + 1].trimmed();
    return out;
}

QString exportTag(const QString& column) {
    return QString::fromLatin1(hits::kExportTagPrefix.data(), qsizetype(hits::kExportTagPrefix.size())) +
           column;
}

// `posewright-cli hits rescore` of every pose with `scoring`, on one CPU thread.
bool rescore(const QString& db, const QString& scoring) {
    QProcess cli;
    cli.start(QStringLiteral(POSEWRIGHT_CLI),
              {QStringLiteral("hits"), QStringLiteral("rescore"), db, QStringLiteral("--receptor"),
               kComplex + QStringLiteral("receptor.pdbqt"), QStringLiteral("--box"),
               kComplex + QStringLiteral("box.txt"), QStringLiteral("--scoring"), scoring,
               QStringLiteral("--device"), QStringLiteral("cpu"), QStringLiteral("--threads"),
               QStringLiteral("1")});
    if (!cli.waitForFinished(300000) || cli.exitStatus() != QProcess::NormalExit ||
        cli.exitCode() != 0) {
        qWarning("%s", cli.readAllStandardError().constData());
        return false;
    }
    return true;
}

} // namespace

class TestHitsRescore : public QObject {
    Q_OBJECT
private slots:
    void rescoreColumnsShowSortFilterAndExport();
};

void TestHitsRescore::rescoreColumnsShowSortFilterAndExport() {
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("poses.db"));
    makeStore(db, dir.filePath(QStringLiteral("poses.sdf")));
    MainWindow w;
    w.setErrorDialogsEnabled(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    HitsPart* part = w.part<HitsPart>();
    QVERIFY(part);
    QVERIFY(openAndWait(part, [&] { part->openStore(db); }));
    HitTableModel* model = part->table()->model();
    QCOMPARE(model->rowCount(), 20);
    for (const QString& c : kRescoreColumns)
        QCOMPARE(model->columns().indexOf(c.toStdString()), -1);

    // The rescore runs while the panel has the store open (its read-only connection included).
    QVERIFY(rescore(db, QStringLiteral("vina")));
    const std::map<qint64, double> stored = storedAffinities(db);
    QCOMPARE(stored.size(), size_t(20));
    for (const auto& [id, value] : stored)
        QVERIFY2(std::isfinite(value), qPrintable(QString::number(id)));

    // File > Reload hit store: the same store read again, the new columns with it.
    auto* reload = w.findChild<QAction*>(QStringLiteral("reloadHitStoreAction"));
    QVERIFY(reload && reload->isEnabled());
    QVERIFY(openAndWait(part, [&] { reload->trigger(); }));
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
    QCOMPARE(model->rowCount(), 20);
    const HitColumns& columns = model->columns();
    for (const QString& c : kRescoreColumns) {
        const int i = columns.indexOf(c.toStdString());
        QVERIFY2(i >= 0 && columns.columns[size_t(i)].numeric, qPrintable(c));
    }
    const int affinity = columns.indexOf("rescore_affinity");
    // Every cell is the stored value.
    for (int r = 0; r < model->rowCount(); ++r) {
        const double shown =
            model->data(model->index(r, model->viewColumn(affinity)), HitTableModel::ValueRole).toDouble();
        QCOMPARE(shown, stored.at(model->rowId(r)));
    }

    // Sort by clicking the column's header: ascending, as the stored values sort.
    QTableView* table = part->table()->table();
    QHeaderView* header = table->horizontalHeader();
    const int section = model->viewColumn(affinity);
    table->scrollTo(model->index(0, section));
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                      QPoint(header->sectionViewportPosition(section) + header->sectionSize(section) / 2,
                             header->height() / 2));
    std::vector<std::pair<double, qint64>> expected;
    for (const auto& [id, value] : stored)
        expected.emplace_back(value, id);
    std::sort(expected.begin(), expected.end());
    if (header->sortIndicatorOrder() == Qt::DescendingOrder)
        std::reverse(expected.begin(), expected.end());
    QCOMPARE(header->sortIndicatorSection(), section);
    for (int r = 0; r < model->rowCount(); ++r)
        QCOMPARE(model->data(model->index(r, section), HitTableModel::ValueRole).toDouble(),
                 expected[size_t(r)].first);
    if (header->sortIndicatorOrder() == Qt::DescendingOrder) { // a second click: ascending
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                          QPoint(header->sectionViewportPosition(section) + header->sectionSize(section) / 2,
                                 header->height() / 2));
        std::reverse(expected.begin(), expected.end());
    }
    QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);
    for (int r = 0; r < model->rowCount(); ++r)
        QCOMPARE(model->data(model->index(r, section), HitTableModel::ValueRole).toDouble(),
                 expected[size_t(r)].first);

    // A range of rescore_affinity from the filter bar: the rows a brute-force pass keeps.
    const double lo = expected[5].first, hi = expected[14].first;
    auto* rangeColumn = part->table()->findChild<QComboBox*>(QStringLiteral("hitRangeColumn"));
    auto* rangeMin = part->table()->findChild<QLineEdit*>(QStringLiteral("hitRangeMin"));
    auto* rangeMax = part->table()->findChild<QLineEdit*>(QStringLiteral("hitRangeMax"));
    auto* apply = part->table()->findChild<QPushButton*>(QStringLiteral("hitRangeApply"));
    QVERIFY(rangeColumn && rangeMin && rangeMax && apply);
    const int item = rangeColumn->findText(QStringLiteral("rescore_affinity"));
    QVERIFY(item >= 0);
    rangeColumn->setCurrentIndex(item);
    rangeMin->setText(QString::number(lo, 'g', 17));
    rangeMax->setText(QString::number(hi, 'g', 17));
    QTest::mouseClick(apply, Qt::LeftButton);
    std::vector<qint64> kept, wanted;
    for (int r = 0; r < model->rowCount(); ++r)
        kept.push_back(model->rowId(r));
    for (const auto& [id, value] : stored)
        if (value >= lo && value <= hi)
            wanted.push_back(id);
    std::sort(kept.begin(), kept.end());
    QCOMPARE(kept, wanted);
    QCOMPARE(int(kept.size()), 10);

    // Export the filtered rows: every one with its rescore values (columns not read from SD tags
    // are written as pw_hit_ tags, engine/hits/HitColumns.h).
    table->selectAll();
    const QList<qint64> ids = part->table()->selectedRowIds();
    QCOMPARE(ids.size(), qsizetype(10));
    const QString sdf = dir.filePath(QStringLiteral("picked.sdf"));
    QCOMPARE(part->exportSelection(ids, sdf), 10L);
    for (const QString& c : kRescoreColumns)
        QCOMPARE(sdTagValues(sdf, exportTag(c)).size(), qsizetype(10));
    std::vector<double> exported;
    for (const QString& v : sdTagValues(sdf, exportTag(QStringLiteral("rescore_affinity")))) {
        bool ok = false;
        exported.push_back(v.toDouble(&ok));
        QVERIFY2(ok, qPrintable(v));
    }
    std::sort(exported.begin(), exported.end());
    for (size_t k = 0; k < exported.size(); ++k) // the tags' printed digits
        QVERIFY2(std::abs(exported[k] - expected[5 + k].first) < 1e-5,
                 qPrintable(QStringLiteral("%1 %2").arg(exported[k]).arg(expected[5 + k].first)));
    const QString csv = dir.filePath(QStringLiteral("picked.csv"));
    QCOMPARE(part->exportSelection(ids, csv), 10L);
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString headerLine = QString::fromUtf8(f.readLine());
    for (const QString& c : kRescoreColumns)
        QVERIFY2(headerLine.contains(c), qPrintable(headerLine));

    // Rescored again (Vinardo: new values) and reloaded: the sort and the range filter stay, on
    // the new values: the rows in [lo, hi] now, in ascending order.
    QVERIFY(rescore(db, QStringLiteral("vinardo")));
    const std::map<qint64, double> again = storedAffinities(db);
    QVERIFY(again != stored);
    QVERIFY(openAndWait(part, [&] { reload->trigger(); }));
    QCOMPARE(header->sortIndicatorSection(), model->viewColumn(model->columns().indexOf("rescore_affinity")));
    QCOMPARE(header->sortIndicatorOrder(), Qt::AscendingOrder);
    QCOMPARE(rangeColumn->currentText(), QStringLiteral("rescore_affinity"));
    QCOMPARE(rangeMin->text(), QString::number(lo, 'g', 17));
    QVERIFY(model->hasRange(model->columns().indexOf("rescore_affinity")));
    std::vector<std::pair<double, qint64>> inRange;
    for (const auto& [id, value] : again)
        if (value >= lo && value <= hi)
            inRange.emplace_back(value, id);
    std::sort(inRange.begin(), inRange.end());
    qInfo("after the Vinardo rescore, %d of 20 rows in the kept range", int(inRange.size()));
    QCOMPARE(model->rowCount(), int(inRange.size()));
    const int column = model->viewColumn(model->columns().indexOf("rescore_affinity"));
    for (int r = 0; r < model->rowCount(); ++r) {
        QCOMPARE(model->data(model->index(r, column), HitTableModel::ValueRole).toDouble(),
                 inRange[size_t(r)].first);
        QCOMPARE(model->rowId(r), inRange[size_t(r)].second);
    }
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
}

QTEST_MAIN(TestHitsRescore)
#include "test_hitsrescore.moc"
