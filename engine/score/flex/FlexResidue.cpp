#include "FlexResidue.h"

namespace pw {

std::string FlexResidue::label() const {
    std::string s = resName;
    s.append(" ").append(1, chain == ' ' ? '_' : chain).append(" ").append(std::to_string(resSeq));
    if (insertion != ' ')
        s.append(1, insertion);
    return s;
}

} // namespace pw
