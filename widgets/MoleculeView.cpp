#include "MoleculeView.h"

#include "MolecularSurface.h"
#include "MoleculeActor.h"
#include "PocketFraming.h"
#include "SceneDecorations.h"

#include <QElapsedTimer>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QWheelEvent>

#include <vtkActor.h>
#include <vtkBoxRepresentation.h>
#include <vtkBoxWidget2.h>
#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkNew.h>
#include <vtkOpenGLState.h>
#include <vtkPolyData.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>

#include <algorithm>
#include <cmath>

namespace pw {
namespace {

// Extra room around the ligands when framing them: enough to show the residues lining the
// pocket (side chains within ~4 Å) without losing the ligand in the whole protein.
constexpr double kPocketMargin = 4.0;
// How much of the receptor in front of the ligands stays visible (Å beyond their radius): the
// residues touching the ligand from the front, not the layers behind them.
constexpr double kSlabFrontMargin = 2.5;
// A narrow field of view: less perspective, so atoms near the eye do not look huge.
constexpr double kViewAngle = 20.0;

constexpr int kWheelStep = 120; // Qt's angleDelta units per wheel notch

} // namespace

QColor MoleculeView::backgroundColor() {
    return QColor(20, 24, 32);
}

MoleculeView::MoleculeView(QWidget* parent) : QOpenGLWidget(parent) {
    window_ = vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New();
    // Nothing may render before initializeGL gives VTK a context, and VTK must not blit on its
    // own: paintGL blits into the widget's framebuffer.
    window_->SetReadyForRendering(false);
    window_->SetFrameBlitModeToNoBlit();
    window_->SetMultiSamples(0);
    window_->AddObserver(vtkCommand::WindowMakeCurrentEvent, this, &MoleculeView::onMakeCurrent);
    window_->AddObserver(vtkCommand::WindowIsCurrentEvent, this, &MoleculeView::onIsCurrent);
    window_->AddObserver(vtkCommand::WindowFrameEvent, this, &MoleculeView::onFrame);

    renderer_ = vtkSmartPointer<vtkRenderer>::New();
    const QColor bg = backgroundColor();
    renderer_->SetBackground(bg.redF(), bg.greenF(), bg.blueF());
    renderer_->SetBackgroundAlpha(1.0);
    renderer_->GetActiveCamera()->SetViewAngle(kViewAngle);
    renderer_->AddObserver(vtkCommand::StartEvent, this, &MoleculeView::onRenderStart);
    window_->AddRenderer(renderer_);

    interactor_ = vtkSmartPointer<vtkGenericRenderWindowInteractor>::New();
    // The interactor only asks for a repaint; Qt decides when paintGL runs.
    interactor_->EnableRenderOff();
    interactor_->SetRenderWindow(window_);
    vtkNew<vtkInteractorStyleTrackballCamera> style;
    style->SetDefaultRenderer(renderer_);
    interactor_->SetInteractorStyle(style);
    interactor_->AddObserver(vtkCommand::RenderEvent, this, &MoleculeView::onInteractorRender);
    interactor_->Initialize();

    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true); // hover reports the atom under the cursor
    setMinimumSize(200, 150);
}

MoleculeView::~MoleculeView() {
    // The base class destroys the context after this body: its aboutToBeDestroyed must not reach
    // a half-destroyed view.
    if (context())
        disconnect(context(), nullptr, this, nullptr);
    if (context() && window_->GetReadyForRendering()) {
        makeCurrent();
        releaseGraphics();
        doneCurrent();
    }
    // The observers point at this object: drop them before the VTK objects may outlive us.
    window_->RemoveAllObservers();
    interactor_->RemoveAllObservers();
    renderer_->RemoveAllObservers();
    if (boxWidget_)
        boxWidget_->RemoveAllObservers();
}

vtkRenderer* MoleculeView::renderer() const {
    return renderer_;
}

void MoleculeView::setReceptor(const MoleculeDrawing& receptor) {
    if (receptorActor_)
        renderer_->RemoveActor(receptorActor_);
    receptorActor_ = nullptr;
    receptor_ = receptor;
    receptor_.style = DrawStyle::Receptor;
    if (!receptor_.empty()) {
        receptorActor_ = makeMoleculeActor(receptor_);
        renderer_->AddActor(receptorActor_);
    }
    rebuildSurface();
    renderer_->ResetCameraClippingRange(); // new atoms may lie beyond the old clipping planes
    update();
}

void MoleculeView::setSurfaceVisible(bool visible) {
    surfaceVisible_ = visible;
    rebuildSurface();
    update();
}

void MoleculeView::rebuildSurface() {
    if (surfaceActor_)
        renderer_->RemoveActor(surfaceActor_);
    surfaceActor_ = nullptr;
    if (surfaceVisible_ && !receptor_.empty()) {
        surfaceActor_ = makeSurfaceActor(receptor_);
        renderer_->AddActor(surfaceActor_);
    }
}

void MoleculeView::setLigands(const std::vector<MoleculeDrawing>& ligands) {
    for (auto& actor : ligandActors_)
        renderer_->RemoveActor(actor);
    ligandActors_.clear();
    ligands_ = ligands;
    for (const MoleculeDrawing& ligand : ligands_) {
        if (ligand.empty())
            continue;
        ligandActors_.push_back(makeMoleculeActor(ligand));
        renderer_->AddActor(ligandActors_.back());
    }
    renderer_->ResetCameraClippingRange();
    update();
}

void MoleculeView::setHighlights(const std::vector<MoleculeDrawing>& highlights) {
    for (auto& actor : highlightActors_)
        renderer_->RemoveActor(actor);
    highlightActors_.clear();
    highlights_ = highlights;
    for (const MoleculeDrawing& h : highlights_) {
        if (h.empty())
            continue;
        highlightActors_.push_back(makeMoleculeActor(h));
        renderer_->AddActor(highlightActors_.back());
    }
    renderer_->ResetCameraClippingRange();
    update();
}

void MoleculeView::setBackbone(const std::vector<std::vector<std::array<double, 3>>>& segments) {
    if (backboneActor_)
        renderer_->RemoveActor(backboneActor_);
    backboneActor_ = nullptr;
    if (!segments.empty()) {
        backboneActor_ = makeBackboneActor(segments);
        renderer_->AddActor(backboneActor_);
    }
    update();
}

void MoleculeView::setBox(const std::optional<DrawBox>& box) {
    if (boxActor_)
        renderer_->RemoveActor(boxActor_);
    boxActor_ = nullptr;
    box_ = box;
    if (boxWidget_) {
        placeBoxWidget();
        updateBoxFaces();
        update();
        return; // the widget draws the box while it is edited
    }
    if (box) {
        boxActor_ = makeBoxActor(*box);
        renderer_->AddActor(boxActor_);
    }
    update();
}

void MoleculeView::setInteractionLines(const std::vector<DrawLine>& lines) {
    if (linesActor_)
        renderer_->RemoveActor(linesActor_);
    linesActor_ = nullptr;
    lines_ = lines;
    if (!lines.empty()) {
        linesActor_ = makeDashedLinesActor(lines);
        renderer_->AddActor(linesActor_);
    }
    update();
}

void MoleculeView::resetCamera() {
    vtkCamera* camera = renderer_->GetActiveCamera();
    camera->SetViewAngle(kViewAngle);
    slabFront_ = 0.0;
    cameraMovedByUser_ = false;
    if (const std::optional<PocketFrame> frame = framePocket(ligands_, receptor_)) {
        const auto& c = frame->center;
        const auto& d = frame->direction;
        camera->SetFocalPoint(c[0], c[1], c[2]);
        camera->SetPosition(c[0] + d[0], c[1] + d[1], c[2] + d[2]);
        camera->SetViewUp(frame->viewUp.data());
        // ResetCamera fits the sphere around a box; this cube's sphere is the ligands' sphere
        // plus the pocket margin.
        const double half = (frame->ligandRadius + kPocketMargin) / std::sqrt(3.0);
        const double box[6] = {c[0] - half, c[0] + half, c[1] - half,
                               c[1] + half, c[2] - half, c[2] + half};
        renderer_->ResetCamera(box);
        slabFront_ = frame->ligandRadius + kSlabFrontMargin;
    } else {
        camera->SetPosition(0, 0, 1);
        camera->SetFocalPoint(0, 0, 0);
        camera->SetViewUp(0, 1, 0);
        renderer_->ResetCamera();
    }
    renderer_->ResetCameraClippingRange();
    update();
}

QImage MoleculeView::grabImage() {
    return grabFramebuffer();
}

QPointF MoleculeView::projectToImage(const std::array<double, 3>& world) const {
    renderer_->SetWorldPoint(world[0], world[1], world[2], 1.0);
    renderer_->WorldToDisplay();
    const double* d = renderer_->GetDisplayPoint();
    const int height = window_->GetSize()[1];
    // VTK's display origin is the bottom-left corner; images count rows from the top.
    return QPointF(d[0], height - d[1]);
}

void MoleculeView::initializeGL() {
    // A context may be replaced (the widget moved to another top-level window): VTK's resources
    // belong to the old one and must be released while it is still current.
    connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] {
        makeCurrent();
        releaseGraphics();
        doneCurrent();
    });
    window_->SetOwnContext(false);
    window_->OpenGLInitContext();
    window_->SetReadyForRendering(true);
    const qreal dpr = devicePixelRatioF();
    const int w = static_cast<int>(std::lround(width() * dpr));
    const int h = static_cast<int>(std::lround(height() * dpr));
    window_->SetSize(w, h);
    interactor_->UpdateSize(w, h);
}

void MoleculeView::releaseGraphics() {
    if (!window_->GetReadyForRendering())
        return;
    window_->Finalize();
    window_->SetReadyForRendering(false);
}

void MoleculeView::resizeGL(int w, int h) {
    const qreal dpr = devicePixelRatioF();
    const int dw = static_cast<int>(std::lround(w * dpr));
    const int dh = static_cast<int>(std::lround(h * dpr));
    window_->SetSize(dw, dh);
    interactor_->UpdateSize(dw, dh);
    renderer_->ResetCameraClippingRange();
}

void MoleculeView::paintGL() {
    if (!window_->GetReadyForRendering())
        return;
    QElapsedTimer timer;
    timer.start();
    inPaint_ = true;
    vtkOpenGLState* state = window_->GetState();
    state->Reset();
    state->Push();
    // Qt leaves GL_LESS; VTK's passes expect GL_LEQUAL.
    state->vtkglDepthFunc(GL_LEQUAL);
    window_->Render();

    // Rendering may have made another context current (progress callbacks, other views).
    makeCurrent();
    const int* size = window_->GetSize();
    state->vtkglBindFramebuffer(GL_DRAW_FRAMEBUFFER, defaultFramebufferObject());
    state->vtkglDrawBuffer(GL_COLOR_ATTACHMENT0);
    window_->BlitDisplayFramebuffer(0, 0, 0, size[0], size[1], 0, 0, size[0], size[1],
                                    GL_COLOR_BUFFER_BIT, GL_NEAREST);
    // The widget is composited by Qt: any alpha below 1 would let the window show through.
    state->vtkglColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
    state->vtkglClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    state->vtkglClear(GL_COLOR_BUFFER_BIT);
    state->vtkglColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    state->Pop();
    inPaint_ = false;
    ++frames_;
    paintNs_ += timer.nsecsElapsed();
    emit frameRendered();
}

void MoleculeView::onMakeCurrent(vtkObject*, unsigned long, void*) {
    // Not QOpenGLWidget::makeCurrent(): it would rebind Qt's framebuffer behind VTK's state cache.
    if (QOpenGLContext* ctx = context())
        ctx->makeCurrent(ctx->surface());
}

void MoleculeView::onIsCurrent(vtkObject*, unsigned long, void* callData) {
    auto* current = static_cast<bool*>(callData);
    *current = context() != nullptr && QOpenGLContext::currentContext() == context();
}

void MoleculeView::onFrame(vtkObject*, unsigned long, void*) {
    if (!inPaint_)
        update(); // VTK rendered on its own: show it
}

void MoleculeView::onInteractorRender(vtkObject*, unsigned long, void*) {
    update();
}

void MoleculeView::onRenderStart(vtkObject*, unsigned long, void*) {
    // Runs before every render, after any interaction moved the camera: fit the far plane to the
    // scene, then move the near plane to the slab's front, which follows the focal point.
    renderer_->ResetCameraClippingRange();
    if (slabFront_ <= 0.0)
        return;
    vtkCamera* camera = renderer_->GetActiveCamera();
    double range[2];
    camera->GetClippingRange(range);
    const double front = camera->GetDistance() - slabFront_;
    if (front > range[0] && front < range[1])
        camera->SetClippingRange(front, range[1]);
}

// --- events ----------------------------------------------------------------------------------

bool MoleculeView::forwardMouse(QMouseEvent* event, unsigned long vtkEvent, int repeat) {
    const QPointF p = event->position() * devicePixelRatioF();
    const Qt::KeyboardModifiers mods = event->modifiers();
    interactor_->SetEventInformationFlipY(
        static_cast<int>(std::lround(p.x())), static_cast<int>(std::lround(p.y())),
        (mods & Qt::ControlModifier) ? 1 : 0, (mods & Qt::ShiftModifier) ? 1 : 0, 0, repeat);
    interactor_->SetAltKey((mods & Qt::AltModifier) ? 1 : 0);
    interactor_->InvokeEvent(vtkEvent, event);
    event->accept();
    return true;
}

static unsigned long pressEventFor(Qt::MouseButton button) {
    switch (button) {
    case Qt::LeftButton:
        return vtkCommand::LeftButtonPressEvent;
    case Qt::MiddleButton:
        return vtkCommand::MiddleButtonPressEvent;
    case Qt::RightButton:
        return vtkCommand::RightButtonPressEvent;
    default:
        return vtkCommand::NoEvent;
    }
}

static unsigned long releaseEventFor(Qt::MouseButton button) {
    switch (button) {
    case Qt::LeftButton:
        return vtkCommand::LeftButtonReleaseEvent;
    case Qt::MiddleButton:
        return vtkCommand::MiddleButtonReleaseEvent;
    case Qt::RightButton:
        return vtkCommand::RightButtonReleaseEvent;
    default:
        return vtkCommand::NoEvent;
    }
}

void MoleculeView::mousePressEvent(QMouseEvent* event) {
    if (editMode_ && event->button() == Qt::LeftButton && !ligands_.empty()) {
        const Qt::KeyboardModifiers mods = event->modifiers();
        drag_ = Drag::Rotate;
        if (mods & Qt::ShiftModifier) {
            dragAtom_ = pickAtom(event->position(), 0);
            drag_ = dragAtom_ >= 0 ? Drag::Torsion : Drag::None;
        } else if (mods & Qt::ControlModifier) {
            drag_ = Drag::Translate;
        }
        if (drag_ != Drag::None) {
            dragLast_ = event->position();
            setCursor(Qt::ClosedHandCursor);
            emit ligandDragStarted();
        }
        event->accept();
        return;
    }
    const unsigned long e = pressEventFor(event->button());
    if (e == vtkCommand::NoEvent)
        return QOpenGLWidget::mousePressEvent(event);
    cameraMovedByUser_ = true;
    forwardMouse(event, e);
}

void MoleculeView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (!editMode_ && event->button() == Qt::LeftButton) {
        // Highlights first: they are drawn over the receptor (their sources are the caller's).
        int kind = 2, atom = pickAtom(event->position(), 2);
        for (int k : {0, 1})
            if (atom < 0) {
                kind = k;
                atom = pickAtom(event->position(), k);
            }
        if (atom >= 0)
            emit atomDoubleClicked(kind, atom);
    }
    const unsigned long e = pressEventFor(event->button());
    if (e == vtkCommand::NoEvent)
        return QOpenGLWidget::mouseDoubleClickEvent(event);
    forwardMouse(event, e, 1);
}

void MoleculeView::mouseReleaseEvent(QMouseEvent* event) {
    if (editMode_ && event->button() == Qt::LeftButton) {
        if (drag_ != Drag::None)
            emit ligandDragFinished();
        drag_ = Drag::None;
        setCursor(Qt::OpenHandCursor);
        event->accept();
        return;
    }
    const unsigned long e = releaseEventFor(event->button());
    if (e == vtkCommand::NoEvent)
        return QOpenGLWidget::mouseReleaseEvent(event);
    forwardMouse(event, e);
}

void MoleculeView::mouseMoveEvent(QMouseEvent* event) {
    if (drag_ != Drag::None) {
        editDrag(event);
        event->accept();
        return;
    }
    if (event->buttons() == Qt::NoButton)
        hover(event);
    forwardMouse(event, vtkCommand::MouseMoveEvent);
}

void MoleculeView::wheelEvent(QWheelEvent* event) {
    cameraMovedByUser_ = true;
    wheelAccumulator_ += event->angleDelta().y();
    const QPointF p = event->position() * devicePixelRatioF();
    const Qt::KeyboardModifiers mods = event->modifiers();
    interactor_->SetEventInformationFlipY(
        static_cast<int>(std::lround(p.x())), static_cast<int>(std::lround(p.y())),
        (mods & Qt::ControlModifier) ? 1 : 0, (mods & Qt::ShiftModifier) ? 1 : 0);
    // Touchpads send small deltas: act once per full notch so zoom speed matches a mouse wheel.
    while (wheelAccumulator_ >= kWheelStep) {
        interactor_->InvokeEvent(vtkCommand::MouseWheelForwardEvent, event);
        wheelAccumulator_ -= kWheelStep;
    }
    while (wheelAccumulator_ <= -kWheelStep) {
        interactor_->InvokeEvent(vtkCommand::MouseWheelBackwardEvent, event);
        wheelAccumulator_ += kWheelStep;
    }
    event->accept();
}

void MoleculeView::forwardKey(QKeyEvent* event, unsigned long vtkEvent) {
    const Qt::KeyboardModifiers mods = event->modifiers();
    const QByteArray text = event->text().toLatin1();
    const char code = text.isEmpty() ? '\0' : text.front();
    interactor_->SetKeyEventInformation(
        (mods & Qt::ControlModifier) ? 1 : 0, (mods & Qt::ShiftModifier) ? 1 : 0, code,
        event->isAutoRepeat() ? 1 : 0, text.isEmpty() ? nullptr : text.constData());
    interactor_->SetAltKey((mods & Qt::AltModifier) ? 1 : 0);
    interactor_->InvokeEvent(vtkEvent, event);
}

void MoleculeView::keyPressEvent(QKeyEvent* event) {
    // The trackball style's character shortcuts (wireframe, stereo, exit, ...) are not forwarded:
    // they would change the scene behind the application's back. R and Home frame the ligands.
    if (event->key() == Qt::Key_R || event->key() == Qt::Key_Home) {
        resetCamera();
        event->accept();
        return;
    }
    forwardKey(event, vtkCommand::KeyPressEvent);
    QOpenGLWidget::keyPressEvent(event);
}

void MoleculeView::keyReleaseEvent(QKeyEvent* event) {
    forwardKey(event, vtkCommand::KeyReleaseEvent);
    QOpenGLWidget::keyReleaseEvent(event);
}

void MoleculeView::enterEvent(QEnterEvent* event) {
    interactor_->InvokeEvent(vtkCommand::EnterEvent, event);
    QOpenGLWidget::enterEvent(event);
}

void MoleculeView::leaveEvent(QEvent* event) {
    interactor_->InvokeEvent(vtkCommand::LeaveEvent, event);
    QOpenGLWidget::leaveEvent(event);
}

} // namespace pw
