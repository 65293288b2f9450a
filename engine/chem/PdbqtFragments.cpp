#include "PdbqtFragments.h"

#include "core/InputError.h"

namespace pw {
namespace {

// Hydrogens and element-less pseudo-atoms (Meeko's Gn ring-closure dummies) do not make a
// fragment larger: a counter-ion with many hydrogens must not win over the drug.
int heavyAtoms(const Molecule& m) {
    int n = 0;
    for (const Atom& a : m.atoms)
        if (a.element > 1)
            ++n;
    return n;
}

std::string heavy(int n) {
    return std::to_string(n) + (n == 1 ? " heavy atom" : " heavy atoms");
}

} // namespace

void PdbqtFragments::reset() {
    fragments_.clear();
    keptIndex_ = -1;
}

void PdbqtFragments::offer(Molecule&& m, long rootLine) {
    const int n = heavyAtoms(m);
    fragments_.push_back(Fragment{rootLine, n});
    if (keptIndex_ < 0 || n > fragments_[keptIndex_].heavyAtoms) {
        kept_ = std::move(m);
        keptIndex_ = static_cast<int>(fragments_.size()) - 1;
    }
}

std::string PdbqtFragments::warning(const std::string& file) const {
    // A file of thousands of one-atom fragments must not give a warning of thousands of lines.
    constexpr int kListed = 5;
    const Fragment& kept = fragments_[keptIndex_];
    std::string dropped;
    long firstDroppedLine = 0;
    int listed = 0;
    for (int i = 0; i < count(); ++i) {
        if (i == keptIndex_)
            continue;
        if (firstDroppedLine == 0)
            firstDroppedLine = fragments_[i].rootLine;
        if (listed++ < kListed)
            dropped += (dropped.empty() ? "" : ", ") + std::to_string(fragments_[i].rootLine) +
                       " (" + heavy(fragments_[i].heavyAtoms) + ")";
    }
    if (listed > kListed)
        dropped += " and " + std::to_string(listed - kListed) + " more";
    const std::string name = kept_.name.empty() ? "ligand" : "ligand '" + kept_.name + "'";
    return InputError::format(
        file, firstDroppedLine,
        name +
            " holds torsion trees one after another (Open Babel's salt or multi-part "
            "SMILES): kept the largest of " +
            std::to_string(count()) + " fragments (" + heavy(kept.heavyAtoms) + ", ROOT at line " +
            std::to_string(kept.rootLine) + "); dropped " +
            (listed == 1 ? "the fragment at line " : "the fragments at lines ") + dropped);
}

} // namespace pw
