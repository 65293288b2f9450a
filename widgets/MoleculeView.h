// MoleculeView: the 3D view of a receptor and its ligands, VTK rendering inside a Qt 6
// QOpenGLWidget (Debian's VTK Qt widgets are built for Qt 5; see ARCHITECTURE.md §6).
#pragma once

#include "MoleculeDrawing.h"

#include <QImage>
#include <QOpenGLWidget>
#include <QPointF>

#include <vtkSmartPointer.h>

#include <array>
#include <optional>
#include <vector>

class vtkActor;
class vtkBoxWidget2;
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
    // Drawn over the receptor whatever the ligands shown (e.g. the flexible side chains, in
    // DrawStyle::FlexibleResidue, where they are now); empty: none.
    void setHighlights(const std::vector<MoleculeDrawing>& highlights);
    const std::vector<MoleculeDrawing>& highlights() const { return highlights_; }
    // A translucent molecular surface over the receptor atoms drawn (the pocket).
    void setSurfaceVisible(bool visible);
    bool surfaceVisible() const { return surfaceVisible_; }
    // The protein backbone as a tube through C-alpha traces (empty: none).
    void setBackbone(const std::vector<std::vector<std::array<double, 3>>>& segments);
    // The search box wireframe; nothing hides it.
    void setBox(const std::optional<DrawBox>& box);
    // Box editing: handles on the box's faces resize it, the centre handle moves it (rotation is
    // off: Vina's box is axis-aligned); boxEdited reports the result when a drag ends.
    void setBoxEditable(bool on);
    bool boxEditable() const { return boxWidget_ != nullptr; }
    // The box as the view shows it: while it is edited, where the handles have put it (during a
    // drag too); otherwise the box last set.
    std::optional<DrawBox> shownBox() const;
    // Hydrogen bonds and clashes of the shown pose, as dashed lines.
    void setInteractionLines(const std::vector<DrawLine>& lines);
    int interactionLineCount() const { return static_cast<int>(lines_.size()); }
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

    // Edit mode: the left button moves the shown (first) ligand instead of the camera: drag to
    // turn it about its centre, Ctrl+drag to slide it, Shift+drag on an atom to turn the
    // rotatable bond that moves that atom. The other buttons still move the camera.
    void setEditMode(bool on);
    bool editMode() const { return editMode_; }
    // The atom of the first ligand (kind 0), of the receptor (kind 1) or of the highlights (kind 2)
    // drawn nearest to a widget position, within a few pixels, front-most first: its source
    // index, or -1.
    int pickAtom(QPointF widgetPos, int kind) const;

    // The rendered frame, at device pixels (renders now if needed).
    QImage grabImage();
    // Where a world point (Å) lands in grabImage(): x right, y down, device pixels.
    QPointF projectToImage(const std::array<double, 3>& world) const;
    // Number of frames painted so far (tests wait for the first).
    int framesRendered() const { return frames_; }
    // Milliseconds spent in paintGL so far (rendering cost, apart from the application's work).
    double paintMilliseconds() const { return paintNs_ / 1e6; }
    vtkRenderer* renderer() const;

signals:
    void frameRendered();
    // Edit-mode drags of the first ligand. A drag starts with dragStarted and ends with
    // dragFinished; the steps between belong to one user action (one undo step).
    void ligandDragStarted();
    void ligandRotated(const std::array<double, 3>& axis, double radians); // about its centre
    void ligandTranslated(const std::array<double, 3>& delta);             // Å
    void torsionTurned(int sourceAtom, double radians);
    void ligandDragFinished();
    // The mouse rests over an atom (kind 0: first ligand, 1: receptor) or over none (-1).
    void atomHovered(int kind, int sourceAtom, QPoint globalPos);
    void boxEdited(const pw::DrawBox& box);
    // A left double-click on an atom (kind 0: first ligand, 1: receptor, 2: highlights, tried
    // highlights first) outside edit mode; the camera still gets the click.
    void atomDoubleClicked(int kind, int sourceAtom);

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
    void onBoxWidgetEnd(vtkObject*, unsigned long, void*);
    void onBoxWidgetMoved(vtkObject*, unsigned long, void*);
    void updateBoxFaces();
    void placeBoxWidget();
    void rebuildSurface();
    void releaseGraphics();
    bool forwardMouse(QMouseEvent* event, unsigned long vtkEvent, int repeat = 0);
    void editDrag(QMouseEvent* event);
    void hover(QMouseEvent* event);
    enum class Drag { None, Rotate, Translate, Torsion };
    void forwardKey(QKeyEvent* event, unsigned long vtkEvent);

    vtkSmartPointer<vtkGenericOpenGLRenderWindow> window_;
    vtkSmartPointer<vtkGenericRenderWindowInteractor> interactor_;
    vtkSmartPointer<vtkRenderer> renderer_;
    vtkSmartPointer<vtkActor> receptorActor_;
    std::vector<vtkSmartPointer<vtkActor>> ligandActors_;
    std::vector<vtkSmartPointer<vtkActor>> highlightActors_;
    std::vector<MoleculeDrawing> highlights_;
    vtkSmartPointer<vtkActor> boxActor_;
    vtkSmartPointer<vtkActor> backboneActor_;
    vtkSmartPointer<vtkActor> surfaceActor_;
    bool surfaceVisible_ = false;
    vtkSmartPointer<vtkBoxWidget2> boxWidget_;
    vtkSmartPointer<vtkActor> boxFacesActor_; // translucent faces of the box being edited
    std::optional<DrawBox> box_;
    vtkSmartPointer<vtkActor> linesActor_;
    std::vector<DrawLine> lines_;
    MoleculeDrawing receptor_;
    std::vector<MoleculeDrawing> ligands_;
    double slabFront_ = 0.0;
    bool cameraMovedByUser_ = false;
    bool inPaint_ = false;
    int wheelAccumulator_ = 0;
    int frames_ = 0;
    qint64 paintNs_ = 0;
    bool editMode_ = false;
    Drag drag_ = Drag::None;
    int dragAtom_ = -1;
    QPointF dragLast_;
    int hovered_ = -2; // kind * 100000 + atom of the last hover report
};

} // namespace pw
