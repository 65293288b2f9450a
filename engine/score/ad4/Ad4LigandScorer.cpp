#include "score/ad4/Ad4LigandScorer.h"

#include "core/InputError.h"
#include "core/RingClosure.h"
#include "score/ad4/Ad4R2Spline.h"
#include "score/ad4/Ad4Topology.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <mutex>
#include <stdexcept>

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

// The search's splines: 64 knots per Å^2; electrostatics and desolvation out to 32 Å, where
// they are held constant. Distances below 0.5 Å count as 0.5 Å, as in autodock4.
constexpr int kSplineKnotsPerA2 = 64;
constexpr double kSplineLongR2 = 1024.0;

double clampedDistance(double r2) { return std::sqrt(std::max(r2, kMinElecDistance * kMinElecDistance)); }
bool clampedBelow(double r2) { return r2 < kMinElecDistance * kMinElecDistance; }

// 1 / (r eps(r)) and the unweighted desolvation Gaussian, as functions of r^2 with d/d(r^2).
const R2Spline& inverseREpsilonSpline() {
    static const R2Spline s(kSplineLongR2, kSplineKnotsPerA2, [](double r2, double* d) {
        const double r = clampedDistance(r2);
        const double eps = mehlerSolmajerDielectric(r);
        const double f = 1.0 / (r * eps);
        *d = clampedBelow(r2) ? 0.0 : -f * (1.0 / r + mehlerSolmajerDielectricDerivative(r) / eps) / (2 * r);
        return f;
    });
    return s;
}

const R2Spline& desolvationSpline() {
    static const R2Spline s(kSplineLongR2, kSplineKnotsPerA2, [](double r2, double* d) {
        const double r = clampedDistance(r2);
        const double g = desolvationGaussian(r);
        *d = clampedBelow(r2) ? 0.0 : -g / (2 * kDesolvSigma * kDesolvSigma);
        return g;
    });
    return s;
}

// autodock4's dielectric and desolvation tables: the same for every ligand, built once.
struct LongRangeTables {
    std::vector<double> inverseREpsilon; // 1 / (r eps(r))
    std::vector<double> desolvGaussian;  // FE_coeff_desolv * exp(-r^2 / (2 sigma^2))

    LongRangeTables() : inverseREpsilon(kLongSamples, 0.0), desolvGaussian(kLongSamples) {
        for (int i = 0; i < kLongSamples; ++i) {
            const double r = sampleDistance(i);
            desolvGaussian[i] = boundCoefficients().desolv *
                                std::exp(-0.5 / (kDesolvSigma * kDesolvSigma) * (r * r));
            if (i > 0)
                inverseREpsilon[i] = 1.0 / (r * mehlerSolmajerDielectric(r));
        }
    }
};

const LongRangeTables& longRangeTables() {
    static const LongRangeTables t;
    return t;
}

// One type pair's vdW/H-bond potential: autodock4's smoothed table and the search's spline.
struct PairTables {
    std::vector<double> table;
    R2Spline spline;

    explicit PairTables(const PairCoefficients& c) : table(kPairSamples) {
        std::vector<double> raw(kPairSamples);
        raw[0] = kEnergyClamp;
        for (int i = 1; i < kPairSamples; ++i)
            raw[i] = pairEnergy(c, sampleDistance(i));
        table = smoothWithWindowMinimum(raw, kSmoothWidth, sampleDistance,
                                        [](double r) { return static_cast<int>(r * r * kSamplesPerA2); });
        // autodock4 keeps the first (clamp) and the last sample unsmoothed.
        table.front() = raw.front();
        table.back() = raw.back();
        spline = R2Spline(kCutoff2, kSplineKnotsPerA2, [c](double r2, double* d) {
            const double r = clampedDistance(r2);
            double dEdr = 0;
            const double e = smoothedPairEnergy(c, r, kSmoothWidth, &dEdr);
            *d = clampedBelow(r2) ? 0.0 : dEdr / (2 * r);
            return e;
        });
    }
};

// Built once per type pair in the process (a screening run builds many scorers).
const PairTables& pairTables(const AtomParameters* a, const AtomParameters* b) {
    static std::mutex mutex;
    static std::map<std::pair<const AtomParameters*, const AtomParameters*>, std::unique_ptr<PairTables>> cache;
    const auto key = std::minmax(a, b);
    std::lock_guard<std::mutex> lock(mutex);
    auto it = cache.find(key);
    if (it == cache.end())
        it = cache.emplace(key, std::make_unique<PairTables>(pairCoefficients(*a, *b))).first;
    return *it->second;
}

} // namespace

struct Ad4LigandScorer::Tables {
    std::vector<const PairTables*> pair; // per type pair of this ligand
};

Ad4LigandScorer::~Ad4LigandScorer() = default;
Ad4LigandScorer::Ad4LigandScorer(Ad4LigandScorer&&) noexcept = default;

Ad4LigandScorer::Ad4LigandScorer(const Molecule& ligand, const Ad4Maps& maps)
    : maps_(maps), tables_(std::make_unique<Tables>()) {
    if (hasRingClosures(ligand))
        throw InputError(ligand.sourceFile, 0,
                         "ligand '" + ligand.name +
                             "' is a macrocycle with ring-closure atoms (CG0-CG3/G0-G3); AD4 "
                             "scoring does not take them yet: use --scoring vina or vinardo");
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
        if (it == tableOf.end()) {
            tables_->pair.push_back(&pairTables(params[i], params[j]));
            it = tableOf.emplace(key, static_cast<int>(tables_->pair.size()) - 1).first;
        }
        const double q1q2 = charge_[i] * charge_[j] * (kElecScale * fe.estat);
        internal_.push_back({i, j, it->second, q1q2,
                             desolvationPairFactor(*params[i], charge_[i], *params[j], charge_[j]), c});
    }
}

void Ad4LigandScorer::requireAtomCount(const std::vector<Eigen::Vector3d>& coords) const {
    if (coords.size() != mapOfAtom_.size())
        throw std::invalid_argument("Ad4LigandScorer: " + std::to_string(coords.size()) +
                                    " coordinates for a ligand of " +
                                    std::to_string(mapOfAtom_.size()) + " atoms");
}

Ad4Energy Ad4LigandScorer::score(const std::vector<Eigen::Vector3d>& coords,
                                 UnboundModel unbound) const {
    requireAtomCount(coords);
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
    const LongRangeTables& longRange = longRangeTables();
    for (const InternalPair& p : internal_) {
        const double r2 = std::max((coords[p.i] - coords[p.j]).squaredNorm(),
                                   kMinElecDistance * kMinElecDistance);
        const int index = static_cast<int>(r2 * kSamplesPerA2);
        const int longIndex = std::min(index, kLongSamples - 1);
        double pair = p.q1q2Scaled * longRange.inverseREpsilon[longIndex];
        const double desolv = longRange.desolvGaussian[longIndex] * p.desolv;
        if (r2 < kCutoff2)
            pair += tables_->pair[p.table]->table[std::min(index, kPairSamples - 1)] + desolv;
        else
            pair += desolv;
        intra += pair;
    }
    // autodock4 computes no internal energy for a ligand without torsions (no pairs either).
    out.intra = intra;
    out.torsional = torsdof_ * boundCoefficients().tors;
    out.unbound = unbound == UnboundModel::SameAsBound ? out.intra : 0.0;
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

double Ad4LigandScorer::intraSpline(const std::vector<Eigen::Vector3d>& coords,
                                    std::vector<Eigen::Vector3d>* gradient) const {
    const double desolvCoeff = boundCoefficients().desolv;
    const R2Spline& elec = inverseREpsilonSpline();
    const R2Spline& desolv = desolvationSpline();
    double total = 0;
    for (const InternalPair& p : internal_) {
        const Eigen::Vector3d dx = coords[p.i] - coords[p.j];
        const double r2 = dx.squaredNorm();
        double de = 0, dd = 0, dv = 0;
        double e = p.q1q2Scaled * elec(r2, &de) + desolvCoeff * p.desolv * desolv(r2, &dd);
        double dEdr2 = p.q1q2Scaled * de + desolvCoeff * p.desolv * dd;
        if (r2 < kCutoff2) {
            e += tables_->pair[p.table]->spline(r2, &dv);
            dEdr2 += dv;
        }
        total += e;
        if (gradient) {
            const Eigen::Vector3d g = (2.0 * dEdr2) * dx;
            (*gradient)[p.i] += g;
            (*gradient)[p.j] -= g;
        }
    }
    return total;
}

double Ad4LigandScorer::energyAndGradient(const std::vector<Eigen::Vector3d>& coords,
                                          std::vector<Eigen::Vector3d>* gradient) const {
    requireAtomCount(coords);
    if (gradient)
        gradient->assign(mapOfAtom_.size(), Eigen::Vector3d::Zero());
    return interAnalytic(coords, gradient) + intraSpline(coords, gradient);
}

} // namespace pw::ad4
