// ViewEnvironment: the process-wide Qt settings VTK rendering needs, applied before QApplication
// exists (OpenGL 3.2 core surface, depth 24, no multisampling; xcb, since VTK uses GLX).
#pragma once

class QSurfaceFormat;

namespace pw {

// The surface format every MoleculeView expects.
QSurfaceFormat moleculeViewSurfaceFormat();
// Sets QT_QPA_PLATFORM=xcb when unset and the default surface format. Call before QApplication.
void prepareQtForVtk();

} // namespace pw
