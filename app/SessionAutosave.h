// SessionAutosave: writes the open session to the settings folder every little while, removes
// it on a clean exit, and finds the one a crashed (or killed) run left behind so that the next
// start can offer it back. One file per process: "autosave.PID.pwsession".
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>

namespace pw {

class Document;

class SessionAutosave : public QObject {
    Q_OBJECT
public:
    // dir: where autosaves live (created when missing); the application passes its data folder.
    SessionAutosave(const Document& document, QString dir, int intervalMs,
                    QObject* parent = nullptr);

    // The newest autosave of a run that is no longer running (it did not exit cleanly), or empty.
    QString recoverable() const;
    // Removes autosaves of runs no longer running (after the user restored or declined one).
    void discardRecoverable();
    // Writes now when something changed since the last write; false when writing failed.
    bool saveNow();
    // A clean exit: the autosave is removed, so the next start offers nothing.
    void finish();

    QString path() const { return path_; }
    static QString defaultDirectory(); // QStandardPaths::AppDataLocation

signals:
    void saveFailed(const QString& message);

private:
    const Document& document_;
    QString dir_, path_;
    QTimer timer_;
    bool dirty_ = false;
};

} // namespace pw
