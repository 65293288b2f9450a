// libFuzzer target: the app's session file (JSON) as File > Open session and the crash-recovery
// autosave read it (app/SessionJson.cpp, Qt Core only), then the search box it restores.
#include "SessionJson.h"
#include "core/InputError.h"
#include "score/BoxConfig.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray json(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    try {
        const pw::Session s = pw::sessionFromJson(json, QStringLiteral("/tmp/fuzz/session.pws"));
        if (s.box)
            pw::gridDimsFor(*s.box); // the app lays Vina's grid over the restored box
    } catch (const pw::InputError&) {
    }
    return 0;
}
