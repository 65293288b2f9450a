// FuzzReader: the body shared by the file-format fuzz targets: every record the reader accepts
// from the fuzzer's bytes, then the engine's preparation of it, as `posewright-cli info` does.
// Bad input must end in pw::InputError; anything else (a crash, a hang, a sanitizer report, any
// other exception) is a finding.
#pragma once

#include "chem/LigandPreparation.h"
#include "chem/MoleculeReader.h"
#include "chem/ReceptorPreparation.h"
#include "core/InputError.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

namespace pw::fuzz {

// Preparation embeds nothing here (inputs carry coordinates) but sanitizes and types: kept to
// molecules of ligand size so that one input stays well under a second.
constexpr size_t kMaxPreparedAtoms = 200;

inline void readAndPrepare(const uint8_t* data, size_t size, FileFormat format,
                           bool receptor = false) {
    auto in = std::make_unique<std::istringstream>(
        std::string(reinterpret_cast<const char*>(data), size));
    ReadOptions options;
    options.warn = [](const std::string&) {};
    options.maxAtoms = 5000;
    options.embedSmiles = false;
    try {
        auto reader = MoleculeReader::fromStream(std::move(in), format, "fuzz", options);
        Molecule m;
        for (int records = 0; records < 50 && reader->next(m); ++records) {
            if (m.atoms.size() > kMaxPreparedAtoms)
                continue;
            try {
                if (receptor)
                    prepareReceptor(m);
                else
                    prepareLigand(m);
            } catch (const InputError&) {
            }
        }
    } catch (const InputError&) {
    }
}

} // namespace pw::fuzz
