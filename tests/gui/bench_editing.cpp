// Benchmark (not a test): how long one step of an edit-mode drag takes in the main window (mouse
// move, rigid turn, rescoring, redraw) on 1iep. Prints one JSON line; the figure goes to
// tests/bench/RESULTS.md. Kept out of ctest: a test must not assert a time.
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "MoleculeView.h"

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QtTest>

#include <algorithm>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    const int steps = argc > 1 ? std::max(8, std::atoi(argv[1])) : 200;
    const QString dir = QStringLiteral(POSEWRIGHT_TEST_DATA "/complexes/1iep/");
    pw::MainWindow w;
    w.setErrorDialogsEnabled(false);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return 1;
    w.openReceptor(dir + "receptor.pdbqt");
    w.openLigands(dir + "ligand_xtal.pdbqt");
    if (!QTest::qWaitFor([&] { return w.pendingLoads() == 0 && w.targetReady() && !w.busy(); },
                         120000) ||
        !w.lastError().isEmpty()) {
        std::fprintf(stderr, "loading 1iep failed: %s\n", qPrintable(w.lastError()));
        return 1;
    }
    w.editModeAction()->setChecked(true);
    pw::MoleculeView* view = w.moleculeView();
    const pw::Vec3 c = w.document().ligands()[0].centroid();
    const QPoint centre =
        (view->projectToImage({c.x(), c.y(), c.z()}) / view->devicePixelRatioF()).toPoint();

    // Back and forth over 60 px, so that the ligand stays in the pocket for any step count.
    std::vector<double> ms;
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, centre);
    for (int s = 1; s <= steps; ++s) {
        const int phase = s % 40;
        const QPoint to = centre + QPoint(3 * (phase < 20 ? phase : 40 - phase), 0);
        QElapsedTimer timer;
        timer.start();
        QTest::mouseMove(view, to);
        ms.push_back(timer.nsecsElapsed() / 1e6);
    }
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, centre);
    std::sort(ms.begin(), ms.end());
    std::printf("{\"what\":\"edit-drag-step\",\"complex\":\"1iep\",\"steps\":%d,\"median_ms\":%.3f,"
                "\"p90_ms\":%.3f,\"max_ms\":%.3f}\n",
                steps, ms[ms.size() / 2], ms[ms.size() * 9 / 10], ms.back());
    return 0;
}
