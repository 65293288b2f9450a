// RdkitThreads: RDKit set up for use from many threads at once. RDKit 2022.09 (Debian 12)
// initialises some of its tables lazily, on the first molecule it parses or writes, and two
// threads doing that first parse at the same moment can corrupt the heap (rdkit/rdkit#5746:
// "double free or corruption" on the first concurrent SmilesToMol). Every parallel loop over
// RDKit work calls prepareRdkitForThreads() on its own thread first; only the first call works.
#pragma once

namespace pw {

void prepareRdkitForThreads();

} // namespace pw
