// Ad4PairPoses: the poses the exact AD4 pair kernel is checked on, shared by its host test
// (tests/cudahost/test_ad4_pair_math.cpp: the kernel's math on the CPU) and its GPU test
// (tests/gpu/test_ad4_pair_score.cpp): a complex's crystal ligand and docked poses, the crystal
// pose perturbed (seeded rotations and shifts), pushed into the receptor (a clash well inside the
// pair tables' repulsive wall) and pushed partly or wholly out of the box.
#pragma once

#include "score/PdbqtFixture.h"
#include "score/ad4/Ad4ExactScorer.h"

#include <Eigen/Geometry>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace pwtest {

struct Ad4Complex {
    std::string id;
    pw::Molecule receptor, ligand;
    pw::ad4::GridGeometry box;
    std::vector<std::string> poseFiles; // docked poses (same atoms as the ligand)
};

// 1stp, 3ce3: tests/data/complexes with the crystal boxes of ../shared/data/complexes/*/ad4maps
// (written out as tests/score/test_ad4_exact.cpp does); 1r55: the dock30 complex of
// tests/data/ad4maps/1r55 (its receptor is dock30's protein.pdbqt, its ligand dock30's
// flex-xray.pdbqt, its box the benchmark's protein.maps.fld header).
// Tolerances of both AD4 pair suites against Ad4ExactScorer. Per atom: each term within
// 2e-5 kcal/mol + 2e-5 relative. Per pose: each of the two sums within 1e-4 relative (1 kcal/mol as
// the floor of the scale, for sums near zero). Measured (2026-11-27, the suites' qInfo lines): the
// worst per-atom difference is ~1e-5.
constexpr double kAtomAbs = 2e-5, kAtomRel = 2e-5, kPoseRel = 1e-4;

inline bool atomClose(double ours, double cpu) {
    return std::fabs(ours - cpu) <= kAtomAbs + kAtomRel * std::fabs(cpu);
}

inline bool poseClose(double ours, double cpu) {
    return std::fabs(ours - cpu) <= kPoseRel * std::max(1.0, std::fabs(cpu));
}

// The data rows both AD4 pair suites run (the host math and the device): each complex under
// both outside-box rules, as columns "complex" (QString) and "outside" (int OutsideBox).
inline void addAd4ComplexRows() {
    QTest::addColumn<QString>("complex");
    QTest::addColumn<int>("outside");
    for (const char* c : {"1stp", "3ce3", "1r55"}) {
        QTest::newRow((std::string(c) + " penalty").c_str())
            << c << int(pw::ad4::OutsideBox::Penalty);
        QTest::newRow((std::string(c) + " exact sum").c_str())
            << c << int(pw::ad4::OutsideBox::ExactSum);
    }
}

inline Ad4Complex loadAd4Complex(const std::string& id) {
    Ad4Complex c;
    c.id = id;
    c.box.spacing = 0.375;
    if (id == "1r55") {
        c.receptor = readPdbqtForTest(dataPath("ad4maps/1r55/receptor.pdbqt"));
        c.ligand = readPdbqtForTest(dataPath("ad4maps/1r55/ligand_xtal.pdbqt"));
        c.box.center = pw::Vec3(9.321, 13.434, 25.210);
        c.box.npts = {80, 80, 80};
        return c;
    }
    const std::string dir = "complexes/" + id + "/";
    c.receptor = readPdbqtForTest(dataPath(dir + "receptor.pdbqt"));
    c.ligand = readPdbqtForTest(dataPath(dir + "ligand_xtal.pdbqt"));
    if (id == "1stp") {
        c.box.center = pw::Vec3(10.734, 2.033, -11.537);
        c.box.npts = {24, 22, 32};
    } else {
        c.box.center = pw::Vec3(20.402, 18.013, 56.855);
        c.box.npts = {40, 54, 40};
    }
    for (int i = 0; i < 4; ++i) {
        const std::string f = dataPath(dir + "poses/pose0" + std::to_string(i) + ".pdbqt");
        if (std::filesystem::exists(f))
            c.poseFiles.push_back(f);
    }
    return c;
}

struct Ad4PoseCase {
    std::string name;
    std::vector<pw::Vec3> coords;
};

inline pw::Vec3 centroid(const std::vector<pw::Vec3>& x) {
    pw::Vec3 c = pw::Vec3::Zero();
    for (const pw::Vec3& p : x)
        c += p;
    return c / double(x.size());
}

// Rigid motion of the pose about its centroid.
inline std::vector<pw::Vec3> moved(const std::vector<pw::Vec3>& x, const Eigen::Matrix3d& r,
                                   const pw::Vec3& shift) {
    const pw::Vec3 c = centroid(x);
    std::vector<pw::Vec3> out;
    for (const pw::Vec3& p : x)
        out.push_back(r * (p - c) + c + shift);
    return out;
}

// `perturbed` seeded random rigid perturbations (up to 25 degrees, 1.5 Å) of the crystal pose
// besides the fixed cases. Every pose has the ligand's own atoms, in file order.
inline std::vector<Ad4PoseCase> ad4PoseCases(const Ad4Complex& c, int perturbed) {
    std::vector<Ad4PoseCase> out;
    const std::vector<pw::Vec3> xtal = positions(c.ligand);
    out.push_back({"crystal", xtal});
    for (const std::string& f : c.poseFiles) {
        const pw::Molecule m = readPdbqtForTest(f);
        if (m.atoms.size() == c.ligand.atoms.size())
            out.push_back({std::filesystem::path(f).stem().string(), positions(m)});
    }
    std::mt19937 rng(20261127u);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int i = 0; i < perturbed; ++i) {
        const pw::Vec3 axis = pw::Vec3(u(rng), u(rng), u(rng)).normalized();
        const double angle = 0.44 * u(rng); // 25 degrees
        const pw::Vec3 shift = 1.5 * pw::Vec3(u(rng), u(rng), u(rng)) / std::sqrt(3.0);
        out.push_back({"perturbed " + std::to_string(i),
                       moved(xtal, Eigen::AngleAxisd(angle, axis).toRotationMatrix(), shift)});
    }
    // A clash: the ligand shifted so that its first atom sits 0.6 Å from the receptor atom
    // nearest to it.
    {
        const pw::Vec3 a0 = xtal[0];
        pw::Vec3 nearest = c.receptor.atoms[0].position;
        for (const pw::Atom& r : c.receptor.atoms)
            if ((r.position - a0).squaredNorm() < (nearest - a0).squaredNorm())
                nearest = r.position;
        const pw::Vec3 dir = (a0 - nearest).normalized();
        const pw::Vec3 shift = nearest + 0.6 * dir - a0;
        out.push_back({"clash", moved(xtal, Eigen::Matrix3d::Identity(), shift)});
    }
    // Out of the box: part of the ligand across the +x face, then the whole ligand 6 Å past it.
    const double half = c.box.npts[0] / 2 * c.box.spacing;
    const pw::Vec3 mid = centroid(xtal);
    const double toFace = c.box.center.x() + half - mid.x();
    out.push_back({"partly outside", moved(xtal, Eigen::Matrix3d::Identity(), pw::Vec3(toFace, 0, 0))});
    out.push_back({"far outside",
                   moved(xtal, Eigen::Matrix3d::Identity(), pw::Vec3(toFace + 12.0, 0, 0))});
    return out;
}

} // namespace pwtest
