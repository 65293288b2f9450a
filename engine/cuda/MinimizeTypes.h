// MinimizeTypes: the flat, pointer-free records the batched CUDA minimizer reads and writes,
// shared by the host packer (plain C++) and the kernel: many ligands of any size in one launch.
#pragma once

#include <cstdint>

namespace pw::cuda {

// How the per-fragment force/torque sums and the energy are reduced inside a warp.
enum class Reduction : int {
    SharedAtomics = 0,  // atomicAdd into per-fragment slots in shared memory
    WarpShuffle = 1,    // segmented inclusive scan with __shfl_up_sync (atoms are fragment-ordered)
    TensorCoreWmma = 2, // membership matrix x per-atom vectors on the Tensor Cores (tf32 hi + lo)
};
const char* reductionName(Reduction r); // "shared", "shuffle", "wmma"
// The same names; false (out unchanged) for any other text.
inline bool parseReduction(const char* name, Reduction& out) {
    const char* names[] = {"shared", "shuffle", "wmma"};
    for (int k = 0; k < 3; ++k) {
        const char *a = name, *b = names[k];
        while (*a && *a == *b)
            ++a, ++b;
        if (*a == 0 && *b == 0) {
            out = static_cast<Reduction>(k);
            return true;
        }
    }
    return false;
}

inline constexpr int kMaxTemplateAtoms = 256; // per ligand, hydrogens included
inline constexpr int kMaxTemplateNodes = 64;  // rigid fragments (torsions + 1)

// One prepared ligand's topology; atoms are in kinematic order (fragment by fragment, parents
// first), so each fragment's atoms are contiguous.
struct TemplateGpu {
    int atomBegin, atomCount; // into the template atom array (packAtom values)
    int nodeBegin, nodeCount; // into the node array
    int pairBegin, pairCount; // into the pair array
    int maxSteps;             // iteration cap (Vina's step budget or the option's)
    float affinityDivisor;    // 1 + w_rot * Nrot
    // Pose torsions: nodeCount - 1 for a ligand; fewer with flexible side chains, whose root
    // nodes are fixed in the receptor's frame and carry no torsion.
    int torsionCount;
    // Nodes [0, movingNodes) move with the pose: the ligand's tree, then the side chains'
    // branches; [movingNodes, nodeCount) are the side chains' roots, whose frames the kernels
    // set once at the start (where they are, unrotated). A ligand alone: nodeCount.
    int movingNodes;
};

// A template atom: its fragment (node) and XS type (-1: hydrogen, not scored) in one int.
inline constexpr int packAtom(int node, int type) {
    return node * 256 + (type + 1);
}

struct NodeGpu {
    // Template-local node index; -1 for the root (node 0, the ligand's rigid-body frame) and for
    // a flexible side chain's root (after the moving nodes: TemplateGpu::movingNodes), fixed
    // where it starts, without torsion. Parents come before their children, except a fixed
    // root, whose frame is set before any node is placed.
    int parent;
    int originAtom;     // atom whose start position is the fragment origin (template-local)
    int axisParentAtom; // atom in the parent fragment on the bond axis, -1 for the root
    int atomBegin, atomEnd;
    int torsion; // index into the pose's torsions, -1 for the root
};

struct PairGpu {
    std::uint16_t i, j;     // template-local atoms
    std::uint16_t typePair; // t_i * kXsTypeCount + t_j
    std::uint16_t tableRow; // row of the tabulated potential
};

struct PoseInputGpu {
    int templ;         // template index
    int coordOffset;   // into the start/final coordinate arrays (float3 units)
    int torsionOffset; // into the torsion output array
};

struct PoseResultGpu {
    float energy, startEnergy;    // minimized objective (inter + intra) and at the start
    float startInter, startIntra; // reported: grid inter, tabulated intra, at the start
    float inter, intra;           // the same at the minimized pose
    float position[3];
    float orientation[4];                // w, x, y, z
    int iterations, evaluations, reason; // reason: pw::StopReason value
};

} // namespace pw::cuda
