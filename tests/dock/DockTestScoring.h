// DockTestScoring: a smooth docking energy with a known global minimum for the search tests:
// the squared distance of every atom from where the reference pose (moved by `shift`) puts it.
#pragma once

#include "dock/LigandDockScoring.h"

#include <vector>

namespace pw::test {

class WellScoring final : public dock::LigandDockScoring {
public:
    explicit WellScoring(std::vector<Vec3> target) : target_(std::move(target)) {}

    double evaluate(const std::vector<Vec3>& coords, std::vector<Vec3>* gradient) const override {
        double e = 0;
        for (size_t i = 0; i < coords.size(); ++i) {
            const Vec3 d = coords[i] - target_[i];
            e += d.squaredNorm();
            if (gradient)
                (*gradient)[i] += 2.0 * d;
        }
        return e;
    }
    double rescore(const std::vector<Vec3>& coords,
                   std::vector<dock::DockTerm>& terms) const override {
        terms = {{"well", evaluate(coords, nullptr)}};
        return terms[0].value;
    }

private:
    std::vector<Vec3> target_;
};

} // namespace pw::test
