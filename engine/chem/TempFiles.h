// TempFiles: temporary files beside an output (".NAME.pw-TAG.PID.N"), found again and removed by
// the next run once the process that made them is dead (SIGKILL, power loss), and a registry a
// signal handler can empty without allocating (SIGINT/SIGTERM leave nothing behind).
#pragma once

#include <string>
#include <string_view>

namespace pw {

// A temporary path beside `target`, registered until release() or destruction; the destructor
// removes the file unless it was released (renamed onto its target, for example).
class TempPath {
public:
    TempPath(const std::string& target, std::string_view tag);
    ~TempPath();
    TempPath(const TempPath&) = delete;
    TempPath& operator=(const TempPath&) = delete;

    const std::string& path() const { return path_; }
    // The file is no longer ours to remove (it was renamed or removed already).
    void release();

private:
    std::string path_;
    int slot_ = -1; // registry slot, -1 when not registered
};

// Removes the temporary files beside `target` that a process no longer running left behind
// (TempPath names, and the ".spool.PID" files of earlier versions). Returns how many it removed.
int removeStaleTempFiles(const std::string& target);

// Unlinks every registered temporary file. Async-signal-safe: for signal handlers only.
void removeRegisteredTempFilesFromSignal() noexcept;

} // namespace pw
