// Trajectory: the accepted steps of one watched minimization (energy, terms, coordinates) and the
// prepared molecule they belong to; the document keeps one per ligand and sessions save them.
#pragma once

#include "core/Molecule.h"
#include "score/ScoreBreakdown.h"

#include <QMetaType>
#include <QString>

#include <vector>

namespace pw {

// One accepted step as the views show it.
struct TrajectoryPoint {
    int iteration = 0;
    double energy = 0;      // the minimized objective (inter + intra), kcal/mol
    TermArray interTerms{}; // weighted intermolecular terms (exact sums)
    double intra = 0;
    std::vector<Vec3> coordinates;
    // With flexible side chains (RefinePart): their atoms at this step (FlexModel's flat order)
    // and the ligand-flex part of the intermolecular energy; intra then holds the side chains'
    // parts too (flex-receptor, flex-flex), as Vina reports them. Empty / 0 without.
    std::vector<Vec3> flexCoordinates;
    double ligandFlex = 0;
};

struct LigandTrajectory {
    // The prepared molecule (hydrogens, types) the frames' coordinates belong to, atom for atom.
    Molecule ligand;
    std::vector<TrajectoryPoint> points;
    // Non-empty when the ligand's pose came from a batch refinement (which records no steps):
    // the device that ran it, e.g. "CPU (2 threads)".
    QString batchDevice;
    bool empty() const { return points.empty(); }
};

} // namespace pw

Q_DECLARE_METATYPE(pw::TrajectoryPoint)
