// OutputStall: a test hook that stops a process at a chosen point of writing its output, so that a
// test can kill it exactly there (like POSEWRIGHT_STALL_SESSION_SAVE in the app). With
// POSEWRIGHT_STALL_OUTPUT=POINT in the environment, the process says on stderr that it stalled and
// waits 120 s before it goes on. Points (tests/cli/test_cli_signals.cpp kills minimize at each):
//   before-rename  AtomicFile: the temporary output is complete and closed, not yet renamed
//   after-rename   RankedSdfWriter: the output was replaced, its spool not yet removed
//   rescore-batch  hits rescore: a batch's values written, more to come, the transaction open
#pragma once

#include <string>
#include <string_view>

namespace pw {

void stallOutputIfRequested(std::string_view point, const std::string& target);

} // namespace pw
