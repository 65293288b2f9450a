#include "score/ad4/Ad4GridParameterFile.h"

#include "core/InputError.h"
#include "score/ad4/Ad4GridLimits.h"

#include <fstream>
#include <sstream>

namespace pw::ad4 {

namespace {

template <class T>
T readValue(std::istringstream& s, const std::string& file, long line, const std::string& key) {
    T v{};
    if (!(s >> v))
        throw InputError(file, line, "'" + key + "': expected a number");
    return v;
}

} // namespace

GridParameterFile parseGridParameterFile(std::istream& in, const std::string& file) {
    GridParameterFile g;
    bool haveNpts = false, haveSpacing = false, haveCentre = false;
    long nptsLine = 0;
    std::string text;
    long line = 0;
    while (std::getline(in, text)) {
        ++line;
        std::istringstream s(text.substr(0, text.find('#')));
        std::string key;
        if (!(s >> key))
            continue;
        if (key == "npts") {
            for (int a = 0; a < 3; ++a) {
                g.box.npts[a] = readValue<int>(s, file, line, key);
                if (g.box.npts[a] <= 0 || g.box.npts[a] % 2 != 0)
                    throw InputError(file, line, "'npts': expected three even positive numbers");
            }
            haveNpts = true;
            nptsLine = line;
        } else if (key == "spacing") {
            g.box.spacing = readValue<double>(s, file, line, key);
            if (!(g.box.spacing > 0))
                throw InputError(file, line, "'spacing': expected a positive number (Å)");
            haveSpacing = true;
        } else if (key == "gridcenter") {
            const std::streampos start = s.tellg();
            std::string first;
            if (s >> first && first == "auto")
                throw InputError(file, line, "'gridcenter auto' is not supported: give x y z");
            s.clear();
            s.seekg(start);
            for (int a = 0; a < 3; ++a)
                g.box.center[a] = readValue<double>(s, file, line, key);
            haveCentre = true;
        } else if (key == "ligand_types") {
            for (std::string t; s >> t;)
                g.ligandTypes.push_back(t);
        } else if (key == "receptor") {
            s >> g.receptor;
        } else if (key == "smooth") {
            g.options.smooth = readValue<double>(s, file, line, key);
        } else if (key == "parameter_file") {
            std::string name;
            s >> name;
            if (name.size() < 15 || name.compare(name.size() - 15, 15, "AD4.1_bound.dat") != 0)
                throw InputError(file, line,
                                 "parameter_file '" + name +
                                     "': only the built-in AD4.1_bound parameters are "
                                     "supported (AD4.1_bound.dat)");
        } else if (key == "disorder_h" || key == "covalentmap" || key == "nbp_r_eps" ||
                   key == "nbp_coeffs" || key.rfind("intnbp", 0) == 0) {
            throw InputError(file, line,
                             "'" + key +
                                 "' is not supported: the maps would differ "
                                 "from autogrid's");
        } else if (key == "dielectric") {
            const double d = readValue<double>(s, file, line, key);
            g.options.distanceDependentDielectric = d < 0;
            g.options.constantDielectric = d;
        }
    }
    if (!haveNpts || !haveSpacing || !haveCentre || g.ligandTypes.empty())
        throw InputError(file, 0,
                         "grid parameter file needs npts, spacing, gridcenter and ligand_types");
    checkGridGeometry(g.box, file, nptsLine); // before any map is allocated
    return g;
}

GridParameterFile readGridParameterFile(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        throw InputError(path, 0, "cannot open the grid parameter file");
    return parseGridParameterFile(in, path);
}

} // namespace pw::ad4
