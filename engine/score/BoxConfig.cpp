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

// Keys of Vina 1.2.3's command line that may appear in a config file (main.cpp).
constexpr std::string_view kOtherVinaKeys[] = {"receptor",
                                               "flex",
                                               "ligand",
                                               "batch",
                                               "scoring",
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
                                               "weight_gauss1",
                                               "weight_gauss2",
                                               "weight_repulsion",
                                               "weight_hydrophobic",
                                               "weight_hydrogen",
                                               "weight_rot",
                                               "weight_vinardo_gauss1",
                                               "weight_vinardo_repulsion",
                                               "weight_vinardo_hydrophobic",
                                               "weight_vinardo_hydrogen",
                                               "weight_vinardo_rot",
                                               "weight_ad4_vdw",
                                               "weight_ad4_hb",
                                               "weight_ad4_elec",
                                               "weight_ad4_dsolv",
                                               "weight_ad4_rot",
                                               "weight_glue",
                                               "size",
                                               "center",
                                               "config"};

constexpr std::string_view kBoxKeys[6] = {"center_x", "center_y", "center_z",
                                          "size_x",   "size_y",   "size_z"};

} // namespace

SearchBox parseBoxConfig(std::istream& in, const std::string& sourceName) {
    std::optional<double> values[6];
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
        const auto boxKey = std::find(std::begin(kBoxKeys), std::end(kBoxKeys), key);
        if (boxKey == std::end(kBoxKeys)) {
            if (std::find(std::begin(kOtherVinaKeys), std::end(kOtherVinaKeys), key) !=
                std::end(kOtherVinaKeys))
                continue;
            throw InputError(sourceName, lineNo,
                             "unknown key '" + std::string(key) +
                                 "' (expected center_x, center_y, center_z, size_x, size_y, "
                                 "size_z or another Vina option)");
        }
        const int k = static_cast<int>(boxKey - std::begin(kBoxKeys));
        if (values[k])
            throw InputError(sourceName, lineNo, std::string(key) + " is given twice");
        double v = 0;
        const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
        if (value.empty() || ec != std::errc() || ptr != value.data() + value.size() ||
            !std::isfinite(v))
            throw InputError(sourceName, lineNo,
                             std::string(key) + " expects a number in Å, found '" +
                                 std::string(value) + "'");
        if (k >= 3 && v <= 0)
            throw InputError(sourceName, lineNo,
                             std::string(key) + " must be greater than 0 Å, found '" +
                                 std::string(value) + "'");
        values[k] = v;
    }
    for (int k = 0; k < 6; ++k)
        if (!values[k])
            throw InputError(sourceName, 0,
                             "missing " + std::string(kBoxKeys[k]) +
                                 " (a box needs center_x/y/z and size_x/y/z)");
    SearchBox box;
    box.center = Vec3(*values[0], *values[1], *values[2]);
    box.size = Vec3(*values[3], *values[4], *values[5]);
    return box;
}

SearchBox readBoxConfig(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        throw InputError(path, 0,
                         "cannot open the box file (expected a Vina config with "
                         "center_x ... size_z)");
    return parseBoxConfig(in, path);
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
        g.voxels[d] = std::max(1, static_cast<int>(std::ceil(box.size[d] / spacing)));
        g.begin[d] = box.center[d] - spacing * g.voxels[d] / 2.0;
    }
    return g;
}

} // namespace pw
