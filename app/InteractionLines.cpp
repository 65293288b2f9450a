#include "InteractionLines.h"

namespace pw {

std::vector<DrawLine> interactionLines(const ScoringTarget& target, const Molecule& ligand) {
    std::vector<DrawLine> lines;
    const ScoringFunction& sf = target.target->scoring();
    const double reach = 4.5; // Å: beyond every XS radius sum, so no candidate is missed
    for (const Atom& l : ligand.atoms) {
        if (l.xs == XsType::None)
            continue;
        for (const Atom& r : target.receptor.atoms) {
            if (r.xs == XsType::None)
                continue;
            const Vec3 d = r.position - l.position;
            if (std::abs(d.x()) > reach || std::abs(d.y()) > reach || std::abs(d.z()) > reach)
                continue;
            const double dist = d.norm();
            const double surface = dist - sf.radius(l.xs) - sf.radius(r.xs);
            const bool hbondPair =
                (xsIsDonor(l.xs) && xsIsAcceptor(r.xs)) || (xsIsAcceptor(l.xs) && xsIsDonor(r.xs));
            LineKind kind;
            if (hbondPair && surface < 0.0)
                kind = LineKind::HydrogenBond;
            else if (!hbondPair && surface < kClashOverlap)
                kind = LineKind::Clash;
            else
                continue;
            lines.push_back({{l.position.x(), l.position.y(), l.position.z()},
                             {r.position.x(), r.position.y(), r.position.z()},
                             kind});
        }
    }
    return lines;
}

} // namespace pw
