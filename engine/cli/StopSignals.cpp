#include "StopSignals.h"

#include "chem/TempFiles.h"

#include <csignal>
#include <cstring>
#include <unistd.h>

namespace pw::cli {
namespace {

// Only async-signal-safe calls here: write, unlink (through the registry), _exit.
extern "C" void onStopSignal(int sig) {
    const char* text = sig == SIGINT ? "posewright-cli: interrupted (SIGINT); stopped, no partial "
                                       "output written\n"
                                     : "posewright-cli: terminated (SIGTERM); stopped, no partial "
                                       "output written\n";
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, text, std::strlen(text));
    removeRegisteredTempFilesFromSignal();
    ::_exit(128 + sig);
}

} // namespace

void installStopSignalHandlers() {
    struct sigaction action {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    // Block the other stop signal while one is handled: one message, one exit.
    sigaddset(&action.sa_mask, SIGINT);
    sigaddset(&action.sa_mask, SIGTERM);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

} // namespace pw::cli
