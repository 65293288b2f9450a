#include "score/ad4/Ad4LigandScorer.h"

#include "core/InputError.h"
#include "score/ad4/Ad4Topology.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

namespace pw::ad4 {

namespace {

// autodock4's internal-energy tables (8 Å cutoff build): vdW/H-bond sampled every 1/32 Å^2 of r^2
// (2048 samples), dielectric and desolvation on 16384 samples of the same spacing.
constexpr int kPairSamples = 2048;
constexpr int kLongSamples = 16384;
constexpr double kSamplesPerA2 = 32.0;
constexpr double kCutoff2 = kNonbondCutoff * kNonbondCutoff;
constexpr double kOutsidePenalty = 500.0; // kcal/mol/Å^2 (autodock4 ENERGYPENALTY)

double sampleDistance(int i) { return std::sqrt(i * (1.0 / kSamplesPerA2)); }

} // namespace

struct Ad4LigandScorer::Tables {
    std::vector<std::vector<double>> vdwHb; // smoothed, per type pair
    std::vector<double> inverseREpsilon;    // 1 / (r eps(r))
    std::vector<double> desolvGaussian;     // FE_coeff_desolv * exp(-r^2 / (2 sigma^2))

    Tables() : inverseREpsilon(kLongSamples, 0.0), desolvGaussian(kLongSamples) {
        for (int i = 0; i < kLongSamples; ++i) {
            const double r = sampleDistance(i);
            desolvGaussian[i] = boundCoefficients().desolv *
                                std::exp(-0.5 / (kDesolvSigma * kDesolvSigma) * (r * r));
            if (i > 0)
                inverseREpsilon[i] = 1.0 / (r * mehlerSolmajerDielectric(r));
        }
    }

    int addPair(const PairCoefficients& c) {
        std::vector<double> raw(kPairSamples);
        raw[0] = kEnergyClamp;
        for (int i = 1; i < kPairSamples; ++i)
            raw[i] = pairEnergy(c, sampleDistance(i));
        std::vector<double> smooth = smoothWithWindowMinimum(
            raw, kSmoothWidth, sampleDistance, [](double r) { return static_cast<int>(r * r * kSamplesPerA2); });
        // autodock4 keeps the first (clamp) and the last sample unsmoothed.
        smooth.front() = raw.front();
        smooth.back() = raw.back();
        vdwHb.push_back(std::move(smooth));
        return static_cast<int>(vdwHb.size()) - 1;
    }
};

Ad4LigandScorer::~Ad4LigandScorer() = default;
Ad4LigandScorer::Ad4LigandScorer(Ad4LigandScorer&&) noexcept = default;

Ad4LigandScorer::Ad4LigandScorer(const Molecule& ligand, const Ad4Maps& maps)
    : maps_(maps), tables_(std::make_unique<Tables>()) {
    const int n = static_cast<int>(ligand.atoms.size());
    std::vector<const AtomParameters*> params(n);
    for (int i = 0; i < n; ++i) {
        const Atom& a = ligand.atoms[i];
        params[i] = findParameters(a.ad4Type);
        if (!params[i])
            throw InputError(ligand.sourceFile, 0,
                             "ligand atom " + std::to_string(i + 1) + " (" + a.name +
                                 ") has AutoDock 4 type '" + a.ad4Type +
                                 "', which AD4.1_bound does not know");
        const int m = maps.mapIndex(a.ad4Type);
        if (m < 0 || m >= maps.electrostaticMap())
            throw InputError(ligand.sourceFile, 0,
                             "ligand atom " + std::to_string(i + 1) + " (" + a.name + ") has type '" +
                                 a.ad4Type + "' but the grid maps have no " + a.ad4Type +
                                 " map (compute the maps with this ligand type)");
        mapOfAtom_.push_back(m);
        charge_.push_back(a.charge);
    }
    torsdof_ = ligand.torsionTree ? ligand.torsionTree->torsionCount() : 0;
    if (const std::string* t = ligand.property("TORSDOF")) {
        int v = 0;
        const char* end = t->data() + t->size();
        const auto r = std::from_chars(t->data(), end, v);
        if (r.ec != std::errc() || v < 0)
            throw InputError(ligand.sourceFile, 0, "TORSDOF '" + *t + "' is not a non-negative integer");
        torsdof_ = v;
    }
    pairs_ = ad4NonbondedPairs(ligand);
    const FreeEnergyCoefficients& fe = boundCoefficients();
    std::map<std::pair<const AtomParameters*, const AtomParameters*>, int> tableOf;
    for (const auto& [i, j] : pairs_) {
        const auto key = std::minmax(params[i], params[j]);
        const PairCoefficients c = pairCoefficients(*params[i], *params[j], fe);
        auto it = tableOf.find(key);
        if (it == tableOf.end())
            it = tableOf.emplace(key, tables_->addPair(c)).first;
        const double q1q2 = charge_[i] * charge_[j] * (kElecScale * fe.estat);
        internal_.push_back({i, j, it->second, q1q2,
                             desolvationPairFactor(*params[i], charge_[i], *params[j], charge_[j]), c});
    }
}

Ad4Energy Ad4LigandScorer::score(const std::vector<Eigen::Vector3d>& coords) const {
    Ad4Energy out;
    out.perAtom.resize(mapOfAtom_.size());
    const GridGeometry& g = maps_.geometry();
    const int e = maps_.electrostaticMap(), d = maps_.desolvationMap();
    for (size_t i = 0; i < mapOfAtom_.size(); ++i) {
        Ad4Energy::AtomTerms& t = out.perAtom[i];
        if (!g.contains(coords[i])) {
            // autodock4 books the penalty both as vdW and as electrostatics.
            const double p = (coords[i] - g.center).squaredNorm() * kOutsidePenalty;
            t.vdwHb = t.elec = p;
        } else {
            t.vdwHb = maps_.interpolate(mapOfAtom_[i], coords[i]);
            t.elec = maps_.interpolate(e, coords[i]) * charge_[i];
            t.desolv = maps_.interpolate(d, coords[i]) * std::fabs(charge_[i]);
        }
        out.interVdwHbDesolv += t.vdwHb + t.desolv;
        out.interElec += t.elec;
    }
    // Internal energy, autodock4's eintcal: distances below 0.5 Å count as 0.5 Å; electrostatics
    // and desolvation have no cutoff, vdW/H-bond stop at 8 Å.
    double intra = 0;
    for (const InternalPair& p : internal_) {
        const double r2 = std::max((coords[p.i] - coords[p.j]).squaredNorm(),
                                   kMinElecDistance * kMinElecDistance);
        const int index = static_cast<int>(r2 * kSamplesPerA2);
        const int longIndex = std::min(index, kLongSamples - 1);
        double pair = p.q1q2Scaled * tables_->inverseREpsilon[longIndex];
        const double desolv = tables_->desolvGaussian[longIndex] * p.desolv;
        if (r2 < kCutoff2)
            pair += tables_->vdwHb[p.table][std::min(index, kPairSamples - 1)] + desolv;
        else
            pair += desolv;
        intra += pair;
    }
    // autodock4 computes no internal energy for a ligand without torsions (no pairs either).
    out.intra = intra;
    out.torsional = torsdof_ * boundCoefficients().tors;
    return out;
}

double Ad4LigandScorer::interAnalytic(const std::vector<Eigen::Vector3d>& coords,
                                      std::vector<Eigen::Vector3d>* gradient) const {
    const GridGeometry& g = maps_.geometry();
    const int e = maps_.electrostaticMap(), d = maps_.desolvationMap();
    double total = 0;
    for (size_t i = 0; i < mapOfAtom_.size(); ++i) {
        const Eigen::Vector3d& x = coords[i];
        if (!g.contains(x)) {
            const Eigen::Vector3d off = x - g.center;
            total += 2.0 * kOutsidePenalty * off.squaredNorm();
            if (gradient)
                (*gradient)[i] += 4.0 * kOutsidePenalty * off;
            continue;
        }
        Eigen::Vector3d gm, ge, gd;
        const double q = charge_[i];
        total += maps_.interpolateWithGradient(mapOfAtom_[i], x, &gm) +
                 q * maps_.interpolateWithGradient(e, x, &ge) +
                 std::fabs(q) * maps_.interpolateWithGradient(d, x, &gd);
        if (gradient)
            (*gradient)[i] += gm + q * ge + std::fabs(q) * gd;
    }
    return total;
}

double Ad4LigandScorer::intraAnalytic(const std::vector<Eigen::Vector3d>& coords,
                                      std::vector<Eigen::Vector3d>* gradient) const {
    const double desolvCoeff = boundCoefficients().desolv;
    double total = 0;
    for (const InternalPair& p : internal_) {
        const Eigen::Vector3d dx = coords[p.i] - coords[p.j];
        const double rTrue = dx.norm();
        const bool clamped = rTrue < kMinElecDistance;
        const double r = clamped ? kMinElecDistance : rTrue;
        const double eps = mehlerSolmajerDielectric(r);
        const double elec = p.q1q2Scaled / (r * eps);
        double dEdr = -elec * (1.0 / r + mehlerSolmajerDielectricDerivative(r) / eps);
        const double gauss = desolvCoeff * p.desolv * desolvationGaussian(r);
        dEdr += -gauss * r / (kDesolvSigma * kDesolvSigma);
        double e = elec + gauss;
        if (r * r < kCutoff2) {
            double dv = 0;
            e += smoothedPairEnergy(p.coeffs, r, kSmoothWidth, &dv);
            dEdr += dv;
        }
        total += e;
        if (gradient && !clamped && rTrue > 0) {
            const Eigen::Vector3d g = (dEdr / rTrue) * dx;
            (*gradient)[p.i] += g;
            (*gradient)[p.j] -= g;
        }
    }
    return total;
}

double Ad4LigandScorer::energyAndGradient(const std::vector<Eigen::Vector3d>& coords,
                                          std::vector<Eigen::Vector3d>* gradient) const {
    if (gradient)
        gradient->assign(mapOfAtom_.size(), Eigen::Vector3d::Zero());
    return interAnalytic(coords, gradient) + intraAnalytic(coords, gradient);
}

} // namespace pw::ad4
