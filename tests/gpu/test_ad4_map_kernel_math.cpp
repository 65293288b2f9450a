// The AD4 map kernel's own float arithmetic (Ad4MapPointMath, compiled for the host) against the
// double-precision CPU builder, point by point: runs without a GPU, so the kernel's rules are
// checked wherever the CUDA backend is built; test_ad4_maps_gpu checks the device itself.
#include "score/PdbqtFixture.h"

#include "cuda/Ad4MapPacking.h"
#include "cuda/Ad4MapPointMath.cuh"
#include "score/ad4/Ad4MapBuilder.h"

#include <QtTest>

#include <cmath>
#include <filesystem>

using namespace pw;
using namespace pw::ad4;
using namespace pwtest;

namespace {

std::string receptorOf(const std::string& name) {
    const std::string own = dataPath("ad4maps/" + name + "/receptor.pdbqt");
    return std::filesystem::exists(own) ? own : dataPath("complexes/" + name + "/receptor.pdbqt");
}

// The kernel's computation of every point, on the host, into [map][point].
std::vector<float> kernelMathOnHost(const MapSetup& setup) {
    cuda::PackedAd4Maps p = cuda::packAd4Maps(setup);
    std::vector<float> out(static_cast<size_t>(p.args.points) * setup.mapCount());
    cuda::ad4kernel::Args a = p.args;
    a.pos = p.pos.data();
    a.site = p.site.data();
    a.kind = p.kind.data();
    a.bond = p.bond.data();
    a.plane = p.plane.data();
    a.donors = p.donors.data();
    a.pairTables = p.pairTables.data();
    a.desolvation = p.desolvation.data();
    a.inverseDielectric = p.inverseDielectric.data();
    a.out = out.data();
    for (int z = 0; z < a.nz; ++z)
        for (int y = 0; y < a.ny; ++y)
            for (int x = 0; x < a.nx; ++x)
                cuda::ad4kernel::mapPoint<cuda::ad4kernel::kMaxMaps>(a, p.probes.data(), x, y, z);
    return out;
}

} // namespace

class TestAd4MapKernelMath : public QObject {
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
        GridGeometry box;
        box.center = Vec3(cx, cy, cz);
        box.spacing = 0.55;
        box.npts = {20, 18, 22}; // 11 x 9.9 x 12.1 Å: pocket, surface and protein interior
        const MapSetup setup = prepareMaps(readPdbqtForTest(receptorOf(name.toStdString())), box,
                                           {"A", "C", "OA", "N", "NA", "SA", "HD", "S", "F", "Cl"});
        const Ad4Maps cpu = buildMapsCpu(setup, 0);
        const std::vector<float> host = kernelMathOnHost(setup);
        const size_t n = static_cast<size_t>(box.pointCount());
        long outside = 0;
        double worst = 0, maxModerate = 0; // largest difference where |cpu| < 100

        std::string where;
        for (int k = 0; k < cpu.mapCount(); ++k)
            for (size_t i = 0; i < n; ++i) {
                const double c = cpu.values(k)[i], d = std::fabs(host[size_t(k) * n + i] - c);
                if (std::fabs(c) < 100)
                    maxModerate = std::max(maxModerate, d);
                if (d > 1e-3 + 4e-6 * std::fabs(c)) {
                    ++outside;
                    if (d > worst) {
                        worst = d;
                        where = "map " + std::to_string(k) + " point " + std::to_string(i) +
                                ": kernel math " + std::to_string(host[size_t(k) * n + i]) +
                                ", cpu " + std::to_string(c);
                    }
                }
            }
        qInfo("%zu values, %ld outside tolerance, largest difference where |value| < 100: %.2e",
              n * size_t(cpu.mapCount()), outside, maxModerate);
        if (outside)
            QFAIL(where.c_str());
    }
};

QTEST_GUILESS_MAIN(TestAd4MapKernelMath)
#include "test_ad4_map_kernel_math.moc"
