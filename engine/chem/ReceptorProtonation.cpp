#include "ReceptorProtonation.h"

#include <Eigen/Geometry>

#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace pw {
namespace {

constexpr double kNH = 1.01, kOH = 0.96; // bond lengths (Å)
constexpr double kPi = 3.14159265358979323846;

// Model pKa values of the free groups (see the header).
constexpr double kPkaNTerm = 8.0, kPkaCTerm = 3.1, kPkaAsp = 3.9, kPkaGlu = 4.3, kPkaHis = 6.0,
                 kPkaLys = 10.5, kPkaArg = 12.5;

const std::set<std::string>& standardResidues() {
    static const std::set<std::string> names = {
        "ALA", "ARG", "ASN", "ASP", "CYS", "GLN", "GLU", "GLY", "HIS", "ILE", "LEU",
        "LYS", "MET", "PHE", "PRO", "SER", "THR", "TRP", "TYR", "VAL", "HID", "HIE",
        "HIP", "HSD", "HSE", "HSP", "CYX", "ASH", "GLH", "LYN", "MSE"};
    return names;
}

// The point at distance d from c, with angle b-c-H = theta and dihedral a-b-c-H = phi
// (degrees): the usual internal-coordinate placement.
Vec3 place(const Vec3& a, const Vec3& b, const Vec3& c, double d, double theta, double phi) {
    const double t = theta * kPi / 180.0, p = phi * kPi / 180.0;
    const Vec3 bc = (c - b).normalized();
    Vec3 n = (b - a).cross(bc);
    if (n.norm() < 1e-8) // a, b, c on a line: any perpendicular will do
        n = bc.unitOrthogonal();
    n.normalize();
    const Vec3 m = n.cross(bc);
    return c + d * (-std::cos(t) * bc + std::sin(t) * std::cos(p) * m +
                    std::sin(t) * std::sin(p) * n);
}

// The H of an sp2 atom x with two heavy neighbours: in their plane, opposite their bisector.
Vec3 bisector(const Vec3& x, const Vec3& n1, const Vec3& n2, double d) {
    Vec3 dir = (x - n1).normalized() + (x - n2).normalized();
    if (dir.norm() < 1e-8)
        dir = (x - n1).unitOrthogonal();
    return x + d * dir.normalized();
}

class Protonator {
public:
    Protonator(Molecule& m, double pH) : m_(m), pH_(pH), adj_(m.neighbours()) {}

    ProtonationReport run() {
        std::map<int, std::map<std::string, int>> byResidue; // residue -> atom name -> index
        for (size_t i = 0; i < m_.atoms.size(); ++i)
            if (m_.atoms[i].residue >= 0)
                byResidue[m_.atoms[i].residue].emplace(m_.atoms[i].name, static_cast<int>(i));
        for (auto& [r, atoms] : byResidue) {
            const Residue& res = m_.residues[r];
            if (res.hetero || !standardResidues().count(res.name)) {
                ++report_.residuesLeft;
                continue;
            }
            atoms_ = &atoms;
            const int before = report_.hydrogensAdded;
            residue(res.name);
            report_.residuesProtonated += report_.hydrogensAdded > before;
        }
        return report_;
    }

private:
    int at(const char* name) const {
        auto it = atoms_->find(name);
        return it == atoms_->end() ? -1 : it->second;
    }
    bool has(std::initializer_list<const char*> names) const {
        for (const char* n : names)
            if (at(n) < 0)
                return false;
        return true;
    }
    const Vec3& pos(int i) const { return m_.atoms[i].position; }
    const Vec3& pos(const char* name) const { return pos(at(name)); }

    void addH(int heavy, const Vec3& p, const std::string& name) {
        Atom h;
        h.name = name;
        h.element = 1;
        h.position = p;
        h.residue = m_.atoms[heavy].residue;
        m_.atoms.push_back(h);
        m_.bonds.push_back(Bond{heavy, static_cast<int>(m_.atoms.size()) - 1, BondOrder::Single});
        ++report_.hydrogensAdded;
    }
    // H on x placed from (a, b, x) internal coordinates; one per dihedral.
    void addHs(const char* x, const char* b, const char* a, double d, double theta,
               std::initializer_list<double> phis, std::initializer_list<const char*> names) {
        if (!has({x, b, a}))
            return;
        auto name = names.begin();
        for (double phi : phis)
            addH(at(x), place(pos(a), pos(b), pos(x), d, theta, phi), *name++);
    }
    void addBisectorH(const char* x, const char* n1, const char* n2, const char* name,
                      double d = kNH) {
        if (has({x, n1, n2}))
            addH(at(x), bisector(pos(x), pos(n1), pos(n2), d), name);
    }

    // The peptide C bonded to this residue's N (another residue's atom "C"), -1 when none.
    int previousCarbon(int n) const {
        for (int nb : adj_[n])
            if (m_.atoms[nb].residue != m_.atoms[n].residue && m_.atoms[nb].element == 6 &&
                m_.atoms[nb].name == "C")
                return nb;
        return -1;
    }

    void backbone(const std::string& name) {
        const int n = at("N");
        if (n < 0 || at("CA") < 0)
            return;
        const int prevC = previousCarbon(n);
        if (prevC >= 0) {
            if (name != "PRO")
                addH(n, bisector(pos(n), pos(prevC), pos("CA"), kNH), "H");
            return;
        }
        const bool charged = pH_ < kPkaNTerm; // N-terminus
        if (name == "PRO") {
            if (!has({"CD"}))
                return;
            // sp3 N with CA and CD: the hydrogens out of their plane, tetrahedral.
            const Vec3 x = pos(n), u1 = (pos("CA") - x).normalized(),
                       u2 = (pos("CD") - x).normalized();
            const Vec3 back = -(u1 + u2).normalized(), up = u1.cross(u2).normalized();
            const double half = 54.75 * kPi / 180.0;
            addH(n, x + kNH * (std::cos(half) * back + std::sin(half) * up), "H1");
            if (charged)
                addH(n, x + kNH * (std::cos(half) * back - std::sin(half) * up), "H2");
            return;
        }
        if (!has({"C"}))
            return;
        if (charged)
            addHs("N", "CA", "C", kNH, 109.5, {180, 60, -60}, {"H1", "H2", "H3"});
        else
            addHs("N", "CA", "C", kNH, 109.5, {180, 60}, {"H1", "H2"});
    }

    void cTerminus() {
        if (has({"OXT", "C", "O"}) && pH_ < kPkaCTerm)
            addHs("OXT", "C", "O", kOH, 109.5, {0}, {"HXT"});
    }

    // Whether an oxygen of another residue lies within 3.2 Å of atom i (a hydrogen-bond
    // acceptor for a His ring N-H).
    bool acceptorNear(int i) const {
        for (size_t k = 0; k < m_.atoms.size(); ++k) {
            const Atom& o = m_.atoms[k];
            if (o.element == 8 && o.residue != m_.atoms[i].residue &&
                (o.position - pos(i)).norm() < 3.2)
                return true;
        }
        return false;
    }

    void histidine(const std::string& name) {
        if (!has({"ND1", "NE2", "CG", "CE1", "CD2"}))
            return;
        bool nd1 = false, ne2 = false;
        if (name == "HIP" || name == "HSP" || (name == "HIS" && pH_ < kPkaHis)) {
            nd1 = ne2 = true;
            ++report_.hisCharged;
        } else if (name == "HID" || name == "HSD" ||
                   (name == "HIS" && acceptorNear(at("ND1")) && !acceptorNear(at("NE2")))) {
            nd1 = true;
            ++report_.hisNeutralNd1;
        } else {
            ne2 = true;
            ++report_.hisNeutralNe2;
        }
        if (nd1)
            addBisectorH("ND1", "CG", "CE1", "HD1");
        if (ne2)
            addBisectorH("NE2", "CD2", "CE1", "HE2");
    }

    void residue(const std::string& name) {
        backbone(name);
        cTerminus();
        if (name == "LYS" || name == "LYN") {
            if (name == "LYS" && pH_ < kPkaLys)
                addHs("NZ", "CE", "CD", kNH, 109.5, {180, 60, -60}, {"HZ1", "HZ2", "HZ3"});
            else
                addHs("NZ", "CE", "CD", kNH, 109.5, {60, -60}, {"HZ1", "HZ2"});
        } else if (name == "ARG") {
            addBisectorH("NE", "CD", "CZ", "HE");
            addHs("NH1", "CZ", "NE", kNH, 120, {0, 180}, {"HH11", "HH12"});
            if (pH_ < kPkaArg)
                addHs("NH2", "CZ", "NE", kNH, 120, {0, 180}, {"HH21", "HH22"});
            else
                addHs("NH2", "CZ", "NE", kNH, 120, {180}, {"HH21"});
        } else if (name == "ASP" || name == "ASH") {
            if (name == "ASH" || pH_ < kPkaAsp)
                addHs("OD2", "CG", "OD1", kOH, 109.5, {0}, {"HD2"});
        } else if (name == "GLU" || name == "GLH") {
            if (name == "GLH" || pH_ < kPkaGlu)
                addHs("OE2", "CD", "OE1", kOH, 109.5, {0}, {"HE2"});
        } else if (name == "HIS" || name == "HID" || name == "HIE" || name == "HIP" ||
                   name == "HSD" || name == "HSE" || name == "HSP") {
            histidine(name);
        } else if (name == "ASN") {
            addHs("ND2", "CG", "OD1", kNH, 120, {0, 180}, {"HD21", "HD22"});
        } else if (name == "GLN") {
            addHs("NE2", "CD", "OE1", kNH, 120, {0, 180}, {"HE21", "HE22"});
        } else if (name == "SER") {
            addHs("OG", "CB", "CA", kOH, 109.5, {180}, {"HG"});
        } else if (name == "THR") {
            addHs("OG1", "CB", "CA", kOH, 109.5, {180}, {"HG1"});
        } else if (name == "TYR") {
            addHs("OH", "CZ", "CE1", kOH, 109.5, {180}, {"HH"});
        } else if (name == "TRP") {
            addBisectorH("NE1", "CD1", "CE2", "HE1");
        }
    }

    Molecule& m_;
    double pH_;
    std::vector<std::vector<int>> adj_;
    const std::map<std::string, int>* atoms_ = nullptr;
    ProtonationReport report_;
};

} // namespace

std::string ProtonationReport::summary(double pH) const {
    char ph[32];
    std::snprintf(ph, sizeof ph, "%.1f", pH);
    std::string s = "added " + std::to_string(hydrogensAdded) + " polar hydrogens to " +
                    std::to_string(residuesProtonated) + " standard residues at pH " + ph +
                    " (Asp/Glu, Lys/Arg and termini by model pKa; His: " +
                    std::to_string(hisNeutralNe2) + " neutral with H on NE2, " +
                    std::to_string(hisNeutralNd1) + " on ND1, " + std::to_string(hisCharged) +
                    " charged; no Cys or C-H hydrogens)";
    if (residuesLeft > 0)
        s += "; " + std::to_string(residuesLeft) +
             " hetero or unknown residues (ligands, waters, ions) left as read";
    return s;
}

ProtonationReport addPolarHydrogens(Molecule& m, double pH) {
    return Protonator(m, pH).run();
}

} // namespace pw
