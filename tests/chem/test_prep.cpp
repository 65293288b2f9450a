// Ligand preparation against the reference PDBQT files of 1iep (Meeko), 1stp and 3ce3 (ADT):
// same number of active torsions, same XS types (per-type counts, as Vina derives them from
// the reference PDBQT), plus AD4 typing rules and the refusals a caller has to be able to show.
#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/MoleculeWriter.h"
#include "chem/PdbqtWriter.h"
#include "chem/SmilesReader.h"
#include "core/InputError.h"
#include "core/TorsionTreeBuilder.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>
#include <sstream>

using namespace pw;

namespace {

const std::string kComplexes = POSEWRIGHT_TEST_DATA "/complexes/";

// TORSDOF and the number of BRANCH records, read straight from the text of a PDBQT.
std::pair<int, int> torsdofAndBranches(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    int torsdof = -1, branches = 0;
    while (std::getline(in, line)) {
        if (line.rfind("TORSDOF", 0) == 0)
            torsdof = std::stoi(line.substr(7));
        if (line.rfind("BRANCH", 0) == 0)
            ++branches;
    }
    return {torsdof, branches};
}

std::map<std::string, int> xsCounts(const Molecule& m) {
    std::map<std::string, int> c;
    for (const Atom& a : m.atoms)
        if (a.element != 1)
            ++c[std::string(xsTypeName(a.xs))];
    return c;
}

std::map<std::string, int> heavyAd4Counts(const Molecule& m) {
    std::map<std::string, int> c;
    for (const Atom& a : m.atoms)
        if (a.element != 1)
            ++c[a.ad4Type];
    return c;
}

std::string show(const std::map<std::string, int>& c) {
    std::ostringstream s;
    for (const auto& [k, v] : c)
        s << k << ":" << v << " ";
    return s.str();
}

// The SMILES line of a template file (comment lines start with '#').
std::string templateSmiles(const std::string& file) {
    std::ifstream in(POSEWRIGHT_TEST_DATA "/prep/" + file);
    std::string line;
    while (std::getline(in, line))
        if (!line.empty() && line[0] != '#')
            return line.substr(0, line.find(' '));
    return {};
}

// Vina's view of the reference: the PDBQT as read, XS types from its AD4 types and bonds.
Molecule reference(const std::string& id) {
    return prepareLigand(readMolecule(kComplexes + id + "/ligand_xtal.pdbqt"));
}

int atomNamed(const Molecule& m, const std::string& name) {
    for (size_t i = 0; i < m.atoms.size(); ++i)
        if (m.atoms[i].name == name)
            return static_cast<int>(i);
    return -1;
}

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

int ad4Of(const Molecule& m, int element, const std::string& type) {
    int n = 0;
    for (const Atom& a : m.atoms)
        n += a.element == element && a.ad4Type == type;
    return n;
}

} // namespace

class TestPrep : public QObject {
    Q_OBJECT
private slots:
    // 1iep (imatinib): the SDF has bond orders, hydrogens and the piperazinium charge.
    void imatinibFromSdfMatchesMeeko() {
        Molecule input = readMolecule(kComplexes + "1iep/ligand_xtal.sdf");
        Molecule lig = prepareLigand(input);
        auto [torsdof, branches] = torsdofAndBranches(kComplexes + "1iep/ligand_xtal.pdbqt");
        QCOMPARE(torsdof, 7);
        QCOMPARE(branches, 7);
        QVERIFY(lig.torsionTree.has_value());
        QCOMPARE(lig.torsionTree->torsionCount(), 7);
        QVERIFY(checkTorsionTree(lig, *lig.torsionTree).empty());
        QCOMPARE(lig.atoms.size(), input.atoms.size()); // all hydrogens were there already

        Molecule ref = reference("1iep");
        QCOMPARE(ref.torsionTree->torsionCount(), 7);
        QCOMPARE(show(xsCounts(lig)), show(xsCounts(ref)));
        // Meeko typed this reference: heavy-atom AD4 types agree type by type as well.
        QCOMPARE(show(heavyAd4Counts(lig)), show(heavyAd4Counts(ref)));
        // Gasteiger charges: the molecule carries the +1 of the piperazinium.
        double total = 0;
        for (const Atom& a : lig.atoms)
            total += a.charge;
        QVERIFY2(std::abs(total - 1.0) < 1e-3, qPrintable(QString::number(total)));
    }

    // 1stp (biotin) and 3ce3 (1FN) have no SDF: the PDB gives coordinates but no bond orders.
    // Preparing it as drawn would be dishonest (every ring saturated), so it is refused, and the
    // bond orders come from the compound's SMILES (tests/data/prep/*.smi, from the PDB chemical
    // component; biotin as its carboxylate). The PDBQT is only the reference, never the input.
    void pdbLigandWithoutBondOrdersIsRefused() {
        Molecule pdb = readMolecule(kComplexes + "1stp/ligand_xtal.pdb");
        QString msg = QString::fromStdString(errorOf([&] { prepareLigand(pdb); }));
        QVERIFY2(msg.contains("ligand_xtal.pdb") &&
                     msg.contains("has no bond orders (a PDB ligand?): give it as SDF or MOL2"),
                 qPrintable(msg));
    }

    void biotinFromPdbAndTemplateMatchesAdt() {
        Molecule pdb = readMolecule(kComplexes + "1stp/ligand_xtal.pdb");
        Molecule withOrders = assignBondOrdersFromTemplate(pdb, templateSmiles("1stp_BTN.smi"));
        Molecule lig = prepareLigand(withOrders);
        auto [torsdof, branches] = torsdofAndBranches(kComplexes + "1stp/ligand_xtal.pdbqt");
        QCOMPARE(torsdof, 5);
        QCOMPARE(branches, 5);
        QCOMPARE(lig.torsionTree->torsionCount(), 5);
        QCOMPARE(show(xsCounts(lig)), show(xsCounts(reference("1stp"))));
        // Coordinates of the heavy atoms are the crystal's.
        QCOMPARE(lig.atoms[atomNamed(lig, "S1")].position.x(), 10.884);
    }

    void pyridoneAmideFromPdbAndTemplate() {
        Molecule pdb = readMolecule(kComplexes + "3ce3/ligand_xtal.pdb");
        Molecule lig =
            prepareLigand(assignBondOrdersFromTemplate(pdb, templateSmiles("3ce3_1FN.smi")));
        auto [torsdof, branches] = torsdofAndBranches(kComplexes + "3ce3/ligand_xtal.pdbqt");
        QCOMPARE(torsdof, 5);
        QCOMPARE(branches, 5);
        QCOMPARE(lig.torsionTree->torsionCount(), 5);
        // The amide C17-N15 is rigid (ADT lists it as inactive), its neighbours rotate.
        int c17 = atomNamed(lig, "C17"), n15 = atomNamed(lig, "N15"), c11 = atomNamed(lig, "C11");
        QVERIFY(!lig.bonds[lig.findBond(c17, n15)].rotatable);
        QVERIFY(lig.bonds[lig.findBond(c11, n15)].rotatable);

        // XS types agree except at one atom: ADT put a hydrogen (H3) on the pyridine N3 of the
        // pyrrolo[2,3-b]pyridine, making it a donor (N_D); in 1FN only the pyrrole N29 carries
        // one, and N3 is an acceptor (N_A) in our preparation.
        Molecule ref = reference("3ce3");
        int refN3 = atomNamed(ref, "N3");
        QCOMPARE(std::string(xsTypeName(ref.atoms[refN3].xs)), std::string("N_D"));
        QCOMPARE(std::string(xsTypeName(lig.atoms[atomNamed(lig, "N3")].xs)), std::string("N_A"));
        QCOMPARE(lig.atoms[atomNamed(lig, "N3")].ad4Type, std::string("NA"));
        auto ours = xsCounts(lig), theirs = xsCounts(ref);
        --theirs["N_D"];
        ++theirs["N_A"];
        QCOMPARE(show(ours), show(theirs));
    }

    // Our prepared ligand written as PDBQT (formats' writer) reads back to the same tree: the
    // same fragments (as atom sets), the same parents and the same BRANCH axes.
    void writtenPdbqtReadsBackToTheSameTree() {
        Molecule lig = prepareLigand(readMolecule(kComplexes + "1iep/ligand_xtal.sdf"));
        QTemporaryDir dir;
        const std::string path = dir.filePath("imatinib.pdbqt").toStdString();
        writeMolecules(path, {lig});
        Molecule back = readMolecule(path);
        const std::vector<int> order = pdbqtAtomOrder(lig); // file position -> our atom
        QCOMPARE(back.atoms.size(), order.size());
        QVERIFY(back.torsionTree.has_value());
        const TorsionTree& ours = *lig.torsionTree;
        const TorsionTree& read = *back.torsionTree;
        QCOMPARE(read.torsionCount(), ours.torsionCount());
        QCOMPARE(torsdofAndBranches(path).first, 7);
        auto mapped = [&](const std::vector<int>& atoms) {
            std::vector<int> v;
            for (int a : atoms)
                v.push_back(order[a]);
            std::sort(v.begin(), v.end());
            return v;
        };
        std::vector<int> nodeOf(read.nodes.size(), -1); // read node -> our node
        for (size_t j = 0; j < read.nodes.size(); ++j)
            for (size_t i = 0; i < ours.nodes.size(); ++i) {
                std::vector<int> mine = ours.nodes[i].atoms;
                std::sort(mine.begin(), mine.end());
                if (mine == mapped(read.nodes[j].atoms))
                    nodeOf[j] = static_cast<int>(i);
            }
        for (size_t j = 0; j < read.nodes.size(); ++j) {
            QVERIFY2(nodeOf[j] >= 0, qPrintable(QString("read node %1 matches none").arg(j)));
            const TorsionNode& r = read.nodes[j];
            const TorsionNode& o = ours.nodes[nodeOf[j]];
            QCOMPARE(r.parent < 0 ? -1 : nodeOf[r.parent], o.parent);
            if (r.parent >= 0) {
                QCOMPARE(order[r.axisParentAtom], o.axisParentAtom);
                QCOMPARE(order[r.axisChildAtom], o.axisChildAtom);
            }
        }
    }

    void pdbqtLigandKeepsItsTree() {
        Molecule read = readMolecule(kComplexes + "1iep/ligand_xtal.pdbqt");
        Molecule lig = prepareLigand(read);
        QCOMPARE(lig.atoms.size(), read.atoms.size()); // no hydrogens added, nothing retyped
        QCOMPARE(lig.torsionTree->nodes.size(), read.torsionTree->nodes.size());
        for (size_t k = 0; k < lig.torsionTree->nodes.size(); ++k)
            QVERIFY(lig.torsionTree->nodes[k].atoms == read.torsionTree->nodes[k].atoms);
        int rotatable = 0;
        for (const Bond& b : lig.bonds)
            rotatable += b.rotatable;
        QCOMPARE(rotatable, 7);
        for (const Atom& a : lig.atoms)
            QVERIFY(a.element == 1 || a.xs != XsType::None);
    }

    void ad4TypesFollowMeekoRules() {
        // pyrrole N-H, pyridine N, aniline NH2, amide NH, tertiary amine, nitro, thioether,
        // sulfone, phenol.
        Molecule m = prepareLigand(moleculeFromSmiles(
            "c1cc[nH]c1-c1ccncc1-c1ccc(N)cc1C(=O)NCCN(C)CCSC-c1ccc(cc1[N+](=O)[O-])S(=O)(=O)CO",
            "typing", true));
        QCOMPARE(ad4Of(m, 7, "N"), 4);  // pyrrole, aniline, amide, nitro
        QCOMPARE(ad4Of(m, 7, "NA"), 2); // pyridine, tertiary amine
        QCOMPARE(ad4Of(m, 16, "SA"), 1);
        QCOMPARE(ad4Of(m, 16, "S"), 1);
        QCOMPARE(ad4Of(m, 8, "OA"), 6);
        int hd = ad4Of(m, 1, "HD"), h = ad4Of(m, 1, "H");
        QCOMPARE(hd, 1 + 2 + 1 + 1); // pyrrole, NH2, amide, OH
        QVERIFY(h > 10);
        QCOMPARE(ad4Of(m, 6, "A") + ad4Of(m, 6, "C"), m.heavyAtomCount() - 6 - 6 - 2);
    }

    void hydroxylTorsionsFollowTheOption() {
        Molecule phenol = moleculeFromSmiles("Oc1ccccc1CCO", "phenol", true);
        // ring-CH2 and CH2-CH2 move heavy atoms; the two C-O bonds only move hydrogens.
        QCOMPARE(prepareLigand(phenol).torsionTree->torsionCount(), 2);
        LigandPreparationOptions meeko;
        meeko.bonds.hydrogenTorsions = true;
        QCOMPARE(prepareLigand(phenol, meeko).torsionTree->torsionCount(), 4);
    }

    void flatInputGetsThreeDimensionsAndSaltsGo() {
        Molecule flat = moleculeFromSmiles("CC(=O)[O-].[Na+]", "sodium acetate", false);
        Molecule lig = prepareLigand(flat);
        QCOMPARE(lig.heavyAtomCount(), 4);
        QCOMPARE(*lig.property("pw_removed_fragments"), std::string("1"));
        auto [lo, hi] = lig.boundingBox();
        QVERIFY((hi - lo).maxCoeff() > 1.0);
    }

    void refusalsNameTheMolecule() {
        Molecule h2;
        h2.name = "hydrogen";
        h2.sourceFile = "hits.sdf";
        h2.sourceRecord = 3;
        h2.atoms.resize(2);
        h2.atoms[0].element = h2.atoms[1].element = 1;
        h2.atoms[1].position = Vec3(0.74, 0, 0);
        h2.bonds.push_back({0, 1, BondOrder::Single, false});
        QCOMPARE(QString::fromStdString(errorOf([&] { prepareLigand(h2); })),
                 QString("hits.sdf:3: molecule 'hydrogen' has no heavy atoms"));

        // A molecule made in code with a bond listed twice: an InputError, not RDKit's own.
        Molecule twice = h2;
        twice.name = "twice";
        twice.atoms[0].element = 6;
        twice.atoms[1].element = 8;
        twice.bonds.push_back({1, 0, BondOrder::Double, false});
        QCOMPARE(QString::fromStdString(errorOf([&] { prepareLigand(twice); })),
                 QString("hits.sdf:3: molecule 'twice': atoms 2 and 1 are bonded twice"));

        Molecule sdf = readMolecule(kComplexes + "1iep/ligand_xtal.sdf");
        LigandPreparationOptions few;
        few.maxTorsions = 2;
        QVERIFY2(errorOf([&] {
                     prepareLigand(sdf, few);
                 }).find("has 7 torsions; at most 2 are accepted") != std::string::npos,
                 errorOf([&] { prepareLigand(sdf, few); }).c_str());
        LigandPreparationOptions small;
        small.maxHeavyAtoms = 10;
        QVERIFY(errorOf([&] {
                    prepareLigand(sdf, small);
                }).find("has 37 heavy atoms; at most 10 are accepted") != std::string::npos);

        std::string se =
            errorOf([] { prepareLigand(moleculeFromSmiles("C[Se]CC", "selenide", true)); });
        QVERIFY2(se.find("molecule 'selenide': atom 2 (Se) has no AutoDock 4 atom type") !=
                     std::string::npos,
                 se.c_str());

        Molecule pdb = readMolecule(kComplexes + "1stp/ligand_xtal.pdb");
        std::string wrong = errorOf([&] { assignBondOrdersFromTemplate(pdb, "c1ccccc1"); });
        QVERIFY2(wrong.find("has 16 heavy atoms but the template SMILES 'c1ccccc1' has 6") !=
                     std::string::npos,
                 wrong.c_str());
        std::string mismatch =
            errorOf([&] { assignBondOrdersFromTemplate(pdb, "OC(=O)CCCCCCCCSNC(=O)N"); });
        QVERIFY2(mismatch.find("does not match the template SMILES") != std::string::npos,
                 mismatch.c_str());
    }
};

QTEST_GUILESS_MAIN(TestPrep)
#include "test_prep.moc"
