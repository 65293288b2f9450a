// Qt Test for the refinement settings in the main window (bundled 1stp example): the device line
// in the status bar, switching to Vinardo rescoring the pose, a box around typed residues (and
// a clear error for unknown ones), the box resized by dragging its handle in the view, and the
// command line's --minimize and --box.
#include "ExampleWindow.h"
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "MoleculeView.h"
#include "SettingsPanel.h"
#include "StartupFiles.h"
#include "ViewEnvironment.h"
#include "core/Molecule.h"

#include <QAction>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <cmath>

using namespace pw;

namespace {

} // namespace

class TestSettings : public QObject {
    Q_OBJECT

private slots:
    void deviceLineSaysWhatRuns();
    void vinardoRescoresThePose();
    void boxAroundTypedResidues();
    void boxHandleDragResizesTheBox();
    void pocketSurfaceCoversTheReceptor();
    void recentFilesReopen();
    void droppedFilesOpen();
    void commandLineMinimizesWithBox();
    void commandLineReportsBadBox();
    void boxFileScoringIsUsedAndWeightsAreWarned();
};

void TestSettings::deviceLineSaysWhatRuns() {
    MainWindow w;
    QVERIFY(openExample(w) && w.document().score(0).has_value());
    QVERIFY2(w.deviceLabel()->text().startsWith(QStringLiteral("Device: ")),
             qPrintable(w.deviceLabel()->text()));
    auto* device = w.settingsPanel()->findChild<QComboBox*>(QStringLiteral("deviceBox"));
    QVERIFY(device);
    device->setCurrentIndex(device->findData(QStringLiteral("cpu")));
    QCOMPARE(w.document().device(), QStringLiteral("cpu"));
    QVERIFY2(w.deviceLabel()->text().startsWith(QStringLiteral("Device: CPU")),
             qPrintable(w.deviceLabel()->text()));
#ifndef POSEWRIGHT_HAVE_CUDA
    // Asking for a GPU in a build without CUDA: the CPU runs, and the tooltip says why.
    device->setCurrentIndex(device->findData(QStringLiteral("cuda")));
    QVERIFY(w.deviceLabel()->text().startsWith(QStringLiteral("Device: CPU")));
    QVERIFY2(!w.deviceLabel()->toolTip().isEmpty(), "no reason given for the CPU fallback");
#endif
}

void TestSettings::vinardoRescoresThePose() {
    MainWindow w;
    QVERIFY(openExample(w) && w.document().score(0).has_value());
    const double vina = w.document().score(0)->affinity;
    auto* scoring = w.settingsPanel()->findChild<QComboBox*>(QStringLiteral("scoringBox"));
    QVERIFY(scoring);
    scoring->setCurrentIndex(scoring->findData(static_cast<int>(ScoringKind::Vinardo)));
    QCOMPARE(w.document().scoring(), ScoringKind::Vinardo);
    QVERIFY(!w.targetReady()); // new maps are needed
    QVERIFY(settle(w));
    QVERIFY(w.document().score(0).has_value());
    const double vinardo = w.document().score(0)->affinity;
    QVERIFY2(std::abs(vinardo - vina) > 0.05,
             qPrintable(QStringLiteral("%1 vs %2").arg(vinardo).arg(vina)));
    // Vinardo has no gauss2 term.
    QCOMPARE(w.document().score(0)->terms.interWeighted[Gauss2], 0.0);
}

void TestSettings::boxAroundTypedResidues() {
    MainWindow w;
    QVERIFY(openExample(w) && w.document().score(0).has_value());
    // The two receptor residues nearest the ligand's centre.
    const Molecule& receptor = w.document().receptor();
    const Vec3 c = w.document().ligands()[0].centroid();
    std::vector<std::pair<double, int>> byDistance;
    for (const Atom& a : receptor.atoms)
        byDistance.push_back({(a.position - c).norm(), a.residue});
    std::sort(byDistance.begin(), byDistance.end());
    const int r1 = byDistance.front().second;
    int r2 = -1;
    for (const auto& [d, r] : byDistance)
        if (r != r1) {
            r2 = r;
            break;
        }
    const Residue& a = receptor.residues[static_cast<size_t>(r1)];
    const Residue& b = receptor.residues[static_cast<size_t>(r2)];
    QString text = QStringLiteral("%1, %2").arg(a.number).arg(b.number);
    if (a.chain != ' ')
        text = QStringLiteral("%1:%2, %3:%4").arg(a.chain).arg(a.number).arg(b.chain).arg(b.number);
    auto* edit = w.settingsPanel()->findChild<QLineEdit*>(QStringLiteral("boxResidues"));
    QVERIFY(edit);
    edit->setText(text);
    QTest::keyClick(edit, Qt::Key_Return);
    QCOMPARE(w.document().boxSource(), BoxSource::Typed);
    // The box: both residues' atoms plus the 4 Å margin on every side.
    Molecule selection;
    for (const Atom& atom : receptor.atoms)
        if (atom.residue >= 0 &&
            (receptor.residues[static_cast<size_t>(atom.residue)].number == a.number ||
             receptor.residues[static_cast<size_t>(atom.residue)].number == b.number))
            selection.atoms.push_back(atom);
    const auto [lo, hi] = selection.boundingBox();
    const SearchBox& box = *w.document().box();
    for (int k = 0; k < 3; ++k) {
        QVERIFY(std::abs(box.center[k] - (lo[k] + hi[k]) / 2) < 1e-9);
        QVERIFY(std::abs(box.size[k] - (hi[k] - lo[k] + 8.0)) < 1e-9);
    }
    QVERIFY(settle(w)); // maps for the new box

    // An unknown residue: an error naming it, and the box stays.
    edit->setText(QStringLiteral("%1, 9999").arg(a.number));
    QTest::keyClick(edit, Qt::Key_Return);
    QVERIFY2(w.lastError().contains(QStringLiteral("No residue 9999")), qPrintable(w.lastError()));
    QCOMPARE(w.document().box()->center, box.center);
}

void TestSettings::boxHandleDragResizesTheBox() {
    MainWindow w;
    QVERIFY(openExample(w) && w.document().score(0).has_value());
    MoleculeView* view = w.moleculeView();
    w.editBoxAction()->setChecked(true);
    QVERIFY(view->boxEditable());
    QVERIFY(drawnAgain(*view));
    const SearchBox before = *w.document().box();
    const FaceDrag drag = edgeOnFace(*view, before);
    const int axis = drag.axis;
    QVERIFY(view->rect().contains(drag.handle));
    pressAndDrag(view, drag);
    release(view, drag);
    QCOMPARE(w.document().boxSource(), BoxSource::Typed);
    const SearchBox& after = *w.document().box();
    QVERIFY2(after.size[axis] > before.size[axis] + 1.0,
             qPrintable(QStringLiteral("%1 -> %2").arg(before.size[axis]).arg(after.size[axis])));
    for (int k = 0; k < 3; ++k)
        if (k != axis)
            QVERIFY(std::abs(after.size[k] - before.size[k]) < 1e-6);
    QVERIFY(settle(w)); // the grid follows the new box
}

void TestSettings::pocketSurfaceCoversTheReceptor() {
    MainWindow w;
    QVERIFY(openExample(w) && w.document().score(0).has_value());
    MoleculeView* view = w.moleculeView();
    // Every grab must show a frame rendered after the change, not the previous one.
    bool everyGrabFresh = true;
    auto grab = [view, &everyGrabFresh] {
        const int frames = view->framesRendered();
        view->update();
        everyGrabFresh = QTest::qWaitFor([&] { return view->framesRendered() > frames; }, 10000) &&
                         everyGrabFresh;
        return view->grabImage().convertToFormat(QImage::Format_RGB32);
    };
    // Count background pixels: the translucent surface covers gaps between the pocket's sticks.
    auto background = [](const QImage& image) {
        const QColor bg = MoleculeView::backgroundColor();
        int n = 0;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                n += image.pixel(x, y) == bg.rgb() ? 1 : 0;
        return n;
    };
    const int before = background(grab());
    auto* surface = w.findChild<QAction*>(QStringLiteral("surfaceAction"));
    QVERIFY(surface);
    surface->setChecked(true);
    QVERIFY(view->surfaceVisible());
    const int after = background(grab());
    QVERIFY2(after < before * 9 / 10,
             qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
    surface->setChecked(false);
    QCOMPARE(background(grab()), before);
    QVERIFY2(everyGrabFresh, "a frame was not rendered within 10 s");
}

void TestSettings::recentFilesReopen() {
    QSettings().remove(QStringLiteral("recentFiles"));
    MainWindow w;
    QVERIFY(openExample(w) && w.document().score(0).has_value());
    QMenu* recent = nullptr;
    for (QMenu* m : w.findChildren<QMenu*>())
        if (m->title() == QStringLiteral("Open r&ecent"))
            recent = m;
    QVERIFY(recent);
    QStringList names;
    QAction* ligand = nullptr;
    for (QAction* a : recent->actions()) {
        names << a->text();
        if (a->text() == QStringLiteral("ligand.pdbqt"))
            ligand = a;
    }
    QVERIFY2(names.contains(QStringLiteral("receptor.pdbqt")), qPrintable(names.join(',')));
    QVERIFY(ligand);
    // Reopening a ligand file from the menu replaces the ligands (and the undo history).
    QSignalSpy changed(&w.document(), &Document::ligandsChanged);
    ligand->trigger();
    QVERIFY(QTest::qWaitFor([&] { return changed.count() > 0 && w.pendingLoads() == 0; }, 30000));
    QCOMPARE(w.document().ligands().size(), size_t(1));
}

void TestSettings::droppedFilesOpen() {
    MainWindow w;
    w.setErrorDialogsEnabled(false);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const StartupFiles files = bundledExampleFiles();
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(files.ligands.front()), QUrl::fromLocalFile(files.receptor)});
    const QPointF at(w.width() / 2.0, w.height() / 2.0);
    QDragEnterEvent enter(at.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    QVERIFY(settle(w));
    // The receptor is recognised as such whatever the order of the drop.
    QVERIFY(w.document().hasReceptor());
    QCOMPARE(QFileInfo(w.document().receptorPath()).fileName(), QStringLiteral("receptor.pdbqt"));
    QCOMPARE(w.document().ligands().size(), size_t(1));
}

void TestSettings::commandLineMinimizesWithBox() {
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("minimized.png"));
    const StartupFiles files = bundledExampleFiles();
    QProcess p;
    p.start(QStringLiteral(POSEWRIGHT_APP),
            {files.receptor, files.ligands.front(), QStringLiteral("--box"),
             bundledExampleDir() + QStringLiteral("/box.txt"), QStringLiteral("--minimize"),
             QStringLiteral("--screenshot"), png, QStringLiteral("--quit")});
    QVERIFY2(p.waitForFinished(180000), "posewright did not exit");
    QCOMPARE(p.exitStatus(), QProcess::NormalExit); // a crash is not an answer
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QVERIFY(!QImage(png).isNull());
}

void TestSettings::commandLineReportsBadBox() {
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("box.conf"));
    QFile f(config);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("center_x = 1\ncenter_y = oops\n");
    f.close();
    QProcess p;
    p.start(
        QStringLiteral(POSEWRIGHT_APP),
        {QStringLiteral("--box"), config, QStringLiteral("--minimize"), QStringLiteral("--quit")});
    QVERIFY2(p.waitForFinished(180000), "posewright did not exit");
    QCOMPARE(p.exitStatus(), QProcess::NormalExit); // a crash is not an answer
    QCOMPARE(p.exitCode(), 1);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(QStringLiteral("box.conf:2")), qPrintable(err));
}

void TestSettings::boxFileScoringIsUsedAndWeightsAreWarned() {
    // A Vina config's `scoring` counts in the app as in Vina; its weights are not used by the app,
    // and the status bar says so instead of dropping them.
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("box.conf"));
    QFile f(config);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("center_x = 1\ncenter_y = 2\ncenter_z = 3\nsize_x = 20\nsize_y = 20\n"
            "size_z = 20\nscoring = vinardo\nweight_vinardo_hydrogen = -0.7\n");
    f.close();
    MainWindow w;
    w.setErrorDialogsEnabled(false);
    QCOMPARE(w.document().scoring(), ScoringKind::Vina);
    QVERIFY(w.openBoxConfig(config));
    QCOMPARE(w.document().scoring(), ScoringKind::Vinardo);
    QCOMPARE(w.settingsPanel()->scoring(), ScoringKind::Vinardo);
    const QString status = w.statusBar()->currentMessage();
    QVERIFY2(status.contains(QStringLiteral("box.conf:8: warning:")), qPrintable(status));
}

QTEST_MAIN(TestSettings)
#include "test_settings.moc"
