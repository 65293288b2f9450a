#include "SessionAutosave.h"

#include "Document.h"
#include "SessionFile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include <cerrno>
#include <csignal>

namespace pw {
namespace {

const QString kPrefix = QStringLiteral("autosave.");
const QString kSuffix = QStringLiteral(".pwsession");

bool processIsGone(qint64 pid) {
    return pid > 0 && ::kill(static_cast<pid_t>(pid), 0) == -1 && errno == ESRCH;
}

// The PID in "autosave.PID.pwsession", or 0.
qint64 pidOf(const QString& name) {
    if (!name.startsWith(kPrefix) || !name.endsWith(kSuffix))
        return 0;
    return name.mid(kPrefix.size(), name.size() - kPrefix.size() - kSuffix.size()).toLongLong();
}

} // namespace

SessionAutosave::SessionAutosave(const Document& document, QString dir, int intervalMs,
                                 QObject* parent)
    : QObject(parent), document_(document), dir_(std::move(dir)) {
    QDir().mkpath(dir_);
    path_ = QDir(dir_).filePath(kPrefix + QString::number(QCoreApplication::applicationPid()) +
                                kSuffix);
    const auto changed = [this] { dirty_ = true; };
    for (auto signal :
         {&Document::receptorChanged, &Document::ligandsChanged, &Document::ligandsUpdated,
          &Document::boxChanged, &Document::scoringChanged, &Document::receptorPHChanged,
          &Document::deviceChanged})
        connect(&document, signal, this, changed);
    connect(&document, &Document::ligandChanged, this, changed);
    connect(&document, &Document::trajectoryChanged, this, changed);
    timer_.setInterval(intervalMs);
    connect(&timer_, &QTimer::timeout, this, &SessionAutosave::saveNow);
    timer_.start();
}

QString SessionAutosave::recoverable() const {
    QString newest;
    QDateTime newestTime;
    const QDir dir(dir_);
    for (const QFileInfo& f : dir.entryInfoList({kPrefix + "*" + kSuffix}, QDir::Files)) {
        if (!processIsGone(pidOf(f.fileName())))
            continue; // ours, or another window still running
        if (newest.isEmpty() || f.lastModified() > newestTime) {
            newest = f.absoluteFilePath();
            newestTime = f.lastModified();
        }
    }
    return newest;
}

void SessionAutosave::discardRecoverable() {
    const QDir dir(dir_);
    for (const QFileInfo& f : dir.entryInfoList({kPrefix + "*" + kSuffix}, QDir::Files))
        if (processIsGone(pidOf(f.fileName())))
            QFile::remove(f.absoluteFilePath());
}

bool SessionAutosave::saveNow() {
    if (!dirty_)
        return true;
    if (!document_.hasReceptor() && document_.ligands().empty()) {
        QFile::remove(path_); // nothing open: nothing to restore
        dirty_ = false;
        return true;
    }
    try {
        writeSession(path_, sessionOf(document_)); // through a temporary file: never half-written
        dirty_ = false;
        return true;
    } catch (const std::exception& e) {
        emit saveFailed(QString::fromStdString(e.what()));
        return false;
    }
}

void SessionAutosave::finish() {
    timer_.stop();
    QFile::remove(path_);
}

QString SessionAutosave::defaultDirectory() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
}

} // namespace pw
