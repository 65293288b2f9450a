// Renders the README's pictures of the Docking panel on the bundled 1stp example (not a test):
// one while the search runs (the best pose so far in the pocket, the energy per generation) and
// one after it (the clusters, the best selected with its hydrogen bonds). Run under Xvfb:
//   xvfb-run -a -s "-screen 0 1600x1000x24" build/tests/gui_render_dock_screenshots OUT_DIR
#include "DockPanel.h"
#include "DockPart.h"
#include "GuiTestSetup.h"
#include "MainWindow.h"
#include "MoleculeView.h"
#include "StartupFiles.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QImage>
#include <QSaveFile>
#include <QSignalSpy>
#include <QtTest>

#include <cstdio>

using namespace pw;

namespace {

// The window as a PNG, scaled to 1000 pixels wide (the README's pictures stay small).
bool save(QWidget& window, const QString& path) {
    const QImage image =
        window.grab().toImage().scaledToWidth(1000, Qt::SmoothTransformation);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG", 0) || !file.commit()) {
        std::fprintf(stderr, "%s: cannot write\n", qPrintable(path));
        return false;
    }
    std::printf("wrote %s\n", qPrintable(path));
    return true;
}

bool waitForFrame(MoleculeView& view) {
    const int frames = view.framesRendered();
    view.update();
    return QTest::qWaitFor([&] { return view.framesRendered() > frames; }, 10000);
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
        return 2;
    }
    const QDir out(QString::fromLocal8Bit(argv[1]));
    MainWindow w;
    w.setErrorDialogsEnabled(false);
    w.resize(1280, 900); // a laptop screen: the panel must keep its clusters in view
    w.show();
    const StartupFiles files = bundledExampleFiles();
    w.openReceptor(files.receptor);
    w.openLigands(files.ligands);
    if (!QTest::qWaitFor([&] { return w.pendingLoads() == 0 && w.targetReady() && !w.busy(); },
                         120000))
        return 1;
    auto* part = w.part<DockPart>();
    if (!part)
        return 1;
    part->dockAction()->trigger();
    // The panel's defaults but 20 runs, so that the search is seen long enough.
    DockSettings s = part->panel()->settings();
    s.runs = 20;
    part->panel()->setSettings(s);
    QSignalSpy finished(part, &DockPart::dockingFinished);
    part->dock();
    // During: a few live redraws in, with the plot filling.
    if (!QTest::qWaitFor([&] { return part->liveRedraws() >= 6 || !finished.isEmpty(); }, 300000))
        return 1;
    if (!finished.isEmpty()) {
        std::fprintf(stderr, "the run ended before the live picture could be taken\n");
        return 1;
    }
    if (!waitForFrame(*w.moleculeView()) || !save(w, out.filePath("docking-live.png")))
        return 1;
    if (!finished.wait(300000) && finished.isEmpty())
        return 1;
    if (!waitForFrame(*w.moleculeView()) || !save(w, out.filePath("docking-results.png")))
        return 1;
    return finished.front().front().toBool() ? 0 : 1;
}
