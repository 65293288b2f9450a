// Macrocycles as Meeko writes them (CG0-CG3 carbons, G0-G3 pseudo-atoms on a broken ring bond):
// the PDBQT reader, the PDBQT writer keeping the types, SDF output with the ring closed, the
// pairs Vina 1.2.3 scores, the ring-closure gradient, and bad input (file, line, no crash).
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/PdbqtWriter.h"
#include "chem/ReceptorPreparation.h"
#include "chem/SdfWriter.h"
#include "core/InputError.h"
#include "core/RingClosure.h"
#include "dock/LigandDockScoring.h"
#include "score/BoxConfig.h"
#include "score/DockingTarget.h"
#include "score/LigandScorer.h"

#include <QtTest>

#include <algorithm>
#include <fstream>
#include <sstream>

using namespace pw;

namespace {

const std::string kDir = std::string(POSEWRIGHT_TEST_DATA) + "/macrocycle/";

std::string fileText(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<Molecule> readText(const std::string& text, const std::string& name) {
    const FileFormat format = name.ends_with(".sdf") ? FileFormat::Sdf : FileFormat::Pdbqt;
    auto reader =
        MoleculeReader::fromStream(std::make_unique<std::istringstream>(text), format, name);
    std::vector<Molecule> out;
    Molecule m;
    while (reader->next(m))
        out.push_back(m);
    return out;
}

int atomNamed(const Molecule& m, const std::string& name) {
    for (size_t i = 0; i < m.atoms.size(); ++i)
        if (m.atoms[i].name == name)
            return static_cast<int>(i);
    return -1;
}

std::string atomNameOf(const std::string& line) {
    return QString::fromStdString(line.substr(12, 4)).trimmed().toStdString();
}

// The file with the ATOM line of one atom name retyped (columns 78-80) or removed.
std::string editedLigand(const std::string& atomName, const std::string& newType, bool remove) {
    std::istringstream in(fileText(kDir + "bace1_ligand.pdbqt"));
    std::string line, out;
    while (std::getline(in, line)) {
        if (line.rfind("ATOM", 0) == 0 && atomNameOf(line) == atomName) {
            if (remove)
                continue;
            line = line.substr(0, 77) + newType;
        }
        out += line + "\n";
    }
    return out;
}

// 1-based line of the first ATOM line whose atom name is atomName.
long lineOf(const std::string& text, const std::string& atomName) {
    std::istringstream in(text);
    std::string line;
    long n = 0;
    while (std::getline(in, line)) {
        ++n;
        if (line.rfind("ATOM", 0) == 0 && atomNameOf(line) == atomName)
            return n;
    }
    return -1;
}

bool hasPair(const std::vector<std::pair<int, int>>& pairs, int a, int b) {
    return std::find(pairs.begin(), pairs.end(), std::make_pair(a, b)) != pairs.end() ||
           std::find(pairs.begin(), pairs.end(), std::make_pair(b, a)) != pairs.end();
}

} // namespace

class TestMacrocycle : public QObject {
    Q_OBJECT
private slots:
    void readsMeekoRingClosure() {
        const Molecule m = readMolecule(kDir + "bace1_ligand.pdbqt");
        QCOMPARE(m.atoms.size(), size_t(43));
        const int c9 = atomNamed(m, "C9"), g1 = atomNamed(m, "*1");
        const int c20 = atomNamed(m, "C20"), g2 = atomNamed(m, "*2");
        QVERIFY(c9 >= 0 && g1 >= 0 && c20 >= 0 && g2 >= 0);
        QCOMPARE(m.atoms[c9].ad4Type, std::string("CG0"));
        QCOMPARE(m.atoms[g1].ad4Type, std::string("G0"));
        QCOMPARE(m.atoms[c9].element, 6);
        QCOMPARE(m.atoms[g1].element, 0); // a pseudo-atom, no element
        // Each pseudo-atom is bonded to its own carbon only; the ring bond is broken.
        const auto adj = m.neighbours();
        QCOMPARE(adj[g1], std::vector<int>{c9});
        QCOMPARE(adj[g2], std::vector<int>{c20});
        QVERIFY(m.findBond(c9, c20) < 0);
        QVERIFY(m.findBond(g1, c20) < 0);
        std::vector<ClosureBond> closures;
        QCOMPARE(findRingClosures(m, closures), std::string());
        QCOMPARE(closures.size(), size_t(1));
        QCOMPARE(closures[0].a, c9);
        QCOMPARE(closures[0].dummyOfA, g1);
        QCOMPARE(closures[0].b, c20);
        QCOMPARE(closures[0].dummyOfB, g2);
        QCOMPARE(m.torsionTree->torsionCount(), 22);
    }

    void writesTheTypesBack() {
        const Molecule m = readMolecule(kDir + "bace1_ligand.pdbqt");
        const std::string text = pdbqtText(m);
        QVERIFY(text.find(" CG0\n") != std::string::npos);
        QVERIFY(text.find(" G0\n") != std::string::npos);
        const std::vector<Molecule> back = readText(text, "written.pdbqt");
        QCOMPARE(back.size(), size_t(1));
        QCOMPARE(back[0].atoms.size(), m.atoms.size());
        for (const std::string name : {"C9", "*1", "C20", "*2"}) {
            const int i = atomNamed(m, name), j = atomNamed(back[0], name);
            QCOMPARE(back[0].atoms[j].ad4Type, m.atoms[i].ad4Type);
            QVERIFY((back[0].atoms[j].position - m.atoms[i].position).norm() < 1e-3);
        }
        std::vector<ClosureBond> closures;
        QCOMPARE(findRingClosures(back[0], closures), std::string());
        QCOMPARE(closures.size(), size_t(1));
    }

    void sdfHasTheRingClosedAndNoPseudoAtoms() {
        const Molecule m = readMolecule(kDir + "bace1_ligand.pdbqt");
        std::string sdf;
        appendSdfRecord(sdf, m);
        QVERIFY(sdf.find(" *   0") == std::string::npos);
        const std::vector<Molecule> back = readText(sdf, "written.sdf");
        QCOMPARE(back.size(), size_t(1));
        const Molecule& s = back[0];
        QCOMPARE(s.atoms.size(), size_t(41));
        QCOMPARE(static_cast<int>(s.bonds.size()), static_cast<int>(m.bonds.size()) - 2 + 1);
        for (const Atom& a : s.atoms)
            QVERIFY(a.element != 0);
        // The restored bond joins the two CG0 carbons (C9 and C20 of the PDBQT).
        int c9 = -1, c20 = -1;
        for (size_t i = 0; i < s.atoms.size(); ++i) {
            if ((s.atoms[i].position - m.atoms[atomNamed(m, "C9")].position).norm() < 1e-3)
                c9 = static_cast<int>(i);
            if ((s.atoms[i].position - m.atoms[atomNamed(m, "C20")].position).norm() < 1e-3)
                c20 = static_cast<int>(i);
        }
        QVERIFY(c9 >= 0 && c20 >= 0);
        QVERIFY(s.findBond(c9, c20) >= 0);
    }

    // Vina 1.2.3 (model.cpp): the glue pairs each pseudo-atom with the carbon across the broken
    // bond; pairs within three bonds of both ends once closed are not scored at all.
    void vinaPairsAroundTheBrokenBond() {
        const Molecule m = readMolecule(kDir + "bace1_ligand.pdbqt");
        const VinaLigandTopology t = buildVinaLigandTopology(m);
        const int c9 = atomNamed(m, "C9"), g1 = atomNamed(m, "*1");
        const int c20 = atomNamed(m, "C20"), g2 = atomNamed(m, "*2");
        const int c8 = atomNamed(m, "C8"), n2 = atomNamed(m, "N2"), c7 = atomNamed(m, "C7");
        QCOMPARE(t.gluePairs.size(), size_t(2));
        QVERIFY(hasPair(t.gluePairs, g1, c20));
        QVERIFY(hasPair(t.gluePairs, g2, c9));
        // 1-3 (C8-C20), 1-4 (C8-N2) across the closed bond: not scored; 1-5 (C7-N2) is.
        QVERIFY(!hasPair(t.intraPairs, c8, c20));
        QVERIFY(!hasPair(t.intraPairs, c8, n2));
        QVERIFY(hasPair(t.intraPairs, c7, n2));
        // Pseudo-atoms pair with the other scored atoms, not with those around the broken bond.
        QVERIFY(!t.pseudoAtomPairs.empty());
        QVERIFY(!hasPair(t.pseudoAtomPairs, g1, n2));
        QVERIFY(hasPair(t.pseudoAtomPairs, g1, atomNamed(m, "O3")));
        QCOMPARE(t.types[g1], XsType::None); // no intermolecular interactions
        QCOMPARE(t.types[c9], XsType::C_P);
    }

    // The analytic ring-closure energy (glue + pseudo-atom pairs) has the gradient it claims,
    // on the crystal pose (ring closed) and on a perturbed start (ring open by several Å).
    void closureGradientMatchesFiniteDifferences() {
        const Molecule receptor = prepareReceptor(readMolecule(kDir + "receptor.pdbqt"));
        const GridDims dims = gridDimsFor(readBoxConfig(kDir + "box.txt"));
        const ReceptorModel model(receptor, dims);
        for (ScoringKind kind : {ScoringKind::Vina, ScoringKind::Vinardo}) {
            const ScoringFunction sf(kind);
            std::vector<Molecule> poses = {readMolecule(kDir + "bace1_ligand.pdbqt")};
            poses.push_back(readMolecules(kDir + "starts.pdbqt").at(0));
            for (const Molecule& lig : poses) {
                const LigandScorer scorer(lig, sf, model);
                std::vector<Vec3> x;
                for (const Atom& a : lig.atoms)
                    x.push_back(a.position);
                std::vector<Vec3> g(x.size(), Vec3::Zero());
                scorer.intraEnergy(x, &g);
                const double h = 1e-6;
                for (int i : {atomNamed(lig, "*1"), atomNamed(lig, "C20"), atomNamed(lig, "C9")})
                    for (int d = 0; d < 3; ++d) {
                        std::vector<Vec3> p = x, q = x;
                        p[i][d] += h;
                        q[i][d] -= h;
                        const double fd =
                            (scorer.intraEnergy(p, nullptr) - scorer.intraEnergy(q, nullptr)) /
                            (2 * h);
                        QVERIFY2(std::abs(fd - g[i][d]) < 1e-4 * std::max(1.0, std::abs(fd)),
                                 qPrintable(QString("atom %1 axis %2: analytic %3, numeric %4")
                                                .arg(i)
                                                .arg(d)
                                                .arg(g[i][d])
                                                .arg(fd)));
                    }
            }
        }
    }

    // Docking reports the closed ring's glue for every pose (Vina's docking shares one unbound
    // energy): equal to score's number when the ring is closed, no reward for an open ring.
    void dockingScoreDoesNotRewardAnOpenRing() {
        const Molecule receptor = prepareReceptor(readMolecule(kDir + "receptor.pdbqt"));
        auto docking = std::make_shared<DockingTarget>(receptor, readBoxConfig(kDir + "box.txt"),
                                                       ScoringKind::Vina, 0);
        const dock::DockTarget target = dock::DockTarget::forVina(docking);
        const Molecule crystal = prepareLigand(readMolecule(kDir + "bace1_ligand.pdbqt"));
        const Molecule open = prepareLigand(readMolecules(kDir + "starts.pdbqt").at(0));
        dock::prepareTargetFor(target, {crystal});
        const auto scoring = dock::makeLigandDockScoring(target, crystal);
        const LigandScorer exact(crystal, docking->scoring(), docking->receptor());
        auto coordsOf = [](const Molecule& m) {
            std::vector<Vec3> x;
            for (const Atom& a : m.atoms)
                x.push_back(a.position);
            return x;
        };
        std::vector<dock::DockTerm> terms;
        const VinaScore closedScore = exact.finalScore(coordsOf(crystal));
        QVERIFY(std::abs(scoring->rescore(coordsOf(crystal), terms) - closedScore.affinity) < 1e-9);
        const VinaScore openScore = exact.finalScore(coordsOf(open));
        const double openDock = scoring->rescore(coordsOf(open), terms);
        QVERIFY(openScore.ringClosure > closedScore.ringClosure + 100); // open by several Å
        const double expected = (openScore.inter - exact.closedRingGlue()) /
                                (1 + docking->scoring().weightRot() * openScore.numTors);
        QVERIFY2(std::abs(openDock - expected) < 1e-9, qPrintable(QString::number(openDock)));
        QVERIFY(openDock > openScore.affinity + 10);
    }

    void pseudoAtomWithoutItsCarbonIsRefused() {
        // C9 typed plain carbon: *1 (G0) hangs on no CG0.
        const std::string text = editedLigand("C9", "C ", false);
        try {
            readText(text, "bad.pdbqt");
            QFAIL("a G0 without its CG0 was accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), std::string("bad.pdbqt"));
            QCOMPARE(e.line(), lineOf(text, "*1"));
            QVERIFY2(e.detail().find("G0") != std::string::npos, e.what());
        }
    }

    void unpairedClosureCarbonIsRefused() {
        // *2 removed: C20 (CG0) has no pseudo-atom.
        const std::string text = editedLigand("*2", "", true);
        try {
            readText(text, "bad.pdbqt");
            QFAIL("a CG0 without its G0 was accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.line(), lineOf(text, "C9"));
            QVERIFY2(e.detail().find("2 CG0 and 1 G0") != std::string::npos, e.what());
        }
        // Both pseudo-atoms on one carbon: the other carbon is named.
        std::string both = editedLigand("*2", "", true);
        const size_t at = both.find("ATOM     10");
        std::string g1 = both.substr(at, both.find('\n', at) + 1 - at);
        g1.replace(0, 11, "ATOM     44"); // a second G0 on C9, serial unique
        both.insert(both.find("ENDBRANCH    8    9"), g1);
        try {
            readText(both, "bad.pdbqt");
            QFAIL("two G0 on one CG0 were accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.line(), lineOf(both, "C20"));
            QVERIFY2(e.detail().find("C20") != std::string::npos, e.what());
        }
    }

    void hydratedLigandIsRefused() {
        std::string text = fileText(kDir + "bace1_ligand.pdbqt");
        const std::string water =
            "ATOM     44  W   LIG L   1      33.000   3.000  16.000  1.00  0.00     0.000 W \n";
        text.insert(text.find("ENDBRANCH    1   42"), water);
        try {
            readText(text, "wet.pdbqt");
            QFAIL("a W atom was accepted");
        } catch (const InputError& e) {
            QCOMPARE(e.line(), lineOf(text, "W"));
            QVERIFY2(e.detail().find("hydrated") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestMacrocycle)
#include "test_macrocycle.moc"
