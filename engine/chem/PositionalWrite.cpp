#include "PositionalWrite.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

namespace pw {

int writeAllAt(int fd, const char* data, std::size_t size, std::uint64_t offset) {
    while (size > 0) {
        const ssize_t n = ::pwrite(fd, data, size, static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return n < 0 ? errno : ENOSPC;
        data += n, size -= static_cast<std::size_t>(n), offset += static_cast<std::uint64_t>(n);
    }
    return 0;
}

int sizeOutput(int fd, std::uint64_t size, bool& reserved) {
    int rc;
    while ((rc = ::fallocate(fd, 0, 0, static_cast<off_t>(size))) != 0 && errno == EINTR) {
    }
    reserved = rc == 0;
    if (rc == 0)
        return 0;
    if (errno != EOPNOTSUPP && errno != ENOSYS)
        return errno;
    while ((rc = ::ftruncate(fd, static_cast<off_t>(size))) != 0 && errno == EINTR) {
    }
    return rc == 0 ? 0 : errno;
}

InputError writeFailedError(const std::string& target, int err) {
    return InputError(target, 0,
                      std::string("writing failed (disk full or file system error: ")
                          .append(std::strerror(err))
                          .append("); the target was left untouched"));
}

bool reservedBlocksStay(int fd) {
    struct statfs fs {};
    if (::fstatfs(fd, &fs) != 0)
        return false;
    const auto type = static_cast<unsigned long>(fs.f_type);
    return type == EXT4_SUPER_MAGIC || type == XFS_SUPER_MAGIC || type == TMPFS_MAGIC;
}

OutputMapping::OutputMapping(int fd, std::uint64_t size, bool reserved) {
    if (size == 0 || !reserved || !reservedBlocksStay(fd) || std::getenv("POSEWRIGHT_COMMIT_PWRITE"))
        return;
    void* at = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (at != MAP_FAILED) {
        data_ = static_cast<char*>(at);
        size_ = size;
    }
}

void OutputMapping::unmap() {
    if (data_)
        ::munmap(data_, size_);
    data_ = nullptr;
}

} // namespace pw
