// Qt Test for the molecule view on molecules built in code (no files, no engine): colours by
// style, framing from the open side of a pocket, and mouse/wheel input reaching VTK's camera.
#include "ElementColors.h"
#include "GuiTestSetup.h"
#include "MolecularSurface.h"
#include "MoleculeView.h"
#include "PocketFraming.h"
#include "ViewEnvironment.h"

#include <QImage>
#include <QtTest>

#include <vtkCamera.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkRenderer.h>

#include <cmath>
#include <cstdlib>

using namespace pw;

namespace {

// Ethanol-like chain along x: C-C-O, with two carbons.
MoleculeDrawing chain(DrawStyle style, double offsetY = 0.0) {
    MoleculeDrawing d;
    d.style = style;
    d.atoms = {{6, {0.0, offsetY, 0.0}, "C1"},
               {6, {1.52, offsetY, 0.0}, "C2"},
               {8, {2.95, offsetY, 0.0}, "O1"}};
    d.bonds = {{0, 1, 1}, {1, 2, 1}};
    return d;
}

// A flat ring of n atoms in the plane z = z0 (a stand-in for a pocket floor).
MoleculeDrawing floorAt(double z0, int n = 40) {
    MoleculeDrawing d;
    d.style = DrawStyle::Receptor;
    for (int i = 0; i < n; ++i) {
        const double a = 2.0 * M_PI * i / n;
        d.atoms.push_back({6, {6.0 * std::cos(a), 6.0 * std::sin(a), z0}, "CA"});
    }
    return d;
}

bool waitFrame(MoleculeView& view) {
    const int before = view.framesRendered();
    view.update();
    return QTest::qWaitFor([&] { return view.framesRendered() > before; }, 30000);
}

QRgb pixelAt(const QImage& image, QPointF p) {
    return image.pixel(static_cast<int>(std::lround(p.x())), static_cast<int>(std::lround(p.y())));
}

// Lighting changes brightness and the specular highlight washes colours out, but the hue stays:
// compare hues (degrees), on a pixel that still carries some colour.
bool sameHue(QRgb c, Rgb expected, int toleranceDegrees) {
    const QColor seen(c);
    const QColor want(expected[0], expected[1], expected[2]);
    if (seen.hsvSaturation() < 60)
        return false;
    const int d = std::abs(seen.hsvHue() - want.hsvHue());
    return std::min(d, 360 - d) <= toleranceDegrees;
}

} // namespace

class TestMoleculeView : public QObject {
    Q_OBJECT

private slots:
    void carbonColourFollowsStyle();
    void framingLooksFromTheOpenSide();
    void framingWithoutLigandIsEmpty();
    void drawsLigandAtomsInTheirColours();
    void mouseDragRotatesAndWheelZooms();
    void survivesMovingToAnotherWindow();
    void surfaceOfOneAtomIsItsVdwSphere();
    void surfaceOfTwoAtomsJoinsOnlyWhenClose();
};

void TestMoleculeView::carbonColourFollowsStyle() {
    QCOMPARE(atomColor(6, DrawStyle::Receptor), (Rgb{165, 165, 165}));
    QVERIFY(atomColor(6, DrawStyle::Ligand) != atomColor(6, DrawStyle::LigandAlternate));
    // Other elements keep their CPK colour whatever the style.
    QCOMPARE(atomColor(8, DrawStyle::Ligand), elementColor(8));
    QCOMPARE(elementColor(8), (Rgb{255, 13, 13}));
    QCOMPARE(elementColor(7), (Rgb{48, 80, 248}));
    QCOMPARE(elementColor(0), elementColor(200)); // unknown numbers share one colour
}

void TestMoleculeView::framingLooksFromTheOpenSide() {
    // A flat ligand in z = 0: the view looks along z. The floor is below (z = -3): the eye must
    // be above, on the open side; with the floor above, below.
    MoleculeDrawing ring;
    ring.style = DrawStyle::Ligand;
    for (int i = 0; i < 6; ++i) {
        const double a = 2.0 * M_PI * i / 6;
        ring.atoms.push_back({6, {10.0 + 1.4 * std::cos(a), 1.4 * std::sin(a), 0.0}, ""});
    }
    MoleculeDrawing floor = floorAt(-3.0);
    for (auto& a : floor.atoms)
        a.position[0] += 10.0;
    auto f = framePocket({ring}, floor);
    QVERIFY(f);
    QVERIFY(std::abs(f->center[0] - 10.0) < 1e-9);
    QVERIFY(std::abs(f->ligandRadius - 1.4) < 0.01);
    QVERIFY2(f->direction[2] > 0.99, "eye should be above a pocket whose floor is below");
    const double dot = f->direction[0] * f->viewUp[0] + f->direction[1] * f->viewUp[1] +
                       f->direction[2] * f->viewUp[2];
    QVERIFY(std::abs(dot) < 1e-9);

    for (auto& a : floor.atoms)
        a.position[2] = 3.0;
    f = framePocket({ring}, floor);
    QVERIFY(f);
    QVERIFY2(f->direction[2] < -0.99, "eye should be below a pocket whose floor is above");
}

void TestMoleculeView::framingWithoutLigandIsEmpty() {
    QVERIFY(!framePocket({}, floorAt(0.0)));
    QVERIFY(!framePocket({MoleculeDrawing{}}, floorAt(0.0)));
}

void TestMoleculeView::drawsLigandAtomsInTheirColours() {
    MoleculeView view;
    view.resize(640, 480);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setLigands({chain(DrawStyle::Ligand), chain(DrawStyle::LigandAlternate, 4.0)});
    view.resetCamera();
    QVERIFY(waitFrame(view));
    const QImage image = view.grabImage().convertToFormat(QImage::Format_RGB32);

    const QPointF c1 = view.projectToImage({0.0, 0.0, 0.0});
    const QPointF o1 = view.projectToImage({2.95, 0.0, 0.0});
    const QPointF c1b = view.projectToImage({0.0, 4.0, 0.0});
    QVERIFY2(sameHue(pixelAt(image, c1), atomColor(6, DrawStyle::Ligand), 12),
             qPrintable(QColor(pixelAt(image, c1)).name()));
    QVERIFY2(sameHue(pixelAt(image, o1), elementColor(8), 12),
             qPrintable(QColor(pixelAt(image, o1)).name()));
    QVERIFY2(sameHue(pixelAt(image, c1b), atomColor(6, DrawStyle::LigandAlternate), 12),
             qPrintable(QColor(pixelAt(image, c1b)).name()));
    // Between the two chains (2 Å from each axis) there is only background.
    const QPointF gap = view.projectToImage({1.5, 2.0, 0.0});
    QCOMPARE(QColor(pixelAt(image, gap)), MoleculeView::backgroundColor());

    // Clearing the ligands leaves an empty picture.
    view.setLigands({});
    QVERIFY(waitFrame(view));
    const QImage empty = view.grabImage().convertToFormat(QImage::Format_RGB32);
    QCOMPARE(QColor(pixelAt(empty, c1)), MoleculeView::backgroundColor());
}

void TestMoleculeView::mouseDragRotatesAndWheelZooms() {
    MoleculeView view;
    view.resize(640, 480);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setLigands({chain(DrawStyle::Ligand)});
    view.resetCamera();
    QVERIFY(waitFrame(view));
    QVERIFY(!view.cameraMovedByUser());
    vtkCamera* camera = view.renderer()->GetActiveCamera();
    double before[3], after[3];
    camera->GetPosition(before);
    const double distance = camera->GetDistance();

    // A left drag orbits the camera around the focal point: same distance, new position.
    QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(320, 240));
    for (int x = 330; x <= 420; x += 10)
        QTest::mouseMove(&view, QPoint(x, 240));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(420, 240));
    camera->GetPosition(after);
    const double moved =
        std::hypot(after[0] - before[0], after[1] - before[1], after[2] - before[2]);
    QVERIFY2(moved > 0.1 * distance, qPrintable(QString::number(moved)));
    QVERIFY(std::abs(camera->GetDistance() - distance) < 1e-6 * distance);
    QVERIFY(view.cameraMovedByUser());

    // One wheel notch forward zooms in (dolly towards the focal point).
    QWheelEvent wheel(QPointF(320, 240), view.mapToGlobal(QPointF(320, 240)), QPoint(),
                      QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
    QVERIFY(camera->GetDistance() < distance * 0.95);
    QVERIFY(waitFrame(view)); // the interaction asked for a repaint, which happens

    // R frames the ligand again.
    QTest::keyClick(&view, Qt::Key_R);
    QVERIFY(std::abs(camera->GetDistance() - distance) < 1e-6 * distance);
    QVERIFY(!view.cameraMovedByUser());
}

void TestMoleculeView::survivesMovingToAnotherWindow() {
    // Moving a QOpenGLWidget to another top-level window replaces its OpenGL context: VTK must
    // let go of the old one's resources and start again in the new one.
    QWidget first, second;
    first.resize(500, 400);
    second.resize(500, 400);
    auto* view = new MoleculeView(&first);
    view->resize(480, 380);
    first.show();
    QVERIFY(QTest::qWaitForWindowExposed(&first));
    view->setLigands({chain(DrawStyle::Ligand)});
    view->resetCamera();
    QVERIFY(waitFrame(*view));
    second.show();
    QVERIFY(QTest::qWaitForWindowExposed(&second));
    view->setParent(&second);
    view->show();
    QVERIFY(waitFrame(*view));
    const QImage image = view->grabImage().convertToFormat(QImage::Format_RGB32);
    const QPointF c2 = view->projectToImage({1.52, 0.0, 0.0});
    QVERIFY2(sameHue(pixelAt(image, c2), atomColor(6, DrawStyle::Ligand), 12),
             qPrintable(QColor(pixelAt(image, c2)).name()));
}

void TestMoleculeView::surfaceOfOneAtomIsItsVdwSphere() {
    pw::MoleculeDrawing d;
    d.atoms.push_back({8, {1.0, -2.0, 0.5}, "O", 0, 1.52}); // Bondi's oxygen, as the app gives
    const vtkSmartPointer<vtkPolyData> s = pw::blobbySurface(d, 0.25);
    QVERIFY(s->GetNumberOfPoints() > 100);
    double worst = 0;
    for (vtkIdType i = 0; i < s->GetNumberOfPoints(); ++i) {
        double p[3];
        s->GetPoint(i, p);
        const double r = std::hypot(p[0] - 1.0, p[1] + 2.0, p[2] - 0.5);
        worst = std::max(worst, std::abs(r - 1.52));
    }
    QVERIFY2(worst < 0.05, qPrintable(QString::number(worst))); // the radius the drawing gave
}

void TestMoleculeView::surfaceOfTwoAtomsJoinsOnlyWhenClose() {
    // The midpoint between two carbons is inside the surface when they are bonded (1.5 Å), and
    // far outside when they are 8 Å apart: no surface point lies near it then.
    auto nearestToMidpoint = [](double separation) {
        pw::MoleculeDrawing d;
        d.atoms.push_back({6, {0, 0, 0}, "C1", 0});
        d.atoms.push_back({6, {separation, 0, 0}, "C2", 1});
        const vtkSmartPointer<vtkPolyData> s = pw::blobbySurface(d, 0.25);
        double nearest = 1e9;
        for (vtkIdType i = 0; i < s->GetNumberOfPoints(); ++i) {
            double p[3];
            s->GetPoint(i, p);
            nearest = std::min(nearest, std::hypot(p[0] - separation / 2, p[1], p[2]));
        }
        return nearest;
    };
    // Bonded: one body whose waist is at least the two spheres' (sqrt(1.7^2 - 0.75^2) = 1.53 Å)
    // and swollen a little where both atoms contribute, as blobby surfaces are.
    const double bonded = nearestToMidpoint(1.5);
    QVERIFY2(bonded > 1.52 && bonded < 1.9, qPrintable(QString::number(bonded)));
    QVERIFY(nearestToMidpoint(8.0) > 2.0); // two spheres
}

QTEST_MAIN(TestMoleculeView)
#include "test_moleculeview.moc"
