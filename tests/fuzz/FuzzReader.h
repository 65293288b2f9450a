// FuzzReader: the body shared by the file-format fuzz targets: every record the reader accepts
// from the fuzzer's bytes, then the RDKit-free analysis the engine runs on read molecules (bond
// perception where bonds are missing, rings, rotatable bonds, torsion tree, XS types). Bad input
// must end in pw::InputError; anything else (a crash, a hang, a sanitizer report, any other
// exception) is a finding.
#pragma once

#include "chem/MoleculeReader.h"
#include "core/BondPerception.h"
#include "core/InputError.h"
#include "core/Rings.h"
#include "core/RotatableBonds.h"
#include "core/TorsionTreeBuilder.h"
#include "core/XsTyping.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

namespace pw::fuzz {

// Ligand-sized records only go through the analysis, so that one input stays well under a second.
constexpr size_t kMaxAnalysedAtoms = 300;

inline void analyse(Molecule& m) {
    if (m.atoms.empty() || m.atoms.size() > kMaxAnalysedAtoms)
        return;
    if (m.bonds.empty())
        perceiveBonds(m);
    findRingMembership(m);
    markRotatableBonds(m);
    const TorsionTree tree = buildTorsionTree(m);
    checkTorsionTree(m, tree);
    assignXsTypes(m);
    m.boundingBox();
}

inline void readAndAnalyse(const uint8_t* data, size_t size, FileFormat format) {
    auto in = std::make_unique<std::istringstream>(
        std::string(reinterpret_cast<const char*>(data), size));
    ReadOptions options;
    options.warn = [](const std::string&) {};
    options.maxAtoms = 20000;
    options.embedSmiles = false;
    try {
        auto reader = MoleculeReader::fromStream(std::move(in), format, "fuzz", options);
        Molecule m;
        for (int records = 0; records < 50 && reader->next(m); ++records) {
            try {
                analyse(m);
            } catch (const InputError&) {
            }
        }
    } catch (const InputError&) {
    }
}

// Calls use(molecule) for up to maxRecords records the reader accepts; InputError from the
// reader or from use() is the expected answer to bad input, anything else a finding.
template <class Use>
void forEachRecord(const uint8_t* data, size_t size, FileFormat format, int maxRecords, Use use) {
    auto in = std::make_unique<std::istringstream>(
        std::string(reinterpret_cast<const char*>(data), size));
    ReadOptions options;
    options.warn = [](const std::string&) {};
    options.maxAtoms = 5000;
    options.embedSmiles = false;
    try {
        auto reader = MoleculeReader::fromStream(std::move(in), format, "fuzz", options);
        Molecule m;
        for (int records = 0; records < maxRecords && reader->next(m); ++records) {
            try {
                use(m);
            } catch (const InputError&) {
            }
        }
    } catch (const InputError&) {
    }
}

} // namespace pw::fuzz
