// LingoSmiles: RDKit canonicalisation of SMILES files for LINGO, in parallel (RDKit's parser and
// writer are thread-safe; logging is switched off once around the whole batch).
#include "LingoSmiles.h"

#include "RdkitThreads.h"
#include "core/InputError.h"

#include <GraphMol/GraphMol.h>
#include <GraphMol/SmilesParse/SmilesParse.h>
#include <GraphMol/SmilesParse/SmilesWrite.h>
#include <RDGeneral/RDLog.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <memory>
#include <thread>

namespace pw {

std::string canonicalSmiles(const std::string& smiles, const std::string& file, long line) {
    std::unique_ptr<RDKit::RWMol> mol;
    try {
        mol.reset(RDKit::SmilesToMol(smiles));
    } catch (const std::exception& e) {
        throw InputError(file, line,
                         "SMILES '" + smiles + "' is not a valid molecule (" + e.what() + ")");
    }
    if (!mol)
        throw InputError(file, line, "cannot parse SMILES '" + smiles + "'");
    if (mol->getNumAtoms() == 0)
        throw InputError(file, line, "SMILES '" + smiles + "' has no atoms");
    return RDKit::MolToSmiles(*mol, /*doIsomericSmiles=*/true);
}

LingoMolecules readLingoSmiles(const std::string& path, int threads) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, 0, "cannot open the file: expected a readable SMILES file");
    struct Line {
        long number;
        std::string smiles, name;
    };
    std::vector<Line> lines;
    std::string text;
    for (long n = 1; std::getline(in, text); ++n) {
        if (!text.empty() && text.back() == '\r')
            text.pop_back();
        const size_t b = text.find_first_not_of(" \t");
        if (b == std::string::npos || text[b] == '#')
            continue;
        const size_t e = text.find_first_of(" \t", b);
        Line l{n, text.substr(b, e == std::string::npos ? std::string::npos : e - b), {}};
        if (e != std::string::npos) {
            const size_t nb = text.find_first_not_of(" \t", e);
            if (nb != std::string::npos)
                l.name = text.substr(nb, text.find_last_not_of(" \t") - nb + 1);
        }
        lines.push_back(std::move(l));
    }
    if (in.bad())
        throw InputError(path, 0, "read error");

    std::vector<std::string> canon(lines.size()), error(lines.size());
    RDLog::LogStateSetter quiet; // we report bad lines ourselves, once
    prepareRdkitForThreads();
    std::atomic<size_t> next{0};
    auto work = [&] {
        for (size_t i; (i = next.fetch_add(1)) < lines.size();) {
            try {
                canon[i] = canonicalSmiles(lines[i].smiles, path, lines[i].number);
            } catch (const InputError& e) {
                error[i] = std::string(e.what()) + " (skipped)";
            }
        }
    };
    int n = threads > 0 ? threads : int(std::max(1u, std::thread::hardware_concurrency()));
    n = int(std::min<size_t>(size_t(n), std::max<size_t>(1, lines.size() / 64)));
    std::vector<std::thread> pool;
    for (int t = 1; t < n; ++t)
        pool.emplace_back(work);
    work();
    for (auto& t : pool)
        t.join();

    LingoMolecules out;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (!error[i].empty()) {
            out.skipped.push_back(error[i]);
            continue;
        }
        out.canonical.push_back(std::move(canon[i]));
        out.names.push_back(lines[i].name);
        out.lines.push_back(lines[i].number);
    }
    return out;
}

} // namespace pw
