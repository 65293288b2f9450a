// tuneMallocForMolecules: glibc's allocator set for RDKit's way of allocating. A substructure
// match reads a molecule (hundreds of small allocations), matches and frees it; with glibc's
// fastbins on, the next larger request runs malloc_consolidate over all of them: 35% of a cold
// query's CPU in malloc/free in a profile (malloc_consolidate alone 14%). With fastbins off
// (small sizes still come from the per-thread tcache) the same query took 22% less user CPU;
// the import's rate was unchanged (tests/bench/RESULTS.md, helper hits3). Process-wide, so the
// commands that read many molecules call it first; once per process.
#pragma once

#include <malloc.h>

#include <mutex>

namespace pw::hits {

inline void tuneMallocForMolecules() {
#if defined(__GLIBC__) && defined(M_MXFAST)
    static std::once_flag once;
    std::call_once(once, [] { mallopt(M_MXFAST, 0); });
#endif
}

} // namespace pw::hits
