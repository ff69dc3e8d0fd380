// Schedules (SPEC 8): a schedule is fully determined by (program, parameters, strategy, seed).
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>

namespace cvsim::sim {

enum class Strategy : uint8_t { Nominal, Random, Pct, Sweep };

struct Schedule {
    Strategy strategy = Strategy::Nominal;
    uint64_t seed = 0;
    int pct_depth = 2;             // pct:D
    double jitter = 0.5;           // random: each latency scaled by a factor in [1, 1 + jitter]
    uint64_t start_skew = 400;     // random: each core's start delayed by [0, start_skew] cycles
    uint64_t max_visibility = 0;   // random: GM visibility delay drawn from [0, max] when > 0
    // The GM visibility delay this schedule runs with (cycles), once resolved (`resolve_schedule`): the
    // drawn one, else the session's fixed delay. The model, the checker and the replay line all read it.
    uint64_t visibility_delay = 0;
    bool resolved = false;         // visibility_delay is set
    uint64_t pct_delay = 5000;     // pct: stall at a change point, cycles
    uint64_t pct_events = 0;       // pct: events per run to draw change points from (0: the session's nominal count)

    std::string str() const;       // "nominal", "random", "pct:2", "sweep"
};

// Parses "nominal", "random", "pct:D", "sweep".
std::optional<Schedule> parse_schedule(std::string_view s);

// The schedule with its visibility delay resolved: a random schedule with max_visibility > 0 draws it
// from [0, max_visibility] (from its own stream of the seed, so the draw does not shift the latency
// jitter: `--visibility-delay D` with the same seed replays it exactly); any other takes `fixed_delay`.
// An already resolved schedule is returned unchanged.
Schedule resolve_schedule(Schedule s, uint64_t fixed_delay);

// The one seeded generator of a schedule: every random choice draws from it, in simulation order.
class ScheduleRng {
public:
    explicit ScheduleRng(uint64_t seed) : m_gen(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
    uint64_t uniform(uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(m_gen); }
    double unit() { return std::uniform_real_distribution<double>(0.0, 1.0)(m_gen); }

private:
    std::mt19937_64 m_gen;  // seeded by the schedule's seed only
};

}  // namespace cvsim::sim
