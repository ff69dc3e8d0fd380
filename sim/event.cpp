// Event stream helpers.
#include "sim/event.h"

namespace cvsim::sim {

std::string_view core_name(CoreId c) {
    switch (c) {
        case CoreId::Aic:
            return "AIC";
        case CoreId::Aiv0:
            return "AIV0";
        case CoreId::Aiv1:
            return "AIV1";
    }
    return "?";
}

int compare_order(const OrderKey& a, const OrderKey& b) {
    if (a.origin.empty() || a.origin != b.origin) return 0;
    size_t n = std::min(a.loops.size(), b.loops.size());
    for (size_t i = 0; i < n; ++i) {
        if (a.loops[i].first != b.loops[i].first) return a.loops[i].first < b.loops[i].first ? -1 : 1;
        if (a.loops[i].second != b.loops[i].second) return a.loops[i].second < b.loops[i].second ? -1 : 1;
    }
    // One is nested deeper at this point: compare the next position (a loop location or the statement).
    uint64_t pa = a.loops.size() > n ? a.loops[n].first : a.stmt;
    uint64_t pb = b.loops.size() > n ? b.loops[n].first : b.stmt;
    if (pa != pb) return pa < pb ? -1 : 1;
    return 0;
}

}  // namespace cvsim::sim
