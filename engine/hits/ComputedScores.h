// ComputedScores: numeric columns that a command computes over the store's poses (`hits
// rescore`'s exact energies), written in place by pose id, with the inputs that produced them
// recorded in pw_meta so that one column never mixes receptors or scoring functions.
#pragma once

#include "HitStore.h"

#include <optional>
#include <string>
#include <vector>

namespace pw::hits {

// The value of a pw_meta key, or nullopt when the store has none.
std::optional<std::string> metaValue(const HitStore& store, const std::string& key);
// Sets a pw_meta key (inside a transaction).
void setMetaValue(HitStore& store, const std::string& key, const std::string& value);

class ComputedScoreWriter {
public:
    // Inside a transaction: declares `columns` (REAL, origin Derived; a re-run finds the same
    // ones) and records `inputs` (a description of what produced the values) under pw_meta key
    // `metaKey`. When the store holds values of these columns from other inputs, every one of
    // them is cleared first (cleared() says how many rows had some).
    ComputedScoreWriter(HitStore& store, const std::string& metaKey,
                        const std::vector<std::string>& columns, const std::string& inputs);

    long long cleared() const { return cleared_; }
    // The inputs recorded before this run (nullopt for the first run).
    const std::optional<std::string>& previousInputs() const { return previous_; }

    // One pose's values, in the order of `columns`; nullopt leaves an empty (NULL) cell.
    void write(long long poseId, const std::vector<std::optional<double>>& values);

private:
    size_t columnCount_ = 0;
    long long cleared_ = 0;
    std::optional<std::string> previous_;
    Statement update_;
};

} // namespace pw::hits
