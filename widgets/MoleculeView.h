// MoleculeView: the 3D view of a receptor and its ligands, VTK rendering inside a Qt 6
// QOpenGLWidget (Debian's VTK Qt widgets are built for Qt 5; see ARCHITECTURE.md §6).
#pragma once

#include "MoleculeDrawing.h"

#include <QImage>
#include <QOpenGLWidget>
#include <QPointF>

#include <vtkSmartPointer.h>

#include <array>
#include <vector>

class vtkActor;
class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkObject;
class vtkRenderer;

namespace pw {

class MoleculeView : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit MoleculeView(QWidget* parent = nullptr);
    ~MoleculeView() override;

    // The fixed background colour (tests look for pixels that differ from it).
    static QColor backgroundColor();

    // Replaces what is shown; an empty drawing clears the receptor. The camera does not move:
    // call resetCamera() when new data should be framed.
    void setReceptor(const MoleculeDrawing& receptor);
    void setLigands(const std::vector<MoleculeDrawing>& ligands);
    // Frames the ligands with some of the pocket around them (what a chemist wants to see), or
    // the receptor when there is no ligand. With ligands, a slab is set: what lies more than
    // slabFront() Å in front of the focal point is clipped away, so the receptor atoms between
    // the eye and the pocket do not hide the ligand (as PyMOL's clipping does).
    void resetCamera();
    // True when the user turned, moved or zoomed the camera since the last resetCamera(): the
    // application then leaves the camera alone when data arrives.
    bool cameraMovedByUser() const { return cameraMovedByUser_; }
    // Half-depth of the front part of the slab in Å; 0 when no slab is active.
    double slabFront() const { return slabFront_; }

    // The rendered frame, at device pixels (renders now if needed).
    QImage grabImage();
    // Where a world point (Å) lands in grabImage(): x right, y down, device pixels.
    QPointF projectToImage(const std::array<double, 3>& world) const;
    // Number of frames painted so far (tests wait for the first).
    int framesRendered() const { return frames_; }
    vtkRenderer* renderer() const;

signals:
    void frameRendered();

protected:
    void initializeGL() override;
    void resizeGL(int w, int h) override;
    void paintGL() override;

    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void enterEvent(QEnterEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void onMakeCurrent(vtkObject*, unsigned long, void*);
    void onIsCurrent(vtkObject*, unsigned long, void* callData);
    void onFrame(vtkObject*, unsigned long, void*);
    void onInteractorRender(vtkObject*, unsigned long, void*);
    void onRenderStart(vtkObject*, unsigned long, void*);
    void releaseGraphics();
    bool forwardMouse(QMouseEvent* event, unsigned long vtkEvent, int repeat = 0);
    void forwardKey(QKeyEvent* event, unsigned long vtkEvent);

    vtkSmartPointer<vtkGenericOpenGLRenderWindow> window_;
    vtkSmartPointer<vtkGenericRenderWindowInteractor> interactor_;
    vtkSmartPointer<vtkRenderer> renderer_;
    vtkSmartPointer<vtkActor> receptorActor_;
    std::vector<vtkSmartPointer<vtkActor>> ligandActors_;
    MoleculeDrawing receptor_;
    std::vector<MoleculeDrawing> ligands_;
    double slabFront_ = 0.0;
    bool cameraMovedByUser_ = false;
    bool inPaint_ = false;
    int wheelAccumulator_ = 0;
    int frames_ = 0;
};

} // namespace pw
