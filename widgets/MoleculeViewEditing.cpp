// MoleculeView's editing side: picking atoms under the cursor, edit-mode drags of the ligand
// (turn, slide, turn a bond), hover reports, and the box widget that resizes the search box.
#include "MoleculeView.h"
#include "SceneDecorations.h"

#include <QMouseEvent>

#include <vtkBoxRepresentation.h>
#include <vtkBoxWidget2.h>
#include <vtkCamera.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkNew.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

#include <cmath>

namespace pw {
namespace {

constexpr double kPickRadius = 8.0;       // px: how near the cursor an atom's centre must be
constexpr double kRadiansPerPixel = 0.01; // drag sensitivity: 100 px turn ~57°

} // namespace

void MoleculeView::setBoxEditable(bool on) {
    if (on == boxEditable())
        return;
    if (on) {
        boxWidget_ = vtkSmartPointer<vtkBoxWidget2>::New();
        boxWidget_->SetInteractor(interactor_);
        boxWidget_->SetDefaultRenderer(renderer_);
        boxWidget_->SetCurrentRenderer(renderer_);
        boxWidget_->RotationEnabledOff();
        vtkNew<vtkBoxRepresentation> rep;
        rep->SetPlaceFactor(1.0);
        rep->GetOutlineProperty()->SetColor(0.95, 0.8, 0.3);
        rep->HandlesOn();
        boxWidget_->SetRepresentation(rep);
        boxWidget_->AddObserver(vtkCommand::EndInteractionEvent, this,
                                &MoleculeView::onBoxWidgetEnd);
        boxWidget_->AddObserver(vtkCommand::InteractionEvent, this,
                                &MoleculeView::onBoxWidgetMoved);
        if (boxActor_)
            renderer_->RemoveActor(boxActor_);
        boxActor_ = nullptr;
        placeBoxWidget();
    } else {
        boxWidget_->Off();
        boxWidget_->RemoveAllObservers();
        boxWidget_ = nullptr;
        setBox(box_);
    }
    updateBoxFaces();
    update();
}

std::optional<DrawBox> MoleculeView::shownBox() const {
    if (!boxWidget_ || !box_)
        return box_;
    auto* rep = static_cast<vtkBoxRepresentation*>(boxWidget_->GetRepresentation());
    vtkNew<vtkPolyData> poly;
    rep->GetPolyData(poly);
    double b[6];
    poly->GetBounds(b);
    DrawBox box;
    for (int k = 0; k < 3; ++k) {
        box.center[k] = (b[2 * k] + b[2 * k + 1]) / 2;
        box.size[k] = b[2 * k + 1] - b[2 * k];
    }
    return box;
}

void MoleculeView::onBoxWidgetMoved(vtkObject*, unsigned long, void*) {
    updateBoxFaces(); // the faces follow the handles while they are dragged
}

void MoleculeView::updateBoxFaces() {
    if (boxFacesActor_)
        renderer_->RemoveActor(boxFacesActor_);
    boxFacesActor_ = nullptr;
    // Only while the box is edited: its faces are what is dragged, so they are shown filled.
    const std::optional<DrawBox> box = boxWidget_ ? shownBox() : std::nullopt;
    if (box) {
        boxFacesActor_ = makeBoxFacesActor(*box);
        renderer_->AddActor(boxFacesActor_);
    }
}

void MoleculeView::placeBoxWidget() {
    if (!boxWidget_)
        return;
    if (!box_) {
        boxWidget_->Off();
        return;
    }
    double bounds[6];
    for (int k = 0; k < 3; ++k) {
        bounds[2 * k] = box_->center[k] - box_->size[k] / 2;
        bounds[2 * k + 1] = box_->center[k] + box_->size[k] / 2;
    }
    boxWidget_->GetRepresentation()->PlaceWidget(bounds);
    boxWidget_->On();
}

void MoleculeView::onBoxWidgetEnd(vtkObject*, unsigned long, void*) {
    auto* rep = static_cast<vtkBoxRepresentation*>(boxWidget_->GetRepresentation());
    vtkNew<vtkPolyData> poly;
    rep->GetPolyData(poly);
    double b[6];
    poly->GetBounds(b);
    DrawBox box;
    for (int k = 0; k < 3; ++k) {
        box.center[k] = (b[2 * k] + b[2 * k + 1]) / 2;
        box.size[k] = b[2 * k + 1] - b[2 * k];
    }
    box_ = box;
    updateBoxFaces();
    emit boxEdited(box);
}

void MoleculeView::setEditMode(bool on) {
    editMode_ = on;
    drag_ = Drag::None;
    setCursor(on ? Qt::OpenHandCursor : Qt::ArrowCursor);
}

int MoleculeView::pickAtom(QPointF widgetPos, int kind) const {
    std::vector<const MoleculeDrawing*> drawings;
    if (kind == 0 && !ligands_.empty())
        drawings.push_back(&ligands_.front());
    else if (kind == 1)
        drawings.push_back(&receptor_);
    else if (kind == 2)
        for (const MoleculeDrawing& h : highlights_)
            drawings.push_back(&h);
    const QPointF p = widgetPos * devicePixelRatioF();
    const double reach = kPickRadius * devicePixelRatioF();
    vtkCamera* camera = renderer_->GetActiveCamera();
    double eye[3];
    camera->GetPosition(eye);
    int best = -1;
    double bestDepth = 1e300;
    for (const MoleculeDrawing* d : drawings) {
        for (const DrawAtom& a : d->atoms) {
            const QPointF q = projectToImage(a.position);
            if (std::hypot(q.x() - p.x(), q.y() - p.y()) > reach)
                continue;
            // Front-most: what the user sees under the cursor.
            const double depth =
                std::hypot(a.position[0] - eye[0], a.position[1] - eye[1], a.position[2] - eye[2]);
            if (depth < bestDepth) {
                bestDepth = depth;
                best = a.source;
            }
        }
    }
    return best;
}

void MoleculeView::editDrag(QMouseEvent* event) {
    const QPointF pos = event->position();
    const QPointF delta = pos - dragLast_;
    dragLast_ = pos;
    if (delta.isNull())
        return;
    vtkCamera* camera = renderer_->GetActiveCamera();
    double up[3], forward[3], right[3];
    camera->GetViewUp(up);
    camera->GetDirectionOfProjection(forward);
    // right = forward x up
    right[0] = forward[1] * up[2] - forward[2] * up[1];
    right[1] = forward[2] * up[0] - forward[0] * up[2];
    right[2] = forward[0] * up[1] - forward[1] * up[0];
    switch (drag_) {
    case Drag::Rotate: {
        // A trackball: dragging right turns the near side right (about up), down about right.
        std::array<double, 3> axis;
        for (int k = 0; k < 3; ++k)
            axis[k] = up[k] * delta.x() + right[k] * delta.y();
        const double length = std::hypot(axis[0], axis[1], axis[2]);
        if (length > 0) {
            for (double& v : axis)
                v /= length;
            emit ligandRotated(axis, std::hypot(delta.x(), delta.y()) * kRadiansPerPixel);
        }
        break;
    }
    case Drag::Translate: {
        // Å per pixel at the focal point, so the ligand follows the cursor.
        const double perPixel = 2.0 * camera->GetDistance() *
                                std::tan(camera->GetViewAngle() * M_PI / 360.0) /
                                std::max(1, height());
        std::array<double, 3> d;
        for (int k = 0; k < 3; ++k)
            d[k] = (right[k] * delta.x() - up[k] * delta.y()) * perPixel;
        emit ligandTranslated(d);
        break;
    }
    case Drag::Torsion:
        emit torsionTurned(dragAtom_, delta.x() * kRadiansPerPixel * 2.0);
        break;
    case Drag::None:
        break;
    }
}

void MoleculeView::hover(QMouseEvent* event) {
    int kind = 0, atom = pickAtom(event->position(), 0);
    if (atom < 0) {
        kind = 1;
        atom = pickAtom(event->position(), 1);
    }
    const int key = atom < 0 ? -1 : kind * 100000 + atom;
    if (key == hovered_)
        return;
    hovered_ = key;
    emit atomHovered(atom < 0 ? -1 : kind, atom, event->globalPosition().toPoint());
}

} // namespace pw
