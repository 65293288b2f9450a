#include "BondPerception.h"

#include "Element.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_set>

namespace pw {

bool isWaterResidueName(const std::string& name) {
    static const char* const kWater[] = {"HOH",  "WAT", "H2O", "DOD", "TIP", "TIP3",
                                         "TIP4", "SOL", "SPC", "T3P", "T4P"};
    for (const char* w : kWater)
        if (name == w)
            return true;
    return false;
}

namespace {

uint64_t pairKey(int a, int b) {
    if (a > b)
        std::swap(a, b);
    return (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b);
}

struct Candidate {
    int a, b;
    double d2;
};

} // namespace

int perceiveBonds(Molecule& m, const BondPerceptionOptions& options) {
    const int n = static_cast<int>(m.atoms.size());
    if (n < 2)
        return 0;

    std::vector<double> radius(n);
    std::vector<char> water(n, 0);
    double maxRadius = 0.0;
    for (int i = 0; i < n; ++i) {
        radius[i] = covalentRadius(m.atoms[i].element);
        maxRadius = std::max(maxRadius, radius[i]);
        int r = m.atoms[i].residue;
        if (r >= 0 && r < static_cast<int>(m.residues.size()))
            water[i] = isWaterResidueName(m.residues[r].name) ? 1 : 0;
    }
    const double cutoff = 2.0 * maxRadius + options.tolerance;

    // Uniform grid with cells at least one cutoff wide: neighbours lie in the 27 surrounding
    // cells. Sparse boxes (far-apart fragments) get larger cells so memory stays O(n).
    // Named copies, not a structured binding: clang 14 (the fuzz build) cannot capture those.
    const auto bounds = m.boundingBox();
    const Vec3 lo = bounds.first, hi = bounds.second;
    Vec3 extent = hi - lo;
    double cell = cutoff;
    int64_t nx = 1, ny = 1, nz = 1;
    // Cell counts in double first: a finite but huge coordinate (1e54 is a number the readers
    // take) makes extent / cell far beyond int64 (UBSan, found by fuzz_mol2). An extent beyond
    // double's range (coordinates near +-1e308) gets one cell: every pair is then checked.
    if (extent.allFinite()) {
        const double limit =
            static_cast<double>(std::max<int64_t>(64, 8 * static_cast<int64_t>(n)));
        for (;;) {
            const double fx = std::floor(extent.x() / cell) + 1,
                         fy = std::floor(extent.y() / cell) + 1,
                         fz = std::floor(extent.z() / cell) + 1;
            if (fx * fy * fz <= limit) {
                nx = static_cast<int64_t>(fx);
                ny = static_cast<int64_t>(fy);
                nz = static_cast<int64_t>(fz);
                break;
            }
            cell *= 1.5;
        }
    }
    // The cell of one coordinate, clamped to the grid (a NaN quotient, from an infinite extent,
    // goes to cell 0).
    auto axisCell = [&](double offset, int64_t count) -> int64_t {
        const double k = offset / cell;
        if (k >= static_cast<double>(count))
            return count - 1;
        return k > 0 ? static_cast<int64_t>(k) : 0;
    };
    auto cellOf = [&](const Vec3& p, int64_t& ix, int64_t& iy, int64_t& iz) {
        ix = axisCell(p.x() - lo.x(), nx);
        iy = axisCell(p.y() - lo.y(), ny);
        iz = axisCell(p.z() - lo.z(), nz);
    };
    // Counting sort of atoms by cell: start[c]..start[c+1] index into sorted.
    const int64_t cells = nx * ny * nz;
    std::vector<int> start(cells + 1, 0), sorted(n), cellIndex(n);
    for (int i = 0; i < n; ++i) {
        int64_t ix, iy, iz;
        cellOf(m.atoms[i].position, ix, iy, iz);
        cellIndex[i] = static_cast<int>((ix * ny + iy) * nz + iz);
        ++start[cellIndex[i] + 1];
    }
    for (int64_t c = 0; c < cells; ++c)
        start[c + 1] += start[c];
    {
        std::vector<int> fill(start.begin(), start.end() - 1);
        for (int i = 0; i < n; ++i)
            sorted[fill[cellIndex[i]]++] = i;
    }

    std::unordered_set<uint64_t> existing;
    existing.reserve(m.bonds.size() * 2 + 16);
    std::vector<int> hydrogenBonds(n, 0);
    for (const Bond& b : m.bonds) {
        existing.insert(pairKey(b.a, b.b));
        if (b.a >= 0 && b.a < n && m.atoms[b.a].element == 1)
            ++hydrogenBonds[b.a];
        if (b.b >= 0 && b.b < n && m.atoms[b.b].element == 1)
            ++hydrogenBonds[b.b];
    }

    const double min2 = options.minDistance * options.minDistance;
    std::vector<Candidate> heavy;                            // pairs without hydrogen
    std::vector<Candidate> bestH(n, Candidate{-1, -1, 0.0}); // nearest partner per hydrogen
    for (int i = 0; i < n; ++i) {
        const Vec3& p = m.atoms[i].position;
        int64_t ix, iy, iz;
        cellOf(p, ix, iy, iz);
        for (int64_t dx = std::max<int64_t>(0, ix - 1); dx <= std::min(nx - 1, ix + 1); ++dx)
            for (int64_t dy = std::max<int64_t>(0, iy - 1); dy <= std::min(ny - 1, iy + 1); ++dy)
                for (int64_t dz = std::max<int64_t>(0, iz - 1); dz <= std::min(nz - 1, iz + 1);
                     ++dz) {
                    int64_t c = (dx * ny + dy) * nz + dz;
                    for (int k = start[c]; k < start[c + 1]; ++k) {
                        int j = sorted[k];
                        if (j <= i)
                            continue;
                        double d2 = (m.atoms[j].position - p).squaredNorm();
                        double maxD = radius[i] + radius[j] + options.tolerance;
                        if (d2 < min2 || d2 > maxD * maxD)
                            continue;
                        const Atom& ai = m.atoms[i];
                        const Atom& aj = m.atoms[j];
                        if ((water[i] || water[j]) && ai.residue != aj.residue)
                            continue;
                        bool hi = ai.element == 1, hj = aj.element == 1;
                        if (hi && hj)
                            continue;
                        if (existing.count(pairKey(i, j)))
                            continue;
                        if (hi || hj) {
                            int h = hi ? i : j;
                            if (hydrogenBonds[h] > 0)
                                continue; // already bonded by the file
                            if (bestH[h].a < 0 || d2 < bestH[h].d2)
                                bestH[h] = Candidate{i, j, d2};
                        } else {
                            heavy.push_back(Candidate{i, j, d2});
                        }
                    }
                }
    }

    const size_t before = m.bonds.size();
    for (const Candidate& c : heavy)
        m.bonds.push_back(Bond{c.a, c.b, BondOrder::Single, false});
    for (const Candidate& c : bestH)
        if (c.a >= 0)
            m.bonds.push_back(Bond{c.a, c.b, BondOrder::Single, false});
    return static_cast<int>(m.bonds.size() - before);
}

} // namespace pw
