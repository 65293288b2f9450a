// SessionJson: the session file's JSON parsed into a Session, with nothing but Qt Core, so that
// the parser can be fuzzed (tests/fuzz/fuzz_session) apart from the app. SessionFile reads the
// file and restores the molecules; this checks every value it takes.
#pragma once

#include "SessionFile.h"

#include <QByteArray>
#include <QString>

namespace pw {

// 2: ligands carry their trajectories (version 1 files have none and still open).
constexpr int kSessionVersion = 2;
inline constexpr const char* kSessionFormat = "posewright-session";

// `path` names the file in messages and anchors its relative paths. Throws InputError(path, 0,
// what was expected) for anything but a session of version 1 or 2 with sound values.
Session sessionFromJson(const QByteArray& json, const QString& path);

} // namespace pw
