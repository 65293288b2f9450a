// Ad4ExactScorer: AutoDock 4's intermolecular energy of a ligand pose without grid maps: for each
// ligand atom, the value autogrid4 4.2.6 would store in its type's map, in the electrostatic map
// and in the desolvation map if a grid point lay exactly at the atom, computed from the receptor
// atoms by the map builder's own sweep (mapPointEnergy, Ad4MapBuilder.h) and combined as
// autodock4 combines map values: affinity + q * e + |q| * d. At a grid point it equals the map;
// between grid points it has no interpolation error (issue 18).
//
// Outside the box. autodock4 gives an atom outside the grid no map energy but a penalty of
// 500 kcal/mol/Å^2 times its squared distance from the grid centre, booked as vdW and again as
// electrostatics (Ad4LigandScorer::score does the same). The exact sum exists anywhere, but the
// scorer keeps autodock4's rule by default (OutsideBox::Penalty), so a pose scores the same way
// exact or on maps, as the project's Vina exact scorer keeps Vina's box penalty (LigandScorer::
// clampToRegion); OutsideBox::ExactSum scores every atom from the receptor wherever it is.
//
// Gradient. autogrid reads its tables by truncating r * 100 (steps of 0.01 Å), so inter() jumps
// whenever a distance crosses a sample and its pointwise dE/dx misses the tables' slopes (only the
// 1/r and directional factors vary between jumps). energyAndGradient()
// is the smooth twin (mapPointEnergySmooth: the same sweep, tables read by linear interpolation
// between samples) with its analytic gradient, directional H-bond factors included: the objective
// a minimizer can use, within a table step of inter() (as Ad4LigandScorer keeps score() and its
// analytic energyAndGradient()).
//
// Only the intermolecular part: the internal and torsional parts do not read maps and stay with
// Ad4LigandScorer. Evaluation is const: one scorer may serve many threads.
#pragma once

#include "core/Molecule.h"
#include "score/ad4/Ad4LigandScorer.h"
#include "score/ad4/Ad4MapBuilder.h"
#include "score/ad4/Ad4Maps.h"

#include <memory>
#include <vector>

namespace pw::ad4 {

enum class OutsideBox { Penalty, ExactSum };

class Ad4ExactScorer {
public:
    // Prepares the receptor for the ligand's own atom types. Throws InputError naming the
    // ligand's file for an atom type AD4.1_bound does not know, and prepareMaps' errors (naming
    // the receptor's file) for a receptor without AD4 types or charges or a bad box.
    Ad4ExactScorer(const Molecule& receptor, const GridGeometry& box, const Molecule& ligand,
                   OutsideBox outside = OutsideBox::Penalty, const MapBuildOptions& options = {});
    // With a receptor setup prepared once for many ligands (prepareMaps with every type they
    // use): throws InputError naming the ligand's file for a type the setup lacks.
    Ad4ExactScorer(std::shared_ptr<const MapSetup> setup, const Molecule& ligand,
                   OutsideBox outside = OutsideBox::Penalty);

    int atomCount() const { return static_cast<int>(mapOfAtom_.size()); }
    const MapSetup& setup() const { return *setup_; }
    // Each atom's affinity map (index into setup().mapTypes) and charge, and the box rule: what
    // the GPU copy of this scorer reads (cuda::Ad4PairScorer::addLigand).
    int mapOfAtom(int atom) const { return mapOfAtom_.at(static_cast<size_t>(atom)); }
    double charge(int atom) const { return charge_.at(static_cast<size_t>(atom)); }
    OutsideBox outside() const { return outside_; }

    // The intermolecular parts of Ad4Energy (interVdwHbDesolv, interElec and perAtom, split as
    // Ad4LigandScorer::score splits them); intra, torsional and unbound are left 0. Throws
    // std::invalid_argument unless there is one coordinate per ligand atom.
    Ad4Energy inter(const std::vector<Eigen::Vector3d>& coords) const;

    // One atom's terms at position x (absolute coordinates), without the box rule.
    Ad4Energy::AtomTerms atomTerms(int atom, const Eigen::Vector3d& x) const;

    // The smooth twin's intermolecular energy; gradient (resized to atomCount()) receives dE/dx
    // when given. Under OutsideBox::Penalty an atom outside the box pays what
    // Ad4LigandScorer::interAnalytic charges: 2 * 500 kcal/mol/Å^2 * |x - centre|^2.
    double energyAndGradient(const std::vector<Eigen::Vector3d>& coords,
                             std::vector<Eigen::Vector3d>* gradient = nullptr) const;

private:
    std::shared_ptr<const MapSetup> setup_;
    OutsideBox outside_;
    std::vector<int> mapOfAtom_; // index into setup_.mapTypes
    std::vector<double> charge_;
};

// A pose's whole AD4 energy with the intermolecular part exact: internal, torsional and unbound
// parts from the map scorer (they read no map), inter and perAtom from the exact one. `score
// --scoring ad4 --exact` and `hits rescore --scoring ad4` both report it: one pose, one number.
Ad4Energy exactPoseEnergy(const Ad4LigandScorer& onMaps, const Ad4ExactScorer& exact,
                          const std::vector<Eigen::Vector3d>& coords, UnboundModel unbound);

} // namespace pw::ad4
