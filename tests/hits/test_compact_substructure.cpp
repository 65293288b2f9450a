// The compact substructure matcher against RDKit, its oracle: every pattern of a list that
// covers each primitive it evaluates (elements, aromaticity, charges, H counts, degrees, rings,
// bond orders, ring bonds, AND/OR/NOT, recursive SMARTS) and random ones, on molecules with
// charges, aromatic heteroatoms, explicit hydrogens, bridged and large rings; RDKit's limit on
// a recursive pattern's matches; the patterns it must leave to RDKit; and the screen index
// answering through it.
#include "chem/CompactSubstructureRdkit.h"
#include "chem/LingoSmiles.h"
#include "chem/SubstructureQuery.h"
#include "chem/CompactSubstructure.h"
#include "hits/HitStore.h"
#include "hits/ScreenIndex.h"

#include "HitsTestData.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <random>
#include <set>

using namespace pw;
using namespace pw::hits;
using pw::test::readSmilesColumn;

namespace {

// Molecules chosen for the primitives: charges and zwitterions, N-oxides, aromatic N/O/S and
// [nH], explicit (isotopic) hydrogens, H2, bridged, spiro and large rings, triple bonds, salts.
const char* const kSpecialMolecules[] = {"C[N+](C)(C)C",
                                         "[O-][n+]1ccccc1",
                                         "c1cc[nH]c1",
                                         "O=C([O-])c1ccccc1",
                                         "[Na+].[Cl-]",
                                         "CC#N",
                                         "C1CC2CCC1C2",
                                         "C1CCCCCCCCCCC1",
                                         "C1CCC2(CC1)CCCC2",
                                         "[2H]C([2H])([2H])c1ccccc1",
                                         "[H][H]",
                                         "c1ccc2[nH]ccc2c1",
                                         "Nc1ccccc1",
                                         "NC(=O)c1ccco1",
                                         "c1ccsc1",
                                         "C[S+](C)C",
                                         "[NH3+]CC(=O)[O-]",
                                         "O=[N+]([O-])c1ccc(N)cc1",
                                         "C=CC=O",
                                         "OC1=CC=CC=C1",
                                         "[Fe+2]",
                                         "c1ccc2c(c1)oc1ccccc12",
                                         "CN1CCN(C)CC1",
                                         "N#Cc1ccncc1",
                                         "[NH4+]",
                                         "O=S(=O)(N)c1ccccc1",
                                         "C[Si](C)(C)C",
                                         "FC(F)(F)c1ccccc1Cl",
                                         "Brc1cccs1",
                                         "O",
                                         "[OH-]",
                                         "C1=CC2=CC=CC2=C1"};

// Patterns the matcher must answer itself (each evaluated primitive at least once).
const char* const kCompactPatterns[] = {
    "c1ccccc1", "c1ccc2[nH]ccc2c1", "[NX3;H2]c", "C(=O)N", "[N+](=O)[O-]", "[#7,#8]~[#6]",
    "[!#6;!#1]", "*", "[H]", "[#1]", "[R]", "[R0]", "[!R]", "[R2]", "[r5]", "[r6]", "[r]", "[x2]",
    "[x3]", "[x]", "[D3]", "[D1]", "[X4]", "[X3]", "[h1]", "[h0]", "[CH3]", "[CH2]", "[nH]",
    "[n;H0]", "[a]", "[A]", "[o]", "[s]", "[n+]", "[O-]", "[+]", "[-]", "[#6+0]", "[N;+1]", "C=O",
    "C#N", "c:c", "C-C", "c-c", "C@C", "C!@C", "C-,=C", "*~*~*", "[C;R1;!r6]", "c1ccncc1",
    "O=C-[O-]", "C=CC=O", "[#6]@[#7]", "[c;x3]", "[N;X4;+]", "[#8;H1;X2]", "[Cl,Br,I]", "[F,Cl]c",
    "[!C;!c]", "[N,O;!H0]", "C1CCCCC1", "[#6]1~[#6]~[#6]~[#6]~[#6]1", "[S](=O)(=O)N", "[D4;#6]",
    "[Si]", "[#26]", "[N;D2;!R]", "a:a:a:a", "[c,n;R1]~[R2]", "[!#6;R]",
    // the element after another primitive
    "[+;#7]", "[a;#6]", "[H3;#7]", "[R1;c]", "[x2;#6]", "[D1;#6]C", "[R0;#7]", "C[H1;#8]",
    // recursive SMARTS: anchored at their first atom, negated, OR-ed, nested, in rings, with
    // many matches per molecule (paths, symmetric rings)
    "[$(C=O)N]", "[$(C=O)]N", "[c;$(c1ccc2[nH]ccc2c1)]", "[N;!$(NC=O)]", "[$(c1ccccc1)]",
    "[$([NX3]C=O),$([OH]c)]", "[$(*~[$([#7,#8])])]", "[C;$(C(=O)[O-]),$(C(=O)[OH])]",
    "[!$([#6]~[#7])]", "[$(c1ccccc1);R2]", "[$([CH2]),$([CH3])]C", "[$(a:a:a)]~[$(*=O)]",
    "[#6;$([#6]1~*~*~*~*~1)]", "[$(*~*~*~*~*~*)]", "[$(*~*(~*)~*)]", "[!$(*~*~*~*);!#1]",
    "[$([#7;$(*c)]C=O)]", "[O;$(O=[$(C[NH2]),$(C[OH])])]", "c1cc[$(c(~O)),$(c~N)]cc1"};

// Patterns it must leave to RDKit: isotopes, valence, chirality, components, ranges, and a
// recursive SMARTS that holds one of these.
const char* const kRdkitPatterns[] = {"[2H]",      "[v4]",           "[C@H](O)C", "C.C",
                                      "[CH{1-3}]", "[$([C@H](O)C)]", "[13C]",     "[$([13C]=O)]",
                                      "[$(C[v3])]"};

std::string randomSmarts(std::mt19937& rng) {
    static const char* const atoms[] = {
        "c",    "C",    "n",      "N",      "o",     "O",     "s",       "S",     "Cl",
        "F",    "[#7]", "[#8]",   "[OH]",   "[NH2]", "[nH]",  "[N+]",    "[O-]",  "[R]",
        "[R2]", "[r5]", "[r6]",   "[x3]",   "[D3]",  "[!#6]", "[#7,#8]", "[CH3]", "[a]",
        "[A]",  "*",    "[c;R1]", "[C;!R]", "[h1]",  "[X4]",  "[!#1;H0]"};
    static const char* const bonds[] = {"", "", "-", "=", ":", "~", "@", "!@", "#", "-,:"};
    std::uniform_int_distribution<int> atom(0, std::size(atoms) - 1), bond(0, std::size(bonds) - 1),
        len(1, 5), coin(0, 3);
    std::string s = atoms[atom(rng)];
    const int n = len(rng);
    bool ring = false;
    for (int k = 1; k < n; ++k) {
        if (coin(rng) == 0) // a branch
            s += std::string("(") + bonds[bond(rng)] + atoms[atom(rng)] + ")";
        s += std::string(bonds[bond(rng)]) + atoms[atom(rng)];
        if (k == 1 && n >= 3 && coin(rng) == 0) { // a ring of 3 or more: RDKit refuses a bond twice
            s += "1";
            ring = true;
        }
    }
    if (ring)
        s += std::string(bonds[bond(rng)]) + atoms[atom(rng)] + "1";
    return s;
}

// A recursive SMARTS of random parts: an atom whose test holds $(inner), at times negated,
// OR-ed with a second one, or with a recursive SMARTS nested in inner; then, at times, a tail.
std::string randomRecursiveSmarts(std::mt19937& rng) {
    static const char* const heads[] = {"", "", "c;", "C;", "#7;", "!#6;", "R;", "X3;", "a;"};
    static const char* const bonds[] = {"", "-", "=", "~", ":"};
    std::uniform_int_distribution<int> head(0, std::size(heads) - 1),
        bond(0, std::size(bonds) - 1), coin(0, 3);
    std::string inner = randomSmarts(rng);
    if (coin(rng) == 0)
        inner = "[$(" + randomSmarts(rng) + ")]" + bonds[bond(rng)] + inner;
    std::string s = std::string("[") + heads[head(rng)] + (coin(rng) == 0 ? "!" : "") + "$(" +
                    inner + ")";
    if (coin(rng) == 0)
        s += ",$(" + randomSmarts(rng) + ")";
    s += "]";
    if (coin(rng) < 2)
        s += bonds[bond(rng)] + randomSmarts(rng);
    return s;
}

} // namespace

class TestCompactSubstructure : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    std::vector<std::string> molecules_; // canonical SMILES
    std::vector<std::string> compact_;   // their compact forms
    std::vector<ScreenFingerprint> fps_; // their screening fingerprints

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        std::vector<std::string> input =
            readSmilesColumn(QString(POSEWRIGHT_TEST_DATA) + "/smiles/nci_first_300.smi");
        const size_t nci = input.size();
        std::mt19937 rng(4);
        std::uniform_int_distribution<size_t> pick(0, nci - 1);
        for (int k = 0; k < 200; ++k) // two-component molecules, as the bench stores have
            input.push_back(input[pick(rng)] + "." + input[pick(rng)]);
        for (const char* s : kSpecialMolecules)
            input.push_back(s);
        std::set<std::string> distinct; // the store keeps one row per distinct molecule
        for (const std::string& s : input) {
            try {
                const std::string canonical = canonicalSmiles(s);
                if (!distinct.insert(canonical).second)
                    continue;
                std::string compact;
                const auto fp = screenFingerprint(canonical, nullptr, &compact);
                if (!fp)
                    continue;
                fps_.push_back(*fp);
                QVERIFY2(!compact.empty(), canonical.c_str()); // every one of these fits
                molecules_.push_back(canonical);
                compact_.push_back(compact);
            } catch (const std::exception&) {
            }
        }
        QVERIFY(molecules_.size() > 480);
    }

    // Every molecule x every pattern: the compact answer is RDKit's, and the screen never rules out
    // a molecule RDKit matches. A recursive pattern may leave a molecule to RDKit where it has
    // kRecursiveMatchLimit matches (recursiveMatchLimit); nowhere else.
    void matchesEqualRdkit() {
        std::vector<std::string> patterns(std::begin(kCompactPatterns), std::end(kCompactPatterns));
        std::mt19937 rng(44);
        std::vector<std::string> randomOnes;
        for (int k = 0; k < 120; ++k)
            randomOnes.push_back(randomSmarts(rng));
        for (int k = 0; k < 120; ++k)
            randomOnes.push_back(randomRecursiveSmarts(rng));
        int discriminating = 0, compared = 0, recursiveCompared = 0, leftToRdkit = 0;
        for (size_t p = 0; p < patterns.size() + randomOnes.size(); ++p) {
            const bool listed = p < patterns.size();
            const std::string& pattern = listed ? patterns[p] : randomOnes[p - patterns.size()];
            std::optional<SubstructureQuery> oracle;
            try {
                oracle.emplace(pattern, SubstructureQuery::Syntax::Smarts);
            } catch (const PatternError&) {
                QVERIFY2(!listed, pattern.c_str()); // a random one RDKit refuses: skipped
                continue;
            }
            const CompactPattern* compiled = oracle->compactPattern();
            QVERIFY2(compiled || !listed, ("not compact: " + pattern).c_str());
            if (!compiled)
                continue;
            const auto matcher = CompactMatcher::make(*compiled);
            QVERIFY2(matcher, pattern.c_str());
            const bool recursive = !compiled->recursive.empty();
            int yes = 0;
            for (size_t m = 0; m < molecules_.size(); ++m) {
                const std::optional<bool> rdkit = oracle->matchesSmiles(molecules_[m]);
                QVERIFY(rdkit);
                const std::optional<bool> got = matcher->matches(compact_[m]);
                if (!got && recursive) {
                    ++leftToRdkit;
                    continue;
                }
                QVERIFY2(got, (pattern + " on " + molecules_[m]).c_str());
                recursiveCompared += recursive;
                QVERIFY2(*got == *rdkit, (pattern + " on " + molecules_[m] + ": RDKit " +
                                          (*rdkit ? "matches" : "does not match"))
                                             .c_str());
                yes += *got;
                ++compared;
                QVERIFY2(!*rdkit || passesScreen(oracle->screen(), fps_[m]),
                         ("screened out: " + pattern + " on " + molecules_[m]).c_str());
            }
            discriminating += yes > 0 && yes < static_cast<int>(molecules_.size());
        }
        qInfo("%d answers compared, %d of recursive patterns; %d left to RDKit", compared,
              recursiveCompared, leftToRdkit);
        QVERIFY2(discriminating > 150, qPrintable(QString::number(discriminating)));
        QVERIFY(compared > 250 * 480);
        QVERIFY2(recursiveCompared > 100 * 480, qPrintable(QString::number(recursiveCompared)));
        QVERIFY2(leftToRdkit < compared / 1000, qPrintable(QString::number(leftToRdkit)));
    }

    // RDKit records a recursive pattern's anchors from its first kRecursiveMatchLimit matches
    // only. A chain Cl-CH2-(C(CH3)2)n-CH3 has 24 n matches of *~*(~*)~* (4 x 3 x 2 ordered
    // neighbours of each quaternary carbon): 984 for n = 41, answered; 1,008 for n = 42, left
    // to RDKit, and the screen index then gives RDKit's answer.
    void recursiveMatchLimit() {
        const auto chain = [](int n) {
            std::string s = "ClC";
            for (int k = 0; k < n; ++k)
                s += "C(C)(C)";
            return s + "C";
        };
        for (const char* pattern : {"[$(*~*(~*)~*)]", "[Cl;$(*~*(~*)~*)]", "[Cl;!$(*~*(~*)~*)]"}) {
            const SubstructureQuery q(pattern, SubstructureQuery::Syntax::Smarts);
            QVERIFY2(q.compactPattern(), pattern);
            const auto matcher = CompactMatcher::make(*q.compactPattern());
            QVERIFY(matcher);
            for (const int n : {1, 41, 42, 60}) {
                std::string compact;
                QVERIFY(screenFingerprint(canonicalSmiles(chain(n)), nullptr, &compact));
                const std::optional<bool> got = matcher->matches(compact);
                QCOMPARE(got.has_value(), 24 * n < kRecursiveMatchLimit);
                if (got)
                    QCOMPARE(*got, *q.matchesSmiles(chain(n)));
            }
        }
        const std::string path = dir_.filePath("chains.db").toStdString();
        {
            HitStore store(path, HitStore::Mode::Create);
            HitStore::Transaction tx(store);
            for (const int n : {1, 41, 42, 60}) {
                PoseRecord p;
                p.name = "chain" + std::to_string(n);
                const std::string smiles = canonicalSmiles(chain(n));
                p.smiles = smiles;
                p.screen = screenFingerprint(smiles, &p.screenMolecule, &p.screenCompact);
                store.insertPose(p);
            }
            tx.commit();
        }
        HitStore store(path, HitStore::Mode::ReadOnly);
        ScreenIndex index;
        index.load(store.handle(), store.path(), 2, 1 << 30);
        const SubstructureQuery q("[Cl;$(*~*(~*)~*)]", SubstructureQuery::Syntax::Smarts);
        PatternAnswers answers(q);
        answers.answerAll(index, 2);
        for (uint32_t i = 0; i < index.size(); ++i)
            QCOMPARE(answers.known(i), static_cast<signed char>(*q.matchesSmiles(index.smiles(i))));
        QCOMPARE(answers.counts().compact, size_t{2}); // n = 1 and 41
    }

    // RDKit's path for the patterns it keeps: the binary molecule read back (a reused stream
    // per thread) answers as RDKit's own parse of the SMILES, for every molecule.
    void binaryMoleculesMatchAsSmiles() {
        std::vector<SubstructureQuery> queries;
        for (const char* p : {"[$(C=O)N]", "[R2]", "c1ccccc1", "[NX3;H2]c", "C@C", "[2H]",
                              "[$([13C]=O)]"})
            queries.emplace_back(p, SubstructureQuery::Syntax::Smarts);
        queries.emplace_back("c1ccncc1", SubstructureQuery::Syntax::Smiles);
        for (const std::string& smiles : molecules_) {
            std::string binary;
            QVERIFY(screenFingerprint(smiles, &binary));
            const auto parsed = ParsedMolecule::fromBinary(binary);
            QVERIFY2(parsed, smiles.c_str());
            for (const SubstructureQuery& q : queries)
                QVERIFY2(q.matches(*parsed) == *q.matchesSmiles(smiles), smiles.c_str());
        }
        QVERIFY(!ParsedMolecule::fromBinary(""));
        QVERIFY(!ParsedMolecule::fromBinary("not a pickle"));
    }

    void patternsLeftToRdkit() {
        int read = 0;
        for (const char* p : kRdkitPatterns) {
            try {
                const SubstructureQuery q(p, SubstructureQuery::Syntax::Smarts);
                QVERIFY2(!q.compactPattern(), p);
                ++read;
            } catch (const PatternError&) { // a syntax this RDKit lacks (ranges)
            }
        }
        QVERIFY(read >= 8);
        // SMILES syntax (RDKit's plain-atom match rules) is RDKit's too.
        const SubstructureQuery smiles("c1ccccc1", SubstructureQuery::Syntax::Smiles);
        QVERIFY(!smiles.compactPattern());
    }

    // Bytes that are not a compact molecule: no answer (RDKit decides), never a crash.
    void malformedMoleculesAreRefused() {
        const SubstructureQuery q("C~C", SubstructureQuery::Syntax::Smarts);
        const auto matcher = CompactMatcher::make(*q.compactPattern());
        QVERIFY(matcher);
        std::string good;
        QVERIFY(screenFingerprint("CCO", nullptr, &good));
        QCOMPARE(matcher->matches(good), std::optional<bool>(true));
        QVERIFY(!matcher->matches(""));
        QVERIFY(!matcher->matches(good.substr(0, good.size() - 1))); // truncated
        std::string wrongFormat = good;
        wrongFormat[0] = 7;
        QVERIFY(!matcher->matches(wrongFormat));
        std::string badAtom = good; // the last bond's end atom out of range
        badAtom[badAtom.size() - 2] = 9;
        QVERIFY(!matcher->matches(badAtom));
        std::string selfBond = good;
        selfBond[selfBond.size() - 2] = selfBond[selfBond.size() - 3];
        QVERIFY(!matcher->matches(selfBond));
    }

    // The store's screen index keeps the compact forms and the answers go through them; a
    // pw_screen written without the cmol column is answered by RDKit, the same.
    void screenIndexAnswersThroughCompact() {
        for (const bool withColumn : {true, false}) {
            const std::string path =
                dir_.filePath(withColumn ? "with.db" : "without.db").toStdString();
            {
                HitStore store(path, HitStore::Mode::Create);
                HitStore::Transaction tx(store);
                for (size_t i = 0; i < molecules_.size(); ++i) {
                    PoseRecord p;
                    p.name = "m" + std::to_string(i);
                    p.smiles = molecules_[i];
                    p.screen = screenFingerprint(molecules_[i], &p.screenMolecule,
                                                 i % 5 == 2 ? nullptr : &p.screenCompact);
                    store.insertPose(p);
                }
                tx.commit();
                if (!withColumn)
                    store.exec("ALTER TABLE pw_screen DROP COLUMN cmol");
            }
            HitStore store(path, HitStore::Mode::ReadOnly);
            ScreenIndex index;
            index.load(store.handle(), store.path(), 2, 1 << 30);
            QCOMPARE(index.size(), molecules_.size());
            size_t withForm = 0;
            for (uint32_t i = 0; i < index.size(); ++i)
                withForm += !index.compact(i).empty();
            QCOMPARE(withForm, withColumn ? molecules_.size() - (molecules_.size() + 2) / 5 : 0);
            QCOMPARE(index.withoutCompact(), index.size() - withForm);

            // Binary molecules read later, by one reader and by key ranges on connections of
            // their own: the same bytes, molecule by molecule, as read with the index.
            const long long parallelAfter = ScreenIndex::parallelLoadAfter();
            for (const long long after : {1LL << 30, 0LL}) {
                ScreenIndex later;
                later.load(store.handle(), store.path(), 2, 1 << 30, /*binaries=*/false);
                QVERIFY(later.binariesPending());
                QVERIFY(later.binary(3).empty());
                ScreenIndex::setParallelLoadAfter(after);
                later.loadBinaries(store.handle(), 3);
                ScreenIndex::setParallelLoadAfter(parallelAfter);
                QVERIFY(!later.binariesPending());
                size_t withBinary = 0;
                for (uint32_t i = 0; i < index.size(); ++i) {
                    QCOMPARE(later.binary(i), index.binary(i));
                    QCOMPARE(later.compact(i), index.compact(i));
                    withBinary += !later.binary(i).empty();
                }
                QCOMPARE(withBinary, index.size());
            }
            for (const char* pattern : {"c1ccccc1", "[NX3;H2]c", "[$(C=O)N]", "[R2]"}) {
                const SubstructureQuery q(pattern, SubstructureQuery::Syntax::Smarts);
                PatternAnswers answers(q);
                answers.answerAll(index, 2);
                for (uint32_t i = 0; i < index.size(); ++i)
                    QCOMPARE(answers.known(i),
                             static_cast<signed char>(*q.matchesSmiles(index.smiles(i))));
                const ScreenCounts& c = answers.counts();
                QVERIFY(c.matched > 0);
                if (!q.compactPattern() || !withColumn)
                    QCOMPARE(c.compact, size_t{0});
                else // every survivor with a compact form, none without
                    QVERIFY2(c.compact > 0 && c.compact <= c.matched &&
                                 c.compact >= c.matched * 3 / 4,
                             pattern);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCompactSubstructure)
#include "test_compact_substructure.moc"
