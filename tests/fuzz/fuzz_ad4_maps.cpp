// libFuzzer target: autogrid's map files as `score --maps` and `dock --maps` read them. The first
// byte picks what the fuzzer's bytes are: 'm' -> the electrostatics .map of a real map set (3ce3,
// tests/data/ad4maps), anything else -> the .maps.fld, which may name that set's map files.
// The files live in a private temporary folder (readMapsFld reads paths, not streams).
#include "core/InputError.h"
#include "score/ad4/Ad4MapFiles.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace {

namespace fs = std::filesystem;

struct MapFolder {
    fs::path dir;
    std::string electrostatics; // the real e map, restored before each .fld input
    MapFolder() {
        char pattern[] = "/tmp/pw-fuzz-ad4-XXXXXX";
        if (!mkdtemp(pattern))
            std::abort();
        dir = pattern;
        for (const auto& entry : fs::directory_iterator(POSEWRIGHT_FUZZ_AD4_MAPS))
            if (entry.path().extension() == ".map" || entry.path().extension() == ".fld")
                fs::copy_file(entry.path(), dir / entry.path().filename());
        std::ifstream in(dir / "3ce3.e.map");
        electrostatics.assign(std::istreambuf_iterator<char>(in), {});
    }
    ~MapFolder() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    void write(const std::string& name, const char* data, size_t size) const {
        std::ofstream(dir / name, std::ios::binary | std::ios::trunc).write(data, size);
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const MapFolder folder;
    if (size < 1)
        return 0;
    const char* bytes = reinterpret_cast<const char*>(data) + 1;
    std::string fld;
    if (data[0] == 'm') {
        folder.write("3ce3.e.map", bytes, size - 1);
        fld = (folder.dir / "3ce3.maps.fld").string();
    } else {
        folder.write("3ce3.e.map", folder.electrostatics.data(), folder.electrostatics.size());
        folder.write("fuzz.maps.fld", bytes, size - 1);
        fld = (folder.dir / "fuzz.maps.fld").string();
    }
    try {
        const pw::ad4::Ad4Maps maps = pw::ad4::readMapsFld(fld);
        (void)maps.geometry().pointCount();
    } catch (const pw::InputError&) {
    }
    return 0;
}
