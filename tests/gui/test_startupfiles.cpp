// Qt Test for how the application starts: which command-line files are the receptor, where the
// bundled example is, and how the loader turns files into molecules or into one error message.
#include "Document.h"
#include "MoleculeDrawings.h"
#include "MoleculeLoader.h"
#include "StartupFiles.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace pw;

namespace {

const QString kData = QStringLiteral(POSEWRIGHT_TEST_DATA);

QString data(const QString& relative) {
    return kData + QLatin1Char('/') + relative;
}

} // namespace

class TestStartupFiles : public QObject {
    Q_OBJECT

private slots:
    void receptorByNameOrSize();
    void countsPdbAtomsUpToLimit();
    void bundledExampleIsFound();
    void loadsReceptorWithBonds();
    void loadsEveryLigandOfEveryFile();
    void loadErrorsNameFileAndLine();
    void documentSummaryAndSignals();
    void drawingKeepsAtomsAndBondOrders();
};

void TestStartupFiles::receptorByNameOrSize() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A protein under a name that says nothing: recognised by its size (> 300 atoms).
    const QString protein = dir.filePath(QStringLiteral("3ce3_prot.pdbqt"));
    QVERIFY(QFile::copy(data(QStringLiteral("complexes/3ce3/receptor.pdbqt")), protein));
    const QString ligand = data(QStringLiteral("complexes/3ce3/ligand_xtal.pdbqt"));
    const QString sdf = data(QStringLiteral("shapes/cdk2.sdf"));

    StartupFiles f = classifyStartupFiles({ligand, protein, sdf});
    QCOMPARE(f.receptor, protein);
    QCOMPARE(f.ligands, (QStringList{ligand, sdf}));

    // By name, whatever its size; only the first candidate becomes the receptor.
    const QString named = data(QStringLiteral("complexes/1stp/receptor.pdb"));
    f = classifyStartupFiles({named, protein});
    QCOMPARE(f.receptor, named);
    QCOMPARE(f.ligands, QStringList{protein});

    // Small PDBQT files and non-PDB formats are ligands.
    f = classifyStartupFiles({ligand, sdf});
    QVERIFY(f.receptor.isEmpty());
    QCOMPARE(f.ligands.size(), 2);

    // An SDF named receptor* is still not read as a receptor (the rule is about PDB files).
    const QString receptorSdf = dir.filePath(QStringLiteral("receptor.sdf"));
    QVERIFY(QFile::copy(sdf, receptorSdf));
    f = classifyStartupFiles({receptorSdf});
    QVERIFY(f.receptor.isEmpty());
}

void TestStartupFiles::countsPdbAtomsUpToLimit() {
    const QString ligand = data(QStringLiteral("complexes/1stp/ligand_xtal.pdbqt"));
    const int atoms = countPdbAtoms(ligand, 1000);
    QVERIFY(atoms > 10 && atoms < 40);
    const QString receptor = data(QStringLiteral("complexes/1stp/receptor.pdbqt"));
    QCOMPARE(countPdbAtoms(receptor, kReceptorMinAtoms), kReceptorMinAtoms + 1);
    QCOMPARE(countPdbAtoms(data(QStringLiteral("does/not/exist.pdb")), 10), 0);
}

void TestStartupFiles::bundledExampleIsFound() {
    const QString dir = bundledExampleDir();
    QVERIFY(!dir.isEmpty());
    const StartupFiles f = bundledExampleFiles();
    QVERIFY(QFile::exists(f.receptor));
    QCOMPARE(f.ligands.size(), 1);
    QVERIFY(QFile::exists(f.ligands.front()));
    QVERIFY(QFile::exists(dir + QStringLiteral("/box.txt")));
}

void TestStartupFiles::loadsReceptorWithBonds() {
    const LoadResult r = loadMolecules({bundledExampleFiles().receptor}, LoadKind::Receptor);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.molecules.size(), size_t(1));
    const Molecule& m = r.molecules.front();
    QVERIFY(m.atoms.size() > 1000);
    // PDBQT carries no bonds: they are perceived, about one per heavy atom in a protein.
    QVERIFY(m.bonds.size() > m.atoms.size() * 8 / 10);
    QVERIFY(m.bonds.size() < m.atoms.size() * 13 / 10);
}

void TestStartupFiles::loadsEveryLigandOfEveryFile() {
    const QString sdf = data(QStringLiteral("shapes/cdk2.sdf"));
    const QString pdbqt = data(QStringLiteral("complexes/1iep/ligand_xtal.pdbqt"));
    LoadResult r = loadMolecules({sdf}, LoadKind::Ligands);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const size_t inSdf = r.molecules.size();
    QCOMPARE(inSdf, size_t(47));
    r = loadMolecules({sdf, pdbqt}, LoadKind::Ligands);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.molecules.size(), inSdf + 1);
    QCOMPARE(r.paths, (QStringList{sdf, pdbqt}));
    for (const Molecule& m : r.molecules)
        QVERIFY(!m.bonds.empty());

    // Asynchronously, the same.
    QFuture<LoadResult> future = loadMoleculesAsync({sdf}, LoadKind::Ligands);
    future.waitForFinished();
    QCOMPARE(future.result().molecules.size(), inSdf);
}

void TestStartupFiles::loadErrorsNameFileAndLine() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString broken = dir.filePath(QStringLiteral("broken.sdf"));
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("title\n  program\n\nnot a counts line\n");
    f.close();
    const QString good = data(QStringLiteral("complexes/1iep/ligand_xtal.pdbqt"));

    // One bad file fails the whole request: nothing half-loaded comes back.
    LoadResult r = loadMolecules({good, broken}, LoadKind::Ligands);
    QVERIFY(!r.ok());
    QVERIFY(r.molecules.empty());
    QVERIFY2(r.error.startsWith(broken + QStringLiteral(":")), qPrintable(r.error));

    r = loadMolecules({dir.filePath(QStringLiteral("missing.pdbqt"))}, LoadKind::Receptor);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(QStringLiteral("missing.pdbqt")), qPrintable(r.error));

    r = loadMolecules({good, good}, LoadKind::Receptor);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(QStringLiteral("one receptor file expected")), qPrintable(r.error));

    r = loadMolecules({}, LoadKind::Ligands);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(QStringLiteral("no file given")), qPrintable(r.error));
}

void TestStartupFiles::documentSummaryAndSignals() {
    Document doc;
    QSignalSpy receptorSpy(&doc, &Document::receptorChanged);
    QSignalSpy ligandSpy(&doc, &Document::ligandsChanged);
    QCOMPARE(doc.summary(), QStringLiteral("No receptor · 0 ligands"));
    Molecule receptor;
    receptor.atoms.resize(5);
    doc.setReceptor(receptor, QStringLiteral("/x/receptor.pdbqt"));
    doc.setLigands(std::vector<Molecule>(1), {QStringLiteral("/x/a.sdf")});
    QCOMPARE(receptorSpy.count(), 1);
    QCOMPARE(ligandSpy.count(), 1);
    QCOMPARE(doc.summary(), QStringLiteral("Receptor receptor.pdbqt: 5 atoms · 1 ligand"));
    doc.clear();
    QVERIFY(!doc.hasReceptor());
    QVERIFY(doc.ligands().empty());
    QCOMPARE(receptorSpy.count(), 2);
}

void TestStartupFiles::drawingKeepsAtomsAndBondOrders() {
    Molecule m;
    m.name = "acetaldehyde";
    m.atoms.resize(3);
    m.atoms[0].element = 6;
    m.atoms[1].element = 6;
    m.atoms[1].position = Vec3(1.5, 0, 0);
    m.atoms[2].element = 8;
    m.atoms[2].position = Vec3(2.2, 1.0, 0);
    m.atoms[2].name = "O1";
    m.bonds.push_back({0, 1, BondOrder::Single});
    m.bonds.push_back({1, 2, BondOrder::Double});
    m.bonds.push_back({0, 2, BondOrder::Aromatic});
    const MoleculeDrawing d = toDrawing(m, DrawStyle::LigandAlternate);
    QCOMPARE(d.style, DrawStyle::LigandAlternate);
    QCOMPARE(d.atoms.size(), size_t(3));
    QCOMPARE(d.atoms[2].element, 8);
    QCOMPARE(d.atoms[2].name, std::string("O1"));
    QCOMPARE(d.atoms[2].position[1], 1.0);
    QCOMPARE(d.bonds.size(), size_t(3));
    QCOMPARE(d.bonds[1].order, 2);
    QCOMPARE(d.bonds[2].order, 1); // aromatic drawn single
    const auto b = d.bounds();
    QCOMPARE(b[0], 0.0);
    QCOMPARE(b[1], 2.2);
    QCOMPARE(b[3], 1.0);

    // Hydrogens on carbon are hidden unless asked for; polar and unbonded ones stay, and the
    // bonds follow the atoms' new indices.
    Molecule h = m;
    h.bonds.pop_back();
    h.atoms.resize(6);
    h.atoms[3].element = 1; // on C0
    h.atoms[4].element = 1; // on O2
    h.atoms[5].element = 1; // alone
    h.atoms[4].name = "HO";
    h.bonds.push_back({3, 0, BondOrder::Single});
    h.bonds.push_back({2, 4, BondOrder::Single});
    const MoleculeDrawing shown = toDrawing(h, DrawStyle::Ligand);
    QCOMPARE(shown.atoms.size(), size_t(5));
    QCOMPARE(shown.atoms[3].name, std::string("HO"));
    QCOMPARE(shown.bonds.size(), size_t(3));
    QCOMPARE(shown.bonds[2].i, 2);
    QCOMPARE(shown.bonds[2].j, 3);
    DrawingOptions all;
    all.nonPolarHydrogens = true;
    QCOMPARE(toDrawing(h, DrawStyle::Ligand, all).atoms.size(), size_t(6));
    QCOMPARE(toDrawing(h, DrawStyle::Ligand, all).bonds.size(), size_t(4));
}

QTEST_MAIN(TestStartupFiles)
#include "test_startupfiles.moc"
