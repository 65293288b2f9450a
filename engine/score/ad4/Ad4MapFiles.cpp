#include "score/ad4/Ad4MapFiles.h"

#include "core/InputError.h"
#include "score/ad4/Ad4GridLimits.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace pw::ad4 {

namespace {

namespace fs = std::filesystem;

std::string trim(const std::string& s) {
    const size_t b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos)
        return {};
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// The text after a keyword (the rest of the line, trimmed, comment after '#' removed).
std::string valueAfter(const std::string& line, size_t keywordLength) {
    std::string rest = line.substr(keywordLength);
    if (const size_t hash = rest.find('#'); hash != std::string::npos)
        rest = rest.substr(0, hash);
    return trim(rest);
}

template <typename T>
bool parseNumbers(const std::string& text, T* out, int n) {
    std::istringstream in(text);
    for (int i = 0; i < n; ++i)
        if (!(in >> out[i]))
            return false;
    std::string extra;
    return !(in >> extra);
}

std::string axisName(int a) { return std::string(1, "xyz"[a]); }

} // namespace

Ad4Maps readMapsFld(const std::string& fldPath) {
    std::ifstream in(fldPath);
    if (!in)
        throw InputError(fldPath, 0, "cannot open the grid-map field file (.maps.fld)");
    GridGeometry g;
    bool haveSpacing = false, haveElements = false, haveCenter = false;
    int dims[3] = {0, 0, 0};
    int veclen = -1;
    std::string receptor, gpf;
    std::vector<std::string> labels;
    std::vector<std::pair<int, std::string>> variables; // (1-based variable number, file)
    std::vector<long> labelLines, variableLines;
    long elementsLine = 0;
    std::string line;
    long lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        const std::string t = trim(line);
        const auto starts = [&](const char* k) { return t.rfind(k, 0) == 0; };
        if (starts("#SPACING")) {
            if (!parseNumbers(valueAfter(t, 8), &g.spacing, 1) || !(g.spacing > 0))
                throw InputError(fldPath, lineNo, "expected '#SPACING <positive number>'");
            haveSpacing = true;
        } else if (starts("#NELEMENTS")) {
            if (!parseNumbers(valueAfter(t, 10), g.npts.data(), 3))
                throw InputError(fldPath, lineNo, "expected '#NELEMENTS <nx> <ny> <nz>'");
            for (int a = 0; a < 3; ++a)
                if (g.npts[a] <= 0 || g.npts[a] % 2 != 0)
                    throw InputError(fldPath, lineNo,
                                     "#NELEMENTS must be positive even numbers (autogrid's npts), "
                                     "got " + std::to_string(g.npts[a]) + " in " + axisName(a));
            haveElements = true;
            elementsLine = lineNo;
        } else if (starts("#CENTER")) {
            if (!parseNumbers(valueAfter(t, 7), g.center.data(), 3))
                throw InputError(fldPath, lineNo, "expected '#CENTER <x> <y> <z>'");
            haveCenter = true;
        } else if (starts("#MACROMOLECULE")) {
            receptor = valueAfter(t, 14);
        } else if (starts("#GRID_PARAMETER_FILE")) {
            gpf = valueAfter(t, 20);
        } else if (starts("dim1=") || starts("dim2=") || starts("dim3=")) {
            const int a = t[3] - '1';
            if (!parseNumbers(valueAfter(t, 5), &dims[a], 1))
                throw InputError(fldPath, lineNo, "expected 'dim" + std::to_string(a + 1) + "=<count>'");
        } else if (starts("veclen=")) {
            if (!parseNumbers(valueAfter(t, 7), &veclen, 1))
                throw InputError(fldPath, lineNo, "expected 'veclen=<number of maps>'");
        } else if (starts("label=")) {
            std::string v = valueAfter(t, 6);
            if (v.empty())
                throw InputError(fldPath, lineNo, "expected 'label=<type>-affinity', 'label=Electrostatics' or 'label=Desolvation'");
            labels.push_back(v);
            labelLines.push_back(lineNo);
        } else if (starts("variable")) {
            std::istringstream vs(t.substr(8));
            int number = 0;
            std::string file;
            if (!(vs >> number >> file) || file.rfind("file=", 0) != 0 || file.size() == 5)
                throw InputError(fldPath, lineNo, "expected 'variable <n> file=<name.map> ...'");
            variables.emplace_back(number, file.substr(5));
            variableLines.push_back(lineNo);
        }
    }
    if (!haveSpacing || !haveElements || !haveCenter)
        throw InputError(fldPath, 0,
                         std::string("missing ") +
                             (!haveSpacing ? "#SPACING" : !haveElements ? "#NELEMENTS" : "#CENTER") +
                             " header line: not an autogrid .maps.fld");
    checkGridGeometry(g, fldPath, elementsLine); // before any map is allocated
    for (int a = 0; a < 3; ++a)
        if (dims[a] != 0 && dims[a] != g.npts[a] + 1)
            throw InputError(fldPath, 0,
                             "dim" + std::to_string(a + 1) + "=" + std::to_string(dims[a]) +
                                 " does not match #NELEMENTS " + std::to_string(g.npts[a]) +
                                 " (expected npts+1 = " + std::to_string(g.npts[a] + 1) + ")");
    if (labels.size() != variables.size())
        throw InputError(fldPath, 0,
                         std::to_string(labels.size()) + " label= lines but " +
                             std::to_string(variables.size()) + " variable lines: expected one of each per map");
    if (veclen >= 0 && veclen != static_cast<int>(labels.size()))
        throw InputError(fldPath, 0, "veclen=" + std::to_string(veclen) + " but " +
                                         std::to_string(labels.size()) + " maps are listed");

    // Ligand-type maps first, then "e" and "d", whatever their order in the file.
    std::vector<std::string> types;
    std::vector<std::string> typeFiles;
    std::string elecFile, desolvFile;
    for (size_t m = 0; m < labels.size(); ++m) {
        if (variables[m].first != static_cast<int>(m) + 1)
            throw InputError(fldPath, variableLines[m],
                             "expected 'variable " + std::to_string(m + 1) + "', found variable " +
                                 std::to_string(variables[m].first));
        const std::string& l = labels[m];
        const std::string& file = variables[m].second;
        if (l == "Electrostatics")
            elecFile = file;
        else if (l == "Desolvation")
            desolvFile = file;
        else if (l.size() > 9 && l.compare(l.size() - 9, 9, "-affinity") == 0) {
            types.push_back(l.substr(0, l.size() - 9));
            typeFiles.push_back(file);
        } else
            throw InputError(fldPath, labelLines[m],
                             "unexpected label '" + l + "' (expected <type>-affinity, Electrostatics or Desolvation)");
    }
    if (elecFile.empty() || desolvFile.empty())
        throw InputError(fldPath, 0,
                         std::string("no ") + (elecFile.empty() ? "Electrostatics" : "Desolvation") +
                             " map listed: AutoDock 4 scoring needs the e and d maps");

    Ad4Maps maps(g, types);
    maps.receptorFile = receptor.empty() ? maps.receptorFile : receptor;
    maps.gpfFile = gpf.empty() ? maps.gpfFile : gpf;
    const fs::path dir = fs::path(fldPath).parent_path();
    std::vector<std::string> files;
    for (const std::string& f : typeFiles)
        files.push_back((dir / f).string());
    files.push_back((dir / elecFile).string());
    files.push_back((dir / desolvFile).string());
    // The maps are independent files: read them on several threads (each fills its own map).
    // The error reported is that of the first bad map in .fld order, whatever thread saw it.
    std::vector<std::exception_ptr> errors(files.size());
    std::atomic<size_t> next{0};
    const auto work = [&]() {
        for (size_t m = next++; m < files.size(); m = next++) {
            try {
                readMapFile(files[m], maps, static_cast<int>(m));
            } catch (...) {
                errors[m] = std::current_exception();
            }
        }
    };
    const size_t threads = std::min<size_t>(files.size(), std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& t : pool)
        t.join();
    for (const std::exception_ptr& e : errors)
        if (e)
            std::rethrow_exception(e);
    return maps;
}

void readMapFile(const std::string& path, Ad4Maps& maps, int map) {
    std::ifstream in(path);
    if (!in)
        throw InputError(path, 0, "cannot open the " + maps.mapName(map) + " grid map");
    const GridGeometry& g = maps.geometry();
    static const char* const kKeys[6] = {"GRID_PARAMETER_FILE", "GRID_DATA_FILE", "MACROMOLECULE",
                                         "SPACING", "NELEMENTS", "CENTER"};
    std::string line;
    for (long h = 0; h < 6; ++h) {
        if (!std::getline(in, line))
            throw InputError(path, h + 1, std::string("file ends in the header: expected a '") +
                                              kKeys[h] + "' line");
        const std::string t = trim(line);
        const size_t klen = std::string(kKeys[h]).size();
        if (t.compare(0, klen, kKeys[h]) != 0)
            throw InputError(path, h + 1, std::string("expected a '") + kKeys[h] + "' header line");
        const std::string v = valueAfter(t, klen);
        if (h == 3) {
            double s = 0;
            if (!parseNumbers(v, &s, 1) || std::fabs(s - g.spacing) > 1e-4)
                throw InputError(path, h + 1, "SPACING " + v + " does not match the grid's " +
                                                  std::to_string(g.spacing));
        } else if (h == 4) {
            int n[3];
            if (!parseNumbers(v, n, 3) || n[0] != g.npts[0] || n[1] != g.npts[1] || n[2] != g.npts[2])
                throw InputError(path, h + 1,
                                 "NELEMENTS " + v + " does not match the grid's " +
                                     std::to_string(g.npts[0]) + " " + std::to_string(g.npts[1]) +
                                     " " + std::to_string(g.npts[2]));
        } else if (h == 5) {
            double c[3];
            if (!parseNumbers(v, c, 3) || std::fabs(c[0] - g.center[0]) > 1e-4 ||
                std::fabs(c[1] - g.center[1]) > 1e-4 || std::fabs(c[2] - g.center[2]) > 1e-4)
                throw InputError(path, h + 1, "CENTER " + v + " does not match the grid's centre");
        }
    }
    // The values: one per line. The rest of the file is read in one piece and parsed in place
    // (a 81^3 map has half a million lines); from_chars gives the correctly rounded float, the
    // same float autodock4's `%f` into a float gives.
    std::string rest{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (in.bad())
        throw InputError(path, 0, "reading the grid map failed");
    std::vector<float>& values = maps.values(map);
    const size_t expected = g.pointCount();
    size_t n = 0;
    long lineNo = 6;
    const char* p = rest.data();
    const char* const end = p + rest.size();
    while (p < end) {
        const char* eol = static_cast<const char*>(std::memchr(p, '\n', end - p));
        if (!eol)
            eol = end;
        ++lineNo;
        const char* b = p;
        const char* e = eol;
        while (b < e && (*b == ' ' || *b == '\t' || *b == '\r'))
            ++b;
        while (e > b && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            --e;
        p = eol + 1;
        if (b == e)
            continue;
        if (n == expected)
            throw InputError(path, lineNo,
                             "more values than the grid's " + std::to_string(expected) +
                                 " points (npts+1 per axis): the map does not match the grid");
        float v = 0;
        const char* start = (*b == '+' && e - b > 1 && b[1] != '-') ? b + 1 : b; // strtof takes '+'
        const auto r = std::from_chars(start, e, v);
        if (r.ec != std::errc() || r.ptr != e)
            throw InputError(path, lineNo, "expected a number, found '" + std::string(b, e) + "'");
        values[n++] = v;
    }
    if (n != expected)
        throw InputError(path, lineNo,
                         "truncated map: " + std::to_string(n) + " values, expected " +
                             std::to_string(expected) + " (" + std::to_string(g.points(0)) + " x " +
                             std::to_string(g.points(1)) + " x " + std::to_string(g.points(2)) + ")");
}

namespace {

// A file written under a temporary name in its own folder, renamed by publish().
struct StagedFile {
    std::string target;
    std::string temp;
};

StagedFile stage(const std::string& target, const std::string& text) {
    StagedFile f{target, target + ".tmp." + std::to_string(::getpid())};
    std::ofstream out(f.temp, std::ios::binary | std::ios::trunc);
    if (!out)
        throw InputError(target, 0, "cannot write the grid-map file");
    out << text;
    out.close();
    if (!out) {
        std::error_code ec;
        fs::remove(f.temp, ec);
        throw InputError(target, 0, "writing the grid-map file failed (disk full?)");
    }
    return f;
}

} // namespace

void writeMapsFld(const Ad4Maps& maps, const std::string& fldPath) {
    const std::string suffix = ".maps.fld";
    if (fldPath.size() <= suffix.size() ||
        fldPath.compare(fldPath.size() - suffix.size(), suffix.size(), suffix) != 0)
        throw InputError(fldPath, 0, "the grid-map field file name must end in .maps.fld");
    const std::string stemPath = fldPath.substr(0, fldPath.size() - suffix.size());
    const std::string stem = fs::path(stemPath).filename().string();
    const std::string fldName = fs::path(fldPath).filename().string();
    const GridGeometry& g = maps.geometry();
    char buf[160];

    std::vector<StagedFile> staged;
    const auto cleanup = [&]() {
        std::error_code ec;
        for (const StagedFile& f : staged)
            fs::remove(f.temp, ec);
    };
    try {
        std::vector<std::string> mapFiles;
        for (int m = 0; m < maps.mapCount(); ++m) {
            const std::string name = stem + "." + maps.mapName(m) + ".map";
            mapFiles.push_back(name);
            std::string text;
            text.reserve(g.pointCount() * 8 + 256);
            text += "GRID_PARAMETER_FILE " + maps.gpfFile + "\n";
            text += "GRID_DATA_FILE " + fldName + "\n";
            text += "MACROMOLECULE " + maps.receptorFile + "\n";
            std::snprintf(buf, sizeof buf, "SPACING %.3f\nNELEMENTS %d %d %d\nCENTER %.3f %.3f %.3f\n",
                          g.spacing, g.npts[0], g.npts[1], g.npts[2], g.center[0], g.center[1],
                          g.center[2]);
            text += buf;
            for (float v : maps.values(m)) {
                // Three decimals as autogrid writes them; never "-0.000".
                const double d = std::fabs(v) < 0.0005 ? 0.0 : static_cast<double>(v);
                std::snprintf(buf, sizeof buf, "%.3f\n", d);
                text += buf;
            }
            staged.push_back(stage(stemPath + "." + maps.mapName(m) + ".map", text));
        }
        const Eigen::Vector3d lo = g.lo(), hi = g.hi();
        std::string xyz;
        for (int a = 0; a < 3; ++a) {
            std::snprintf(buf, sizeof buf, "%.3f %.3f\n", lo[a], hi[a]);
            xyz += buf;
        }
        staged.push_back(stage(stemPath + ".maps.xyz", xyz));

        std::ostringstream f;
        f << "# AVS field file\n#\n# AutoDock Atomic Affinity and Electrostatic Grids\n#\n"
          << "# Created by posewright.\n#\n";
        std::snprintf(buf, sizeof buf, "#SPACING %.3f\n#NELEMENTS %d %d %d\n#CENTER %.3f %.3f %.3f\n",
                      g.spacing, g.npts[0], g.npts[1], g.npts[2], g.center[0], g.center[1], g.center[2]);
        f << buf << "#MACROMOLECULE " << maps.receptorFile << "\n#GRID_PARAMETER_FILE "
          << maps.gpfFile << "\n#\n";
        f << "ndim=3\t\t\t# number of dimensions in the field\n";
        for (int a = 0; a < 3; ++a)
            f << "dim" << a + 1 << "=" << g.points(a) << "\t\t\t# number of " << "xyz"[a] << "-elements\n";
        f << "nspace=3\t\t# number of physical coordinates per point\n"
          << "veclen=" << maps.mapCount() << "\t\t# number of affinity values at each point\n"
          << "data=float\t\t# data type (byte, integer, float, double)\n"
          << "field=uniform\t\t# field type (uniform, rectilinear, irregular)\n";
        for (int a = 0; a < 3; ++a)
            f << "coord " << a + 1 << " file=" << stem << ".maps.xyz filetype=ascii offset=" << 2 * a << "\n";
        for (int m = 0; m < maps.mapCount(); ++m) {
            const std::string n = maps.mapName(m);
            const std::string label = n == "e" ? "Electrostatics" : n == "d" ? "Desolvation" : n + "-affinity";
            f << "label=" << label << "\t# component label for variable " << m + 1 << "\n";
        }
        f << "#\n# location of affinity grid files and how to read them\n#\n";
        for (int m = 0; m < maps.mapCount(); ++m)
            f << "variable " << m + 1 << " file=" << mapFiles[m] << " filetype=ascii skip=6\n";
        staged.push_back(stage(fldPath, f.str()));

        for (const StagedFile& s : staged) {
            std::error_code ec;
            fs::rename(s.temp, s.target, ec);
            if (ec)
                throw InputError(s.target, 0, "cannot rename the written grid-map file into place: " + ec.message());
        }
    } catch (...) {
        cleanup();
        throw;
    }
}

} // namespace pw::ad4
