// AD4 grid maps against autogrid4 4.2.6 (Debian 4.2.6-9): tests/data/ad4maps holds the maps it
// wrote for small boxes in the pockets of 1stp, 3ce3 and 1r55 (ten ligand types each, covering
// every receptor H-bond geometry: N-H and O-H donors, carbonyl, hydroxyl and ether oxygens,
// nitrogen acceptors, sulphur, metals), with the GPF that made them. Every value must agree.
#include "Ad4MapFixture.h"
#include "PdbqtFixture.h"

#include "core/InputError.h"
#include "score/ad4/Ad4MapBuilder.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace pw;
using namespace pw::ad4;
using namespace pwtest;

namespace {

struct Gpf {
    GridGeometry box;
    std::vector<std::string> ligandTypes;
};

Gpf readGpf(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot open " + path);
    Gpf g;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream s(line.substr(0, line.find('#')));
        std::string key;
        s >> key;
        if (key == "npts")
            s >> g.box.npts[0] >> g.box.npts[1] >> g.box.npts[2];
        else if (key == "spacing")
            s >> g.box.spacing;
        else if (key == "gridcenter")
            s >> g.box.center.x() >> g.box.center.y() >> g.box.center.z();
        else if (key == "ligand_types")
            for (std::string t; s >> t;)
                g.ligandTypes.push_back(t);
    }
    return g;
}

std::string receptorOf(const std::string& name) {
    const std::string own = dataPath("ad4maps/" + name + "/receptor.pdbqt");
    return std::filesystem::exists(own) ? own : dataPath("complexes/" + name + "/receptor.pdbqt");
}

void checkAgainstAutogrid(const Molecule& receptor, const Gpf& gpf, const std::string& mapPrefix,
                          int threads) {
    const MapSetup setup = prepareMaps(receptor, gpf.box, gpf.ligandTypes);
    const Ad4Maps maps = buildMapsCpu(setup, threads);
    QCOMPARE(maps.mapCount(), static_cast<int>(gpf.ligandTypes.size()) + 2);
    MapComparison c;
    for (size_t k = 0; k < gpf.ligandTypes.size(); ++k)
        compareWithAutogrid(maps, static_cast<int>(k), gpf.ligandTypes[k],
                            mapPrefix + gpf.ligandTypes[k] + ".map", c);
    compareWithAutogrid(maps, static_cast<int>(gpf.ligandTypes.size()), "e", mapPrefix + "e.map",
                        c);
    compareWithAutogrid(maps, static_cast<int>(gpf.ligandTypes.size()) + 1, "d",
                        mapPrefix + "d.map", c);
    qInfo("%ld values, %ld equal to 3 decimals, %ld outside tolerance", c.values, c.exact3dp,
          c.outside);
    if (c.outside > 0)
        QFAIL(("worst: " + c.worst).c_str());
}

Molecule charged1stp() {
    return readPdbqtForTest(dataPath("complexes/1stp/receptor.pdbqt"));
}

GridGeometry smallBox() {
    GridGeometry b;
    b.center = Vec3(10.734, 2.033, -11.537);
    b.spacing = 0.5;
    b.npts = {4, 6, 8};
    return b;
}

template <class F> void expectInputError(F&& f, const char* needle) {
    try {
        f();
        QFAIL("expected an InputError");
    } catch (const InputError& e) {
        const std::string msg = e.what();
        if (msg.find(needle) == std::string::npos)
            QFAIL(("message lacks '" + std::string(needle) + "': " + msg).c_str());
    }
}

} // namespace

class TestAd4Maps : public QObject {
    Q_OBJECT

private slots:
    void equalsAutogridOnSmallBoxes_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("1stp") << "1stp";
        QTest::newRow("3ce3") << "3ce3";
        QTest::newRow("1r55") << "1r55";
    }
    void equalsAutogridOnSmallBoxes() {
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        const std::string dir = dataPath("ad4maps/" + n + "/");
        const Gpf gpf = readGpf(dir + n + ".gpf");
        checkAgainstAutogrid(readPdbqtForTest(receptorOf(n)), gpf, dir + n + ".", 2);
    }

    // The whole 1stp box of ../shared (AutoDock-GPU's maps, written by autogrid4 from the same
    // receptor): skipped where ../shared is absent.
    void equalsSharedMapsOf1stp() {
        const std::string dir = std::string(POSEWRIGHT_SHARED_DATA) + "/complexes/1stp/ad4maps/";
        // Shared data is always beside the project: its absence is a failure, not a skip.
        QVERIFY2(std::filesystem::exists(dir + "1stp.gpf"),
                 "../shared/data/complexes/1stp/ad4maps is absent");
        checkAgainstAutogrid(charged1stp(), readGpf(dir + "1stp.gpf"), dir + "1stp_protein.", 0);
    }

    void threadCountDoesNotChangeValues() {
        const MapSetup s = prepareMaps(charged1stp(), smallBox(), {"C", "OA", "HD", "NA"});
        const Ad4Maps one = buildMapsCpu(s, 1);
        const Ad4Maps three = buildMapsCpu(s, 3);
        for (int k = 0; k < one.mapCount(); ++k)
            QCOMPARE(one.values(k), three.values(k));
        QCOMPARE(one.values(0).size(), size_t(5 * 7 * 9));
    }

    // The sweep stores the point values of mapPointEnergies at x-fastest indices.
    void sweepStoresPointValuesInFileOrder() {
        const MapSetup s = prepareMaps(charged1stp(), smallBox(), {"C", "HD"});
        const Ad4Maps g = buildMapsCpu(s, 2);
        double e[4];
        mapPointEnergies(s, gridOffset(s.box, 3, 5, 7), e);
        const long p = (7L * 7 + 5) * 5 + 3;
        for (int k = 0; k < 4; ++k)
            QCOMPARE(g.values(k)[p], static_cast<float>(e[k]));
        QVERIFY(e[2] != 0.0); // electrostatics reaches every point
    }

    void unchargedReceptorIsRejected() {
        Molecule m = charged1stp();
        for (auto& a : m.atoms)
            a.charge = 0.0;
        expectInputError([&] { prepareMaps(m, smallBox(), {"C"}); }, "no partial charges");
    }

    void badRequestsAreRejected() {
        const Molecule m = charged1stp();
        GridGeometry odd = smallBox();
        odd.npts[1] = 5;
        expectInputError([&] { prepareMaps(m, odd, {"C"}); }, "npts must be even");
        expectInputError([&] { prepareMaps(m, smallBox(), {"C", "Qq"}); }, "'Qq'");
        expectInputError([&] { prepareMaps(m, smallBox(), {"C", "C"}); }, "requested twice");
        expectInputError([&] { prepareMaps(m, smallBox(), {}); }, "no ligand atom types");
        Molecule untyped = m;
        untyped.atoms[10].ad4Type.clear();
        expectInputError([&] { prepareMaps(untyped, smallBox(), {"C"}); }, "no AutoDock 4 type");
    }
};

QTEST_GUILESS_MAIN(TestAd4Maps)
#include "test_ad4_maps.moc"
