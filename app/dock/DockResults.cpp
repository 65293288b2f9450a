#include "DockResults.h"

#include "DockOutput.h"
#include "chem/MoleculeReader.h"
#include "chem/RankedSdfWriter.h"
#include "chem/SdfWriter.h"
#include "core/InputError.h"

#include <QJsonArray>

#include <memory>
#include <sstream>

namespace pw {

DockOutcome outcomeOf(const Molecule& prepared, const dock::LigandDockResult& result,
                      const dock::DockOptions& options, const QString& device) {
    DockOutcome out;
    out.ligandName = QString::fromStdString(result.name);
    out.device = device;
    out.runs = static_cast<int>(result.runs.size());
    out.evaluationsPerRun = result.evaluationBudget;
    dock::DockOptions one = options;
    one.allRuns = false;  // the best pose of each cluster, in rank order
    one.maxPosesOut = 0;  // every cluster
    const std::vector<Molecule> posed = cli::dockedPoses(prepared, result, one);
    for (size_t k = 0; k < posed.size() && k < result.clusters.size(); ++k) {
        const dock::DockCluster& c = result.clusters[k];
        DockedPose p;
        p.rank = c.rank;
        p.score = c.bestScore;
        p.clusterSize = c.size();
        p.rmsdToLoaded = c.rmsdToReference;
        p.run = c.members.empty() ? 0 : c.members.front();
        p.molecule = posed[k];
        out.poses.push_back(std::move(p));
    }
    return out;
}

QJsonObject outcomeToJson(const DockOutcome& outcome) {
    std::string sdf;
    QJsonArray clusters;
    for (const DockedPose& p : outcome.poses) {
        appendSdfRecord(sdf, p.molecule);
        QJsonObject c{{"rank", p.rank}, {"score", p.score}, {"size", p.clusterSize},
                      {"run", p.run}};
        if (p.rmsdToLoaded)
            c["rmsd_loaded"] = *p.rmsdToLoaded;
        clusters.append(c);
    }
    return {{"ligand", outcome.ligandName},
            {"device", outcome.device},
            {"runs", outcome.runs},
            {"evaluations_per_run", static_cast<double>(outcome.evaluationsPerRun)},
            {"clusters", clusters},
            {"poses_sdf", QString::fromStdString(sdf)}};
}

DockOutcome outcomeFromJson(const QJsonObject& o, const QString& source) {
    const std::string file = source.toStdString();
    const QJsonArray clusters = o["clusters"].toArray();
    if (!o["clusters"].isArray() || !o["poses_sdf"].isString())
        throw InputError(file, 0, "parts.dock.results: expected \"clusters\" and \"poses_sdf\"");
    std::vector<Molecule> poses;
    auto reader = MoleculeReader::fromStream(
        std::make_unique<std::istringstream>(o["poses_sdf"].toString().toStdString()),
        FileFormat::Sdf, file + " (docked poses)");
    for (Molecule m; reader->next(m);)
        poses.push_back(m);
    if (poses.size() != static_cast<size_t>(clusters.size()))
        throw InputError(file, 0,
                         "parts.dock.results: " + std::to_string(clusters.size()) +
                             " clusters but " + std::to_string(poses.size()) + " docked poses");
    DockOutcome out;
    out.ligandName = o["ligand"].toString();
    out.device = o["device"].toString();
    out.runs = o["runs"].toInt();
    out.evaluationsPerRun = static_cast<long>(o["evaluations_per_run"].toDouble());
    for (qsizetype k = 0; k < clusters.size(); ++k) {
        const QJsonObject c = clusters[k].toObject();
        DockedPose p;
        p.rank = c["rank"].toInt(static_cast<int>(k) + 1);
        p.score = c["score"].toDouble();
        p.clusterSize = c["size"].toInt();
        p.run = c["run"].toInt();
        if (c.contains("rmsd_loaded"))
            p.rmsdToLoaded = c["rmsd_loaded"].toDouble();
        p.molecule = std::move(poses[static_cast<size_t>(k)]);
        out.poses.push_back(std::move(p));
    }
    return out;
}

void exportRankedSdf(const DockOutcome& outcome, const QString& path) {
    if (outcome.empty())
        throw InputError(path.toStdString(), 0, "no docking results to export");
    // As `dock --out`: the ligand's best score ranks all its poses, which keep their order.
    RankedSdfWriter sdf(path.toStdString());
    for (const DockedPose& p : outcome.poses)
        sdf.add(p.molecule, outcome.poses.front().score);
    sdf.commit();
}

} // namespace pw
