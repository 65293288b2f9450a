// A build without MPI (POSEWRIGHT_MPI=OFF): every command runs as one process (MpiRun.h).
#include "MpiRun.h"

namespace pw::cli {

int runAcrossRanks(const Command& command, const std::vector<std::string>& args,
                   int (*guarded)(const Command&, const std::vector<std::string>&)) {
    return guarded(command, args);
}

} // namespace pw::cli
