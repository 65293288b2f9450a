// HitsRescore: `posewright-cli hits rescore`, the exact energies of a hit store's poses against a
// receptor, written into the store's rescore_* columns (HitsRescore.cpp).
#pragma once

#include <string>
#include <vector>

namespace pw::cli {

int runHitsRescore(const std::vector<std::string>& args);

} // namespace pw::cli
