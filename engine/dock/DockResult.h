// DockResult: what docking hands back: every run's final genotype and pose with its re-scored
// energy, and per ligand the runs clustered at 2 Å and ranked by energy.
#pragma once

#include "core/Molecule.h"
#include "core/Pose.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pw::dock {

// One named energy term of the scoring (kcal/mol): Vina's weighted gauss1, gauss2, repulsion,
// hydrophobic, hydrogen; AD4's vdw_hb_desolv, elec, internal, torsional, unbound.
struct DockTerm {
    std::string name;
    double value = 0;
};

struct DockRun {
    int run = 0; // index of the run within its ligand
    // The search's final genotype (a polish moves the coordinates, not this): Pose::position is
    // the root origin (LigandKinematics with RootOrigin::RootCentroid), Pose::orientation a unit
    // quaternion, torsions in radians.
    Pose pose;
    std::vector<Vec3> coordinates; // every atom of the ligand, molecule order
    // The searched objective at the final pose (interpolated maps: inter + intra).
    double searchEnergy = 0;
    // The reported score, re-scored exactly on the CPU whatever the device (Vina: LigandScorer's
    // finalScore over receptor atoms, as minimize reports; AD4: the estimated free energy of
    // binding), with its terms.
    double score = 0;
    std::vector<DockTerm> terms;
    long evaluations = 0; // energy (+gradient) evaluations the run used
    long generations = 0;
    bool autoStopped = false; // ended by AutoStop before the budget ran out
    // The pose and score are a polish's end (DockFinish.h: a local optimization of the searched
    // pose, kept because it scored lower); pose and searchEnergy stay the search's.
    bool polished = false;
    std::optional<double> rmsdToReference; // when a reference ligand was given
};

struct DockCluster {
    int rank = 0;             // 1 = lowest energy
    std::vector<int> members; // run indices (DockRun::run), best score first
    double bestScore = 0;     // score of members[0]
    int size() const { return static_cast<int>(members.size()); }
    std::optional<double> rmsdToReference; // of members[0], when a reference ligand was given
};

struct LigandDockResult {
    int ligand = 0;   // index in the batch
    std::string name; // Molecule::name
    std::uint64_t seed = 0;
    long evaluationBudget = 0;         // per run
    std::vector<DockRun> runs;         // indexed by run
    std::vector<DockCluster> clusters; // ranked by bestScore
    bool cancelled = false;            // some runs did not finish (their results are partial)
    std::string error; // non-empty when the ligand could not be docked (bad input, with reason)
};

} // namespace pw::dock
