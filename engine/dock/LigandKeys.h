// LigandKeys: each docked ligand's index in the input, which keys its random streams, so that a
// ligand docks the same in any batch, chunk or device: consecutive from a first index, or listed
// (a batch with gaps: the records refused before docking keep their numbers).
#pragma once

#include <cstddef>
#include <vector>

namespace pw::dock {

class LigandKeys {
public:
    // first, first + 1, ... (implicit: a batch's first index, as callers always passed it).
    LigandKeys(long first = 0) : first_(first) {}
    // keys[i] for the batch's ligand i; the vector must outlive every use of the keys.
    explicit LigandKeys(const std::vector<long>& keys) : list_(&keys) {}

    long operator[](size_t i) const { return list_ ? (*list_)[offset_ + i] : first_ + long(i); }
    // The keys of the ligands from `offset` on (a chunk of the batch).
    LigandKeys from(size_t offset) const {
        LigandKeys k = *this;
        if (list_)
            k.offset_ += offset;
        else
            k.first_ += long(offset);
        return k;
    }

private:
    long first_ = 0;
    const std::vector<long>* list_ = nullptr;
    size_t offset_ = 0;
};

} // namespace pw::dock
