// PoseRescorer: the scoring function behind `posewright-cli hits rescore` (HitsRescore.cpp reads
// the store, prepares the poses and writes the values; a PoseRescorer turns prepared poses into
// numbers): Vina/Vinardo through a Backend (HitsRescore.cpp), AD4 with the exact intermolecular
// part (HitsRescoreAd4.cpp).
#pragma once

#include "core/Molecule.h"

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace pw::cli {

// What goes into the columns rescore_affinity, rescore_inter and rescore_intra.
struct RescoreValues {
    double affinity = 0, inter = 0, intra = 0;
};

class PoseRescorer {
public:
    virtual ~PoseRescorer() = default;
    virtual std::string scoringName() const = 0; // "vina", "vinardo", "ad4"
    // Everything that changes the numbers (pw_meta rescore_inputs: a re-run with other inputs
    // clears the old values).
    virtual std::string inputs() const = 0;
    virtual std::string device() const = 0; // for pw_meta rescore_device and the summary
    virtual std::string method() const = 0; // for the summary line ("exact pair sums")
    // Scores the prepared poses (nullopt entries are skipped; the molecules may be moved from):
    // for each other pose i, sets values[i], or leaves it empty and says why in warnings[i].
    // Both come sized as prepared.
    virtual void score(std::vector<std::optional<Molecule>>& prepared,
                       std::vector<std::optional<RescoreValues>>& values,
                       std::vector<std::string>& warnings) = 0;
};

// FNV-1a, 64 bit: the fingerprints of input files and maps in inputs(), so that a re-run with an
// edited file under the same name counts as other inputs.
class Fnv1a {
public:
    void add(const void* data, size_t size) {
        const unsigned char* p = static_cast<const unsigned char*>(data);
        for (size_t i = 0; i < size; ++i) {
            hash_ ^= p[i];
            hash_ *= 1099511628211ULL;
        }
    }
    void add(const std::string& s) { add(s.data(), s.size()); }
    std::string hex() const {
        char out[24];
        std::snprintf(out, sizeof out, "%016llx", hash_);
        return out;
    }

private:
    unsigned long long hash_ = 1469598103934665603ULL;
};

// The fingerprint of a file's bytes (Fnv1a::hex).
std::string fileFingerprint(const std::string& path);

} // namespace pw::cli
