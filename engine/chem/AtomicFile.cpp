#include "AtomicFile.h"

#include "core/InputError.h"

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

namespace pw {

AtomicFile::AtomicFile(std::string target) : target_(std::move(target)) {
    namespace fs = std::filesystem;
    static std::atomic<unsigned> counter{0};
    if (target_.empty())
        throw InputError(target_, 0, "no output file name given");
    fs::path dir = fs::path(target_).parent_path();
    std::error_code ec;
    if (!dir.empty() && !fs::is_directory(dir, ec))
        throw InputError(target_, 0,
                         "cannot write: the directory " + dir.string() + " does not exist");
    if (fs::is_directory(target_, ec))
        throw InputError(target_, 0, "cannot write: is a directory; expected a file name");
    // Hidden name in the same directory, so that the rename stays on one file system.
    fs::path t = fs::path(target_);
    temp_ = (dir / ("." + t.filename().string() + ".tmp" + std::to_string(::getpid()) + "-" +
                    std::to_string(counter++)))
                .string();
    out_.open(temp_, std::ios::binary | std::ios::trunc);
    if (!out_)
        throw InputError(target_, 0,
                         "cannot create a file in " +
                             (dir.empty() ? std::string(".") : dir.string()) +
                             " (check permissions and free space)");
}

AtomicFile::~AtomicFile() {
    if (!committed_) {
        out_.close();
        std::remove(temp_.c_str());
    }
}

void AtomicFile::commit() {
    if (committed_)
        return;
    out_.flush();
    bool ok = static_cast<bool>(out_);
    out_.close();
    if (!ok || out_.fail()) {
        std::remove(temp_.c_str());
        committed_ = true; // nothing left to clean up
        throw InputError(target_, 0,
                         "writing failed (disk full or file system error); the "
                         "target was left untouched");
    }
    std::error_code ec;
    std::filesystem::rename(temp_, target_, ec);
    if (ec) {
        std::remove(temp_.c_str());
        committed_ = true;
        throw InputError(target_, 0, "cannot replace the file: " + ec.message());
    }
    committed_ = true;
}

} // namespace pw
