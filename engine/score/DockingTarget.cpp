#include "DockingTarget.h"

#include <algorithm>

namespace pw {

DockingTarget::DockingTarget(const Molecule& receptor, const SearchBox& box, ScoringKind kind,
                             int threads)
    : DockingTarget(receptor, box, ScoringFunction(kind), threads) {}

DockingTarget::DockingTarget(const Molecule& receptor, const SearchBox& box,
                             const ScoringFunction& scoring, int threads)
    : scoring_(scoring), box_(box), dims_(gridDimsFor(box)),
      receptor_(std::make_unique<ReceptorModel>(receptor, dims_)), threads_(threads) {}

const ReceptorGrid& DockingTarget::gridFor(const std::vector<XsType>& types) {
    bool missing = !grid_;
    for (XsType t : types)
        missing = missing || std::find(gridTypes_.begin(), gridTypes_.end(), t) == gridTypes_.end();
    if (missing) {
        for (XsType t : types)
            if (std::find(gridTypes_.begin(), gridTypes_.end(), t) == gridTypes_.end())
                gridTypes_.push_back(t);
        grid_ = std::make_unique<ReceptorGrid>(*receptor_, scoring_, dims_, gridTypes_, threads_);
    }
    return *grid_;
}

bool DockingTarget::hasGridFor(const std::vector<XsType>& types) const {
    return grid_ && std::all_of(types.begin(), types.end(), [&](XsType t) {
               return std::find(gridTypes_.begin(), gridTypes_.end(), t) != gridTypes_.end();
           });
}

std::vector<XsType> DockingTarget::commonLigandTypes() {
    std::vector<XsType> types;
    for (int t = 0; t < kXsTypeCount; ++t)
        if (static_cast<XsType>(t) != XsType::Met_D)
            types.push_back(static_cast<XsType>(t));
    return types;
}

} // namespace pw
