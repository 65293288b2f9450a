#include "DockOutput.h"

#include "Json.h"

#include <algorithm>
#include <cstdio>

namespace pw::cli {
namespace {

std::string fixed3(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

// Where each run landed: its cluster (rank) and that cluster's size.
struct RunPlace {
    int cluster = 0, size = 0;
};

std::vector<RunPlace> placeRuns(const dock::LigandDockResult& r) {
    std::vector<RunPlace> place(r.runs.size());
    for (const dock::DockCluster& c : r.clusters)
        for (int m : c.members)
            place[m] = {c.rank, c.size()};
    return place;
}

Molecule posed(const Molecule& ligand, const dock::LigandDockResult& r, const dock::DockRun& run,
               const RunPlace& place, const std::optional<double>& rmsdRef) {
    Molecule m = ligand;
    for (size_t i = 0; i < m.atoms.size() && i < run.coordinates.size(); ++i)
        m.atoms[i].position = run.coordinates[i];
    m.setProperty("dock_score", fixed3(run.score));
    for (const dock::DockTerm& t : run.terms)
        m.setProperty("dock_" + t.name, fixed3(t.value));
    m.setProperty("run", std::to_string(run.run));
    m.setProperty("cluster", std::to_string(place.cluster));
    m.setProperty("cluster_size", std::to_string(place.size));
    if (rmsdRef)
        m.setProperty("rmsd_ref", fixed3(*rmsdRef));
    m.setProperty("seed", std::to_string(r.seed));
    return m;
}

} // namespace

std::vector<Molecule> dockedPoses(const Molecule& ligand, const dock::LigandDockResult& r,
                                  const dock::DockOptions& options) {
    std::vector<Molecule> out;
    const std::vector<RunPlace> place = placeRuns(r);
    const size_t limit = options.maxPosesOut > 0 ? size_t(options.maxPosesOut) : SIZE_MAX;
    if (options.allRuns) {
        // Every finished run, in cluster order (clusters ranked, members best first).
        for (const dock::DockCluster& c : r.clusters)
            for (size_t k = 0; k < c.members.size() && out.size() < limit; ++k)
                out.push_back(posed(ligand, r, r.runs[c.members[k]], place[c.members[k]],
                                    r.runs[c.members[k]].rmsdToReference));
        return out;
    }
    for (const dock::DockCluster& c : r.clusters) {
        if (out.size() >= limit)
            break;
        out.push_back(
            posed(ligand, r, r.runs[c.members[0]], place[c.members[0]], c.rmsdToReference));
    }
    return out;
}

std::string dockSummaryLine(const dock::LigandDockResult& r) {
    const std::string name = r.name.empty() ? "(no name)" : r.name;
    if (!r.error.empty() || r.clusters.empty())
        return name + "  not docked";
    int largest = 0;
    for (const auto& c : r.clusters)
        largest = std::max(largest, c.size());
    char buf[256];
    std::snprintf(buf, sizeof buf, "%-24s %5d  best %8.3f  clusters %3zu (largest %d)",
                  name.c_str(), r.ligand, r.clusters[0].bestScore, r.clusters.size(), largest);
    std::string line = buf;
    if (r.clusters[0].rmsdToReference)
        line += "  rmsd_ref " + fixed3(*r.clusters[0].rmsdToReference);
    return line;
}

std::string dockJson(const dock::LigandDockResult& r) {
    JsonObject o;
    o.add("name", r.name).add("index", r.ligand);
    if (!r.error.empty()) {
        o.add("error", r.error);
        return o.str();
    }
    o.add("seed", std::to_string(r.seed)).add("evaluation_budget", r.evaluationBudget);
    o.add("cancelled", r.cancelled);
    std::vector<std::string> clusters, runs;
    for (const dock::DockCluster& c : r.clusters) {
        JsonObject j;
        j.add("rank", c.rank).add("size", c.size()).add("best_score", c.bestScore, 4);
        j.add("best_run", c.members[0]);
        std::vector<std::string> members;
        for (int m : c.members)
            members.push_back(std::to_string(m));
        j.addRaw("members", jsonArray(members));
        if (c.rmsdToReference)
            j.add("rmsd_ref", *c.rmsdToReference, 4);
        clusters.push_back(j.str());
    }
    for (const dock::DockRun& run : r.runs) {
        JsonObject j;
        j.add("run", run.run).add("score", run.score, 4).add("search_energy", run.searchEnergy, 4);
        j.add("evaluations", run.evaluations).add("generations", run.generations);
        j.add("autostopped", run.autoStopped);
        if (run.polished) // its reported pose is the polish's end (DockFinish.h)
            j.add("polished", true);
        JsonObject terms;
        for (const dock::DockTerm& t : run.terms)
            terms.add(t.name, t.value, 4);
        j.addRaw("terms", terms.str());
        runs.push_back(j.str());
    }
    o.addRaw("clusters", jsonArray(clusters)).addRaw("runs", jsonArray(runs));
    return o.str();
}

} // namespace pw::cli
