#include "TempFiles.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <unistd.h>

namespace pw {
namespace {

// A fixed table: a signal handler may read it but not allocate or lock. 64 outputs at once is
// far more than any command has (minimize has two: the spool and the output).
constexpr int kSlots = 64;
constexpr size_t kMaxPath = 4096;
enum SlotState : int { Free = 0, Busy = 1, Ready = 2 };
struct Slot {
    std::atomic<int> state{Free};
    char path[kMaxPath];
};
std::array<Slot, kSlots> gSlots;

int registerPath(const std::string& path) {
    if (path.size() >= kMaxPath)
        return -1; // still removed by its owner or by the next run's stale-file sweep
    for (int i = 0; i < kSlots; ++i) {
        int expected = Free;
        if (gSlots[i].state.compare_exchange_strong(expected, Busy)) {
            std::memcpy(gSlots[i].path, path.c_str(), path.size() + 1);
            gSlots[i].state.store(Ready);
            return i;
        }
    }
    return -1;
}

void unregisterSlot(int slot) {
    if (slot < 0)
        return;
    gSlots[slot].state.store(Busy);
    gSlots[slot].path[0] = '\0';
    gSlots[slot].state.store(Free);
}

bool processIsGone(long pid) {
    if (pid <= 0)
        return false;
    return ::kill(static_cast<pid_t>(pid), 0) == -1 && errno == ESRCH;
}

// The PID in "<prefix>PID" or "<prefix>PID.N", or -1 when `name` has another form.
long pidAfter(std::string_view name, std::string_view prefix) {
    if (name.substr(0, prefix.size()) != prefix)
        return -1;
    name.remove_prefix(prefix.size());
    long pid = -1;
    const auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), pid);
    if (ec != std::errc() || ptr == name.data())
        return -1;
    const std::string_view rest(ptr, static_cast<size_t>(name.data() + name.size() - ptr));
    if (!rest.empty() && rest.front() != '.')
        return -1;
    return pid;
}

} // namespace

TempPath::TempPath(const std::string& target, std::string_view tag) {
    namespace fs = std::filesystem;
    static std::atomic<unsigned> counter{0};
    const fs::path t(target);
    // Hidden, in the target's directory so that the final rename stays on one file system.
    // Built with append(): GCC 12 warns falsely (-Wrestrict) on chained operator+.
    std::string name(".");
    name.append(t.filename().string()).append(".pw-").append(tag).append(".");
    name.append(std::to_string(::getpid())).append(".").append(std::to_string(counter++));
    path_ = (t.parent_path() / name).string();
    slot_ = registerPath(path_);
}

TempPath::~TempPath() {
    if (!path_.empty())
        std::remove(path_.c_str());
    unregisterSlot(slot_);
}

void TempPath::release() {
    unregisterSlot(slot_);
    slot_ = -1;
    path_.clear();
}

int removeStaleTempFiles(const std::string& target) {
    namespace fs = std::filesystem;
    const fs::path t(target);
    const std::string name = t.filename().string();
    if (name.empty())
        return 0;
    const fs::path dir = t.parent_path().empty() ? fs::path(".") : t.parent_path();
    const std::string hidden = std::string(".").append(name).append(".pw-");
    const std::string legacySpool = std::string(name).append(".spool.");
    int removed = 0;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string entry = it->path().filename().string();
        long pid = -1;
        if (entry.rfind(hidden, 0) == 0) {
            // ".NAME.pw-TAG.PID.N": the PID follows the tag's dot.
            const size_t dot = entry.find('.', hidden.size());
            if (dot != std::string::npos)
                pid = pidAfter(std::string_view(entry).substr(dot + 1), "");
        } else {
            pid = pidAfter(entry, legacySpool);
        }
        std::error_code rmError;
        if (pid > 0 && processIsGone(pid) && fs::remove(it->path(), rmError))
            ++removed;
    }
    return removed;
}

void removeRegisteredTempFilesFromSignal() noexcept {
    for (Slot& s : gSlots)
        if (s.state.load() == Ready)
            ::unlink(s.path);
}

} // namespace pw
