// AD4 grid maps on the GPU against the CPU builder (the reference) on the same MapSetup: every
// value within 1e-3 kcal/mol plus 4e-6 relative (float resolution of sums of clamped pair terms,
// where values reach 1e4-1e5 inside the protein).
// Receptors: 1stp, 3ce3 and 1r55 (zinc, nitrogen acceptors), ten ligand types, boxes with points
// inside the protein (clamped pairs) and in the pocket.
#include "GpuTestMain.h"
#include "score/PdbqtFixture.h"

#include "cuda/Ad4MapCuda.h"
#include "score/ad4/Ad4MapBuilder.h"

#include <QtTest>

#include <cmath>
#include <filesystem>

using namespace pw;
using namespace pw::ad4;
using namespace pwtest;
using pw::test::sized;

namespace {

const std::vector<std::string> kTypes{"A", "C", "OA", "N", "NA", "SA", "HD", "S", "F", "Cl"};

std::string receptorOf(const std::string& name) {
    const std::string own = dataPath("ad4maps/" + name + "/receptor.pdbqt");
    return std::filesystem::exists(own) ? own : dataPath("complexes/" + name + "/receptor.pdbqt");
}

void compareGpuWithCpu(const MapSetup& setup) {
    const Ad4Maps cpu = buildMapsCpu(setup, 0);
    cuda::Ad4MapGpuTiming t;
    const Ad4Maps gpu = cuda::buildAd4MapsCuda(setup, 0, &t);
    QCOMPARE(gpu.mapCount(), cpu.mapCount());
    long outside = 0, values = 0;
    double worst = 0;
    std::string where;
    for (int k = 0; k < cpu.mapCount(); ++k) {
        QCOMPARE(gpu.values(k).size(), cpu.values(k).size());
        for (size_t i = 0; i < cpu.values(k).size(); ++i) {
            ++values;
            const double c = cpu.values(k)[i], d = std::fabs(gpu.values(k)[i] - c);
            if (d > 1e-3 + 4e-6 * std::fabs(c)) {
                ++outside;
                if (d > worst) {
                    worst = d;
                    where = "map " + std::to_string(k) + " point " + std::to_string(i) + ": gpu " +
                            std::to_string(gpu.values(k)[i]) + ", cpu " + std::to_string(c);
                }
            }
        }
    }
    qInfo("%ld values, %ld outside tolerance, kernel %.3f ms", values, outside, t.kernel * 1e3);
    if (outside)
        QFAIL(("GPU differs from CPU; worst " + where).c_str());
}

} // namespace

class TestAd4MapsGpu : public QObject {
    Q_OBJECT

private slots:
    void equalsCpu_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("cx");
        QTest::addColumn<double>("cy");
        QTest::addColumn<double>("cz");
        QTest::newRow("1stp") << "1stp" << 10.734 << 2.033 << -11.537;
        QTest::newRow("3ce3") << "3ce3" << 20.402 << 18.013 << 56.855;
        QTest::newRow("1r55") << "1r55" << 9.321 << 13.434 << 25.210;
    }
    void equalsCpu() {
        QFETCH(QString, name);
        QFETCH(double, cx);
        QFETCH(double, cy);
        QFETCH(double, cz);
        const Molecule receptor = readPdbqtForTest(receptorOf(name.toStdString()));
        GridGeometry box;
        box.center = Vec3(cx, cy, cz);
        box.spacing = 0.375;
        // 15 x 13.5 x 16.5 Å: pocket, protein surface and interior (small-problem mode: the same
        // centre, half the edge)
        box.npts = {sized(40, 20), sized(36, 18), sized(44, 22)};
        compareGpuWithCpu(prepareMaps(receptor, box, kTypes));
    }

    // Few types (the 8-map kernel) and a box whose sides are not multiples of the thread block.
    void smallTypeSetAndRaggedBox() {
        const Molecule receptor = readPdbqtForTest(receptorOf("1stp"));
        GridGeometry box;
        box.center = Vec3(10.734, 2.033, -11.537);
        box.spacing = 0.45;
        box.npts = {10, 22, 6};
        compareGpuWithCpu(prepareMaps(receptor, box, {"C", "HD", "NA"}));
    }

    void tooManyTypesIsAnError() {
        const Molecule receptor = readPdbqtForTest(receptorOf("1stp"));
        GridGeometry box;
        box.center = Vec3(10.734, 2.033, -11.537);
        box.npts = {2, 2, 2};
        std::vector<std::string> types;
        for (const auto& p : parameterTable())
            if (types.size() < 17 && p.type != "Z")
                types.emplace_back(p.type);
        const MapSetup s = prepareMaps(receptor, box, types);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, cuda::buildAd4MapsCuda(s, 0));
    }
};

POSEWRIGHT_GPU_TEST_MAIN(TestAd4MapsGpu)
#include "test_ad4_maps_gpu.moc"
