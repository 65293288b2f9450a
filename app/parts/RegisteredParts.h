// RegisteredParts: the workflow parts this build of the application has, created in the order of
// POSEWRIGHT_APP_PARTS (app/CMakeLists.txt generates the definition from that list).
#pragma once

#include "parts/WorkflowPart.h"

#include <memory>
#include <vector>

namespace pw {

std::vector<std::unique_ptr<WorkflowPart>> createRegisteredParts();

} // namespace pw
