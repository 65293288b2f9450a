#include "SessionFile.h"

#include "MoleculeLoader.h"
#include "SessionJson.h"
#include "chem/LigandPreparation.h"
#include "core/InputError.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

namespace pw {
namespace {

QJsonArray vec(const Vec3& v) {
    return {v.x(), v.y(), v.z()};
}

QString boxSourceName(BoxSource s) {
    switch (s) {
    case BoxSource::File:
        return QStringLiteral("file");
    case BoxSource::Ligand:
        return QStringLiteral("ligand");
    case BoxSource::Typed:
        return QStringLiteral("typed");
    case BoxSource::None:
        break;
    }
    return QStringLiteral("none");
}

QJsonObject scoreJson(const VinaScore& s) {
    QJsonObject o{{"affinity", s.affinity},   {"inter", s.inter},     {"intra", s.intra},
                  {"torsional", s.torsional}, {"unbound", s.unbound}, {"numTors", s.numTors}};
    QJsonObject terms;
    for (int t = 0; t < kScoreTermCount; ++t)
        terms[QString::fromLatin1(scoreTermName(t).data())] = s.terms.interWeighted[t];
    o["interTerms"] = terms;
    o["intraTotal"] = s.terms.intra;
    return o;
}

// Test hook (like POSEWRIGHT_GPU_FAIL_ALLOCATION): with POSEWRIGHT_STALL_SESSION_SAVE=N in the
// environment, the Nth session save of the process (autosaves included) writes half its bytes,
// says so on stderr and waits 120 s before it writes the rest, so that a test can kill the
// process in the middle of a save (tests/gui/test_crash_safety.cpp).
bool stallSessionSaveRequested() {
    static const int stallAt = qEnvironmentVariableIntValue("POSEWRIGHT_STALL_SESSION_SAVE");
    static std::atomic<int> saves{0};
    return stallAt > 0 && ++saves == stallAt;
}

void stallSessionSave(const QString& path) {
    std::fprintf(stderr, "posewright: session save of %s stalled (POSEWRIGHT_STALL_SESSION_SAVE)\n",
                 qPrintable(path));
    std::fflush(stderr);
    std::this_thread::sleep_for(std::chrono::seconds(120));
}

QJsonObject frameJson(const TrajectoryPoint& p) {
    QJsonArray terms, coords;
    for (int t = 0; t < kScoreTermCount; ++t)
        terms.append(p.interTerms[t]);
    // Flat x, y, z per atom: a trajectory holds hundreds of frames.
    for (const Vec3& v : p.coordinates)
        coords << v.x() << v.y() << v.z();
    return {{"iteration", p.iteration},
            {"energy", p.energy},
            {"interTerms", terms},
            {"intra", p.intra},
            {"coordinates", coords}};
}

} // namespace

Session sessionOf(const Document& d) {
    Session s;
    s.receptorPath = d.hasReceptor() ? QFileInfo(d.receptorPath()).absoluteFilePath() : QString();
    for (const QString& p : d.ligandPaths())
        s.ligandPaths << QFileInfo(p).absoluteFilePath();
    for (int i = 0; i < static_cast<int>(d.ligands().size()); ++i) {
        const Molecule& m = d.ligands()[static_cast<size_t>(i)];
        SessionLigand l;
        l.prepared =
            m.atoms.empty() || m.atoms.front().xs != XsType::None || m.torsionTree.has_value();
        for (const Atom& a : m.atoms)
            l.coordinates.push_back(a.position);
        l.score = d.score(i);
        l.trajectory = d.trajectory(i).points;
        l.batchDevice = d.trajectory(i).batchDevice;
        s.ligands.push_back(std::move(l));
    }
    s.box = d.box();
    s.boxSource = d.boxSource();
    s.scoring = d.scoring();
    s.receptorPH = d.receptorPH();
    s.device = d.device();
    s.active = d.activeLigand();
    return s;
}

void writeSession(const QString& path, const Session& s) {
    const QDir dir = QFileInfo(path).absoluteDir();
    QJsonObject root{{"format", kSessionFormat}, {"version", kSessionVersion}};
    root["receptor"] = s.receptorPath.isEmpty() ? QString() : dir.relativeFilePath(s.receptorPath);
    QJsonArray files;
    for (const QString& p : s.ligandPaths)
        files.append(dir.relativeFilePath(p));
    root["ligandFiles"] = files;
    QJsonArray ligands;
    for (const SessionLigand& l : s.ligands) {
        QJsonArray coords;
        for (const Vec3& v : l.coordinates)
            coords.append(vec(v));
        QJsonObject o{{"prepared", l.prepared}, {"coordinates", coords}};
        if (l.score)
            o["score"] = scoreJson(*l.score);
        if (!l.trajectory.empty()) {
            QJsonArray frames;
            for (const TrajectoryPoint& p : l.trajectory)
                frames.append(frameJson(p));
            o["trajectory"] = frames;
        }
        if (!l.batchDevice.isEmpty())
            o["batchDevice"] = l.batchDevice;
        ligands.append(o);
    }
    root["ligands"] = ligands;
    if (s.box)
        root["box"] = QJsonObject{{"center", vec(s.box->center)},
                                  {"size", vec(s.box->size)},
                                  {"source", boxSourceName(s.boxSource)}};
    root["scoring"] = QString::fromLatin1(scoringKindName(s.scoring).data());
    root["receptorPH"] = s.receptorPH;
    root["device"] = s.device;
    root["activeLigand"] = s.active;
    if (!s.parts.isEmpty())
        root["parts"] = s.parts;

    const QByteArray bytes = QJsonDocument(root).toJson(QJsonDocument::Indented);
    QSaveFile file(path);
    bool ok = file.open(QIODevice::WriteOnly);
    if (ok && stallSessionSaveRequested()) {
        ok = file.write(bytes.left(bytes.size() / 2)) >= 0 && file.flush();
        stallSessionSave(path);
        ok = ok && file.write(bytes.mid(bytes.size() / 2)) >= 0;
    } else if (ok) {
        ok = file.write(bytes) >= 0;
    }
    if (!ok || !file.commit())
        throw InputError(path.toStdString(), 0,
                         "cannot write the session: " + file.errorString().toStdString());
}

Session readSession(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        throw InputError(path.toStdString(), 0,
                         "cannot open the session: " + f.errorString().toStdString());
    return sessionFromJson(f.readAll(), path);
}

RestoredSession restoreSession(const QString& path) {
    RestoredSession out;
    out.path = path;
    try {
        out.session = readSession(path);
        const Session& s = out.session;
        if (!s.receptorPath.isEmpty()) {
            LoadResult r = loadMolecules({s.receptorPath}, LoadKind::Receptor);
            if (!r.ok())
                throw InputError(path.toStdString(), 0,
                                 "the session's receptor: " + r.error.toStdString());
            out.receptor = std::move(r.molecules.front());
        }
        if (!s.ligandPaths.isEmpty()) {
            LoadResult r = loadMolecules(s.ligandPaths, LoadKind::Ligands);
            if (!r.ok())
                throw InputError(path.toStdString(), 0,
                                 "the session's ligands: " + r.error.toStdString());
            out.ligands = std::move(r.molecules);
        }
        if (s.ligands.size() != out.ligands.size())
            throw InputError(path.toStdString(), 0,
                             std::to_string(s.ligands.size()) + " ligand poses for " +
                                 std::to_string(out.ligands.size()) +
                                 " ligands in the files: the files changed since the session");
        out.trajectories.resize(out.ligands.size());
        for (size_t i = 0; i < out.ligands.size(); ++i) {
            const SessionLigand& l = s.ligands[i];
            Molecule& m = out.ligands[i];
            LigandTrajectory& t = out.trajectories[i];
            t.batchDevice = l.batchDevice;
            if (!l.trajectory.empty()) {
                // The frames move the prepared molecule, as the minimization did.
                t.ligand = prepareLigand(m);
                for (size_t k = 0; k < l.trajectory.size(); ++k)
                    if (l.trajectory[k].coordinates.size() != t.ligand.atoms.size())
                        throw InputError(path.toStdString(), 0,
                                         "ligand " + std::to_string(i + 1) + ", trajectory frame " +
                                             std::to_string(k + 1) + ": " +
                                             std::to_string(l.trajectory[k].coordinates.size()) +
                                             " coordinates for " +
                                             std::to_string(t.ligand.atoms.size()) + " atoms");
                t.points = l.trajectory;
            }
            if (l.prepared)
                m = t.points.empty() ? prepareLigand(m) : t.ligand;
            if (l.coordinates.size() != m.atoms.size())
                throw InputError(path.toStdString(), 0,
                                 "ligand " + std::to_string(i + 1) + ": " +
                                     std::to_string(l.coordinates.size()) + " coordinates for " +
                                     std::to_string(m.atoms.size()) + " atoms");
            for (size_t k = 0; k < m.atoms.size(); ++k)
                m.atoms[k].position = l.coordinates[k];
        }
    } catch (const InputError& e) {
        out = RestoredSession{};
        out.error = QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        out = RestoredSession{};
        out.error = QString::fromStdString(InputError::format(path.toStdString(), 0, e.what()));
    }
    return out;
}

} // namespace pw
