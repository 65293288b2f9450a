// ScoreEach: the loop `score` runs over a ligand file, whatever the scoring: every record is
// read, prepared and handed to scoreOne; a record that cannot be used is a warning and the others
// go on; the exit code is 1 only when no record could be scored.
#pragma once

#include "core/Molecule.h"

#include <functional>
#include <string>

namespace pw::cli {

// scoreOne(prepared ligand, record index) prints its result; an InputError it throws counts the
// record as refused.
int scoreEachLigand(const std::string& ligandFile,
                    const std::function<void(const Molecule& ligand, long index)>& scoreOne);

} // namespace pw::cli
