// BoxConfig: the search box (Vina's center_x ... size_z config format, or an autobox around a
// ligand) and the grid laid over it with Vina's rounding (0.375 Å voxels, whole voxel count).
#pragma once

#include "ScoringFunction.h"
#include "core/Molecule.h"

#include <array>
#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace pw {

struct SearchBox {
    Vec3 center = Vec3::Zero();
    Vec3 size = Vec3::Zero(); // edge lengths, Å
};

// A Vina config file as Vina 1.2.3 reads it: the box, and the scoring options it honours.
// `scoring = vina|vinardo` and the weight_* keys of that scoring function are used as Vina uses
// them; every other Vina option is read but not used here, and says so in `warnings` (never
// dropped in silence).
struct VinaConfig {
    std::string sourceName;
    SearchBox box;
    std::optional<ScoringKind> scoring;
    // weight_gauss1 ... weight_hydrogen / weight_vinardo_*, in ScoreTerm order; with the line
    // that set each (0 = not set).
    std::array<std::optional<double>, kScoreTermCount> vinaWeights, vinardoWeights;
    std::array<long, kScoreTermCount> vinaWeightLines{}, vinardoWeightLines{};
    std::optional<double> glueWeight; // weight_glue (macrocycles), for either kind
    // "file:line: warning: ..." for keys read but not used (weight_rot, exhaustiveness, ...).
    std::vector<std::string> warnings;

    // The scoring function for `kind` (the command line's --scoring, or else `scoring`) with this
    // file's weights for that kind. Adds to `notes` one warning per weight of the other kind,
    // which Vina ignores as well.
    ScoringFunction scoringFunction(ScoringKind kind, std::vector<std::string>* notes) const;
    ScoringKind scoringOr(ScoringKind fallback) const { return scoring.value_or(fallback); }
};

// Reads a Vina config file: "key = value" lines, '#' comments. center_x/y/z and size_x/y/z are
// required. Throws InputError(file, line, ...) on a malformed line, an unknown key, a repeated
// key, a bad number, a non-positive size or a scoring function other than vina or vinardo, and
// InputError(file, 0, ...) when a required key is missing.
VinaConfig readVinaConfig(const std::string& path);
VinaConfig parseVinaConfig(std::istream& in, const std::string& sourceName);
// The box alone, for callers that know the file holds nothing else (tests, bundled examples).
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
