#include "DockResults.h"

#include "DockOutput.h"
#include "chem/MoleculeReader.h"
#include "chem/RankedSdfWriter.h"
#include "chem/SdfWriter.h"
#include "core/InputError.h"
#include "dock/SymmetryRmsd.h"

#include <QJsonArray>

#include <memory>
#include <optional>
#include <sstream>

namespace pw {
namespace {

std::vector<Vec3> positions(const Molecule& m) {
    std::vector<Vec3> out;
    out.reserve(m.atoms.size());
    for (const Atom& a : m.atoms)
        out.push_back(a.position);
    return out;
}

} // namespace

DockOutcome outcomeOf(const Molecule& prepared, const dock::LigandDockResult& result,
                      const dock::DockOptions& options, const QString& device) {
    DockOutcome out;
    out.ligandName = QString::fromStdString(result.name);
    out.device = device;
    out.runs = static_cast<int>(result.runs.size());
    out.evaluationsPerRun = result.evaluationBudget;
    dock::DockOptions one = options;
    one.allRuns = false; // the best pose of each cluster, in rank order
    one.maxPosesOut = 0; // every cluster
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

DockOutcome flexOutcomeOf(const Molecule& prepared, const std::vector<dock::FlexDockRun>& runs,
                          const QString& flexResidues, long evaluationsPerRun,
                          const QString& device, const Molecule* reference) {
    DockOutcome out;
    out.ligandName = QString::fromStdString(prepared.name);
    out.device = device;
    out.runs = static_cast<int>(runs.size());
    out.evaluationsPerRun = evaluationsPerRun;
    out.flexResidues = flexResidues;
    std::optional<dock::SymmetryRmsd> rmsd;
    if (reference) {
        try {
            rmsd.emplace(prepared, *reference);
        } catch (const InputError&) {
            // not the same molecule: no RMSD column
        }
    }
    for (size_t k = 0; k < runs.size(); ++k) {
        const dock::FlexDockRun& r = runs[k];
        DockedPose p;
        p.rank = static_cast<int>(k) + 1;
        p.score = r.score.affinity;
        p.clusterSize = 1;
        p.run = r.run;
        p.molecule = prepared;
        for (size_t a = 0; a < p.molecule.atoms.size() && a < r.ligandCoordinates.size(); ++a)
            p.molecule.atoms[a].position = r.ligandCoordinates[a];
        if (rmsd)
            p.rmsdToLoaded = rmsd->rmsd(positions(p.molecule), positions(*reference));
        // The SD tags of `dock --flex-residues --out`, and the side chains named.
        auto fixed3 = [](double v) { return QString::number(v, 'f', 3).toStdString(); };
        p.molecule.setProperty("dockedAffinity", fixed3(r.score.affinity));
        p.molecule.setProperty("dockedInter", fixed3(r.score.inter()));
        p.molecule.setProperty("dockedIntra", fixed3(r.score.intra()));
        p.molecule.setProperty("dockedLigandFlex", fixed3(r.score.ligandFlex));
        p.molecule.setProperty("dockedFlexReceptor", fixed3(r.score.flexReceptor));
        p.molecule.setProperty("dockedFlexFlex", fixed3(r.score.flexFlex));
        p.molecule.setProperty("run", std::to_string(r.run));
        p.molecule.setProperty("flexResidues", flexResidues.toStdString());
        p.flexCoordinates = r.flexCoordinates;
        out.poses.push_back(std::move(p));
    }
    return out;
}

QJsonObject outcomeToJson(const DockOutcome& outcome) {
    std::string sdf;
    QJsonArray clusters;
    for (const DockedPose& p : outcome.poses) {
        appendSdfRecord(sdf, p.molecule);
        QJsonObject c{
            {"rank", p.rank}, {"score", p.score}, {"size", p.clusterSize}, {"run", p.run}};
        if (p.rmsdToLoaded)
            c["rmsd_loaded"] = *p.rmsdToLoaded;
        if (!p.flexCoordinates.empty()) {
            QJsonArray xyz; // x, y, z of each side-chain atom in FlexModel's order
            for (const Vec3& v : p.flexCoordinates)
                for (int k = 0; k < 3; ++k)
                    xyz.append(v[k]);
            c["flex"] = xyz;
        }
        clusters.append(c);
    }
    QJsonObject o{{"ligand", outcome.ligandName},
                  {"device", outcome.device},
                  {"runs", outcome.runs},
                  {"evaluations_per_run", static_cast<double>(outcome.evaluationsPerRun)},
                  {"clusters", clusters},
                  {"poses_sdf", QString::fromStdString(sdf)}};
    if (!outcome.flexResidues.isEmpty())
        o["flex_residues"] = outcome.flexResidues;
    return o;
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
    out.flexResidues = o["flex_residues"].toString();
    for (qsizetype k = 0; k < clusters.size(); ++k) {
        const QJsonObject c = clusters[k].toObject();
        DockedPose p;
        p.rank = c["rank"].toInt(static_cast<int>(k) + 1);
        p.score = c["score"].toDouble();
        p.clusterSize = c["size"].toInt();
        p.run = c["run"].toInt();
        if (c.contains("rmsd_loaded"))
            p.rmsdToLoaded = c["rmsd_loaded"].toDouble();
        if (c.contains("flex")) {
            const QJsonArray xyz = c["flex"].toArray();
            if (!c["flex"].isArray() || xyz.size() % 3 != 0 || out.flexResidues.isEmpty())
                throw InputError(file, 0,
                                 "parts.dock.results: cluster " + std::to_string(k + 1) +
                                     ": expected \"flex\" as x, y, z numbers of the side chains "
                                     "named by \"flex_residues\"");
            for (qsizetype i = 0; i < xyz.size(); i += 3)
                p.flexCoordinates.emplace_back(xyz[i].toDouble(), xyz[i + 1].toDouble(),
                                               xyz[i + 2].toDouble());
        }
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
