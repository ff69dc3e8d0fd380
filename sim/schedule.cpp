// Schedule names.
#include "sim/schedule.h"

#include <charconv>

namespace cvsim::sim {

std::string Schedule::str() const {
    switch (strategy) {
        case Strategy::Nominal: return "nominal";
        case Strategy::Random: return "random";
        case Strategy::Pct: return "pct:" + std::to_string(pct_depth);
        case Strategy::Sweep: return "sweep";
    }
    return "?";
}

std::optional<Schedule> parse_schedule(std::string_view s) {
    Schedule sc;
    if (s == "nominal") sc.strategy = Strategy::Nominal;
    else if (s == "random") sc.strategy = Strategy::Random;
    else if (s == "sweep") sc.strategy = Strategy::Sweep;
    else if (s.substr(0, 4) == "pct:") {
        int d = 0;
        auto rest = s.substr(4);
        auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), d);
        if (ec != std::errc() || p != rest.data() + rest.size() || d < 1 || d > 16) return std::nullopt;
        sc.strategy = Strategy::Pct;
        sc.pct_depth = d;
    } else {
        return std::nullopt;
    }
    return sc;
}

Schedule resolve_schedule(Schedule s, uint64_t fixed_delay) {
    if (s.resolved) return s;
    s.resolved = true;
    if (s.strategy == Strategy::Random && s.max_visibility > 0) {
        ScheduleRng vis(s.seed ^ 0x5649534942494C49ull);  // "VISIBILI": a stream of its own
        s.visibility_delay = vis.uniform(0, s.max_visibility);
    } else {
        s.visibility_delay = fixed_delay;
    }
    return s;
}

}  // namespace cvsim::sim
