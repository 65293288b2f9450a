// AD4 map cache and GPF reading: repeated requests are served without rebuilding, any change of
// receptor, box or types is a different entry, the least recently used entry goes first; GPFs
// give autogrid's box and types, and bad ones one clear message with the line. On disk
// (Ad4MapDiskCache): a later process reads the set instead of building it, and the cached maps
// equal freshly built ones (to the files' three decimals); a damaged set (one changed byte, a
// missing checksum list) is detected, ignored and rewritten; the folder stays under its size
// limit by removing the sets used longest ago; the default folder follows XDG_CACHE_HOME, then
// HOME.
#include "PdbqtFixture.h"

#include "core/InputError.h"
#include "score/ad4/Ad4GridParameterFile.h"
#include "score/ad4/Ad4MapBuilder.h"
#include "score/ad4/Ad4MapCache.h"
#include "score/ad4/Ad4MapDiskCache.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace pw;
using namespace pw::ad4;
using namespace pwtest;

namespace {

Molecule receptor1stp() {
    return readPdbqtForTest(dataPath("complexes/1stp/receptor.pdbqt"));
}

GridGeometry box(double dx = 0) {
    GridGeometry b;
    b.center = Vec3(10.734 + dx, 2.033, -11.537);
    b.spacing = 0.5;
    b.npts = {4, 4, 4};
    return b;
}

namespace fs = std::filesystem;

const std::vector<std::string> kTypes = {"C", "HD", "OA"};

bool equalToFileDecimals(const Ad4Maps& a, const Ad4Maps& b) {
    if (a.mapCount() != b.mapCount() || a.ligandTypes() != b.ligandTypes())
        return false;
    for (int k = 0; k < a.mapCount(); ++k) {
        if (a.values(k).size() != b.values(k).size())
            return false;
        for (size_t i = 0; i < a.values(k).size(); ++i)
            if (std::fabs(a.values(k)[i] - b.values(k)[i]) >
                0.0005 + 1e-6 * std::fabs(b.values(k)[i])) // files keep three decimals
                return false;
    }
    return true;
}

// Changes one digit of a map file's last value (same size: only the checksum can tell).
void flipOneDigit(const fs::path& file) {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(0, std::ios::end);
    const std::streamoff size = f.tellg();
    for (std::streamoff at = size - 1; at > 0; --at) {
        f.seekg(at);
        const char c = static_cast<char>(f.get());
        if (c >= '0' && c <= '9') {
            f.seekp(at);
            f.put(c == '9' ? '8' : static_cast<char>(c + 1));
            return;
        }
    }
}

std::uintmax_t folderBytes(const fs::path& dir) {
    std::uintmax_t n = 0;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        n += e.is_regular_file() ? e.file_size() : 0;
    return n;
}

} // namespace

class TestAd4MapCache : public QObject {
    Q_OBJECT

private slots:
    void keyFollowsEveryInput() {
        const Molecule m = receptor1stp();
        const auto k = mapCacheKey(m, box(), {"C", "OA"});
        QCOMPARE(mapCacheKey(m, box(), {"OA", "C"}), k); // a set of types
        QVERIFY(mapCacheKey(m, box(), {"C", "OA", "HD"}) != k);
        QVERIFY(mapCacheKey(m, box(0.375), {"C", "OA"}) != k);
        Molecule moved = m;
        moved.atoms[5].position.x() += 1e-3;
        QVERIFY(mapCacheKey(moved, box(), {"C", "OA"}) != k);
        Molecule recharged = m;
        recharged.atoms[7].charge += 0.001;
        QVERIFY(mapCacheKey(recharged, box(), {"C", "OA"}) != k);
        MapBuildOptions o;
        o.smooth = 0.0;
        QVERIFY(mapCacheKey(m, box(), {"C", "OA"}, o) != k);
    }

    void repeatedRequestsAreNotRebuilt() {
        const Molecule m = receptor1stp();
        MapCache cache(2);
        int built = 0;
        auto counting = [&](const MapSetup& s) {
            ++built;
            return buildMapsCpu(s, 1);
        };
        const auto a = cache.get(m, box(), {"C", "OA"}, {}, counting);
        const auto b = cache.get(m, box(), {"OA", "C"}, {}, counting);
        QCOMPARE(built, 1);
        QCOMPARE(a.get(), b.get());
        QCOMPARE(cache.stats().hits, 1L);
        QCOMPARE(a->mapIndex("OA"), 1);
        QCOMPARE(a->mapIndex("e"), 2);
        QCOMPARE(a->mapIndex("HD"), -1);
        // The cached maps are the builder's maps.
        const Ad4Maps fresh = buildMapsCpu(prepareMaps(m, box(), {"C", "OA"}), 1);
        for (int k = 0; k < fresh.mapCount(); ++k)
            QCOMPARE(a->values(k), fresh.values(k));
    }

    void leastRecentlyUsedIsDropped() {
        const Molecule m = receptor1stp();
        MapCache cache(2);
        cache.get(m, box(0), {"C"});
        cache.get(m, box(1), {"C"});
        cache.get(m, box(0), {"C"}); // box 0 now most recent
        cache.get(m, box(2), {"C"}); // drops box 1
        QCOMPARE(cache.size(), size_t(2));
        QCOMPARE(cache.stats().builds, 3L);
        cache.get(m, box(0), {"C"});
        QCOMPARE(cache.stats().builds, 3L);
        cache.get(m, box(1), {"C"});
        QCOMPARE(cache.stats().builds, 4L);
    }

    // A second cache on the same folder (a later process) reads the maps instead of building them;
    // a damaged file is rebuilt and rewritten.
    void diskCacheServesLaterRuns() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string folder = dir.path().toStdString();
        const Molecule m = receptor1stp();
        std::shared_ptr<const Ad4Maps> first;
        {
            MapCache cache(2, folder);
            first = cache.get(m, box(), {"C", "HD", "OA"});
            QCOMPARE(cache.stats().builds, 1L);
        }
        const std::string fld = folder + "/" + [&] {
            char hex[17];
            std::snprintf(
                hex, sizeof hex, "%016llx",
                static_cast<unsigned long long>(mapCacheKey(m, box(), {"C", "HD", "OA"})));
            return std::string(hex);
        }() + "/maps.maps.fld";
        QVERIFY(std::filesystem::exists(fld));
        MapCache later(2, folder);
        const auto again = later.get(m, box(), {"OA", "C", "HD"});
        QCOMPARE(later.stats().diskHits, 1L);
        QCOMPARE(later.stats().builds, 0L);
        QCOMPARE(again->ligandTypes(), first->ligandTypes());
        for (int k = 0; k < first->mapCount(); ++k)
            for (size_t i = 0; i < first->values(k).size(); ++i)
                QVERIFY(std::fabs(again->values(k)[i] - first->values(k)[i]) <=
                        0.0005 + 1e-7 * std::fabs(first->values(k)[i])); // files keep 3 decimals

        // Truncate one map file: the next process rebuilds instead of failing.
        const std::string cMap = std::filesystem::path(fld).parent_path() / "maps.C.map";
        QVERIFY(std::filesystem::exists(cMap));
        std::filesystem::resize_file(cMap, 40);
        MapCache third(2, folder);
        third.get(m, box(), {"C", "HD", "OA"});
        QCOMPARE(third.stats().builds, 1L);
        MapCache fourth(2, folder);
        fourth.get(m, box(), {"C", "HD", "OA"});
        QCOMPARE(fourth.stats().diskHits, 1L);
    }

    void readsAutogridGpf() {
        const GridParameterFile g = readGridParameterFile(dataPath("ad4maps/1r55/1r55.gpf"));
        QCOMPARE(g.box.npts[0], 10);
        QCOMPARE(g.box.spacing, 0.6);
        QCOMPARE(g.box.center.z(), 25.210);
        QCOMPARE(g.ligandTypes.size(), size_t(10));
        QCOMPARE(g.ligandTypes[9], std::string("Cl"));
        QCOMPARE(g.receptor, std::string("receptor.pdbqt"));
        QVERIFY(g.options.distanceDependentDielectric);
        QCOMPARE(g.options.smooth, 0.5);
    }

    void badGpfNamesTheLine() {
        auto fails = [](const std::string& text, const char* needle) {
            std::istringstream in(text);
            try {
                parseGridParameterFile(in, "bad.gpf");
                QFAIL("expected an InputError");
            } catch (const InputError& e) {
                if (std::string(e.what()).find(needle) == std::string::npos)
                    QFAIL(e.what());
            }
        };
        fails("npts 10 11 10\n", "bad.gpf:1: 'npts'");
        fails("npts 10 10 10\nspacing x\n", "bad.gpf:2: 'spacing'");
        fails("npts 10 10 10\nspacing 0.4\ngridcenter auto\n", "bad.gpf:3: 'gridcenter auto'");
        fails("npts 10 10 10\nspacing 0.4\ngridcenter 1 2 3\n",
              "needs npts, spacing, gridcenter and ligand_types");
        fails("npts 10 10 10\nparameter_file AD4_parameters.dat\n", "bad.gpf:2: parameter_file");
        fails("npts 10 10 10\ndisorder_h\n", "bad.gpf:2: 'disorder_h' is not supported");
        // A typo in npts would allocate gigabytes of maps (found in the .fld reader with
        // tests/fuzz/fuzz_ad4_maps; the GPF shares the check).
        fails("npts 2000 2000 2000\nspacing 0.4\ngridcenter 1 2 3\nligand_types C\n",
              "bad.gpf:1: grid of 2000 x 2000 x 2000 intervals is larger than");
        std::istringstream ok("npts 2 2 2\nspacing 0.4\ngridcenter 1 2 3\nligand_types C\n"
                              "parameter_file /usr/share/autodock/AD4.1_bound.dat\n");
        QCOMPARE(parseGridParameterFile(ok, "ok.gpf").ligandTypes.size(), size_t(1));
    }

    void laterProcessReadsWhatTheFirstBuilt() {
        const Molecule r = receptor1stp();
        QTemporaryDir dir;
        const std::string folder = dir.path().toStdString();
        std::shared_ptr<const Ad4Maps> first;
        {
            MapCache cache(2, folder);
            first = cache.get(r, box(), kTypes);
            QCOMPARE(cache.stats().builds, 1L);
            QVERIFY(fs::exists(cache.entryPath(r, box(), kTypes) + "/posewright.sum"));
        }
        MapCache later(2, folder);
        const auto again = later.get(r, box(), {"OA", "HD", "C"});
        QCOMPARE(later.stats().diskHits, 1L);
        QCOMPARE(later.stats().builds, 0L);
        // The set the first process used is the one on disk: the very same values.
        QCOMPARE(again->mapCount(), first->mapCount());
        for (int k = 0; k < first->mapCount(); ++k)
            QVERIFY(again->values(k) == first->values(k));
        // ... and they are the maps built now without any cache (to the files' decimals).
        const Ad4Maps fresh = buildMapsCpu(prepareMaps(r, box(), kTypes));
        QVERIFY(equalToFileDecimals(*again, fresh));
        // No temporary folder is left behind.
        for (const auto& e : fs::directory_iterator(folder))
            QVERIFY(e.path().filename().string().rfind(".tmp-", 0) != 0);
    }

    void damagedSetIsDetectedIgnoredAndRewritten() {
        const Molecule r = receptor1stp();
        QTemporaryDir dir;
        const std::string folder = dir.path().toStdString();
        MapCache(2, folder).get(r, box(), kTypes);
        const fs::path entry = MapCache(2, folder).entryPath(r, box(), kTypes);
        const fs::path cMap = entry / "maps.C.map";
        QVERIFY(fs::exists(cMap));
        const auto size = fs::file_size(cMap);
        flipOneDigit(cMap); // still a well-formed map file: only the checksum can tell
        QCOMPARE(fs::file_size(cMap), size);

        MapCache second(2, folder);
        const auto rebuilt = second.get(r, box(), kTypes);
        QCOMPARE(second.stats().damaged, 1L);
        QCOMPARE(second.stats().builds, 1L);
        QCOMPARE(second.stats().diskHits, 0L);
        const Ad4Maps fresh = buildMapsCpu(prepareMaps(r, box(), kTypes));
        QVERIFY(equalToFileDecimals(*rebuilt, fresh)); // the damaged value was not used
        MapCache third(2, folder);                     // rewritten: whole again
        third.get(r, box(), kTypes);
        QCOMPARE(third.stats().diskHits, 1L);
        QCOMPARE(third.stats().damaged, 0L);

        // A set without its checksum list (not ours, or cut short) is not trusted either.
        fs::remove(entry / "posewright.sum");
        MapCache fourth(2, folder);
        fourth.get(r, box(), kTypes);
        QCOMPARE(fourth.stats().damaged, 1L);
        QCOMPARE(fourth.stats().builds, 1L);
        QVERIFY(fs::exists(entry / "posewright.sum"));
    }

    void folderStaysUnderItsLimit() {
        const Molecule r = receptor1stp();
        QTemporaryDir dir;
        const std::string folder = dir.path().toStdString();
        // Room for about two sets of this size: the third request removes the oldest.
        std::uintmax_t one = 0;
        {
            MapCache probe(1, folder + "/probe");
            probe.get(r, box(), kTypes);
            one = folderBytes(folder + "/probe");
            fs::remove_all(folder + "/probe");
        }
        QVERIFY(one > 0);
        MapCache cache(1, folder, 2 * one + one / 2);
        cache.get(r, box(0.0), kTypes);
        cache.get(r, box(0.5), kTypes);
        // The first set is used again (a later process reading it): now the second is oldest.
        MapCache reader(1, folder, 2 * one + one / 2);
        reader.get(r, box(0.0), kTypes);
        QCOMPARE(reader.stats().diskHits, 1L);
        cache.get(r, box(1.0), kTypes);
        QVERIFY(fs::exists(cache.entryPath(r, box(0.0), kTypes)));
        QVERIFY(!fs::exists(cache.entryPath(r, box(0.5), kTypes)));
        QVERIFY(fs::exists(cache.entryPath(r, box(1.0), kTypes)));
        QVERIFY(folderBytes(folder) <= 2 * one + one / 2);
    }

    void defaultFolderFollowsXdg() {
        const QByteArray xdg = qgetenv("XDG_CACHE_HOME"), home = qgetenv("HOME");
        qputenv("XDG_CACHE_HOME", "/tmp/xdg-cache");
        QCOMPARE(defaultMapCacheDirectory(), std::string("/tmp/xdg-cache/posewright/ad4maps"));
        qputenv("XDG_CACHE_HOME", "relative/ignored"); // the XDG rule: only absolute paths
        qputenv("HOME", "/home/someone");
        QCOMPARE(defaultMapCacheDirectory(),
                 std::string("/home/someone/.cache/posewright/ad4maps"));
        qunsetenv("XDG_CACHE_HOME");
        qunsetenv("HOME");
        QCOMPARE(defaultMapCacheDirectory(), std::string());
        if (!xdg.isNull())
            qputenv("XDG_CACHE_HOME", xdg);
        if (!home.isNull())
            qputenv("HOME", home);
    }
};

QTEST_GUILESS_MAIN(TestAd4MapCache)
#include "test_ad4_map_cache.moc"
