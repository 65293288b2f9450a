// Ad4DockMaps: the AD4 side of a docking target: maps built from a receptor and a box (the
// project's autogrid twin) or read from autogrid's files, turned into the DockTarget the engine
// docks on, with the checks that keep bad inputs out (uncharged receptor, maps off the box).
#pragma once

#include "DockTarget.h"

#include "core/Molecule.h"
#include "score/BoxConfig.h"
#include "score/ad4/Ad4MapBuilder.h"
#include "score/ad4/Ad4Maps.h"

#include <memory>
#include <string>
#include <vector>

namespace pw::dock {

// autogrid's box over a search box: the same centre, 0.375 Å spacing, the smallest even number
// of intervals per axis that covers the edge.
ad4::GridGeometry ad4MapBoxFor(const SearchBox& box, double spacing = 0.375);
// The search box the maps cover (centre, npts * spacing edges).
SearchBox searchBoxOf(const ad4::GridGeometry& geometry);

// The AD4 maps of every type in `ligandTypes`, built from the receptor (prepared, AD4 types and
// charges) over box with `threads` workers. Throws InputError naming the receptor's file when it
// has no charges (AD4 needs them) or an atom type without AD4 parameters.
DockTarget makeAd4Target(const Molecule& receptor, const SearchBox& box,
                         const std::vector<std::string>& ligandTypes, int threads = 0);

// A target on maps read from files (autogrid's .maps.fld). When a box is also given it must be
// the maps' box (centre within half a grid spacing, edges within one spacing), else InputError
// naming boxSource: docking would search where the maps are not.
DockTarget makeAd4Target(std::shared_ptr<const ad4::Ad4Maps> maps, const std::string& mapsSource,
                         const SearchBox* box = nullptr, const std::string& boxSource = {});

// The AD4 types of the ligands' atoms, each once, in first-seen order.
std::vector<std::string> ad4TypesOf(const std::vector<Molecule>& ligands);

} // namespace pw::dock
