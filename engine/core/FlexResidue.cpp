#include "FlexResidue.h"

#include <cstdio>

namespace pw {

std::string FlexResidue::blockWith(const std::vector<Vec3>& coords) const {
    std::vector<std::string> lines = blockLines;
    for (size_t i = 0; i < atomLine.size() && i < coords.size(); ++i) {
        std::string& l = lines[atomLine[i]];
        if (l.size() < 54)
            l.resize(54, ' ');
        char xyz[32];
        std::snprintf(xyz, sizeof xyz, "%8.3f%8.3f%8.3f", coords[i].x(), coords[i].y(),
                      coords[i].z());
        l.replace(30, 24, xyz, 24);
    }
    std::string out;
    for (const std::string& l : lines)
        out.append(l).append("\n");
    return out;
}

std::string FlexResidue::label() const {
    std::string s = resName;
    s.append(" ").append(1, chain == ' ' ? '_' : chain).append(" ").append(std::to_string(resSeq));
    if (insertion != ' ')
        s.append(1, insertion);
    return s;
}

} // namespace pw
