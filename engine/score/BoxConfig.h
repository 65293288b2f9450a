// BoxConfig: the search box (Vina's center_x ... size_z config format, or an autobox around a
// ligand) and the grid laid over it with Vina's rounding (0.375 Å voxels, whole voxel count).
#pragma once

#include "core/Molecule.h"

#include <array>
#include <istream>
#include <string>

namespace pw {

struct SearchBox {
    Vec3 center = Vec3::Zero();
    Vec3 size = Vec3::Zero(); // edge lengths, Å
};

// Reads a Vina config file: "key = value" lines, '#' comments. center_x/y/z and size_x/y/z are
// required; the other keys Vina accepts (receptor, ligand, exhaustiveness, ...) are ignored.
// Throws InputError(file, line, ...) on a malformed line, an unknown key, a repeated key, a bad
// or non-positive size, and InputError(file, 0, ...) when a required key is missing.
SearchBox readBoxConfig(const std::string& path);
SearchBox parseBoxConfig(std::istream& in, const std::string& sourceName);

// Vina 1.2.3 --autobox: centre at the mean of all ligand atoms, each edge
// ceil(2 * (largest |x - centre| + padding)).
SearchBox autoboxVina(const Molecule& ligand, double padding = 4.0);
// smina --autobox_ligand: the ligand's bounding box grown by `padding` on all six sides.
SearchBox autoboxSmina(const Molecule& ligand, double padding = 4.0);

// Grid over a box as Vina lays it (compute_vina_maps): n = ceil(size / spacing) voxels per axis,
// n + 1 sample points, centred on the box centre.
struct GridDims {
    Vec3 begin = Vec3::Zero();
    std::array<int, 3> voxels{0, 0, 0};
    double spacing = 0.375;

    Vec3 end() const { return begin + spacing * Vec3(voxels[0], voxels[1], voxels[2]); }
    bool contains(const Vec3& p) const {
        const Vec3 e = end();
        return (p.array() >= begin.array()).all() && (p.array() <= e.array()).all();
    }
};
GridDims gridDimsFor(const SearchBox& box, double spacing = 0.375);

} // namespace pw
