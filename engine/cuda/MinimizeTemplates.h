// MinimizeTemplates: the host side of the CUDA minimizer's ligand templates: one flat record per
// distinct prepared ligand (kinematic atom order, fragments, intra pairs) and Vina's reported
// score.
#pragma once

#include "MinimizeTypes.h"
#include "backend/Backend.h"

#include <cstdint>
#include <vector>

namespace pw::cuda {

struct HostTemplate {
    TemplateGpu gpu{};
    std::vector<int> atomOfSlot; // kinematic slot -> molecule atom index
    std::vector<char> heavy;     // per molecule atom
    double numTors = 0;
    std::vector<int> atoms; // packAtom per slot
    std::vector<NodeGpu> nodes;
    std::vector<PairGpu> pairs;
};

// Row of Vina's tabulated potential for an unordered XS type pair (i <= j, rows in order).
int tableRow(int a, int b);

// Structural identity of a prepared ligand: atoms (element, AD4 and XS type) and torsion tree.
// Poses of one ligand share it, so they share one template.
std::uint64_t structureKey(const Molecule& m);

// Throws InputError (naming the ligand's file and record) for a ligand the kernel cannot take.
HostTemplate buildTemplate(const Molecule& mol, const DockingTarget& target,
                           const MinimizeBatchOptions& options);

// A ligand with flexible side chains (MinimizeBatchOptions::flex): mol's first atoms are the
// ligand's (its tree and typing as buildTemplate takes them), then flex.atomCount() atoms in
// FlexModel's flat order. The residues' branches follow the ligand's nodes, with the pose
// torsions after the ligand's (FlexModel's order); each residue's root is a fixed node (parent
// -1) after every moving node (TemplateGpu::movingNodes); the side chains' moving typed
// atoms are scored against the receptor, their fixed atoms only in pairs; the pairs are the
// ligand's own, ligand x moving side-chain atom, and FlexModel's. Reported numbers are the
// caller's (FlexScorer): the template's affinity divisor and numTors are the ligand's.
HostTemplate buildFlexTemplate(const Molecule& mol, const FlexModel& flex,
                               const DockingTarget& target, const MinimizeBatchOptions& options);

// buildFlexTemplate when options.flex is set, else buildTemplate.
HostTemplate buildTemplateFor(const Molecule& mol, const DockingTarget& target,
                              const MinimizeBatchOptions& options);

// Vina --local_only's reported numbers from grid inter and tabulated intra (unbound = own intra).
VinaScore reportedScore(double inter, double intra, double numTors, double divisor);

} // namespace pw::cuda
