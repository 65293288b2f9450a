// PdbqtFixture: a minimal PDBQT reader for the score tests (which link posewright_core only):
// atoms in file order with AD4 types, ROOT/BRANCH into a TorsionTree, and the box and
// reference-value files of tests/data. Real reading is tested in tests/chem.
#pragma once

#include "core/Element.h"
#include "core/Molecule.h"
#include "score/BoxConfig.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace pwtest {

inline std::string dataPath(const std::string& rel) {
    return std::string(POSEWRIGHT_TEST_DATA) + "/" + rel;
}

inline std::string trimmed(const std::string& s) {
    const auto b = s.find_first_not_of(' ');
    if (b == std::string::npos)
        return {};
    const auto e = s.find_last_not_of(' ');
    return s.substr(b, e - b + 1);
}

inline pw::Molecule readPdbqtForTest(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot open " + path);
    pw::Molecule m;
    m.sourceFile = path;
    std::map<int, int> bySerial;
    std::vector<int> stack; // node indices
    struct PendingBranch {
        int node, parentSerial, childSerial;
    };
    std::vector<PendingBranch> branches;
    bool tree = false;
    std::string line;
    while (std::getline(in, line)) {
        const std::string rec = line.substr(0, 6);
        if (rec == "ROOT") {
            tree = true;
            m.torsionTree = pw::TorsionTree{};
            m.torsionTree->nodes.emplace_back();
            stack = {0};
        } else if (rec == "BRANCH") {
            int a = 0, b = 0;
            std::sscanf(line.c_str() + 6, "%d %d", &a, &b);
            auto& nodes = m.torsionTree->nodes;
            const int parent = stack.back();
            nodes.emplace_back();
            const int idx = static_cast<int>(nodes.size()) - 1;
            nodes[idx].parent = parent;
            nodes[parent].children.push_back(idx);
            branches.push_back({idx, a, b});
            stack.push_back(idx);
        } else if (rec == "ENDBRA") {
            stack.pop_back();
        } else if (rec == "TORSDO") {
            m.setProperty("TORSDOF", trimmed(line.substr(7)));
        } else if (rec == "ATOM  " || rec == "HETATM") {
            pw::Atom a;
            a.serial = std::stoi(line.substr(6, 5));
            a.name = trimmed(line.substr(12, 4));
            a.position = pw::Vec3(std::stod(line.substr(30, 8)), std::stod(line.substr(38, 8)),
                                  std::stod(line.substr(46, 8)));
            a.charge = std::stod(line.substr(70, 6));
            a.ad4Type = trimmed(line.size() > 77 ? line.substr(77) : std::string());
            a.element = pw::elementOfAd4Type(a.ad4Type);
            const int index = static_cast<int>(m.atoms.size());
            bySerial[a.serial] = index;
            m.atoms.push_back(a);
            if (tree && !stack.empty())
                m.torsionTree->nodes[stack.back()].atoms.push_back(index);
        }
    }
    for (const auto& b : branches) {
        auto& node = m.torsionTree->nodes[b.node];
        node.axisParentAtom = bySerial.at(b.parentSerial);
        node.axisChildAtom = bySerial.at(b.childSerial);
    }
    return m;
}

inline std::vector<pw::Vec3> positions(const pw::Molecule& m) {
    std::vector<pw::Vec3> x;
    for (const auto& a : m.atoms)
        x.push_back(a.position);
    return x;
}

inline QJsonObject readJson(const std::string& path) {
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        throw std::runtime_error("cannot open " + path);
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace pwtest
