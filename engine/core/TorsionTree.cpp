#include "TorsionTree.h"

#include <cstddef>

namespace pw {

std::vector<int> TorsionTree::nodeOfAtom(int atomCount) const {
    std::vector<int> owner(atomCount, -1);
    for (size_t n = 0; n < nodes.size(); ++n)
        for (int a : nodes[n].atoms)
            if (a >= 0 && a < atomCount)
                owner[a] = static_cast<int>(n);
    return owner;
}

std::vector<int> TorsionTree::topologicalOrder() const {
    std::vector<int> order;
    if (nodes.empty())
        return order;
    order.reserve(nodes.size());
    std::vector<int> stack{0};
    while (!stack.empty()) {
        int n = stack.back();
        stack.pop_back();
        order.push_back(n);
        // Push in reverse so children come out in their stored order.
        for (auto it = nodes[n].children.rbegin(); it != nodes[n].children.rend(); ++it)
            stack.push_back(*it);
    }
    return order;
}

} // namespace pw
