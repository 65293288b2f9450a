#include "PositionalWrite.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
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

} // namespace pw
