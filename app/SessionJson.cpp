#include "SessionJson.h"

#include "core/InputError.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace pw {
namespace {

// The longest box edge a Vina config may give (score/BoxConfig.cpp); a session holds no larger.
constexpr double kMaxSessionBoxEdge = 1000.0;

bool isFiniteNumber(const QJsonValue& v) { return v.isDouble() && std::isfinite(v.toDouble()); }

Vec3 toVec(const QJsonValue& value, const QString& path, const char* what) {
    const QJsonArray a = value.toArray();
    if (a.size() != 3 || !isFiniteNumber(a[0]) || !isFiniteNumber(a[1]) || !isFiniteNumber(a[2]))
        throw InputError(path.toStdString(), 0,
                         std::string(what) + ": expected an array of three finite numbers");
    return {a[0].toDouble(), a[1].toDouble(), a[2].toDouble()};
}

BoxSource boxSourceFrom(const QString& s) {
    if (s == QLatin1String("file"))
        return BoxSource::File;
    if (s == QLatin1String("ligand"))
        return BoxSource::Ligand;
    return BoxSource::Typed;
}

VinaScore scoreFrom(const QJsonObject& o) {
    VinaScore s;
    s.affinity = o["affinity"].toDouble();
    s.inter = o["inter"].toDouble();
    s.intra = o["intra"].toDouble();
    s.torsional = o["torsional"].toDouble();
    s.unbound = o["unbound"].toDouble();
    s.numTors = o["numTors"].toDouble();
    const QJsonObject terms = o["interTerms"].toObject();
    for (int t = 0; t < kScoreTermCount; ++t)
        s.terms.interWeighted[t] = terms[QString::fromLatin1(scoreTermName(t).data())].toDouble();
    s.terms.inter = s.inter;
    s.terms.intra = o["intraTotal"].toDouble();
    return s;
}

TrajectoryPoint frameFrom(const QJsonValue& value, const QString& path, size_t ligand,
                          qsizetype frame) {
    const std::string where =
        "ligand " + std::to_string(ligand + 1) + ", trajectory frame " + std::to_string(frame + 1);
    const QJsonObject o = value.toObject();
    const QJsonArray terms = o["interTerms"].toArray();
    const QJsonArray coords = o["coordinates"].toArray();
    if (!o["energy"].isDouble() || terms.size() != kScoreTermCount || coords.size() % 3 != 0)
        throw InputError(path.toStdString(), 0,
                         where + ": expected energy, " + std::to_string(kScoreTermCount) +
                             " interTerms and x, y, z coordinates");
    TrajectoryPoint p;
    p.iteration = o["iteration"].toInt();
    p.energy = o["energy"].toDouble();
    for (int t = 0; t < kScoreTermCount; ++t)
        p.interTerms[t] = terms[t].toDouble();
    p.intra = o["intra"].toDouble();
    for (qsizetype i = 0; i < coords.size(); ++i)
        if (!isFiniteNumber(coords[i]))
            throw InputError(path.toStdString(), 0,
                             where + ": coordinate " + std::to_string(i + 1) +
                                 " is not a finite number");
    for (qsizetype i = 0; i + 2 < coords.size(); i += 3)
        p.coordinates.emplace_back(coords[i].toDouble(), coords[i + 1].toDouble(),
                                   coords[i + 2].toDouble());
    return p;
}

} // namespace

Session sessionFromJson(const QByteArray& json, const QString& path) {
    const std::string file = path.toStdString();
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (doc.isNull())
        throw InputError(file, 0,
                         "a JSON session expected (" + error.errorString().toStdString() +
                             " at byte " + std::to_string(error.offset) + ")");
    const QJsonObject root = doc.object();
    if (root["format"].toString() != QLatin1String(kSessionFormat))
        throw InputError(file, 0,
                         "a Posewright session expected (\"format\": \"" + std::string(kSessionFormat) +
                             "\")");
    const int version = root["version"].toInt();
    if (version < 1 || version > kSessionVersion)
        throw InputError(file, 0,
                         "session version 1 to " + std::to_string(kSessionVersion) +
                             " expected (a newer Posewright wrote version " +
                             std::to_string(version) + ")");
    const QDir dir = QFileInfo(path).absoluteDir();
    Session s;
    const QString receptor = root["receptor"].toString();
    if (!receptor.isEmpty())
        s.receptorPath = QDir::cleanPath(dir.absoluteFilePath(receptor));
    for (const QJsonValue& v : root["ligandFiles"].toArray())
        s.ligandPaths << QDir::cleanPath(dir.absoluteFilePath(v.toString()));
    for (const QJsonValue& v : root["ligands"].toArray()) {
        const QJsonObject o = v.toObject();
        SessionLigand l;
        l.prepared = o["prepared"].toBool();
        for (const QJsonValue& c : o["coordinates"].toArray())
            l.coordinates.push_back(toVec(c, path, "ligand coordinates"));
        if (o.contains("score"))
            l.score = scoreFrom(o["score"].toObject());
        const QJsonArray frames = o["trajectory"].toArray();
        for (qsizetype k = 0; k < frames.size(); ++k)
            l.trajectory.push_back(frameFrom(frames[k], path, s.ligands.size(), k));
        l.batchDevice = o["batchDevice"].toString();
        s.ligands.push_back(std::move(l));
    }
    if (root.contains("box")) {
        const QJsonObject b = root["box"].toObject();
        s.box =
            SearchBox{toVec(b["center"], path, "box center"), toVec(b["size"], path, "box size")};
        for (int a = 0; a < 3; ++a)
            if (!(s.box->size[a] > 0) || s.box->size[a] > kMaxSessionBoxEdge)
                throw InputError(file, 0,
                                 "box size: expected edges greater than 0 and at most 1000 Å");
        s.boxSource = boxSourceFrom(b["source"].toString());
    }
    const QString scoring = root["scoring"].toString(QStringLiteral("vina"));
    if (scoring != QLatin1String("vina") && scoring != QLatin1String("vinardo"))
        throw InputError(file, 0, "scoring \"vina\" or \"vinardo\" expected");
    s.scoring = scoring == QLatin1String("vina") ? ScoringKind::Vina : ScoringKind::Vinardo;
    if (root.contains("receptorPH")) { // sessions written before the setting: 7.4
        const QJsonValue pH = root["receptorPH"];
        if (!isFiniteNumber(pH) || pH.toDouble() < 0.0 || pH.toDouble() > 14.0)
            throw InputError(file, 0, "receptorPH: a number from 0 to 14 expected");
        s.receptorPH = pH.toDouble();
    }
    s.device = root["device"].toString(QStringLiteral("auto"));
    s.active = root["activeLigand"].toInt(-1);
    if (s.active < -1 || s.active >= static_cast<int>(s.ligands.size()))
        s.active = -1; // no ligand of the session: none is made active
    if (root.contains("parts") && !root["parts"].isObject())
        throw InputError(file, 0, "\"parts\": an object with one piece per workflow expected");
    s.parts = root["parts"].toObject();
    return s;
}

} // namespace pw
