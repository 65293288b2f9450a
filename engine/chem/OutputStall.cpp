#include "OutputStall.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace pw {

void stallOutputIfRequested(std::string_view point, const std::string& target) {
    static const char* requested = std::getenv("POSEWRIGHT_STALL_OUTPUT");
    if (!requested || point != requested)
        return;
    std::fprintf(stderr, "posewright: output %s stalled %.*s (POSEWRIGHT_STALL_OUTPUT)\n",
                 target.c_str(), static_cast<int>(point.size()), point.data());
    std::fflush(stderr);
    std::this_thread::sleep_for(std::chrono::seconds(120));
}

} // namespace pw
