// LINGO profiles and similarity on hand-worked canonical SMILES (RDKit's canonical forms are
// written out here; engine/lingo never canonicalises).
#include "lingo/LingoProfile.h"
#include "lingo/LingoSet.h"

#include <QtTest>

using namespace pw::lingo;

class TestLingoProfile : public QObject {
    Q_OBJECT
private slots:
    void ringClosuresBecomeZero() {
        QCOMPARE(QString::fromStdString(normalizeRingClosures("c1ccc2ccccc2c1")),
                 QString("c0ccc0ccccc0c0"));
        // Two-digit labels collapse to one character; digits inside brackets stay.
        QCOMPARE(QString::fromStdString(normalizeRingClosures("C%12CC%12[13CH3][NH3+]C1CC1")),
                 QString("C0CC0[13CH3][NH3+]C0CC0"));
    }

    void benzeneProfileByHand() {
        // c0ccccc0 -> c0cc, 0ccc, cccc, cccc, ccc0: 5 LINGOs, "cccc" twice.
        const LingoProfile p = makeProfile("c1ccccc1");
        QCOMPARE(p.size, 5u);
        QCOMPARE(int(p.lingos.size()), 4);
        const auto it = std::find(p.lingos.begin(), p.lingos.end(), packLingo("cccc"));
        QVERIFY(it != p.lingos.end());
        QCOMPARE(p.counts[it - p.lingos.begin()], 2u);
        QVERIFY(std::is_sorted(p.lingos.begin(), p.lingos.end()));
        QCOMPARE(QString::fromStdString(unpackLingo(packLingo("Cc0c"))), QString("Cc0c"));
        QVERIFY(packLingo("Cc0c") < packLingo("c0cc")); // packing keeps string order
    }

    void handWorkedPairs() {
        // benzene |A|=5, toluene Cc0ccccc0 |B|=6 (adds Cc0c), I=5: T = 5/(5+6-5) = 5/6.
        const auto benzene = makeProfile("c1ccccc1"), toluene = makeProfile("Cc1ccccc1");
        QCOMPARE(toluene.size, 6u);
        QCOMPARE(tanimoto(benzene, toluene), 5.0f / 6.0f);
        QVERIFY(std::abs(tanimoto(benzene, toluene) - 0.833333f) < 1e-6f);
        // phenol Oc0ccccc0 vs aniline Nc0ccccc0: 6 each, share 5: T = 5/7.
        const auto phenol = makeProfile("Oc1ccccc1"), aniline = makeProfile("Nc1ccccc1");
        QCOMPARE(tanimoto(phenol, aniline), 5.0f / 7.0f);
        QVERIFY(std::abs(tanimoto(phenol, aniline) - 0.714286f) < 1e-6f);
        QCOMPARE(tanimoto(toluene, toluene), 1.0f);
    }

    void countsTakeTheMinimum() {
        // CCCCCC: CCCC x3; CCCCC: CCCC x2 -> I = 2, T = 2/(3+2-2).
        QCOMPARE(tanimoto(makeProfile("CCCCCC"), makeProfile("CCCCC")), 2.0f / 3.0f);
    }

    void shortStringsHaveNoLingos() {
        const auto methane = makeProfile("C"), ethanol = makeProfile("CCO");
        QCOMPARE(methane.size, 0u);
        QCOMPARE(tanimoto(methane, methane), 0.0f);
        QCOMPARE(tanimoto(ethanol, makeProfile("CCCO")), 0.0f);
        QCOMPARE(makeProfile("CCCO").size, 1u);
    }

    void setMatchesProfiles() {
        const std::vector<std::string> smiles{"c1ccccc1", "Cc1ccccc1", "C", "Oc1ccccc1"};
        const LingoSet s = LingoSet::fromCanonicalSmiles(smiles);
        QCOMPARE(int(s.size()), 4);
        QCOMPARE(s.distinct(2), 0u);
        for (size_t i = 0; i < smiles.size(); ++i)
            for (size_t j = 0; j < smiles.size(); ++j)
                QCOMPARE(similarity(s, i, s, j),
                         tanimoto(makeProfile(smiles[i]), makeProfile(smiles[j])));
    }
};

QTEST_GUILESS_MAIN(TestLingoProfile)
#include "test_lingo_profile.moc"
