#include "score/ad4/Ad4ExactScorer.h"

#include "core/InputError.h"
#include "score/ad4/Ad4Parameters.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace pw::ad4 {

namespace {

constexpr double kOutsidePenalty = 500.0; // kcal/mol/Å^2, autodock4's ENERGYPENALTY

// The ligand's distinct AD4 types in first-seen order; unknown types are the ligand's error.
std::vector<std::string> ligandTypes(const Molecule& ligand) {
    std::vector<std::string> types;
    for (size_t i = 0; i < ligand.atoms.size(); ++i) {
        const Atom& a = ligand.atoms[i];
        if (!findParameters(a.ad4Type))
            throw InputError(ligand.sourceFile, 0,
                             "ligand atom " + std::to_string(i + 1) + " (" + a.name +
                                 ") has AutoDock 4 type '" + a.ad4Type +
                                 "', which AD4.1_bound does not know");
        if (std::find(types.begin(), types.end(), a.ad4Type) == types.end())
            types.push_back(a.ad4Type);
    }
    if (types.empty())
        throw InputError(ligand.sourceFile, 0, "ligand has no atoms");
    return types;
}

} // namespace

Ad4ExactScorer::Ad4ExactScorer(const Molecule& receptor, const GridGeometry& box,
                               const Molecule& ligand, OutsideBox outside,
                               const MapBuildOptions& options)
    : Ad4ExactScorer(std::make_shared<const MapSetup>(
                         prepareMaps(receptor, box, ligandTypes(ligand), options)),
                     ligand, outside) {}

Ad4ExactScorer::Ad4ExactScorer(std::shared_ptr<const MapSetup> setup, const Molecule& ligand,
                               OutsideBox outside)
    : setup_(std::move(setup)), outside_(outside) {
    ligandTypes(ligand); // the ligand's own errors first
    const std::vector<std::string>& types = setup_->typeNames;
    for (size_t i = 0; i < ligand.atoms.size(); ++i) {
        const Atom& a = ligand.atoms[i];
        const auto it = std::find(types.begin(), types.end(), a.ad4Type);
        if (it == types.end())
            throw InputError(ligand.sourceFile, 0,
                             "ligand atom " + std::to_string(i + 1) + " (" + a.name +
                                 ") has type '" + a.ad4Type +
                                 "', which the exact AD4 scorer was not prepared for");
        mapOfAtom_.push_back(static_cast<int>(it - types.begin()));
        charge_.push_back(a.charge);
    }
}

Ad4Energy::AtomTerms Ad4ExactScorer::atomTerms(int atom, const Eigen::Vector3d& x) const {
    const PointEnergy p = mapPointEnergy(*setup_, x - setup_->box.center, mapOfAtom_.at(atom));
    const double q = charge_[atom];
    return {p.affinity, q * p.elec, std::fabs(q) * p.desolv};
}

double Ad4ExactScorer::energyAndGradient(const std::vector<Eigen::Vector3d>& coords,
                                         std::vector<Eigen::Vector3d>* gradient) const {
    if (coords.size() != mapOfAtom_.size())
        throw std::invalid_argument("Ad4ExactScorer: " + std::to_string(coords.size()) +
                                    " coordinates for a ligand of " +
                                    std::to_string(mapOfAtom_.size()) + " atoms");
    if (gradient)
        gradient->assign(coords.size(), Eigen::Vector3d::Zero());
    double total = 0;
    for (size_t i = 0; i < coords.size(); ++i) {
        const Eigen::Vector3d off = coords[i] - setup_->box.center;
        if (outside_ == OutsideBox::Penalty && !setup_->box.contains(coords[i])) {
            total += 2.0 * kOutsidePenalty * off.squaredNorm();
            if (gradient)
                (*gradient)[i] += 4.0 * kOutsidePenalty * off;
            continue;
        }
        const PointEnergyGradient p = mapPointEnergySmooth(*setup_, off, mapOfAtom_[i]);
        const double q = charge_[i];
        total += p.value.affinity + q * p.value.elec + std::fabs(q) * p.value.desolv;
        if (gradient)
            (*gradient)[i] += p.affinity + q * p.elec + std::fabs(q) * p.desolv;
    }
    return total;
}

Ad4Energy Ad4ExactScorer::inter(const std::vector<Eigen::Vector3d>& coords) const {
    if (coords.size() != mapOfAtom_.size())
        throw std::invalid_argument("Ad4ExactScorer: " + std::to_string(coords.size()) +
                                    " coordinates for a ligand of " +
                                    std::to_string(mapOfAtom_.size()) + " atoms");
    Ad4Energy out;
    out.perAtom.resize(coords.size());
    for (size_t i = 0; i < coords.size(); ++i) {
        Ad4Energy::AtomTerms& t = out.perAtom[i];
        if (outside_ == OutsideBox::Penalty && !setup_->box.contains(coords[i])) {
            // autodock4 books the penalty both as vdW and as electrostatics.
            const double p = (coords[i] - setup_->box.center).squaredNorm() * kOutsidePenalty;
            t.vdwHb = t.elec = p;
        } else {
            t = atomTerms(static_cast<int>(i), coords[i]);
        }
        out.interVdwHbDesolv += t.vdwHb + t.desolv;
        out.interElec += t.elec;
    }
    return out;
}

Ad4Energy exactPoseEnergy(const Ad4LigandScorer& onMaps, const Ad4ExactScorer& exact,
                          const std::vector<Eigen::Vector3d>& coords, UnboundModel unbound) {
    Ad4Energy e = onMaps.score(coords, unbound);
    const Ad4Energy x = exact.inter(coords);
    e.interVdwHbDesolv = x.interVdwHbDesolv;
    e.interElec = x.interElec;
    e.perAtom = x.perAtom;
    return e;
}

} // namespace pw::ad4
