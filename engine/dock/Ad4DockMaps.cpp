#include "Ad4DockMaps.h"

#include "core/InputError.h"
#include "core/RingClosure.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pw::dock {

ad4::GridGeometry ad4MapBoxFor(const SearchBox& box, double spacing) {
    ad4::GridGeometry m;
    m.center = box.center;
    m.spacing = spacing;
    for (int d = 0; d < 3; ++d) {
        int n = static_cast<int>(std::ceil(box.size[d] / spacing - 1e-9));
        m.npts[d] = std::max(2, n + (n % 2)); // autogrid wants an even count
    }
    return m;
}

SearchBox searchBoxOf(const ad4::GridGeometry& g) {
    SearchBox b;
    b.center = g.center;
    for (int d = 0; d < 3; ++d)
        b.size[d] = g.npts[d] * g.spacing;
    return b;
}

std::vector<std::string> ad4TypesOf(const std::vector<Molecule>& ligands) {
    std::vector<std::string> types;
    for (const Molecule& m : ligands)
        for (const Atom& a : m.atoms)
            // Macrocycle ring-closure types have no AD4 map: the AD4 scorer refuses those
            // ligands by name (Ad4LigandScorer), the others of the batch dock on.
            if (!a.ad4Type.empty() && !isClosureCarbon(a) && !isClosureDummy(a) &&
                std::find(types.begin(), types.end(), a.ad4Type) == types.end())
                types.push_back(a.ad4Type);
    return types;
}

DockTarget makeAd4Target(const Molecule& receptor, const SearchBox& box,
                         const std::vector<std::string>& ligandTypes, int threads) {
    // prepareMaps refuses an uncharged receptor and unknown types, naming the receptor's file.
    const ad4::MapSetup setup = ad4::prepareMaps(receptor, ad4MapBoxFor(box), ligandTypes);
    auto maps = std::make_shared<const ad4::Ad4Maps>(ad4::buildMapsCpu(setup, threads));
    DockTarget t;
    t.scoring = DockScoring::Ad4;
    t.box = searchBoxOf(maps->geometry());
    t.ad4 = std::move(maps);
    return t;
}

DockTarget makeAd4Target(std::shared_ptr<const ad4::Ad4Maps> maps, const std::string& mapsSource,
                         const SearchBox* box, const std::string& boxSource) {
    const ad4::GridGeometry& g = maps->geometry();
    const SearchBox mapsBox = searchBoxOf(g);
    if (box) {
        const double centreOff = (box->center - mapsBox.center).cwiseAbs().maxCoeff();
        const double edgeOff = (box->size - mapsBox.size).cwiseAbs().maxCoeff();
        if (centreOff > 0.5 * g.spacing || edgeOff > g.spacing) {
            char buf[320];
            std::snprintf(buf, sizeof buf,
                          "the box (centre %.3f %.3f %.3f, size %.3f %.3f %.3f) does not match "
                          "the maps of %s (centre %.3f %.3f %.3f, size %.3f %.3f %.3f): give the "
                          "maps' box or leave --box out",
                          box->center.x(), box->center.y(), box->center.z(), box->size.x(),
                          box->size.y(), box->size.z(), mapsSource.c_str(), mapsBox.center.x(),
                          mapsBox.center.y(), mapsBox.center.z(), mapsBox.size.x(),
                          mapsBox.size.y(), mapsBox.size.z());
            throw InputError(boxSource, 0, buf);
        }
    }
    DockTarget t;
    t.scoring = DockScoring::Ad4;
    t.box = mapsBox;
    t.ad4 = std::move(maps);
    return t;
}

} // namespace pw::dock
