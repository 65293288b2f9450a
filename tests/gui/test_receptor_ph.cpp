// The receptor pH setting (issue 16 item 8): a receptor PDB without hydrogens (1stp as the PDB
// archive gives it) is protonated at the pH chosen in the settings panel. A new pH rebuilds the
// prepared receptor (more polar hydrogens at pH 3: Asp and Glu carboxylates take theirs) and
// rescores the pose; the session file keeps the setting and reopens with it.
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "ScoringTarget.h"
#include "SettingsPanel.h"
#include "TargetBuilder.h"
#include "score/BoxConfig.h"

#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace pw;

namespace {

const QString kData = QStringLiteral(POSEWRIGHT_TEST_DATA "/complexes/1stp/");

bool settle(MainWindow& w) {
    return QTest::qWaitFor([&] { return w.pendingLoads() == 0 && w.targetReady() && !w.busy(); },
                           120000);
}

// The hydrogens of the receptor the scoring uses (prepared at the document's pH).
int preparedHydrogens(const MainWindow& w) {
    int n = 0;
    for (const Atom& a : w.targets().current()->receptor.atoms)
        n += a.element == 1;
    return n;
}

bool openPdbReceptor(MainWindow& w) {
    w.setErrorDialogsEnabled(false);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return false;
    w.openReceptor(kData + "receptor.pdb");
    w.openLigands(kData + "ligand_xtal.pdbqt");
    if (!QTest::qWaitFor([&] { return w.pendingLoads() == 0 && !w.busy(); }, 120000))
        return false;
    w.document().setBox(readBoxConfig((kData + "box.txt").toStdString()), BoxSource::File);
    return settle(w) && w.document().score(0).has_value();
}

} // namespace

class TestReceptorPh : public QObject {
    Q_OBJECT

private slots:
    void settingReprotonatesTheReceptor() {
        QTemporaryDir dir;
        const QString session = dir.filePath("ph.pws");
        int atNeutral = 0, atThree = 0;
        {
            MainWindow w;
            QVERIFY(openPdbReceptor(w));
            QCOMPARE(w.document().receptorPH(), 7.4);
            auto* pH =
                w.settingsPanel()->findChild<QDoubleSpinBox*>(QStringLiteral("receptorPhBox"));
            QVERIFY(pH);
            QCOMPARE(pH->value(), 7.4);
            for (const Atom& a : w.document().receptor().atoms)
                QVERIFY2(a.element != 1, "the test's receptor must come without hydrogens");
            atNeutral = preparedHydrogens(w);
            QVERIFY(atNeutral > 0);
            const double scoreAtNeutral = w.document().score(0)->affinity;

            pH->setValue(3.0);
            QCOMPARE(w.document().receptorPH(), 3.0);
            QVERIFY(!w.targetReady()); // the prepared receptor and its maps are stale
            QVERIFY(settle(w));
            QVERIFY(w.document().score(0).has_value());
            atThree = preparedHydrogens(w);
            qInfo("1stp receptor.pdb: %d hydrogens added at pH 7.4, %d at pH 3.0; affinity %.3f "
                  "-> %.3f",
                  atNeutral, atThree, scoreAtNeutral, w.document().score(0)->affinity);
            QVERIFY2(atThree > atNeutral, "carboxylic acids take a hydrogen below their pKa");
            QVERIFY(w.saveSession(session));
        }
        MainWindow reopened;
        reopened.setErrorDialogsEnabled(false);
        reopened.show();
        QSignalSpy opened(&reopened, &MainWindow::sessionOpened);
        reopened.openSession(session);
        QVERIFY(QTest::qWaitFor([&] { return !opened.isEmpty(); }, 60000));
        QVERIFY2(opened.front().front().toBool(), qPrintable(reopened.lastError()));
        QCOMPARE(reopened.document().receptorPH(), 3.0);
        auto* pH =
            reopened.settingsPanel()->findChild<QDoubleSpinBox*>(QStringLiteral("receptorPhBox"));
        QCOMPARE(pH->value(), 3.0);
        QVERIFY(settle(reopened));
        QCOMPARE(preparedHydrogens(reopened), atThree);
    }
};

QTEST_MAIN(TestReceptorPh)
#include "test_receptor_ph.moc"
