// SessionFile: saves and restores what the user has open as JSON: receptor and ligand files
// (relative to the session file), every ligand's current pose, score and recorded trajectory,
// the box and settings, and each workflow part's piece. Version 1 files (no trajectories) still
// open.
#pragma once

#include "Document.h"

#include <QJsonObject>
#include <QString>

#include <optional>
#include <vector>

namespace pw {

struct SessionLigand {
    bool prepared = false;         // the pose belongs to the prepared molecule (hydrogens added)
    std::vector<Vec3> coordinates; // one per atom of the (prepared) molecule
    std::optional<VinaScore> score;
    // The ligand's last watched minimization (coordinates per atom of the prepared molecule),
    // or the device of the batch its pose came from; both empty when neither.
    std::vector<TrajectoryPoint> trajectory;
    QString batchDevice;
};

struct Session {
    QString receptorPath; // absolute
    QStringList ligandPaths;
    std::vector<SessionLigand> ligands;
    std::optional<SearchBox> box;
    BoxSource boxSource = BoxSource::None;
    ScoringKind scoring = ScoringKind::Vina;
    double receptorPH = 7.4; // Document::receptorPH
    QString device = QStringLiteral("auto");
    int active = -1;
    // Each workflow part's piece, under the part's name (WorkflowPart::saveState).
    QJsonObject parts;
};

Session sessionOf(const Document& document);
// Writes through a temporary file (nothing half-written). Throws InputError(path, 0, why).
void writeSession(const QString& path, const Session& session);
// Throws InputError(path, 0, what was expected) for anything but a session of version 1 or 2.
Session readSession(const QString& path);

// The session's molecules, read and posed (run it on a worker thread): on failure error says why
// and nothing else is set.
struct RestoredSession {
    QString path; // the session file
    Session session;
    std::optional<Molecule> receptor;
    std::vector<Molecule> ligands;
    std::vector<LigandTrajectory> trajectories; // one per ligand (empty ones included)
    QString error;
};
RestoredSession restoreSession(const QString& path);

} // namespace pw
