// LingoProfile: the LINGO multiset of one canonical SMILES string and the LINGO Tanimoto of two.
// Takes already-canonical SMILES (canonicalisation is RDKit's job, in engine/chem/LingoSmiles).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pw::lingo {

// Definition (Vidal, Thormann & Pons, J. Chem. Inf. Model. 45:386, 2005; as in SIML):
//  1. s = RDKit canonical isomeric SMILES of the molecule (done by the caller).
//  2. Every ring-closure label outside brackets, a digit or '%' followed by two digits, is
//     replaced by the single character '0' (so ring numbering does not matter).
//  3. The LINGOs are all overlapping 4-character substrings of s; each is packed into a uint32
//     (first character in the most significant byte), and the profile is their multiset: sorted
//     distinct LINGOs with counts. |X| = number of substrings = sum of counts = max(0, len(s)-3).
//  4. Similarity T(A,B) = I / (|A| + |B| - I), I = sum over LINGOs of min(countA, countB);
//     T = 0 when either profile is empty. I is an integer; T is computed in float as
//     float(I) / float(|A| + |B| - I), the same expression on CPU and GPU, so both agree exactly.
constexpr int kLingoLength = 4;

// Ring-closure labels replaced by '0' (step 2).
std::string normalizeRingClosures(std::string_view canonicalSmiles);

// Packs 4 characters into one uint32, first character most significant (keeps string order).
inline uint32_t packLingo(const char* p) {
    return (uint32_t(uint8_t(p[0])) << 24) | (uint32_t(uint8_t(p[1])) << 16) |
           (uint32_t(uint8_t(p[2])) << 8) | uint32_t(uint8_t(p[3]));
}
std::string unpackLingo(uint32_t lingo);

struct LingoProfile {
    std::vector<uint32_t> lingos; // sorted, distinct
    std::vector<uint32_t> counts; // counts[i] copies of lingos[i]
    uint32_t size = 0;            // |X| = sum of counts
};

// Steps 2-3 on a canonical SMILES string.
LingoProfile makeProfile(std::string_view canonicalSmiles);

// I: sum over common LINGOs of the smaller count (sorted merge). constexpr, like
// tanimotoFromCounts below, so that the CUDA merge kernel calls this very function.
constexpr uint32_t intersection(const uint32_t* lingosA, const uint32_t* countsA, uint32_t nA,
                                const uint32_t* lingosB, const uint32_t* countsB, uint32_t nB) {
    uint32_t i = 0, j = 0, inter = 0;
    while (i < nA && j < nB) {
        const uint32_t a = lingosA[i], b = lingosB[j];
        if (a == b) {
            inter += countsA[i] < countsB[j] ? countsA[i] : countsB[j];
            ++i;
            ++j;
        } else if (a < b) {
            ++i;
        } else {
            ++j;
        }
    }
    return inter;
}

// Step 4 from the integers; the single formula both CPU and GPU use.
// constexpr so that CUDA kernels call this very function (nvcc --expt-relaxed-constexpr).
constexpr float tanimotoFromCounts(uint32_t inter, uint32_t sizeA, uint32_t sizeB) {
    if (sizeA == 0 || sizeB == 0)
        return 0.0f;
    return float(inter) / float(sizeA + sizeB - inter);
}

float tanimoto(const LingoProfile& a, const LingoProfile& b);

} // namespace pw::lingo
