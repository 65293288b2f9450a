#include "BoxConfig.h"

#include "core/InputError.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <optional>
#include <string_view>

namespace pw {
namespace {

std::string_view trim(std::string_view s) {
    const auto notSpace = [](char c) { return c != ' ' && c != '\t' && c != '\r' && c != '\n'; };
    while (!s.empty() && !notSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && !notSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

// Keys of Vina 1.2.3's command line (main.cpp) that this program reads but does not use: the
// files and search settings have their own posewright-cli options, and the AD4 weights
// belong to a scoring function posewright takes from AutoDock 4 itself.
constexpr std::string_view kUnusedVinaKeys[] = {"receptor",
                                                "flex",
                                                "ligand",
                                                "batch",
                                                "maps",
                                                "out",
                                                "dir",
                                                "write_maps",
                                                "cpu",
                                                "seed",
                                                "exhaustiveness",
                                                "max_evals",
                                                "num_modes",
                                                "min_rmsd",
                                                "energy_range",
                                                "spacing",
                                                "verbosity",
                                                "autobox",
                                                "force_even_voxels",
                                                "score_only",
                                                "local_only",
                                                "no_refine",
                                                "randomize_only",
                                                "weight_ad4_vdw",
                                                "weight_ad4_hb",
                                                "weight_ad4_elec",
                                                "weight_ad4_dsolv",
                                                "weight_ad4_rot",
                                                "size",
                                                "center",
                                                "config"};

// Larger edges are typos (found by tests/fuzz: 25.8e95 overflowed the voxel count); 1000 Å
// already means 2667 voxels per axis.
constexpr double kMaxBoxEdge = 1000.0;

constexpr std::string_view kBoxKeys[6] = {"center_x", "center_y", "center_z",
                                          "size_x",   "size_y",   "size_z"};

// weight_<term> (Vina) and weight_vinardo_<term>, in ScoreTerm order; Vinardo has no gauss2.
constexpr std::string_view kVinaWeightKeys[kScoreTermCount] = {
    "weight_gauss1", "weight_gauss2", "weight_repulsion", "weight_hydrophobic", "weight_hydrogen"};
constexpr std::string_view kVinardoWeightKeys[kScoreTermCount] = {
    "weight_vinardo_gauss1", "", "weight_vinardo_repulsion", "weight_vinardo_hydrophobic",
    "weight_vinardo_hydrogen"};
// Vina 1.2.3 reads these and leaves the rotatable-bond weight at 0.05846 (checked with
// `vina --score_only --weight_rot 0.2` on 1iep: the same torsional term as without it).
constexpr std::string_view kIgnoredRotKeys[] = {"weight_rot", "weight_vinardo_rot"};

template <size_t N> int indexOf(const std::string_view (&keys)[N], std::string_view key) {
    for (size_t i = 0; i < N; ++i)
        if (!keys[i].empty() && keys[i] == key)
            return static_cast<int>(i);
    return -1;
}

std::string warning(const std::string& file, long line, const std::string& what) {
    return InputError::format(file, line, "warning: " + what);
}

double parseNumber(std::string_view key, std::string_view value, const std::string& file, long line,
                   const char* unit) {
    double v = 0;
    const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (value.empty() || ec != std::errc() || ptr != value.data() + value.size() ||
        !std::isfinite(v))
        throw InputError(file, line,
                         std::string(key) + " expects a number" + unit + ", found '" +
                             std::string(value) + "'");
    return v;
}

} // namespace

VinaConfig parseVinaConfig(std::istream& in, const std::string& sourceName) {
    VinaConfig config;
    config.sourceName = sourceName;
    std::optional<double> values[6];
    std::vector<std::string> seen;
    long lineNo = 0;
    std::string line;
    while (std::getline(in, line)) {
        ++lineNo;
        std::string_view s = line;
        if (auto hash = s.find('#'); hash != std::string_view::npos)
            s = s.substr(0, hash);
        s = trim(s);
        if (s.empty())
            continue;
        const auto eq = s.find('=');
        if (eq == std::string_view::npos)
            throw InputError(sourceName, lineNo,
                             "expected 'key = value' (e.g. center_x = 15.19), found '" +
                                 std::string(s) + "'");
        const std::string_view key = trim(s.substr(0, eq));
        const std::string_view value = trim(s.substr(eq + 1));
        // A key this program uses may appear once; Vina's others may repeat (several
        // `ligand = ...` lines are valid for Vina) and are only warned about below.
        const bool used = indexOf(kBoxKeys, key) >= 0 || key == "scoring" ||
                          indexOf(kVinaWeightKeys, key) >= 0 ||
                          indexOf(kVinardoWeightKeys, key) >= 0 || key == "weight_glue";
        if (used && std::find(seen.begin(), seen.end(), key) != seen.end())
            throw InputError(sourceName, lineNo, std::string(key) + " is given twice");
        seen.emplace_back(key);

        if (const int k = indexOf(kBoxKeys, key); k >= 0) {
            const double v = parseNumber(key, value, sourceName, lineNo, " in Å");
            if (k >= 3 && v <= 0)
                throw InputError(sourceName, lineNo,
                                 std::string(key) + " must be greater than 0 Å, found '" +
                                     std::string(value) + "'");
            if (k >= 3 && v > kMaxBoxEdge)
                throw InputError(sourceName, lineNo,
                                 std::string(key) + " must be at most 1000 Å (a grid of 0.375 Å " +
                                     "voxels over it would not fit in memory), found '" +
                                     std::string(value) + "'");
            values[k] = v;
        } else if (key == "scoring") {
            if (value == "vina")
                config.scoring = ScoringKind::Vina;
            else if (value == "vinardo")
                config.scoring = ScoringKind::Vinardo;
            else
                throw InputError(sourceName, lineNo,
                                 "scoring expects vina or vinardo, found '" + std::string(value) +
                                     "'");
        } else if (const int vw = indexOf(kVinaWeightKeys, key); vw >= 0) {
            config.vinaWeights[vw] = parseNumber(key, value, sourceName, lineNo, "");
            config.vinaWeightLines[vw] = lineNo;
        } else if (const int dw = indexOf(kVinardoWeightKeys, key); dw >= 0) {
            config.vinardoWeights[dw] = parseNumber(key, value, sourceName, lineNo, "");
            config.vinardoWeightLines[dw] = lineNo;
        } else if (key == "weight_glue") {
            config.glueWeight = parseNumber(key, value, sourceName, lineNo, "");
        } else if (indexOf(kIgnoredRotKeys, key) >= 0) {
            parseNumber(key, value, sourceName, lineNo, "");
            config.warnings.push_back(warning(
                sourceName, lineNo,
                std::string(key) + " is ignored, as Vina 1.2.3 ignores it: the rotatable-bond "
                                   "weight stays 0.05846"));
        } else if (indexOf(kUnusedVinaKeys, key) >= 0) {
            config.warnings.push_back(
                warning(sourceName, lineNo,
                        "the Vina option '" + std::string(key) +
                            "' is not used from a config file here; ignored (give the matching "
                            "command-line option instead)"));
        } else {
            throw InputError(sourceName, lineNo,
                             "unknown key '" + std::string(key) +
                                 "' (expected center_x, center_y, center_z, size_x, size_y, "
                                 "size_z, scoring, weight_* or another Vina option)");
        }
    }
    for (int k = 0; k < 6; ++k)
        if (!values[k])
            throw InputError(sourceName, 0,
                             "missing " + std::string(kBoxKeys[k]) +
                                 " (a box needs center_x/y/z and size_x/y/z)");
    config.box.center = Vec3(*values[0], *values[1], *values[2]);
    config.box.size = Vec3(*values[3], *values[4], *values[5]);
    return config;
}

ScoringFunction VinaConfig::scoringFunction(ScoringKind kind,
                                            std::vector<std::string>* notes) const {
    const bool vina = kind == ScoringKind::Vina;
    const auto& used = vina ? vinaWeights : vinardoWeights;
    const auto& other = vina ? vinardoWeights : vinaWeights;
    const auto& otherLines = vina ? vinardoWeightLines : vinaWeightLines;
    const auto& otherKeys = vina ? kVinardoWeightKeys : kVinaWeightKeys;
    TermArray weights = ScoringFunction::defaultWeights(kind);
    for (int t = 0; t < kScoreTermCount; ++t) {
        if (used[t])
            weights[t] = *used[t];
        if (other[t] && notes)
            notes->push_back(warning(sourceName, otherLines[t],
                                     std::string(otherKeys[t]) + " is ignored with scoring " +
                                         std::string(scoringKindName(kind)) + " (as Vina does)"));
    }
    ScoringFunction sf(kind, weights);
    if (glueWeight)
        sf.setGlueWeight(*glueWeight);
    return sf;
}

VinaConfig readVinaConfig(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        throw InputError(path, 0,
                         "cannot open the box file (expected a Vina config with "
                         "center_x ... size_z)");
    return parseVinaConfig(in, path);
}

SearchBox parseBoxConfig(std::istream& in, const std::string& sourceName) {
    return parseVinaConfig(in, sourceName).box;
}

SearchBox readBoxConfig(const std::string& path) {
    return readVinaConfig(path).box;
}

SearchBox autoboxVina(const Molecule& ligand, double padding) {
    if (ligand.atoms.empty())
        throw InputError(ligand.sourceFile, 0, "cannot build a box around a ligand without atoms");
    Vec3 center = Vec3::Zero();
    for (const Atom& a : ligand.atoms)
        center += a.position;
    center /= static_cast<double>(ligand.atoms.size());
    Vec3 maxDist = Vec3::Zero();
    for (const Atom& a : ligand.atoms)
        maxDist = maxDist.cwiseMax((a.position - center).cwiseAbs());
    SearchBox box;
    box.center = center;
    for (int d = 0; d < 3; ++d)
        box.size[d] = std::ceil((maxDist[d] + padding) * 2.0);
    return box;
}

SearchBox autoboxSmina(const Molecule& ligand, double padding) {
    if (ligand.atoms.empty())
        throw InputError(ligand.sourceFile, 0, "cannot build a box around a ligand without atoms");
    const auto [lo, hi] = ligand.boundingBox();
    SearchBox box;
    box.center = 0.5 * (lo + hi);
    box.size = (hi - lo).array() + 2.0 * padding;
    return box;
}

GridDims gridDimsFor(const SearchBox& box, double spacing) {
    GridDims g;
    g.spacing = spacing;
    for (int d = 0; d < 3; ++d) {
        // Bounded before the conversion: an edge beyond int range (a box around a ligand with
        // absurd coordinates) would be undefined behaviour, not a big grid.
        const double n = std::ceil(box.size[d] / spacing);
        if (!(n < 1e7))
            throw InputError("", 0,
                             "the search box is too large for a grid (" +
                                 std::to_string(box.size[d]) + " Å along one axis)");
        g.voxels[d] = std::max(1, static_cast<int>(n));
        g.begin[d] = box.center[d] - spacing * g.voxels[d] / 2.0;
    }
    return g;
}

} // namespace pw
