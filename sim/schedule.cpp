// Schedules and their policies (sim/schedule.h).
#include "sim/schedule.h"

#include <charconv>
#include <cmath>

namespace cvsim::sim {

namespace {

class NominalPolicy : public SchedulePolicy {
  public:
    Strategy strategy() const override { return Strategy::Nominal; }
    std::string name(const Schedule&) const override { return "nominal"; }
    std::optional<Schedule> parse(std::string_view text) const override {
        if (text != "nominal") return std::nullopt;
        return Schedule{};
    }
};

// Random: each core starts after [0, start_skew] cycles, each latency is scaled by [1, 1 + jitter], and a
// visibility delay may be drawn from [0, max_visibility] (from a stream of its own: `--visibility-delay D`
// with the same seed replays the schedule without drawing).
class RandomPolicy : public SchedulePolicy {
  public:
    Strategy strategy() const override { return Strategy::Random; }
    std::string name(const Schedule&) const override { return "random"; }
    std::optional<Schedule> parse(std::string_view text) const override {
        if (text != "random") return std::nullopt;
        Schedule s;
        s.strategy = Strategy::Random;
        return s;
    }
    uint64_t visibility_delay(const Schedule& s, uint64_t fixed_delay) const override {
        if (s.max_visibility == 0) return fixed_delay;
        ScheduleRng vis(s.seed ^ 0x5649534942494C49ull);  // "VISIBILI": a stream of its own
        return vis.uniform(0, s.max_visibility);
    }
    uint64_t start_delay(const Schedule& s, ScheduleRng& rng) const override { return rng.uniform(0, s.start_skew); }
    uint64_t latency(const Schedule& s, ScheduleRng& rng, uint64_t cycles) const override {
        if (s.jitter <= 0 || cycles == 0) return cycles;
        double f = 1.0 + s.jitter * rng.unit();
        return static_cast<uint64_t>(std::ceil(static_cast<double>(cycles) * f));
    }
};

// PCT (depth D): D-1 change points among the k scheduling points of a run (k measured on the nominal
// schedule); the core that reaches one stalls (once per point drawn there). Cores start skewed as in random.
class PctPolicy : public SchedulePolicy {
  public:
    Strategy strategy() const override { return Strategy::Pct; }
    std::string name(const Schedule& s) const override { return "pct:" + std::to_string(s.pct_depth); }
    std::optional<Schedule> parse(std::string_view text) const override {
        if (text.substr(0, 4) != "pct:") return std::nullopt;
        int d = 0;
        auto rest = text.substr(4);
        auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), d);
        if (ec != std::errc() || p != rest.data() + rest.size() || d < 1 || d > 16) return std::nullopt;
        Schedule s;
        s.strategy = Strategy::Pct;
        s.pct_depth = d;
        return s;
    }
    std::vector<uint64_t> change_points(const Schedule& s, ScheduleRng& rng) const override {
        const uint64_t k = std::max<uint64_t>(s.pct_events, 1);
        std::vector<uint64_t> points;
        for (int i = 1; i < s.pct_depth; ++i) points.push_back(rng.uniform(0, k - 1));
        return points;
    }
    uint64_t start_delay(const Schedule& s, ScheduleRng& rng) const override { return rng.uniform(0, s.start_skew); }
    uint8_t stalls(const Schedule&, const std::vector<uint64_t>& points, uint64_t global, uint64_t, int,
                   int) const override {
        uint8_t n = 0;
        for (uint64_t p : points)
            if (p == global) ++n;
        return n;
    }
};

// Sweep: one (core, scheduling point) pair, chosen by the seed, stalls.
class SweepPolicy : public SchedulePolicy {
  public:
    Strategy strategy() const override { return Strategy::Sweep; }
    std::string name(const Schedule&) const override { return "sweep"; }
    std::optional<Schedule> parse(std::string_view text) const override {
        if (text != "sweep") return std::nullopt;
        Schedule s;
        s.strategy = Strategy::Sweep;
        return s;
    }
    uint8_t stalls(const Schedule& s, const std::vector<uint64_t>&, uint64_t, uint64_t mine, int runner,
                   int runners) const override {
        if (runners <= 0) return 0;
        const uint64_t idx = s.seed == 0 ? 0 : s.seed - 1;
        const uint64_t n = static_cast<uint64_t>(runners);
        return static_cast<uint64_t>(runner) == idx % n && mine == idx / n ? 1 : 0;
    }
};

}  // namespace

const std::vector<const SchedulePolicy*>& schedule_policies() {
    static const NominalPolicy nominal;
    static const RandomPolicy random;
    static const PctPolicy pct;
    static const SweepPolicy sweep;
    static const std::vector<const SchedulePolicy*> all = {&nominal, &random, &pct, &sweep};
    return all;
}

const SchedulePolicy& schedule_policy(Strategy s) {
    for (const SchedulePolicy* p : schedule_policies())
        if (p->strategy() == s) return *p;
    return *schedule_policies().front();
}

std::string Schedule::str() const {
    return schedule_policy(strategy).name(*this);
}

std::optional<Schedule> parse_schedule(std::string_view s) {
    for (const SchedulePolicy* p : schedule_policies())
        if (auto sc = p->parse(s)) return sc;
    return std::nullopt;
}

Schedule resolve_schedule(Schedule s, uint64_t fixed_delay) {
    if (s.resolved) return s;
    s.resolved = true;
    s.visibility_delay = schedule_policy(s.strategy).visibility_delay(s, fixed_delay);
    return s;
}

}  // namespace cvsim::sim
