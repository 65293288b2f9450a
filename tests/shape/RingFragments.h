// RingFragments (tests): a ring of a ligand with the first atoms of its substituents, cut out where
// it lies in the ligand, a random rigid move, and how far a placed fragment is from home: the
// inputs and the measure of the ring-centroid start tests.
#pragma once

#include "core/Molecule.h"
#include "shape/ShapeOverlay.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <random>
#include <vector>

namespace pw::test {

// The ring's atoms and the heavy atoms up to `shells` bonds away, with the bonds among them, at
// the ligand's coordinates.
inline Molecule ringFragment(const Molecule& m, const std::vector<int>& ring, int shells) {
    std::vector<int> keep = ring;
    const auto nb = m.neighbours();
    for (int shell = 0; shell < shells; ++shell) {
        const std::vector<int> inner = keep;
        for (int a : inner)
            for (int b : nb[size_t(a)])
                if (m.atoms[size_t(b)].element != 1 &&
                    std::find(keep.begin(), keep.end(), b) == keep.end())
                    keep.push_back(b);
    }
    Molecule f;
    f.name = m.name + " ring fragment";
    std::vector<int> index(m.atoms.size(), -1);
    for (int a : keep) {
        index[size_t(a)] = int(f.atoms.size());
        f.atoms.push_back(m.atoms[size_t(a)]);
    }
    for (const Bond& b : m.bonds)
        if (index[size_t(b.a)] >= 0 && index[size_t(b.b)] >= 0)
            f.bonds.push_back({index[size_t(b.a)], index[size_t(b.b)], b.order, false});
    return f;
}

// Turned by a random rotation and moved by about 8 Å.
inline Molecule randomlyMoved(const Molecule& m, std::mt19937& rng) {
    std::normal_distribution<double> gauss(0, 1);
    Eigen::Quaterniond q(gauss(rng), gauss(rng), gauss(rng), gauss(rng));
    return shape::transformed(m, q.normalized().toRotationMatrix(),
                              Vec3(gauss(rng), gauss(rng), gauss(rng)) * 8);
}

// Mean distance from each heavy atom of `placed` to the nearest atom of the same element of
// `home` (the fragment where it was cut out): under 0.5 Å it is back home, whatever ring flip
// or symmetry it took to get there.
inline double distanceFromHome(const Molecule& home, const Molecule& placed) {
    double sum = 0;
    int n = 0;
    for (const Atom& a : placed.atoms) {
        if (a.element == 1)
            continue;
        double nearest = 1e300;
        for (const Atom& b : home.atoms)
            if (b.element == a.element)
                nearest = std::min(nearest, (a.position - b.position).norm());
        sum += nearest;
        ++n;
    }
    return n > 0 ? sum / n : 0.0;
}

} // namespace pw::test
