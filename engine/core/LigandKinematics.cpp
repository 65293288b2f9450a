#include "LigandKinematics.h"

#include "InputError.h"

#include <Eigen/SVD>

#include <algorithm>
#include <cmath>

namespace pw {

namespace {

// Rotation by angle about a unit axis (Rodrigues' formula).
Eigen::Matrix3d axisRotation(const Eigen::Vector3d& u, double angle) {
    Eigen::Matrix3d k;
    k << 0, -u.z(), u.y(), u.z(), 0, -u.x(), -u.y(), u.x(), 0;
    return Eigen::Matrix3d::Identity() + std::sin(angle) * k + (1.0 - std::cos(angle)) * (k * k);
}

// Axis shorter than this cannot define a rotation; real bonds are ~1 Angstrom.
constexpr double kMinimumAxisLength = 1e-6;

} // namespace

LigandKinematics::LigandKinematics(const Molecule& mol, RootOrigin origin) {
    std::vector<Eigen::Vector3d> reference(mol.atoms.size());
    for (size_t i = 0; i < mol.atoms.size(); ++i)
        reference[i] = mol.atoms[i].position;
    if (mol.torsionTree) {
        build(*mol.torsionTree, reference, mol.sourceFile, origin);
    } else {
        TorsionTree rigid;
        rigid.nodes.resize(1);
        for (size_t i = 0; i < mol.atoms.size(); ++i)
            rigid.nodes[0].atoms.push_back(static_cast<int>(i));
        build(rigid, reference, mol.sourceFile, origin);
    }
}

LigandKinematics::LigandKinematics(const TorsionTree& tree,
                                   const std::vector<Eigen::Vector3d>& reference,
                                   const std::string& source, RootOrigin origin) {
    build(tree, reference, source, origin);
}

void LigandKinematics::build(const TorsionTree& tree, const std::vector<Eigen::Vector3d>& reference,
                             const std::string& source, RootOrigin originChoice) {
    auto fail = [&](const std::string& what) {
        throw InputError(source, 0, "torsion tree: " + what);
    };
    const int atoms = static_cast<int>(reference.size());
    const int nodes = static_cast<int>(tree.nodes.size());
    if (nodes == 0)
        fail("expected a ROOT fragment, found no fragments");
    if (tree.nodes[0].parent != -1)
        fail("expected node 0 to be the root (parent -1)");
    if (tree.nodes[0].atoms.empty())
        fail("expected at least one atom in the ROOT fragment");

    // Every atom must belong to exactly one fragment: an unowned atom would never move.
    std::vector<int> owner(atoms, -1);
    for (int n = 0; n < nodes; ++n) {
        for (int a : tree.nodes[n].atoms) {
            if (a < 0 || a >= atoms)
                fail("fragment " + std::to_string(n) + " lists atom index " + std::to_string(a) +
                     ", expected 0.." + std::to_string(atoms - 1));
            if (owner[a] != -1)
                fail("atom " + std::to_string(a + 1) + " is in fragments " +
                     std::to_string(owner[a]) + " and " + std::to_string(n) +
                     ", expected exactly one");
            owner[a] = n;
        }
    }
    for (int a = 0; a < atoms; ++a)
        if (owner[a] == -1)
            fail("atom " + std::to_string(a + 1) +
                 " is in no fragment, expected every atom in one");

    const std::vector<int> order = tree.topologicalOrder();
    std::vector<int> internal(nodes, -1); // tree node -> position in order
    for (size_t k = 0; k < order.size(); ++k) {
        const int n = order[k];
        if (n < 0 || n >= nodes || internal[n] != -1)
            fail("node " + std::to_string(n) +
                 " is reached twice or is out of range, expected a tree");
        internal[n] = static_cast<int>(k);
    }
    for (int n = 0; n < nodes; ++n)
        if (internal[n] == -1)
            fail("node " + std::to_string(n) + " is not reachable from the root");

    parent_.assign(nodes, -1);
    torsionIndex_.assign(nodes, -1);
    relativeOrigin_.assign(nodes, Eigen::Vector3d::Zero());
    relativeAxis_.assign(nodes, Eigen::Vector3d::Zero());
    atomBegin_.assign(nodes, 0);
    atomEnd_.assign(nodes, 0);
    local_.clear();
    atomIndex_.clear();
    local_.reserve(atoms);
    atomIndex_.reserve(atoms);
    std::vector<Eigen::Vector3d> origin(nodes);

    for (int k = 0; k < nodes; ++k) {
        const int n = order[k];
        const TorsionNode& node = tree.nodes[n];
        if (k == 0) {
            if (originChoice == RootOrigin::FirstRootAtom) {
                origin[0] = reference[node.atoms.front()];
            } else {
                Eigen::Vector3d sum = Eigen::Vector3d::Zero();
                for (int a : node.atoms)
                    sum += reference[a];
                origin[0] = sum / static_cast<double>(node.atoms.size());
            }
            referenceOrigin_ = origin[0];
        } else {
            const std::string name = "branch node " + std::to_string(n);
            if (node.parent < 0 || node.parent >= nodes ||
                std::find(tree.nodes[node.parent].children.begin(),
                          tree.nodes[node.parent].children.end(),
                          n) == tree.nodes[node.parent].children.end())
                fail(name + " has parent " + std::to_string(node.parent) +
                     ", expected the node that lists it as a child");
            if (node.axisChildAtom < 0 || node.axisChildAtom >= atoms ||
                owner[node.axisChildAtom] != n)
                fail(name + ": axis atom " + std::to_string(node.axisChildAtom + 1) +
                     " is not in the fragment, expected the BRANCH's second atom in it");
            if (node.axisParentAtom < 0 || node.axisParentAtom >= atoms ||
                owner[node.axisParentAtom] != node.parent)
                fail(name + ": axis atom " + std::to_string(node.axisParentAtom + 1) +
                     " is not in the parent fragment, expected the BRANCH's first atom there");
            const int p = internal[node.parent];
            parent_[k] = p;
            torsionIndex_[k] = n - 1;
            origin[k] = reference[node.axisChildAtom];
            const Eigen::Vector3d axis = origin[k] - reference[node.axisParentAtom];
            if (axis.norm() < kMinimumAxisLength)
                fail(name + ": atoms " + std::to_string(node.axisParentAtom + 1) + " and " +
                     std::to_string(node.axisChildAtom + 1) +
                     " coincide, expected a bond of non-zero length");
            relativeAxis_[k] = axis.normalized();
            relativeOrigin_[k] = origin[k] - origin[p];
        }
        atomBegin_[k] = static_cast<int>(local_.size());
        for (int a : node.atoms) {
            local_.push_back(reference[a] - origin[k]);
            atomIndex_.push_back(a);
        }
        atomEnd_[k] = static_cast<int>(local_.size());
    }
}

Pose LigandKinematics::referencePose() const {
    Pose pose;
    pose.position = referenceOrigin_;
    pose.orientation = Quaternion::Identity();
    pose.torsions.assign(torsionCount(), 0.0);
    return pose;
}

KinematicFrames LigandKinematics::makeFrames() const {
    KinematicFrames f;
    const size_t n = parent_.size();
    f.origin.resize(n);
    f.rotation.resize(n);
    f.axis.resize(n);
    f.force.resize(n);
    f.moment.resize(n);
    return f;
}

void LigandKinematics::coordinates(const Pose& pose, KinematicFrames& frames,
                                   std::vector<Eigen::Vector3d>& coords) const {
    const int nodes = static_cast<int>(parent_.size());
    if (static_cast<int>(frames.origin.size()) != nodes)
        frames = makeFrames();
    coords.resize(atomIndex_.size());
    for (int k = 0; k < nodes; ++k) {
        Eigen::Vector3d& o = frames.origin[k];
        Eigen::Matrix3d& r = frames.rotation[k];
        if (k == 0) {
            o = pose.position;
            r = pose.orientation.toRotationMatrix();
            frames.axis[0].setZero();
        } else {
            const int p = parent_[k];
            const Eigen::Matrix3d& rp = frames.rotation[p];
            o = frames.origin[p] + rp * relativeOrigin_[k];
            frames.axis[k] = rp * relativeAxis_[k];
            // Rotating about the axis in the parent's frame, then into the lab, equals rotating the
            // parent's frame about the lab axis: r = A(lab axis, t) * rp.
            r = rp * axisRotation(relativeAxis_[k], pose.torsions[torsionIndex_[k]]);
        }
        for (int i = atomBegin_[k]; i < atomEnd_[k]; ++i)
            coords[atomIndex_[i]] = o + r * local_[i];
    }
}

std::vector<Eigen::Vector3d> LigandKinematics::coordinates(const Pose& pose) const {
    KinematicFrames frames = makeFrames();
    std::vector<Eigen::Vector3d> coords;
    coordinates(pose, frames, coords);
    return coords;
}

void LigandKinematics::gradient(KinematicFrames& frames, const std::vector<Eigen::Vector3d>& coords,
                                const std::vector<Eigen::Vector3d>& atomGradient,
                                double* out) const {
    const int nodes = static_cast<int>(parent_.size());
    for (int k = 0; k < nodes; ++k) {
        frames.force[k].setZero();
        frames.moment[k].setZero();
    }
    // Leaves first: each fragment's subtree sums are complete before they are passed to its parent.
    // Moments are taken about the lab origin and shifted to the fragment origin at the end
    // (sum (x - o) x f = sum x x f - o x F), so one pass suffices.
    for (int k = nodes - 1; k >= 0; --k) {
        Eigen::Vector3d force = frames.force[k];
        Eigen::Vector3d moment = frames.moment[k];
        for (int i = atomBegin_[k]; i < atomEnd_[k]; ++i) {
            const int a = atomIndex_[i];
            force += atomGradient[a];
            moment += coords[a].cross(atomGradient[a]);
        }
        const Eigen::Vector3d torque = moment - frames.origin[k].cross(force);
        if (k == 0) {
            for (int d = 0; d < 3; ++d) {
                out[kPosePositionOffset + d] = force[d];
                out[kPoseRotationOffset + d] = torque[d];
            }
        } else {
            out[kPoseTorsionOffset + torsionIndex_[k]] = torque.dot(frames.axis[k]);
            frames.force[parent_[k]] += force;
            frames.moment[parent_[k]] += moment;
        }
    }
}

Pose LigandKinematics::fit(const std::vector<Eigen::Vector3d>& coords) const {
    if (coords.size() != atomIndex_.size())
        throw InputError("", 0,
                         "pose fit: got " + std::to_string(coords.size()) +
                             " coordinates, expected " + std::to_string(atomIndex_.size()));
    const int nodes = static_cast<int>(parent_.size());
    std::vector<std::vector<int>> children(nodes);
    for (int k = 1; k < nodes; ++k)
        children[parent_[k]].push_back(k);

    // Points rigid in a fragment's frame: its atoms and its children's origins (axis atoms of the
    // children). The latter pin the root's orientation when the root has fewer than 3 atoms.
    auto rigidPoints = [&](int k, std::vector<Eigen::Vector3d>& local,
                           std::vector<Eigen::Vector3d>& lab) {
        local.clear();
        lab.clear();
        for (int i = atomBegin_[k]; i < atomEnd_[k]; ++i) {
            local.push_back(local_[i]);
            lab.push_back(coords[atomIndex_[i]]);
        }
        for (int c : children[k]) {
            local.push_back(relativeOrigin_[c]);
            lab.push_back(coords[atomIndex_[atomBegin_[c]]]);
        }
    };

    Pose pose = referencePose();
    std::vector<Eigen::Matrix3d> rotation(nodes);
    std::vector<Eigen::Vector3d> origin(nodes);
    std::vector<Eigen::Vector3d> local, lab;

    // Root: Kabsch superposition of its rigid points.
    rigidPoints(0, local, lab);
    Eigen::Vector3d localMean = Eigen::Vector3d::Zero(), labMean = Eigen::Vector3d::Zero();
    for (size_t i = 0; i < local.size(); ++i) {
        localMean += local[i];
        labMean += lab[i];
    }
    localMean /= static_cast<double>(local.size());
    labMean /= static_cast<double>(local.size());
    Eigen::Matrix3d h = Eigen::Matrix3d::Zero();
    for (size_t i = 0; i < local.size(); ++i)
        h += (local[i] - localMean) * (lab[i] - labMean).transpose();
    Eigen::JacobiSVD<Eigen::Matrix3d> svd(h, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Eigen::Matrix3d d = Eigen::Matrix3d::Identity();
    if ((svd.matrixV() * svd.matrixU().transpose()).determinant() < 0)
        d(2, 2) = -1; // a reflection is not a rotation
    rotation[0] = svd.matrixV() * d * svd.matrixU().transpose();
    origin[0] = labMean - rotation[0] * localMean;
    pose.position = origin[0];
    pose.orientation = Quaternion(rotation[0]).normalized();
    rotation[0] = pose.orientation.toRotationMatrix();

    // Branches: the least-squares angle about the (now fixed) bond axis.
    for (int k = 1; k < nodes; ++k) {
        const int p = parent_[k];
        origin[k] = origin[p] + rotation[p] * relativeOrigin_[k];
        const Eigen::Vector3d axis = rotation[p] * relativeAxis_[k];
        rigidPoints(k, local, lab);
        double sinSum = 0, cosSum = 0;
        for (size_t i = 0; i < local.size(); ++i) {
            Eigen::Vector3d a = rotation[p] * local[i]; // where the point is at torsion 0
            Eigen::Vector3d b = lab[i] - origin[k];
            a -= axis * axis.dot(a);
            b -= axis * axis.dot(b);
            sinSum += axis.dot(a.cross(b));
            cosSum += a.dot(b);
        }
        const double angle = (sinSum == 0 && cosSum == 0) ? 0.0 : std::atan2(sinSum, cosSum);
        pose.torsions[torsionIndex_[k]] = angle;
        rotation[k] = rotation[p] * axisRotation(relativeAxis_[k], angle);
    }
    return pose;
}

} // namespace pw
