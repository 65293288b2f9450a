// SyntheticScreenStore: a hit store of n made-up molecules written straight into poses and
// pw_screen, without RDKit (fast): random fingerprints, a binary molecule for four molecules in
// five and a compact form for two in three, so the screen index and its pack have every part to
// read. Molecule k's SMILES is unique and does not parse: only the index's own readers use it.
#pragma once

#include "hits/HitStore.h"
#include "hits/ScreenIndex.h"

#include <cstdint>
#include <random>
#include <string>
#include <string_view>

namespace pw::test {

inline void writeSyntheticScreenStore(const std::string& path, int n, uint64_t seed) {
    using namespace pw::hits;
    std::mt19937_64 rng(seed);
    HitStore store(path, HitStore::Mode::Create);
    HitStore::Transaction tx(store);
    Statement pose = store.prepare("INSERT INTO poses(name, smiles) VALUES(?, ?)");
    Statement screen =
        store.prepare("INSERT INTO pw_screen(smiles, fp, mol, cmol) VALUES(?, ?, ?, ?)");
    for (int k = 0; k < n; ++k) {
        const std::string smiles = std::string(1 + k % 7, k % 3 ? 'C' : 'c') + "N" +
                                   std::to_string((k * 7919) % n) + "O";
        pose.bind(1, std::string_view("p"));
        pose.bind(2, std::string_view(smiles));
        pose.run();
        ScreenFingerprint fp;
        for (auto& w : fp)
            w = rng();
        const auto blob = encodeScreen(fp);
        const std::string mol(k % 5, char('a' + k % 26));  // none for one in five
        const std::string cmol(k % 3, char('A' + k % 26)); // none for one in three
        screen.bind(1, std::string_view(smiles));
        screen.bindBlobStatic(2, blob.data(), kScreenBytes);
        if (mol.empty())
            screen.bindNull(3);
        else
            screen.bindBlobStatic(3, mol.data(), static_cast<int>(mol.size()));
        if (cmol.empty())
            screen.bindNull(4);
        else
            screen.bindBlobStatic(4, cmol.data(), static_cast<int>(cmol.size()));
        screen.run();
    }
    tx.commit();
}

} // namespace pw::test
