// PoseInteractions: receptor sites come from residue and atom names (PDB files carry no bond
// orders or hydrogens), ligand sites from elements, bond orders and formal charges; then the
// pairs within PLIP's distances and angles become one Interaction each.
#include "PoseInteractions.h"

#include "InteractionRules.h"
#include "LigandChemistry.h"
#include "core/InputError.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>

namespace pw::hits {
namespace {

constexpr double kPi = 3.14159265358979323846;

double angleDeg(const Vec3& a, const Vec3& vertex, const Vec3& b) {
    const Vec3 u = a - vertex, v = b - vertex;
    const double c = u.dot(v) / std::max(1e-12, u.norm() * v.norm());
    return std::acos(std::clamp(c, -1.0, 1.0)) * 180.0 / kPi;
}

struct Site {
    int atom = -1;               // receptor atom index, or -1 for a group
    Vec3 position;               // atom or group centre
    std::vector<int> hydrogens;  // explicit hydrogens on a donor
    std::vector<int> neighbours; // heavy neighbours (halogen-bond acceptor angle)
    std::string label;           // atom name or group name
};

struct Ring {
    Vec3 centre, normal;
    int residue = -1; // receptor residue; -1 for ligand rings
};

// Sites of a residue's side chain and backbone by PDB names (no hydrogens, no bond orders).
bool isDonorName(const std::string& res, const std::string& atom) {
    static const std::set<std::pair<std::string, std::string>> donors{
        {"SER", "OG"},  {"THR", "OG1"}, {"TYR", "OH"},  {"ASN", "ND2"}, {"GLN", "NE2"},
        {"LYS", "NZ"},  {"ARG", "NE"},  {"ARG", "NH1"}, {"ARG", "NH2"}, {"HIS", "ND1"},
        {"HIS", "NE2"}, {"TRP", "NE1"}, {"CYS", "SG"}};
    if (atom == "N")
        return res != "PRO";
    return donors.count({res, atom}) > 0;
}

bool isAcceptorName(const std::string& res, const std::string& atom) {
    static const std::set<std::pair<std::string, std::string>> acceptors{
        {"SER", "OG"},  {"THR", "OG1"}, {"TYR", "OH"},  {"ASN", "OD1"},
        {"GLN", "OE1"}, {"ASP", "OD1"}, {"ASP", "OD2"}, {"GLU", "OE1"},
        {"GLU", "OE2"}, {"HIS", "ND1"}, {"HIS", "NE2"}, {"MET", "SD"}};
    if (atom == "O" || atom == "OXT")
        return true;
    return acceptors.count({res, atom}) > 0;
}

bool isStandardResidue(const std::string& r) {
    static const std::set<std::string> names{
        "ALA", "ARG", "ASN", "ASP", "CYS", "GLN", "GLU", "GLY", "HIS", "ILE", "LEU", "LYS", "MET",
        "PHE", "PRO", "SER", "THR", "TRP", "TYR", "VAL", "HID", "HIE", "HIP", "CYX", "MSE"};
    return names.count(r) > 0;
}

bool isWater(const std::string& r) {
    return r == "HOH" || r == "WAT" || r == "DOD";
}

// Ring centroid and unit normal (from the first three well-spread atoms' plane, averaged).
Ring ringOf(const Molecule& m, const std::vector<int>& atoms) {
    Ring r;
    r.centre = Vec3::Zero();
    for (int a : atoms)
        r.centre += m.atoms[a].position;
    r.centre /= double(atoms.size());
    Vec3 n = Vec3::Zero();
    for (size_t i = 0; i < atoms.size(); ++i) {
        const Vec3 u = m.atoms[atoms[i]].position - r.centre;
        const Vec3 v = m.atoms[atoms[(i + 1) % atoms.size()]].position - r.centre;
        n += u.cross(v);
    }
    r.normal = n.norm() > 1e-9 ? Vec3(n.normalized()) : Vec3(0, 0, 1);
    return r;
}

} // namespace

// Each site list has a parallel list of the residue index each site belongs to.
struct ReceptorSites::Data {
    std::vector<Vec3> positions; // every receptor atom (hydrogens and neighbours of sites)
    std::vector<Residue> residueList;
    std::vector<Site> donors, acceptors, hydrophobic, positive, negative, halogenAcceptors;
    std::vector<int> donorRes, acceptorRes, hydrophobicRes, positiveRes, negativeRes, halogenRes;
    std::vector<Ring> rings;
};

namespace {

void addGroup(const Molecule& m, const std::vector<int>& atoms, const char* label,
              std::vector<Site>& sites, std::vector<int>& siteRes, int residue) {
    if (atoms.empty())
        return;
    Site s;
    s.position = Vec3::Zero();
    for (int a : atoms)
        s.position += m.atoms[a].position;
    s.position /= double(atoms.size());
    s.label = label;
    sites.push_back(s);
    siteRes.push_back(residue);
}

} // namespace

ReceptorSites::ReceptorSites(const Molecule& receptor) : data_(std::make_unique<Data>()) {
    Data& d = *data_;
    d.residueList = receptor.residues;
    const bool hasResidues = std::any_of(receptor.atoms.begin(), receptor.atoms.end(),
                                         [](const Atom& a) { return a.residue >= 0; });
    if (!hasResidues)
        throw InputError(receptor.sourceFile, 0,
                         "the receptor has no residues: expected a PDB or PDBQT file, whose "
                         "residue names and numbers the interactions are reported by");
    for (const Atom& a : receptor.atoms)
        d.positions.push_back(a.position);
    const auto nb = receptor.neighbours();
    // Atoms of each residue by name, for groups (rings, charge centres).
    std::map<int, std::map<std::string, int>> byResidue;
    for (size_t i = 0; i < receptor.atoms.size(); ++i) {
        const Atom& a = receptor.atoms[i];
        if (a.residue < 0 || a.element == 1)
            continue;
        const std::string& res = receptor.residues[a.residue].name;
        if (isWater(res))
            continue;
        byResidue[a.residue][a.name] = int(i);
        Site s;
        s.atom = int(i);
        s.position = a.position;
        s.label = a.name;
        for (int n : nb[i]) {
            if (receptor.atoms[n].element == 1)
                s.hydrogens.push_back(n);
            else
                s.neighbours.push_back(n);
        }
        const bool standard = isStandardResidue(res);
        bool donor = standard ? isDonorName(res, a.name) : (a.element == 7 || a.element == 8);
        bool acceptor = standard ? isAcceptorName(res, a.name) : (a.element == 7 || a.element == 8);
        if (!s.hydrogens.empty() && !standard)
            donor = true;
        if (donor)
            d.donors.push_back(s), d.donorRes.push_back(a.residue);
        if (acceptor)
            d.acceptors.push_back(s), d.acceptorRes.push_back(a.residue);
        if (a.element == 7 || a.element == 8 || a.element == 16)
            d.halogenAcceptors.push_back(s), d.halogenRes.push_back(a.residue);
        if (a.element == 6) {
            bool onlyCarbon = true;
            for (int n : nb[i])
                onlyCarbon &= receptor.atoms[n].element == 6 || receptor.atoms[n].element == 1;
            if (onlyCarbon)
                d.hydrophobic.push_back(s), d.hydrophobicRes.push_back(a.residue);
        }
    }
    // Charged groups and aromatic rings of the standard residues.
    for (const auto& [res, names] : byResidue) {
        const std::string& rn = receptor.residues[res].name;
        auto pick = [&](std::initializer_list<const char*> wanted) {
            std::vector<int> atoms;
            for (const char* w : wanted)
                if (auto it = names.find(w); it != names.end())
                    atoms.push_back(it->second);
            return atoms.size() == wanted.size() ? atoms : std::vector<int>{};
        };
        if (rn == "LYS")
            addGroup(receptor, pick({"NZ"}), "NZ", d.positive, d.positiveRes, res);
        if (rn == "ARG")
            addGroup(receptor, pick({"NE", "NH1", "NH2"}), "guanidinium", d.positive, d.positiveRes,
                     res);
        if (rn == "HIS" || rn == "HIP")
            addGroup(receptor, pick({"CG", "ND1", "CD2", "CE1", "NE2"}), "imidazole", d.positive,
                     d.positiveRes, res);
        if (rn == "ASP")
            addGroup(receptor, pick({"OD1", "OD2"}), "carboxylate", d.negative, d.negativeRes, res);
        if (rn == "GLU")
            addGroup(receptor, pick({"OE1", "OE2"}), "carboxylate", d.negative, d.negativeRes, res);
        std::vector<std::vector<int>> rings;
        if (rn == "PHE" || rn == "TYR")
            rings.push_back(pick({"CG", "CD1", "CE1", "CZ", "CE2", "CD2"}));
        if (rn == "HIS")
            rings.push_back(pick({"CG", "ND1", "CE1", "NE2", "CD2"}));
        if (rn == "TRP") {
            rings.push_back(pick({"CG", "CD1", "NE1", "CE2", "CD2"}));
            rings.push_back(pick({"CD2", "CE2", "CZ2", "CH2", "CZ3", "CE3"}));
        }
        for (const auto& r : rings)
            if (!r.empty()) {
                Ring ring = ringOf(receptor, r);
                ring.residue = res;
                d.rings.push_back(ring);
            }
    }
}

ReceptorSites::~ReceptorSites() = default;

std::vector<Interaction> ReceptorSites::interactions(const Molecule& ligand) const {
    const Data& d = *data_;
    const LigandChemistry L(ligand);
    std::vector<Interaction> out;
    auto add = [&](const char* kind, int residue, int ligandAtom, const std::string& recAtom,
                   double distance) {
        Interaction x;
        x.kind = kind;
        const Residue& r = d.residueList[residue];
        x.chain = r.chain;
        x.residueName = r.name;
        x.residueNumber = r.number;
        x.ligandAtom = ligandAtom;
        x.receptorAtom = recAtom;
        x.distance = distance;
        out.push_back(std::move(x));
    };
    const size_t n = ligand.atoms.size();

    // Hydrogen bonds, both directions; one per (ligand atom, receptor atom) pair.
    std::set<std::pair<int, int>> bonded;
    for (size_t i = 0; i < n; ++i) {
        const Vec3& p = ligand.atoms[i].position;
        if (L.isDonor(int(i)))
            for (size_t k = 0; k < d.acceptors.size(); ++k) {
                const Site& s = d.acceptors[k];
                const double dist = (s.position - p).norm();
                if (dist > rules::kHbondMax)
                    continue;
                const auto hs = L.explicitHydrogens(int(i));
                bool angleOk = hs.empty();
                for (int h : hs)
                    angleOk |= angleDeg(p, ligand.atoms[h].position, s.position) >=
                               rules::kHbondDonorAngleMin;
                if (angleOk && bonded.insert({int(i), s.atom}).second)
                    add("hbond", d.acceptorRes[k], int(i), s.label, dist);
            }
        if (L.isAcceptor(int(i)))
            for (size_t k = 0; k < d.donors.size(); ++k) {
                const Site& s = d.donors[k];
                const double dist = (s.position - p).norm();
                if (dist > rules::kHbondMax)
                    continue;
                bool angleOk = s.hydrogens.empty();
                for (int h : s.hydrogens)
                    angleOk |=
                        angleDeg(s.position, d.positions[h], p) >= rules::kHbondDonorAngleMin;
                if (angleOk && bonded.insert({int(i), s.atom}).second)
                    add("hbond", d.donorRes[k], int(i), s.label, dist);
            }
    }

    // Hydrophobic contacts: the closest carbon pair per residue and ligand atom.
    std::map<std::pair<int, int>, std::pair<double, int>> closest; // (residue, atom) -> (d, site)
    for (size_t i = 0; i < n; ++i) {
        if (!L.isHydrophobicCarbon(int(i)))
            continue;
        for (size_t k = 0; k < d.hydrophobic.size(); ++k) {
            const double dist = (d.hydrophobic[k].position - ligand.atoms[i].position).norm();
            if (dist > rules::kHydrophobicMax)
                continue;
            auto key = std::make_pair(d.hydrophobicRes[k], int(i));
            auto it = closest.find(key);
            if (it == closest.end() || dist < it->second.first)
                closest[key] = {dist, int(k)};
        }
    }
    for (const auto& [key, best] : closest)
        add("hydrophobic", key.first, key.second, d.hydrophobic[best.second].label, best.first);

    // Salt bridges between charge centres of opposite sign.
    const auto positive = L.positiveCentres(), negative = L.negativeCentres();
    for (const auto& [centre, atom] : positive)
        for (size_t k = 0; k < d.negative.size(); ++k) {
            const double dist = (d.negative[k].position - centre).norm();
            if (dist <= rules::kSaltBridgeMax)
                add("saltbridge", d.negativeRes[k], atom, d.negative[k].label, dist);
        }
    for (const auto& [centre, atom] : negative)
        for (size_t k = 0; k < d.positive.size(); ++k) {
            const double dist = (d.positive[k].position - centre).norm();
            if (dist <= rules::kSaltBridgeMax)
                add("saltbridge", d.positiveRes[k], atom, d.positive[k].label, dist);
        }

    // Pi stacking: the ligand's aromatic rings against PHE/TYR/TRP/HIS rings, parallel or
    // T-shaped within the angle tolerance, the centroids offset little in either ring's plane.
    for (const auto& ringAtoms : L.aromaticRings()) {
        const Ring lr = ringOf(ligand, ringAtoms);
        for (const Ring& rr : d.rings) {
            const double dist = (rr.centre - lr.centre).norm();
            if (dist > rules::kPiStackMax)
                continue;
            double angle =
                std::acos(std::clamp(std::abs(lr.normal.dot(rr.normal)), 0.0, 1.0)) * 180.0 / kPi;
            const Vec3 v = rr.centre - lr.centre;
            const double offsetL = (v - v.dot(lr.normal) * lr.normal).norm();
            const double offsetR = (v - v.dot(rr.normal) * rr.normal).norm();
            const double offset = std::min(offsetL, offsetR);
            const bool parallel = angle <= rules::kPiStackAngleDev;
            const bool tShaped = std::abs(90.0 - angle) <= rules::kPiStackAngleDev;
            if ((parallel || tShaped) && offset <= rules::kPiStackOffsetMax)
                add("pistack", rr.residue, ringAtoms.front(),
                    parallel ? "ring (parallel)" : "ring (T-shaped)", dist);
        }
    }

    // Halogen bonds: C-X...A with X in Cl, Br, I (and F), A an O, N or S of the receptor.
    for (size_t i = 0; i < n; ++i) {
        const int e = ligand.atoms[i].element;
        if (e != 9 && e != 17 && e != 35 && e != 53)
            continue;
        int carbon = -1;
        for (int nbh : L.neighbours(int(i)))
            if (ligand.atoms[nbh].element == 6)
                carbon = nbh;
        if (carbon < 0)
            continue;
        const Vec3& x = ligand.atoms[i].position;
        for (size_t k = 0; k < d.halogenAcceptors.size(); ++k) {
            const Site& s = d.halogenAcceptors[k];
            const double dist = (s.position - x).norm();
            if (dist > rules::kHalogenMax)
                continue;
            const double donorAngle = angleDeg(ligand.atoms[carbon].position, x, s.position);
            if (std::abs(donorAngle - rules::kHalogenDonorAngle) > rules::kHalogenAngleDev)
                continue;
            bool acceptorOk = false;
            for (int y : s.neighbours)
                acceptorOk |= std::abs(angleDeg(x, s.position, d.positions[y]) -
                                       rules::kHalogenAcceptorAngle) <= rules::kHalogenAngleDev;
            if (acceptorOk)
                add("halogen", d.halogenRes[k], int(i), s.label, dist);
        }
    }

    std::sort(out.begin(), out.end(), [](const Interaction& a, const Interaction& b) {
        return std::tie(a.kind, a.chain, a.residueNumber, a.distance) <
               std::tie(b.kind, b.chain, b.residueNumber, b.distance);
    });
    return out;
}

} // namespace pw::hits
