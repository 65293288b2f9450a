// ExampleWindow: the steps GUI suites share to bring a MainWindow to a known state: the bundled
// example opened and settled (loads done, scoring target built, no job running), and the widget
// point where the view draws a position.
#pragma once

#include "MainWindow.h"
#include "MoleculeView.h"
#include "StartupFiles.h"
#include "core/Molecule.h"

#include <QPoint>
#include <QtTest>

// Waits until nothing is pending: loads done, the scoring target of the document ready, no job
// running (background builds included: a build still running counts, see TargetBuilder).
inline bool settle(pw::MainWindow& w, int timeoutMs = 120000) {
    return QTest::qWaitFor([&] { return w.pendingLoads() == 0 && w.targetReady() && !w.busy(); },
                           timeoutMs);
}

// Shows the window, opens the bundled example (error dialogs off: failures come back as false)
// and waits until it has settled.
inline bool openExample(pw::MainWindow& w) {
    const pw::StartupFiles files = pw::bundledExampleFiles();
    w.setErrorDialogsEnabled(false);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return false;
    w.openReceptor(files.receptor);
    w.openLigands(files.ligands);
    return settle(w);
}

// Where the view draws p, in the widget's (logical pixel) coordinates.
inline QPoint widgetPoint(const pw::MoleculeView& view, const pw::Vec3& p) {
    return (view.projectToImage({p.x(), p.y(), p.z()}) / view.devicePixelRatioF()).toPoint();
}
