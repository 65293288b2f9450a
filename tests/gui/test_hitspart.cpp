// Qt Test for the hits workflow part in the main window: File > Open hit store is there; a store
// made in the test opens (read on a worker) into the Hits dock; selecting rows puts exactly those poses in the
// document (the 3D view's ligands); the selection exports to SDF; a file that is not a store gives
// the frame's error, is left as it was, and keeps the table as it was; the session keeps the store.
#include "Document.h"
#include "GuiTestSetup.h"
#include "HitTableModel.h"
#include "HitTableView.h"
#include "HitsPart.h"
#include "MainWindow.h"
#include "MoleculeView.h"
#include "OverlayPanel.h"
#include "OverlayPart.h"
#include "SettingsPanel.h"
#include "BatchPart.h"
#include "DockPart.h"
#include "chem/MoleculeReader.h"
#include "chem/MoleculeWriter.h"
#include "hits/PoseInteractions.h"
#include "hits/HitImport.h"
#include "hits/HitsTestData.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QDockWidget>
#include <QDir>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace pw;
using namespace pw::hits;
using namespace pw::test;

class TestHitsPart : public QObject {
    Q_OBJECT
private slots:
    void opensSelectsShowsAndExports();
    void refusesAFileThatIsNotAStore();
    void structureAndInteractionFilters();
    void selectionInThePocketAndHandedOn();
};

namespace {

QString makeStore(const QTemporaryDir& dir) {
    const QString sdf = dir.filePath("poses.sdf");
    writeText(sdf, ethanolRecord("alpha", tag("dock_score", "-9.5")) +
                       ethanolRecord("beta", tag("dock_score", "-7.25")) +
                       ethanolRecord("gamma", tag("dock_score", "-8")));
    const QString db = dir.filePath("hits.db");
    HitStore store(db.toStdString(), HitStore::Mode::Create);
    HitStore::Transaction tx(store);
    importSdf(store, sdf.toStdString(), {});
    tx.commit();
    return db;
}

// Opens on the worker and waits for the outcome.
bool openAndWait(HitsPart* part, const QString& path) {
    QSignalSpy opened(part, &HitsPart::storeOpened);
    part->openStore(path);
    if (!opened.wait(60000))
        qFatal("the hit store %s never finished opening", qPrintable(path));
    return opened.first().first().toBool();
}

} // namespace

void TestHitsPart::opensSelectsShowsAndExports() {
    QTemporaryDir dir;
    const QString db = makeStore(dir);
    MainWindow w;
    w.setErrorDialogsEnabled(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    HitsPart* part = w.part<HitsPart>();
    QVERIFY(part);
    QVERIFY(w.findChild<QAction*>("openHitStoreAction"));
    QVERIFY(!part->dock()->isVisible());

    QVERIFY(openAndWait(part, db));
    QVERIFY(part->dock()->isVisible());
    HitTableView* view = part->table();
    QCOMPARE(view->model()->rowCount(), 3);
    QVERIFY(view->model()->hasDepictionColumn());

    // Best score first; select gamma (-8) and alpha (-9.5) by clicking.
    const int score = view->model()->columns().indexOf("dock_score");
    view->model()->sortByData(score, Qt::AscendingOrder); // alpha, gamma, beta
    QTableView* table = view->table();
    auto centre = [table](int row) { return table->visualRect(table->model()->index(row, 2)).center(); };
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, centre(0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::ControlModifier, centre(1));
    QCOMPARE(w.document().ligands().size(), size_t(2));
    QStringList names;
    for (const Molecule& m : w.document().ligands()) {
        names << QString::fromStdString(m.name);
        QCOMPARE(m.atoms.size(), size_t(3)); // the stored pose: ethanol's three heavy atoms
    }
    names.sort();
    QCOMPARE(names, QStringList({"alpha", "gamma"}));

    const QString out = dir.filePath("picked.sdf");
    QCOMPARE(part->exportSelection(view->selectedRowIds(), out), 2L);
    const QByteArray sdf = readBytes(out);
    QCOMPARE(sdf.count("$$$$\n"), 2);
    QVERIFY(sdf.startsWith("alpha\n") && sdf.contains("$$$$\ngamma\n") && !sdf.contains("beta"));

    // The session names the store relative to the session's folder, and restores it from there.
    const QDir sessionDir(dir.path());
    QCOMPARE(part->saveState(sessionDir).value("store").toString(), sessionDir.relativeFilePath(db));
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
}

void TestHitsPart::refusesAFileThatIsNotAStore() {
    QTemporaryDir dir;
    const QString db = makeStore(dir);
    const QString junk = dir.filePath("junk.db");
    writeText(junk, "this is not a SQLite database\n");
    MainWindow w;
    w.setErrorDialogsEnabled(false);
    HitsPart* part = w.part<HitsPart>();
    QVERIFY(part && openAndWait(part, db));
    QVERIFY(!openAndWait(part, junk));
    QVERIFY(!w.lastError().isEmpty());
    QVERIFY2(w.lastError().contains("junk.db"), qPrintable(w.lastError()));
    QCOMPARE(readBytes(junk), QByteArray("this is not a SQLite database\n"));
    QCOMPARE(part->table()->model()->rowCount(), 3); // the open store stays
    QCOMPARE(part->storePath(), QFileInfo(db).absoluteFilePath());
}

namespace {

// 600 poses whose molecules and contacts are known by construction: a ring (phenyl, pyridyl,
// cyclohexyl) with or without a carboxylic acid; an H-bond or hydrophobic contact with ASP86 or
// LEU83 on chain A, by the pose's number.
struct BuiltPose {
    long long id;
    int ring;
    bool acid;
    bool hbondAsp86, hydrophobicLeu83;
    double mw;
};

std::vector<BuiltPose> makeBuiltStore(const QString& db) {
    const char* const rings[] = {"c1ccccc1", "c1ccncc1", "C1CCCCC1"};
    std::vector<BuiltPose> built;
    HitStore store(db.toStdString(), HitStore::Mode::Create);
    HitStore::Transaction tx(store);
    for (int i = 0; i < 600; ++i) {
        BuiltPose b{0, i % 3, (i / 3) % 2 == 1, i % 5 < 2, i % 7 < 3, 100.0 + i};
        PoseRecord p;
        p.name = "pose" + std::to_string(i);
        p.smiles = std::string(rings[b.ring]) + (b.acid ? "C(=O)O" : "C");
        p.mw = b.mw;
        p.interactions.emplace();
        auto contact = [&](const char* kind, const char* name, int number) {
            Interaction x;
            x.kind = kind;
            x.chain = 'A';
            x.residueName = name;
            x.residueNumber = number;
            p.interactions->push_back(x);
        };
        if (b.hbondAsp86)
            contact("hbond", "ASP", 86);
        else
            contact("hydrophobic", "ASP", 86); // a contact with ASP86, but not an H-bond
        if (b.hydrophobicLeu83)
            contact("hydrophobic", "LEU", 83);
        b.id = store.insertPose(p);
        built.push_back(b);
    }
    tx.commit();
    return built;
}

std::vector<long long> visibleIds(const HitTableModel* model) {
    std::vector<long long> ids;
    for (int r = 0; r < model->rowCount(); ++r)
        ids.push_back(model->rowId(r));
    std::sort(ids.begin(), ids.end());
    return ids;
}

} // namespace

// The panel's structure and interaction fields, typed and applied as a user does, select what a
// brute-force pass over the built poses selects; with the numeric range filter they combine.
void TestHitsPart::structureAndInteractionFilters() {
    QTemporaryDir dir;
    const QString db = dir.filePath("built.db");
    const std::vector<BuiltPose> built = makeBuiltStore(db);
    MainWindow w;
    w.setErrorDialogsEnabled(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    HitsPart* part = w.part<HitsPart>();
    QVERIFY(part && openAndWait(part, db));
    HitTableView* view = part->table();
    HitTableModel* model = view->model();
    QCOMPARE(model->rowCount(), 600);

    auto* pattern = view->findChild<QLineEdit*>("hitStructurePattern");
    auto* syntax = view->findChild<QComboBox*>("hitStructureSyntax");
    auto* kind = view->findChild<QComboBox*>("hitInteractionKind");
    auto* residue = view->findChild<QComboBox*>("hitInteractionResidue");
    auto* match = view->findChild<QPushButton*>("hitStoreFilterApply");
    auto* status = view->findChild<QLabel*>("hitStatus");
    QVERIFY(pattern && syntax && kind && residue && match && status);
    // The residues offered are those the store has contacts with, in number order.
    QStringList offered;
    for (int i = 0; i < residue->count(); ++i)
        offered << residue->itemText(i);
    QCOMPARE(offered, QStringList({"", "LEU83", "ASP86"}));

    auto expect = [&](auto keep) {
        std::vector<long long> ids;
        for (const BuiltPose& b : built)
            if (keep(b))
                ids.push_back(b.id);
        return ids;
    };
    auto apply = [&] {
        QTest::mouseClick(match, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!view->storeFilterPending(), 30000);
    };

    // A benzoic acid as SMARTS.
    QTest::keyClicks(pattern, "c1ccccc1C(=O)[OH]");
    apply();
    auto want = expect([](const BuiltPose& b) { return b.ring == 0 && b.acid; });
    QCOMPARE(visibleIds(model), want);
    QVERIFY2(status->text().contains("SMARTS"), qPrintable(status->text()));

    // The same molecules' rings as SMILES, and an H-bond with ASP86 (chosen from the list).
    pattern->setText("c1ccncc1");
    syntax->setCurrentIndex(syntax->findText("SMILES"));
    kind->setCurrentIndex(kind->findData("hbond"));
    residue->setCurrentIndex(residue->findText("ASP86"));
    apply();
    want = expect([](const BuiltPose& b) { return b.ring == 1 && b.hbondAsp86; });
    QVERIFY(!want.empty());
    QCOMPARE(visibleIds(model), want);

    // Any contact with a typed residue, no pattern; then a range on mw on top.
    pattern->clear();
    kind->setCurrentIndex(kind->findData("interacts"));
    residue->setEditText("leu83");
    apply();
    want = expect([](const BuiltPose& b) { return b.hydrophobicLeu83; });
    QCOMPARE(visibleIds(model), want);
    model->setRangeFilter(model->columns().indexOf("mw"), 300, NAN);
    want = expect([](const BuiltPose& b) { return b.hydrophobicLeu83 && b.mw >= 300; });
    QCOMPARE(visibleIds(model), want);

    // A bad SMARTS: the status says so, the table keeps what it showed, no dialog.
    pattern->setText("c1cc(");
    syntax->setCurrentIndex(syntax->findText("SMARTS"));
    apply();
    QVERIFY2(status->text().contains("cannot read the SMARTS"), qPrintable(status->text()));
    QCOMPARE(visibleIds(model), want);

    // Clear filters: every row again.
    QTest::mouseClick(view->findChild<QPushButton*>("hitClearFilters"), Qt::LeftButton);
    QCOMPARE(model->rowCount(), 600);
    QVERIFY(pattern->text().isEmpty() && residue->currentText().isEmpty());
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
}

namespace {

const QString k1stp = QStringLiteral(POSEWRIGHT_TEST_DATA "/complexes/1stp/");

// Biotin's crystal pose in streptavidin (the PDBQT: bond orders, polar hydrogens) twice: "in_pocket" as is, "far_away" moved 30 Å (no
// contacts), imported with the receptor's contacts.
QString makeBiotinStore(const QTemporaryDir& dir) {
    const QString sdf = dir.filePath("biotin.sdf"), db = dir.filePath("biotin.db");
    Molecule ligand = readMolecule((k1stp + "ligand_xtal.pdbqt").toStdString());
    {
        auto out = MoleculeWriter::create(sdf.toStdString());
        ligand.name = "in_pocket";
        ligand.setProperty("dock_score", "-9.5");
        out->write(ligand);
        Molecule moved = ligand;
        moved.name = "far_away";
        moved.setProperty("dock_score", "-4");
        for (Atom& a : moved.atoms)
            a.position += Vec3(30, 0, 0);
        out->write(moved);
        out->commit();
    }
    const Molecule receptor = readMolecule((k1stp + "receptor.pdb").toStdString());
    const ReceptorSites sites(receptor);
    HitStore store(db.toStdString(), HitStore::Mode::Create);
    HitStore::Transaction tx(store);
    ImportOptions options;
    options.receptor = &sites;
    importSdf(store, sdf.toStdString(), options);
    tx.commit();
    return db;
}

int polarContacts(const QString& db, const QString& name) {
    HitStore store(db.toStdString(), HitStore::Mode::ReadOnly);
    Statement q = store.prepare(
        "SELECT count(*) FROM interactions JOIN poses ON poses.id = interactions.pose_id "
        "WHERE poses.name = ? AND kind IN ('hbond', 'saltbridge', 'halogen') AND ligand_atom >= 0");
    q.bind(1, std::string_view(name.toStdString()));
    q.step();
    return int(q.integer(0));
}

void selectNames(HitTableView* view, const QStringList& names) {
    QTableView* table = view->table();
    table->clearSelection();
    const int nameColumn = view->model()->viewColumn(view->model()->columns().indexOf("name"));
    for (int row = 0; row < view->model()->rowCount(); ++row)
        if (names.contains(view->model()->index(row, nameColumn).data().toString()))
            table->selectionModel()->select(view->model()->index(row, 0),
                                            QItemSelectionModel::Select | QItemSelectionModel::Rows);
}

} // namespace

// Selected poses are drawn in the pocket with the store's polar contacts as lines (biotin's
// hydrogen bonds in 1stp; none for the pose moved away), the reference beside them; the
// selection exports to CSV, and Refine, Overlay and Dock again hand exactly the selected poses to
// the batch, overlay and docking parts.
void TestHitsPart::selectionInThePocketAndHandedOn() {
    QTemporaryDir dir;
    const QString db = makeBiotinStore(dir);
    const int contacts = polarContacts(db, "in_pocket");
    QVERIFY2(contacts >= 5, qPrintable(QString::number(contacts))); // biotin's H-bond network
    QCOMPARE(polarContacts(db, "far_away"), 0);

    MainWindow w;
    w.setErrorDialogsEnabled(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.settingsPanel()->setDevice(QStringLiteral("cpu"));
    // The PDBQT of the same receptor (polar hydrogens, what refinement needs; box.txt beside it):
    // the contacts were measured on the PDB, and the lines find the same atoms by name.
    w.openReceptor(k1stp + "receptor.pdbqt");
    QVERIFY(QTest::qWaitFor([&] { return w.pendingLoads() == 0 && w.document().hasReceptor(); },
                            60000));
    HitsPart* part = w.part<HitsPart>();
    QVERIFY(part && openAndWait(part, db));
    HitTableView* view = part->table();
    auto* refine = w.findChild<QAction*>("hitRefineAction");
    auto* overlay = w.findChild<QAction*>("hitOverlayAction");
    auto* dock = w.findChild<QAction*>("hitDockAction");
    auto* reference = w.findChild<QAction*>("hitSetReferenceAction");
    QVERIFY(refine && overlay && dock && reference);
    QVERIFY(!refine->isEnabled() && !reference->isEnabled()); // nothing selected yet

    selectNames(view, {"in_pocket"});
    QCOMPARE(part->shownDrawingCount(), 1);
    QCOMPARE(part->shownContactLineCount(), contacts); // every contact found its receptor atoms
    QCOMPARE(w.moleculeView()->interactionLineCount(), contacts);
    selectNames(view, {"far_away"});
    QCOMPARE(part->shownContactLineCount(), 0);
    QCOMPARE(w.moleculeView()->interactionLineCount(), 0);
    selectNames(view, {"in_pocket", "far_away"});
    QCOMPARE(part->shownDrawingCount(), 2);
    QCOMPARE(w.document().ligands().size(), size_t(2));
    QVERIFY(refine->isEnabled() && overlay->isEnabled() && reference->isEnabled());
    QVERIFY(dock->isEnabled()); // the docking part takes "dock"
    QVERIFY(!dock->toolTip().contains("no part"));
    QVERIFY(!part->handSelection("nosuchpart")); // a kind no part takes

    // Export: CSV by its suffix, every selected row.
    const QString csv = dir.filePath("picked.csv");
    QCOMPARE(part->exportSelection(view->selectedRowIds(), csv), 2L);
    const QList<QByteArray> lines = readBytes(csv).trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines[0].contains("name") && lines[0].contains("dock_score"));

    // The reference: in_pocket; selecting far_away then draws both.
    selectNames(view, {"in_pocket"});
    reference->trigger();
    QVERIFY(part->reference() && part->reference()->name == "in_pocket");
    selectNames(view, {"far_away"});
    QCOMPARE(part->shownDrawingCount(), 2);
    QVERIFY(overlay->isEnabled()); // one pose is enough with a reference

    // Overlay: far_away fitted on in_pocket; the same molecule, so the shape Tanimoto is ~1.
    OverlayPart* overlayPart = w.part<OverlayPart>();
    QVERIFY(overlayPart);
    QSignalSpy overlaid(overlayPart->panel(), &OverlayPanel::finished);
    overlay->trigger();
    QVERIFY(overlaid.wait(60000));
    QVERIFY(overlaid.front().front().toBool());
    const OverlayResult& result = overlayPart->panel()->result();
    QCOMPARE(result.reference.name, std::string("in_pocket"));
    QCOMPARE(result.fits.size(), size_t(1));
    QCOMPARE(result.fits[0].name, std::string("far_away"));
    QVERIFY2(result.scores[0].tanimoto > 0.95, qPrintable(QString::number(result.scores[0].tanimoto)));
    QVERIFY(overlayPart->dock()->isVisible());

    // Refine: the batch part gets exactly the selection as its ligands and runs.
    selectNames(view, {"in_pocket", "far_away"});
    BatchPart* batch = w.part<BatchPart>();
    QVERIFY(batch);
    QSignalSpy refined(batch, &BatchPart::batchRefinementFinished);
    refine->trigger();
    QVERIFY(refined.wait(120000) || !refined.isEmpty());
    QStringList names;
    for (const Molecule& m : w.document().ligands())
        names << QString::fromStdString(m.name);
    names.sort();
    QCOMPARE(names, QStringList({"far_away", "in_pocket"}));
    QVERIFY2(!refined.isEmpty() && refined.front().front().toBool(), qPrintable(w.lastError()));

    // Dock again: the selected pose becomes the ligand and the docking part starts on it; it is
    // cancelled here (docking itself is test_dock's).
    selectNames(view, {"far_away"});
    DockPart* docking = w.part<DockPart>();
    QVERIFY(docking);
    QSignalSpy docked(docking, &DockPart::dockingFinished);
    QVERIFY(QTest::qWaitFor([&] { return !w.busy(); }, 60000));
    dock->trigger();
    QCOMPARE(w.document().ligands().size(), size_t(1));
    QCOMPARE(w.document().ligands()[0].name, std::string("far_away"));
    QVERIFY2(docking->running() || !docked.isEmpty(), qPrintable(w.lastError()));
    QVERIFY(docking->dockWidget()->isVisible());
    docking->cancel();
    QVERIFY(docked.wait(60000) || !docked.isEmpty());
}

QTEST_MAIN(TestHitsPart)
#include "test_hitspart.moc"
