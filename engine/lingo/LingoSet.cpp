// LingoSet: flat storage of many LINGO profiles.
#include "LingoSet.h"

namespace pw::lingo {

uint32_t LingoSet::maxDistinct() const {
    uint32_t m = 0;
    for (size_t i = 0; i < size(); ++i)
        m = std::max(m, distinct(i));
    return m;
}

void LingoSet::add(const LingoProfile& p) {
    lingos.insert(lingos.end(), p.lingos.begin(), p.lingos.end());
    counts.insert(counts.end(), p.counts.begin(), p.counts.end());
    offsets.push_back(uint32_t(lingos.size()));
    sizes.push_back(p.size);
}

LingoSet LingoSet::fromCanonicalSmiles(const std::vector<std::string>& canonical) {
    LingoSet set;
    set.sizes.reserve(canonical.size());
    for (const auto& s : canonical)
        set.add(makeProfile(s));
    return set;
}

uint32_t intersection(const LingoSet& x, size_t a, const LingoSet& y, size_t b) {
    const uint32_t oa = x.offsets[a], ob = y.offsets[b];
    return intersection(x.lingos.data() + oa, x.counts.data() + oa, x.offsets[a + 1] - oa,
                        y.lingos.data() + ob, y.counts.data() + ob, y.offsets[b + 1] - ob);
}

} // namespace pw::lingo
