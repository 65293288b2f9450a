// ExampleWindow: the steps GUI suites share to bring a MainWindow to a known state: the bundled
// example opened and settled (loads done, scoring target built, no job running), the widget point
// where the view draws a position, and a drag of a box face in the view.
#pragma once

#include "MainWindow.h"
#include "MoleculeView.h"
#include "StartupFiles.h"
#include "core/Molecule.h"
#include "score/BoxConfig.h"

#include <QPoint>
#include <QPointF>
#include <QtTest>

#include <vtkCamera.h>
#include <vtkRenderer.h>

#include <cmath>

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

// Waits until the view has drawn one more frame (projections read after it are current).
inline bool drawnAgain(pw::MoleculeView& view) {
    const int frames = view.framesRendered();
    view.update();
    return QTest::qWaitFor([&] { return view.framesRendered() > frames; }, 10000);
}

// A drag of the box face the camera sees most edge-on (its handle lies near the focal depth,
// inside the slab the view picks in), outwards along the face normal as seen on screen.
struct FaceDrag {
    int axis = 0;     // the face's normal: x, y or z
    QPoint handle;    // where the face's handle is drawn
    QPointF outwards; // unit screen direction away from the box centre
};

inline FaceDrag edgeOnFace(const pw::MoleculeView& view, const pw::SearchBox& box) {
    double dir[3];
    view.renderer()->GetActiveCamera()->GetDirectionOfProjection(dir);
    FaceDrag d;
    for (int k = 1; k < 3; ++k)
        d.axis = std::abs(dir[k]) < std::abs(dir[d.axis]) ? k : d.axis;
    pw::Vec3 face = box.center;
    face[d.axis] += box.size[d.axis] / 2;
    d.handle = widgetPoint(view, face);
    const QPoint centre = widgetPoint(view, box.center);
    d.outwards = QPointF(d.handle - centre) /
                 std::hypot(d.handle.x() - centre.x(), d.handle.y() - centre.y());
    return d;
}

// Presses on the handle and moves outwards in five steps of 8 pixels (the button stays down).
inline void pressAndDrag(pw::MoleculeView* view, const FaceDrag& d) {
    QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, d.handle);
    for (int s = 1; s <= 5; ++s)
        QTest::mouseMove(view, d.handle + (d.outwards * 8.0 * s).toPoint());
}

// Lets go 40 pixels out from the handle: the document takes the new box.
inline void release(pw::MoleculeView* view, const FaceDrag& d) {
    QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier,
                        d.handle + (d.outwards * 40.0).toPoint());
}
