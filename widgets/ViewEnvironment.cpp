#include "ViewEnvironment.h"

#include <QByteArray>
#include <QSurfaceFormat>
#include <QtGlobal>

namespace pw {

QSurfaceFormat moleculeViewSurfaceFormat() {
    QSurfaceFormat f;
    f.setRenderableType(QSurfaceFormat::OpenGL);
    f.setVersion(3, 2);
    f.setProfile(QSurfaceFormat::CoreProfile);
    f.setDepthBufferSize(24);
    f.setStencilBufferSize(8);
    // Alpha planes for depth peeling (transparent shape overlays); VTK multisamples its own
    // framebuffers, so the window's must not.
    f.setAlphaBufferSize(8);
    f.setSamples(0);
    f.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
    return f;
}

void prepareQtForVtk() {
    // Debian's VTK binds OpenGL through GLX: under a pure Wayland/EGL platform it logs errors
    // and draws nothing. An explicit choice by the user is respected.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("xcb"));
    QSurfaceFormat::setDefaultFormat(moleculeViewSurfaceFormat());
}

} // namespace pw
