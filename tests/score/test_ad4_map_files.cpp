// autogrid's map files: reading the 1stp maps (../shared/data/complexes/1stp/ad4maps, made by
// autogrid4 4.2.6), writing them back byte for byte, and one clear error (file, line, what was
// expected) for each kind of bad file; autodock4's trilinear interpolation on them.
#include "core/InputError.h"
#include "score/ad4/Ad4MapFiles.h"
#include "score/ad4/Ad4Maps.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace pw;
using namespace pw::ad4;

namespace {

const std::string kDir = std::string(POSEWRIGHT_SHARED_DATA) + "/complexes/1stp/ad4maps";
const std::string kFld = kDir + "/1stp_protein.maps.fld";

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void spit(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// Copies the 1stp map set into dir, letting edit() change one file's text first.
void copySet(const QString& dir, const std::string& file = {},
             const std::function<std::string(std::string)>& edit = {}) {
    for (const auto& e : std::filesystem::directory_iterator(kDir)) {
        std::string text = slurp(e.path().string());
        if (e.path().filename() == file)
            text = edit(text);
        spit(dir.toStdString() + "/" + e.path().filename().string(), text);
    }
}

QString errorOf(const std::string& fld) {
    try {
        readMapsFld(fld);
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestAd4MapFiles : public QObject {
    Q_OBJECT

private slots:
    void readsAutogridMaps() {
        const Ad4Maps maps = readMapsFld(kFld);
        const GridGeometry& g = maps.geometry();
        QCOMPARE(g.npts, (std::array<int, 3>{24, 22, 32}));
        QCOMPARE(g.spacing, 0.375);
        QCOMPARE(g.center, Eigen::Vector3d(10.734, 2.033, -11.537));
        QCOMPARE(static_cast<int>(g.pointCount()), 25 * 23 * 33);
        QCOMPARE(maps.ligandTypes(), (std::vector<std::string>{"A", "C", "OA", "N", "SA", "HD"}));
        QCOMPARE(maps.mapIndex("C"), 1);
        QCOMPARE(maps.mapIndex("e"), 6);
        QCOMPARE(maps.mapIndex("d"), 7);
        QCOMPARE(maps.mapIndex("Cl"), -1);
        QCOMPARE(maps.receptorFile, std::string("1stp_protein.pdbqt"));
        // First two values of the C map file: -0.027, -0.037 (x fastest).
        QCOMPARE(maps.at(1, 0, 0, 0), -0.027f);
        QCOMPARE(maps.at(1, 1, 0, 0), -0.037f);
        // The .xyz file's extent is lo/hi.
        QVERIFY((g.lo() - Eigen::Vector3d(6.234, -2.092, -17.537)).norm() < 1e-9);
        QVERIFY((g.hi() - Eigen::Vector3d(15.234, 6.158, -5.537)).norm() < 1e-9);
    }

    void writesTheSameFilesBack() {
        const Ad4Maps maps = readMapsFld(kFld);
        QTemporaryDir dir;
        const std::string out = dir.path().toStdString() + "/1stp_protein.maps.fld";
        writeMapsFld(maps, out);
        // Line for line the same text, except that autogrid writes some zeros as "0." and we
        // write "0.000" (both read back as 0).
        for (const char* t : {"A", "C", "OA", "N", "SA", "HD", "e", "d"}) {
            const std::string name = std::string("/1stp_protein.") + t + ".map";
            std::istringstream ours(slurp(dir.path().toStdString() + name)), theirs(slurp(kDir + name));
            std::string a, b;
            int lines = 0;
            while (std::getline(theirs, b)) {
                QVERIFY2(std::getline(ours, a), t);
                QVERIFY2(a == b || (b == "0." && a == "0.000"), qPrintable(QString("%1: '%2' vs '%3'").arg(t, a.c_str(), b.c_str())));
                ++lines;
            }
            QVERIFY2(!std::getline(ours, a), t);
            QCOMPARE(lines, 6 + 25 * 23 * 33);
        }
        const Ad4Maps back = readMapsFld(out);
        QVERIFY(back.geometry().sameAs(maps.geometry()));
        QCOMPARE(back.ligandTypes(), maps.ligandTypes());
        for (int m = 0; m < maps.mapCount(); ++m)
            QVERIFY(back.values(m) == maps.values(m));
        // No temporary file is left beside the outputs.
        for (const auto& e : std::filesystem::directory_iterator(dir.path().toStdString()))
            QVERIFY2(e.path().string().find(".tmp.") == std::string::npos, e.path().c_str());
    }

    void writeFailsCleanly() {
        const Ad4Maps maps = readMapsFld(kFld);
        QVERIFY_THROWS_EXCEPTION(InputError, writeMapsFld(maps, "/nonexistent-dir/x.maps.fld"));
        QTemporaryDir dir;
        try {
            writeMapsFld(maps, dir.path().toStdString() + "/x.fld");
            QFAIL("accepted a name without .maps.fld");
        } catch (const InputError& e) {
            QVERIFY(QString(e.what()).contains(".maps.fld"));
        }
        QVERIFY(std::filesystem::is_empty(dir.path().toStdString()));
    }

    void truncatedMap() {
        QTemporaryDir dir;
        copySet(dir.path(), "1stp_protein.OA.map", [](std::string t) { return t.substr(0, t.size() - 70); });
        const QString msg = errorOf(dir.path().toStdString() + "/1stp_protein.maps.fld");
        QVERIFY2(msg.contains("1stp_protein.OA.map:") && msg.contains("truncated map") &&
                     msg.contains("expected 18975"), qPrintable(msg));
    }

    void firstBadMapIsReported() {
        // The maps are read in parallel; the error is always the first bad one in .fld order.
        QTemporaryDir dir;
        copySet(dir.path());
        for (const char* f : {"/1stp_protein.d.map", "/1stp_protein.C.map"}) {
            const std::string path = dir.path().toStdString() + f;
            const std::string t = slurp(path);
            spit(path, t.substr(0, t.size() / 2));
        }
        for (int run = 0; run < 5; ++run) {
            const QString msg = errorOf(dir.path().toStdString() + "/1stp_protein.maps.fld");
            QVERIFY2(msg.contains("1stp_protein.C.map:") && msg.contains("truncated map"), qPrintable(msg));
        }
    }

    void mapOfAnotherGrid() {
        QTemporaryDir dir;
        copySet(dir.path(), "1stp_protein.HD.map", [](std::string t) {
            const size_t p = t.find("NELEMENTS 24 22 32");
            return t.replace(p, 18, "NELEMENTS 24 22 30");
        });
        const QString msg = errorOf(dir.path().toStdString() + "/1stp_protein.maps.fld");
        QVERIFY2(msg.contains("1stp_protein.HD.map:5:") && msg.contains("does not match"), qPrintable(msg));
    }

    void notANumber() {
        QTemporaryDir dir;
        copySet(dir.path(), "1stp_protein.e.map", [](std::string t) {
            const size_t p = t.find("\n", t.find("CENTER")) + 1; // first value, line 7
            return t.replace(p, t.find('\n', p) - p, "0.1x");
        });
        const QString msg = errorOf(dir.path().toStdString() + "/1stp_protein.maps.fld");
        QVERIFY2(msg.contains("1stp_protein.e.map:7:") && msg.contains("expected a number"), qPrintable(msg));
    }

    void badFldFiles() {
        QTemporaryDir dir;
        copySet(dir.path(), "1stp_protein.maps.fld", [](std::string t) {
            const size_t p = t.find("label=Desolvation");
            t.erase(p, t.find('\n', p) - p + 1);
            const size_t v = t.find("variable 8");
            t.erase(v, t.find('\n', v) - v + 1);
            return t.replace(t.find("veclen=8"), 8, "veclen=7");
        });
        QVERIFY2(errorOf(dir.path().toStdString() + "/1stp_protein.maps.fld").contains("no Desolvation map"),
                 qPrintable(errorOf(dir.path().toStdString() + "/1stp_protein.maps.fld")));

        QTemporaryDir dir2;
        copySet(dir2.path(), "1stp_protein.maps.fld",
                [](std::string t) { return t.replace(t.find("#NELEMENTS 24"), 13, "#NELEMENTS 25"); });
        const QString odd = errorOf(dir2.path().toStdString() + "/1stp_protein.maps.fld");
        QVERIFY2(odd.contains("1stp_protein.maps.fld:8:") && odd.contains("even"), qPrintable(odd));

        QTemporaryDir dir3;
        copySet(dir3.path(), "1stp_protein.maps.fld",
                [](std::string t) { return t.replace(t.find("dim2=23"), 7, "dim2=24"); });
        QVERIFY(errorOf(dir3.path().toStdString() + "/1stp_protein.maps.fld").contains("dim2=24 does not match"));

        QVERIFY(errorOf("/nonexistent/none.maps.fld").contains("cannot open"));
        QTemporaryDir dir4;
        spit(dir4.path().toStdString() + "/x.maps.fld", "hello\n");
        QVERIFY(errorOf(dir4.path().toStdString() + "/x.maps.fld").contains("missing #SPACING"));
    }

    void hugeGridIsRefusedBeforeAllocation() {
        // Hand-written inputs run through tests/fuzz/fuzz_ad4_maps (its 120 s run had not reached
        // them): #NELEMENTS 100000 ... asked for petabytes (ASan:
        // allocation-size-too-big) and 2000^3 for 64 GB of zeros. Now one message, no allocation.
        for (const char* elements : {"#NELEMENTS 100000 100000 100000", "#NELEMENTS 2000 2000 2000",
                                     "#NELEMENTS 256 256 256"}) {
            QTemporaryDir dir;
            copySet(dir.path(), "1stp_protein.maps.fld", [&](std::string t) {
                return t.replace(t.find("#NELEMENTS 24 22 32"), 19, elements);
            });
            const QString e = errorOf(dir.path().toStdString() + "/1stp_protein.maps.fld");
            QVERIFY2(e.contains("1stp_protein.maps.fld:8:") && e.contains("points accepted"),
                     qPrintable(e));
        }
    }

    void trilinearInterpolation() {
        const Ad4Maps maps = readMapsFld(kFld);
        const GridGeometry& g = maps.geometry();
        const int c = maps.mapIndex("C");
        // On a grid point: its value; half-way along x: the mean of the two neighbours.
        QVERIFY(std::fabs(maps.interpolate(c, g.point(5, 6, 7)) - maps.at(c, 5, 6, 7)) < 1e-6);
        const Eigen::Vector3d mid = 0.5 * (g.point(5, 6, 7) + g.point(6, 6, 7));
        QVERIFY(std::fabs(maps.interpolate(c, mid) - 0.5 * (maps.at(c, 5, 6, 7) + maps.at(c, 6, 6, 7))) < 1e-6);
        QVERIFY(!g.contains(g.lo()));
        QVERIFY(g.contains(g.lo() + Eigen::Vector3d(1e-6, 1e-6, 1e-6)));
        // The analytic form is the same interpolant with its exact gradient.
        const Eigen::Vector3d p = g.point(7, 8, 9) + Eigen::Vector3d(0.11, 0.23, 0.31);
        Eigen::Vector3d grad;
        const double v = maps.interpolateWithGradient(c, p, &grad);
        QVERIFY(std::fabs(v - maps.interpolate(c, p)) < 1e-5);
        const double h = 1e-6;
        for (int a = 0; a < 3; ++a) {
            Eigen::Vector3d pp = p, pm = p;
            pp[a] += h;
            pm[a] -= h;
            const double fd = (maps.interpolateWithGradient(c, pp, nullptr) - maps.interpolateWithGradient(c, pm, nullptr)) / (2 * h);
            QVERIFY(std::fabs(fd - grad[a]) < 1e-5 * std::max(1.0, std::fabs(fd)));
        }
    }
};

QTEST_GUILESS_MAIN(TestAd4MapFiles)
#include "test_ad4_map_files.moc"
