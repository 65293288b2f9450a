// LINGO profiles: ring-closure normalisation, 4-gram multiset, sorted-merge intersection.
#include "LingoProfile.h"

#include <algorithm>
#include <cctype>

namespace pw::lingo {

std::string normalizeRingClosures(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    bool inBracket = false;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (inBracket) {
            // Inside [...] digits are isotopes, charges or H counts, never ring labels.
            if (c == ']')
                inBracket = false;
            out.push_back(c);
        } else if (c == '[') {
            inBracket = true;
            out.push_back(c);
        } else if (c == '%' && i + 2 < s.size() && std::isdigit(uint8_t(s[i + 1])) &&
                   std::isdigit(uint8_t(s[i + 2]))) {
            out.push_back('0');
            i += 2;
        } else if (std::isdigit(uint8_t(c))) {
            out.push_back('0');
        } else {
            out.push_back(c);
        }
    }
    return out;
}

std::string unpackLingo(uint32_t l) {
    std::string s(4, ' ');
    for (int i = 0; i < 4; ++i)
        s[i] = char((l >> (24 - 8 * i)) & 0xff);
    return s;
}

LingoProfile makeProfile(std::string_view canonicalSmiles) {
    const std::string s = normalizeRingClosures(canonicalSmiles);
    LingoProfile p;
    if (s.size() < size_t(kLingoLength))
        return p;
    std::vector<uint32_t> all;
    all.reserve(s.size() - kLingoLength + 1);
    for (size_t i = 0; i + kLingoLength <= s.size(); ++i)
        all.push_back(packLingo(s.data() + i));
    std::sort(all.begin(), all.end());
    for (size_t i = 0; i < all.size();) {
        size_t j = i;
        while (j < all.size() && all[j] == all[i])
            ++j;
        p.lingos.push_back(all[i]);
        p.counts.push_back(uint32_t(j - i));
        i = j;
    }
    p.size = uint32_t(all.size());
    return p;
}

float tanimoto(const LingoProfile& a, const LingoProfile& b) {
    const uint32_t inter =
        intersection(a.lingos.data(), a.counts.data(), uint32_t(a.lingos.size()), b.lingos.data(),
                     b.counts.data(), uint32_t(b.lingos.size()));
    return tanimotoFromCounts(inter, a.size, b.size);
}

} // namespace pw::lingo
