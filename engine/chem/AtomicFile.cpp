#include "AtomicFile.h"

#include "OutputStall.h"
#include "core/InputError.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace pw {

AtomicFile::AtomicFile(std::string target) : target_(std::move(target)) {
    namespace fs = std::filesystem;
    if (target_.empty())
        throw InputError(target_, 0, "no output file name given");
    fs::path dir = fs::path(target_).parent_path();
    std::error_code ec;
    if (!dir.empty() && !fs::is_directory(dir, ec))
        throw InputError(target_, 0,
                         "cannot write: the directory " + dir.string() + " does not exist");
    if (fs::is_directory(target_, ec))
        throw InputError(target_, 0, "cannot write: is a directory; expected a file name");
    removeStaleTempFiles(target_);
    temp_ = std::make_unique<TempPath>(target_, "tmp");
    out_.open(temp_->path(), std::ios::binary | std::ios::trunc);
    if (!out_)
        throw InputError(target_, 0,
                         "cannot create a file in " +
                             (dir.empty() ? std::string(".") : dir.string()) +
                             " (check permissions and free space)");
}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0)
        ::close(fd_);
    if (!committed_)
        out_.close(); // temp_'s destructor removes the file
}

int AtomicFile::positionalFd() {
    if (fd_ < 0 && !committed_) {
        fd_ = ::open(temp_->path().c_str(), O_RDWR | O_CLOEXEC);
        if (fd_ < 0)
            throw InputError(
                target_, 0,
                std::string("cannot open the temporary output: ").append(std::strerror(errno)));
    }
    return fd_;
}

void AtomicFile::commit() {
    if (committed_)
        return;
    out_.flush();
    bool ok = static_cast<bool>(out_);
    out_.close();
    if (fd_ >= 0) {
        // Not retried on EINTR: Linux has closed the descriptor either way. A network file
        // system may report a failed write only here.
        if (::close(fd_) != 0)
            ok = false;
        fd_ = -1;
    }
    committed_ = true; // from here on temp_ alone owns the temporary file
    if (!ok || out_.fail())
        throw InputError(target_, 0,
                         "writing failed (disk full or file system error); the "
                         "target was left untouched");
    stallOutputIfRequested("before-rename", target_);
    std::error_code ec;
    std::filesystem::rename(temp_->path(), target_, ec);
    if (ec)
        throw InputError(target_, 0, "cannot replace the file: " + ec.message());
    temp_->release();
}

} // namespace pw
