// CliRun: runs posewright-cli as a user would (a separate process) and splits its JSON lines,
// for the CLI test suites.
#pragma once

#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringList>

namespace pw::test {

// A file's bytes, or none when it cannot be read (an output the command did not write).
inline QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

struct CliRun {
    int exitCode = -1; // -1 when the process crashed, did not start or timed out
    QByteArray out, err;
};

// The exit code of a normal exit, or -1: a crash (signal) must never pass for an error exit, and
// QProcess::exitCode() is not meaningful after one. A run past the timeout is killed.
inline int normalExitCode(QProcess& p, int timeoutMs) {
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return -1;
    }
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

// env: "NAME=value" entries added to the process's environment.
inline CliRun runCli(const QStringList& args, int timeoutMs = 300000, const QStringList& env = {}) {
    QProcess p;
    if (!env.isEmpty()) {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const QString& entry : env)
            e.insert(entry.section('=', 0, 0), entry.section('=', 1));
        p.setProcessEnvironment(e);
    }
    p.start(POSEWRIGHT_CLI, args);
    const int code = normalExitCode(p, timeoutMs);
    return {code, p.readAllStandardOutput(), p.readAllStandardError()};
}

// Waits until p says on stderr that it stalled at a test hook (POSEWRIGHT_STALL_OUTPUT,
// engine/chem/OutputStall.h); false if it ended first. Everything it wrote to stderr is appended
// to err.
inline bool waitForStall(QProcess& p, QByteArray& err) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 240000 && !err.contains("(POSEWRIGHT_STALL_OUTPUT)")) {
        if (p.state() != QProcess::Running)
            break;
        p.waitForReadyRead(100);
        err += p.readAllStandardError();
    }
    err += p.readAllStandardError();
    return err.contains("(POSEWRIGHT_STALL_OUTPUT)");
}

inline QString testData(const QString& rel) { return QString(POSEWRIGHT_TEST_DATA) + "/" + rel; }

// Each non-empty line of out must be one JSON object; anything else fails the test run.
inline QList<QJsonObject> jsonLines(const QByteArray& out) {
    QList<QJsonObject> objects;
    for (const QByteArray& line : out.split('\n')) {
        if (line.trimmed().isEmpty())
            continue;
        QJsonParseError err;
        QJsonDocument doc = QJsonDocument::fromJson(line, &err);
        if (err.error != QJsonParseError::NoError || !doc.isObject())
            qFatal("not a JSON object line: %s", line.constData());
        objects.append(doc.object());
    }
    return objects;
}

} // namespace pw::test
