// WorkflowPart: one workflow of the application (watched minimization, batch refinement, shape
// overlay, similarity, ...) as a self-contained part that the frame installs (ARCHITECTURE §4b).
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace pw {

class PartContext;

// A part owns its worker jobs, its docks, its menu and tool bar actions and its piece of the
// session file. It sees the shared Document, the 3D view, the status bar, the settings and the
// job runner only through the PartContext given to install(), and listens to their signals.
// Nothing outside the part's folder refers to it: leaving it out of the registration list
// (app/CMakeLists.txt, POSEWRIGHT_APP_PARTS) removes the workflow and nothing else.
class WorkflowPart : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    // Stable and short ("refine", "overlay"): the registration name and the session file's key.
    virtual QString name() const = 0;
    // Creates the part's docks and actions and hands them to the frame. Called once, after the
    // frame's own menus, docks and status bar exist; the context outlives the part.
    virtual void install(PartContext& context) = 0;

    // The part's piece of the session file; empty when it has nothing to keep.
    virtual QJsonObject saveState() const { return {}; }
    // Called once a session's document is in place, with the piece saveState() wrote (an empty
    // object when the session has none, e.g. it was saved without this part).
    virtual void restoreState(const QJsonObject& state) { Q_UNUSED(state); }

    // A scripted step of the command line (e.g. "minimize"): false when the part has no such
    // step; otherwise it starts it and calls done(ok) once, when it has ended.
    virtual bool runStep(const QString& step, const std::function<void(bool ok)>& done) {
        Q_UNUSED(step);
        Q_UNUSED(done);
        return false;
    }
};

} // namespace pw

// Defines the factory that the generated registration (RegisteredParts.cpp) calls for a part
// named ID in POSEWRIGHT_APP_PARTS. One line in the part's own .cpp, outside any namespace.
#define POSEWRIGHT_REGISTER_PART(ID, TYPE)                                                         \
    std::unique_ptr<::pw::WorkflowPart> posewrightCreatePart_##ID() {                              \
        return std::make_unique<TYPE>();                                                           \
    }
