// Ad4ReferenceFixture: the autodock4 4.2.6 `epdb` numbers stored in tests/data/reference/ad4
// (one TSV line per ligand pose, made by epdb_ref.sh there) and the check of an Ad4Energy
// against one line.
#pragma once

#include "score/ad4/Ad4LigandScorer.h"

#include <QString>
#include <QStringList>

#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace pwtest {

struct Ad4Reference {
    std::string label;         // "<complex>/<ligand file>"
    double inter = 0, interVdw = 0, interElec = 0;
    double intra3dp = 0;       // printed with 3 decimals
    double interPlusIntra = 0; // 4 decimals: intra = interPlusIntra - inter to 1e-4
    double torsional = 0, unbound = 0, freeEnergy = 0;
    int nonbonds = 0;
};

inline std::vector<Ad4Reference> readAd4References(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot open " + path);
    std::vector<Ad4Reference> out;
    std::string line;
    std::getline(in, line); // header
    while (std::getline(in, line)) {
        const QStringList f = QString::fromStdString(line).split('\t');
        if (f.size() != 10)
            throw std::runtime_error("bad reference line in " + path + ": " + line);
        Ad4Reference r;
        r.label = f[0].toStdString();
        r.inter = f[1].toDouble();
        r.interVdw = f[2].toDouble();
        r.interElec = f[3].toDouble();
        r.intra3dp = f[4].toDouble();
        r.interPlusIntra = f[5].toDouble();
        r.torsional = f[6].toDouble();
        r.unbound = f[7].toDouble();
        r.freeEnergy = f[8].toDouble();
        r.nonbonds = f[9].toInt();
        out.push_back(r);
    }
    return out;
}

// A value printed with `decimals` decimals agrees with ours to the printing (plus double
// rounding: the largest values, atoms outside the grid, reach 1e7).
inline bool agrees(double ours, double printed, int decimals) {
    const double tol = 0.5 * std::pow(10.0, -decimals) + 1e-6 + 1e-12 * std::fabs(printed);
    return std::fabs(ours - printed) <= tol;
}

// Empty when every part agrees, else a description of the first mismatch.
inline QString compareAd4(const pw::ad4::Ad4Energy& e, int pairs, const Ad4Reference& r) {
    const auto bad = [&](const char* what, double ours, double theirs) {
        return QString("%1: %2 ours %3, autodock4 %4")
            .arg(QString::fromStdString(r.label), what)
            .arg(ours, 0, 'f', 5)
            .arg(theirs, 0, 'f', 5);
    };
    if (!agrees(e.inter(), r.inter, 4)) return bad("intermolecular", e.inter(), r.inter);
    if (!agrees(e.interVdwHbDesolv, r.interVdw, 4)) return bad("vdW+Hbond+desolv", e.interVdwHbDesolv, r.interVdw);
    if (!agrees(e.interElec, r.interElec, 4)) return bad("electrostatic", e.interElec, r.interElec);
    if (!agrees(e.intra, r.intra3dp, 3)) return bad("internal", e.intra, r.intra3dp);
    if (!agrees(e.inter() + e.intra, r.interPlusIntra, 4)) return bad("inter+intra", e.inter() + e.intra, r.interPlusIntra);
    if (!agrees(e.torsional, r.torsional, 4)) return bad("torsional", e.torsional, r.torsional);
    if (!agrees(e.unbound, r.unbound, 2)) return bad("unbound", e.unbound, r.unbound);
    // The free energy is printed with 2 decimals below 1000 (%.2f), in %.2e form above.
    const double feTol = std::fabs(r.freeEnergy) < 1000 ? 0.005 + 1e-6 : 0.005 * std::fabs(r.freeEnergy);
    if (std::fabs(e.freeEnergy() - r.freeEnergy) > feTol)
        return bad("free energy of binding", e.freeEnergy(), r.freeEnergy);
    if (pairs != r.nonbonds) return bad("internal pair count", pairs, r.nonbonds);
    return {};
}

} // namespace pwtest
