// The app says when it protonated a receptor, and at which pH (issue 16 item 8): a PDB without
// hydrogens (1stp as the PDB archive gives it) prepared for scoring puts "... added N polar
// hydrogens ... at pH 7.4 ..." in the status bar and the contents label's tooltip; a new pH says
// so again with its value; a PDBQT receptor, which gets nothing added, clears it.
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "SettingsPanel.h"
#include "score/BoxConfig.h"

#include <QDoubleSpinBox>
#include <QLabel>
#include <QSignalSpy>
#include <QStatusBar>
#include <QtTest>

using namespace pw;

namespace {

const QString k1stp = QStringLiteral(POSEWRIGHT_TEST_DATA "/complexes/1stp/");
const QString k1iep = QStringLiteral(POSEWRIGHT_TEST_DATA "/complexes/1iep/");

bool settle(MainWindow& w) {
    return QTest::qWaitFor([&] { return w.pendingLoads() == 0 && w.targetReady() && !w.busy(); },
                           120000);
}

bool open(MainWindow& w, const QString& dir, const QString& receptor) {
    w.openReceptor(dir + receptor);
    w.openLigands(dir + "ligand_xtal.pdbqt");
    if (!QTest::qWaitFor([&] { return w.pendingLoads() == 0 && !w.busy(); }, 120000))
        return false;
    w.document().setBox(readBoxConfig((dir + "box.txt").toStdString()), BoxSource::File);
    return settle(w) && w.document().score(0).has_value();
}

// Whether any status bar message since the spy started contains every one of parts.
bool statusSaid(const QSignalSpy& spy, const QStringList& parts) {
    for (const QList<QVariant>& args : spy) {
        const QString message = args.front().toString();
        bool all = true;
        for (const QString& p : parts)
            all = all && message.contains(p);
        if (all)
            return true;
    }
    return false;
}

} // namespace

class TestReceptorPhStatus : public QObject {
    Q_OBJECT
private slots:
    void protonationIsReportedWithItsPh() {
        MainWindow w;
        w.setErrorDialogsEnabled(false);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy status(w.statusBar(), &QStatusBar::messageChanged);
        QVERIFY(open(w, k1stp, "receptor.pdb"));
        QString note = w.receptorPreparationNote();
        QVERIFY2(note.contains("receptor.pdb") && note.contains("no polar hydrogens") &&
                     note.contains("polar hydrogens to") && note.contains("at pH 7.4"),
                 qPrintable(note));
        QVERIFY2(statusSaid(status, {"receptor.pdb", "at pH 7.4"}), qPrintable(note));
        bool tooltipSaysIt = false;
        for (QLabel* label : w.statusBar()->findChildren<QLabel*>())
            tooltipSaysIt = tooltipSaysIt || label->toolTip() == note;
        QVERIFY(tooltipSaysIt);

        status.clear();
        auto* pH = w.settingsPanel()->findChild<QDoubleSpinBox*>(QStringLiteral("receptorPhBox"));
        QVERIFY(pH);
        pH->setValue(3.0);
        QVERIFY(settle(w));
        note = w.receptorPreparationNote();
        QVERIFY2(note.contains("at pH 3.0") && !note.contains("7.4"), qPrintable(note));
        QVERIFY2(statusSaid(status, {"receptor.pdb", "at pH 3.0"}), qPrintable(note));

        // A PDBQT receptor has its hydrogens: nothing is added, nothing said.
        QVERIFY(open(w, k1iep, "receptor.pdbqt"));
        QVERIFY2(w.receptorPreparationNote().isEmpty(), qPrintable(w.receptorPreparationNote()));
        for (QLabel* label : w.statusBar()->findChildren<QLabel*>())
            QVERIFY2(!label->toolTip().contains("polar hydrogens"), qPrintable(label->toolTip()));
    }
};

QTEST_MAIN(TestReceptorPhStatus)
#include "test_receptor_ph_status.moc"
