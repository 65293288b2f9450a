#include "Molecule.h"

namespace pw {

int Molecule::heavyAtomCount() const {
    int n = 0;
    for (const Atom& a : atoms)
        if (a.element != 1)
            ++n;
    return n;
}

std::vector<std::vector<int>> Molecule::neighbours() const {
    std::vector<std::vector<int>> adj(atoms.size());
    for (const Bond& b : bonds) {
        adj[b.a].push_back(b.b);
        adj[b.b].push_back(b.a);
    }
    return adj;
}

int Molecule::findBond(int a, int b) const {
    for (size_t i = 0; i < bonds.size(); ++i)
        if ((bonds[i].a == a && bonds[i].b == b) || (bonds[i].a == b && bonds[i].b == a))
            return static_cast<int>(i);
    return -1;
}

const std::string* Molecule::property(const std::string& key) const {
    for (const auto& [k, v] : properties)
        if (k == key)
            return &v;
    return nullptr;
}

void Molecule::setProperty(const std::string& key, std::string value) {
    for (auto& [k, v] : properties)
        if (k == key) {
            v = std::move(value);
            return;
        }
    properties.emplace_back(key, std::move(value));
}

std::pair<Vec3, Vec3> Molecule::boundingBox() const {
    if (atoms.empty())
        return {Vec3::Zero(), Vec3::Zero()};
    Vec3 lo = atoms[0].position, hi = atoms[0].position;
    for (const Atom& a : atoms) {
        lo = lo.cwiseMin(a.position);
        hi = hi.cwiseMax(a.position);
    }
    return {lo, hi};
}

Vec3 Molecule::centroid() const {
    Vec3 c = Vec3::Zero();
    for (const Atom& a : atoms)
        c += a.position;
    return atoms.empty() ? c : Vec3(c / static_cast<double>(atoms.size()));
}

} // namespace pw
