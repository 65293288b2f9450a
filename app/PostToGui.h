// PostToGui: how a worker thread hands something to a QObject on the GUI thread: queued, and
// dropped when the object is gone by the time it would run.
#pragma once

#include <QMetaObject>
#include <QPointer>

#include <utility>

namespace pw {

// Runs f(*target) later on target's thread, unless target has been destroyed by then.
template <class T, class F> void postToGui(const QPointer<T>& target, F&& f) {
    QMetaObject::invokeMethod(
        target.data(),
        [target, f = std::forward<F>(f)]() mutable {
            if (target)
                f(*target);
        },
        Qt::QueuedConnection);
}

} // namespace pw
