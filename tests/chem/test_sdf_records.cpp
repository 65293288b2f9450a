// Tests for SDF records cut by one thread and parsed on many (SdfRecordSource, parseSdfRecord):
// every molecule, warning, line number and record number equals the sequential reader's, on real
// files and on bad records (truncated, unknown elements, bad counts, blank runs, CRLF, no final
// newline), in input order.
#include "chem/MoleculeReader.h"
#include "chem/SdfReader.h"
#include "core/ParallelFor.h"

#include <QtTest>

#include <fstream>
#include <memory>
#include <sstream>

using namespace pw;

namespace {

const std::string kData = POSEWRIGHT_TEST_DATA;

struct Reading {
    std::vector<Molecule> molecules;
    std::vector<std::string> warnings;
};

std::string fileText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

Reading sequential(const std::string& text, const std::string& name, int maxAtoms = 1000000) {
    Reading r;
    ReadOptions o;
    o.maxAtoms = maxAtoms;
    o.warn = [&](const std::string& w) { r.warnings.push_back(w); };
    auto reader = MoleculeReader::fromStream(std::make_unique<std::istringstream>(text),
                                             FileFormat::Sdf, name, o);
    Molecule m;
    while (reader->next(m))
        r.molecules.push_back(m);
    return r;
}

// Cut on this thread, parse on four, report in record order (as `minimize` does).
Reading parallel(const std::string& text, const std::string& name, int maxAtoms = 1000000,
                 std::vector<SdfRecordText>* cut = nullptr) {
    ReadOptions o;
    o.maxAtoms = maxAtoms;
    auto reader = MoleculeReader::fromStream(std::make_unique<std::istringstream>(text),
                                             FileFormat::Sdf, name, o);
    auto* source = dynamic_cast<SdfRecordSource*>(reader.get());
    if (!source)
        qFatal("the SDF reader is not an SdfRecordSource");
    std::vector<SdfRecordText> records;
    SdfRecordText t;
    while (source->nextRecordText(t))
        records.push_back(t);
    std::vector<Molecule> mols(records.size());
    std::vector<std::string> warnings(records.size());
    std::vector<char> ok(records.size());
    parallelFor(static_cast<long>(records.size()), 4,
                [&](long i) { ok[i] = parseSdfRecord(records[i], name, o, mols[i], warnings[i]); });
    Reading r;
    for (size_t i = 0; i < records.size(); ++i) {
        if (ok[i])
            r.molecules.push_back(mols[i]);
        else if (!warnings[i].empty())
            r.warnings.push_back(warnings[i]);
    }
    if (cut)
        *cut = records;
    return r;
}

bool sameMolecule(const Molecule& a, const Molecule& b) {
    if (a.name != b.name || a.properties != b.properties || a.sourceFile != b.sourceFile ||
        a.sourceRecord != b.sourceRecord || a.atoms.size() != b.atoms.size() ||
        a.bonds.size() != b.bonds.size() || a.residues.size() != b.residues.size())
        return false;
    for (size_t i = 0; i < a.atoms.size(); ++i) {
        const Atom& x = a.atoms[i];
        const Atom& y = b.atoms[i];
        if (x.element != y.element || x.position != y.position || x.charge != y.charge ||
            x.formalCharge != y.formalCharge || x.aromatic != y.aromatic || x.name != y.name)
            return false;
    }
    for (size_t i = 0; i < a.bonds.size(); ++i)
        if (a.bonds[i].a != b.bonds[i].a || a.bonds[i].b != b.bonds[i].b ||
            a.bonds[i].order != b.bonds[i].order)
            return false;
    return true;
}

void compare(const std::string& text, const std::string& name, int maxAtoms = 1000000) {
    Reading s = sequential(text, name, maxAtoms);
    Reading p = parallel(text, name, maxAtoms);
    QCOMPARE(p.warnings.size(), s.warnings.size());
    for (size_t i = 0; i < s.warnings.size(); ++i)
        QCOMPARE(p.warnings[i], s.warnings[i]);
    QCOMPARE(p.molecules.size(), s.molecules.size());
    for (size_t i = 0; i < s.molecules.size(); ++i)
        QVERIFY2(sameMolecule(p.molecules[i], s.molecules[i]),
                 qPrintable(QString("%1 record %2").arg(name.c_str()).arg(i)));
}

std::string atomLine(const char* symbol, const char* x = "0.0000") {
    return std::string("    ") + x + "    0.0000    0.0000 " + symbol +
           std::string(3 - std::string(symbol).size(), ' ') +
           " 0  0  0  0  0  0  0  0  0  0  0  0\n";
}

std::string record(const std::string& title, const char* symbol2 = "O") {
    return title + "\n  test\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n" + atomLine("C") +
           atomLine(symbol2, "1.2000") + "  1  2  1  0\nM  END\n> <id>\n" + title + "\n\n$$$$\n";
}

} // namespace

class TestSdfRecords : public QObject {
    Q_OBJECT
private slots:
    void realFilesAsTheSequentialReader() {
        for (const char* rel :
             {"/shapes/cdk2.sdf", "/shapes/ref.mol", "/complexes/1iep/ligand_xtal.sdf"}) {
            const std::string path = kData + rel;
            const std::string text = fileText(path);
            QVERIFY2(!text.empty(), rel);
            compare(text, path);
        }
        // The whole of cdk2.sdf: 47 records, the warnings list empty.
        const std::string cdk2 = kData + "/shapes/cdk2.sdf";
        Reading p = parallel(fileText(cdk2), cdk2);
        QCOMPARE(p.molecules.size(), size_t(47));
        QVERIFY(p.warnings.empty());
        QCOMPARE(p.molecules[46].sourceRecord, 47L);
    }
    void recordTextsKeepTheirLineNumbers() {
        const std::string text = record("one") + record("two") + record("three");
        std::vector<SdfRecordText> cut;
        parallel(text, "three.sdf", 1000000, &cut);
        QCOMPARE(cut.size(), size_t(3));
        // Title, program, comment, counts, 2 atoms, bond, M  END, tag, value, blank, '$$$$'.
        const long linesPerRecord = 12;
        for (size_t i = 0; i < cut.size(); ++i) {
            QCOMPARE(cut[i].firstLine, 1 + linesPerRecord * static_cast<long>(i));
            QCOMPARE(cut[i].record, static_cast<long>(i) + 1);
            QVERIFY(cut[i].text.size() > 10 &&
                    cut[i].text.substr(cut[i].text.size() - 5) == "$$$$\n");
        }
        // Through the reader's text, the same message and line as read sequentially: the
        // unknown element of record two is on line 12 + 6 = 18.
        const std::string bad = record("one") + record("two", "Xx") + record("three");
        Reading p = parallel(bad, "mixed.sdf");
        QCOMPARE(p.molecules.size(), size_t(2));
        QCOMPARE(p.molecules[1].name, std::string("three"));
        QCOMPARE(p.molecules[1].sourceRecord, 3L);
        QCOMPARE(p.warnings.size(), size_t(1));
        QCOMPARE(p.warnings[0], std::string("mixed.sdf:18: atom 2: unknown element symbol 'Xx'; "
                                            "expected a chemical element (C, N, O, Cl, ...) "
                                            "(record skipped)"));
        compare(bad, "mixed.sdf");
    }
    void badRecordsAsTheSequentialReader() {
        std::string truncated = "trunc\n  test\n\n 20  0  0  0  0  0  0  0  0  0999 V2000\n";
        for (int i = 0; i < 5; ++i)
            truncated += atomLine("C");
        truncated += "$$$$\n";
        const std::string good = record("good");
        const std::vector<std::pair<std::string, std::string>> cases{
            {"truncated atoms", good + truncated + good},
            {"file ends inside a record", good + good.substr(0, 60)},
            {"empty record", good + "$$$$\n" + good},
            {"bad counts line", good + "x\n  t\n\n  garbage\n" + atomLine("C") + "$$$$\n" + good},
            {"bad bond", good + "b\n  t\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n" +
                             atomLine("C") + atomLine("O") + "  1  7  1  0\nM  END\n$$$$\n" + good},
            {"blank title", "\n  t\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n" + atomLine("N") +
                                "M  END\n$$$$\n" + good},
            {"one to three blank lines then $$$$",
             good + "\n\n$$$$\n" + good + "\n\n\n$$$$\n" + good},
            // More than three blank lines, then '$$$$': the sequential reader also swallows the
            // next record; the cut keeps that.
            {"blank run then $$$$", good + "\n\n\n\n\n$$$$\n" + record("swallowed") + good},
            {"blank run then a record", good + "\n\n\n\n\nx\n" + atomLine("C") + "$$$$\n" + good},
            {"trailing blank lines", good + good + "\n\n\n"},
            {"no final newline", good + good.substr(0, good.size() - 1)},
            {"CRLF",
             [&] {
                 std::string crlf;
                 for (char c : good + good)
                     crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
                 return crlf;
             }()},
            {"bad M  CHG", good + "c\n  t\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\n" +
                               atomLine("N") + "M  CHG  2   1   1\nM  END\n$$$$\n" + good},
            {"V3000 with a bad count",
             good +
                 "v3\n  t\n\n  0  0  0     0  0            999 V3000\nM  V30 BEGIN CTAB\n"
                 "M  V30 COUNTS 2 0 0 0 0\nM  V30 BEGIN ATOM\nM  V30 1 C 0 0 0 0\n"
                 "M  V30 END ATOM\nM  V30 END CTAB\nM  END\n$$$$\n" +
                 good},
            {"latin-1 title", good + record("caf\xe9") + good},
            {"only $$$$ lines", "$$$$\n$$$$\n" + good},
        };
        for (const auto& [what, text] : cases) {
            Reading s = sequential(text, "bad.sdf");
            QVERIFY2(!s.molecules.empty(), what.c_str());
            compare(text, "bad.sdf");
            if (QTest::currentTestFailed())
                QFAIL(what.c_str());
        }
        // The size limit (ReadOptions::maxAtoms) is applied per record as before.
        compare(record("a") + truncated + record("b"), "limit.sdf", 1);
        QCOMPARE(parallel(record("a") + record("b"), "limit.sdf", 1).warnings.size(), size_t(2));
    }
    void acrossBufferRefills() {
        // The reader refills 1 MiB at a time: records (and a 3 MiB tag line, longer than the
        // buffer) that straddle refills are cut whole, with the right line numbers.
        std::string text;
        for (int i = 0; i < 20000; ++i)
            text += record("r" + std::to_string(i), i % 997 == 0 ? "Xx" : "O");
        std::string big = record("long");
        big.insert(big.find("\n\n$$$$"), "\n" + std::string(3 << 20, 'x'));
        text += big + record("after") + "\n\n";
        compare(text, "big.sdf");
        Reading p = parallel(text, "big.sdf");
        QCOMPARE(p.molecules.size(), size_t(20000 + 2 - 21));
        QCOMPARE(p.molecules.back().name, std::string("after"));
        QCOMPARE(p.molecules.back().sourceRecord, 20002L);
    }
    void realFileThroughOpen() {
        // MoleculeReader::open (extension and content checks) hands out the same source.
        auto reader = MoleculeReader::open(kData + "/shapes/cdk2.sdf");
        auto* source = dynamic_cast<SdfRecordSource*>(reader.get());
        QVERIFY(source);
        SdfRecordText t;
        long n = 0, lastLine = 0;
        while (source->nextRecordText(t)) {
            QVERIFY(t.firstLine > lastLine);
            lastLine = t.firstLine;
            ++n;
        }
        QCOMPARE(n, 47L);
    }
};

QTEST_GUILESS_MAIN(TestSdfRecords)
#include "test_sdf_records.moc"
