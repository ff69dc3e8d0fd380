// Schedules (SPEC 8): a schedule is fully determined by (program, parameters, strategy, seed).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace cvsim::sim {

enum class Strategy : uint8_t { Nominal, Random, Pct, Sweep };

struct Schedule {
    Strategy strategy = Strategy::Nominal;
    uint64_t seed = 0;
    int pct_depth = 2;            // pct:D
    double jitter = 0.5;          // random: each latency scaled by a factor in [1, 1 + jitter]
    uint64_t start_skew = 400;    // random: each core's start delayed by [0, start_skew] cycles
    uint64_t max_visibility = 0;  // random: GM visibility delay drawn from [0, max] when > 0
    // The GM visibility delay this schedule runs with (cycles), once resolved (`resolve_schedule`): the
    // drawn one, else the session's fixed delay. The model, the checker and the replay line all read it.
    uint64_t visibility_delay = 0;
    bool resolved = false;      // visibility_delay is set
    uint64_t pct_delay = 5000;  // pct: stall at a change point, cycles
    uint64_t pct_events = 0;    // pct: events per run to draw change points from (0: the session's nominal count)

    std::string str() const;  // "nominal", "random", "pct:2", "sweep"
};

// Parses a registered policy's name: "nominal", "random", "pct:D", "sweep".
std::optional<Schedule> parse_schedule(std::string_view s);

// The schedule with its visibility delay resolved: a random schedule with max_visibility > 0 draws it
// from [0, max_visibility] (from its own stream of the seed, so the draw does not shift the latency
// jitter: `--visibility-delay D` with the same seed replays it exactly); any other takes `fixed_delay`.
// An already resolved schedule is returned unchanged.
Schedule resolve_schedule(Schedule s, uint64_t fixed_delay);

// std::mt19937_64, computed lazily: the same values in the same order, but a schedule that draws a few dozen
// numbers seeds and twists only the part of the state those draws read (the standard engine seeds all 312
// words at construction and twists all 312 at the first draw). After the first 312 draws it is the standard
// generator on the same state.
class LazyMt64 {
  public:
    using result_type = uint64_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~uint64_t{0}; }
    explicit LazyMt64(uint64_t seed) {
        m_old[0] = seed;
        m_seeded = 1;
    }
    result_type operator()() {
        if (m_p < kN) {
            // The first round: new[k] twists old[k], old[k + 1] and old[k + m] (k < n - m) or new[k + m - n].
            const size_t k = m_p;
            seed_to(k + 2 <= kN ? k + 2 : kN);
            uint64_t z;
            if (k < kN - kM) {
                seed_to(k + kM + 1);
                z = twist(m_old[k], m_old[k + 1], m_old[k + kM]);
            } else if (k < kN - 1) {
                z = twist(m_old[k], m_old[k + 1], m_new[k + kM - kN]);
            } else {
                z = twist(m_old[k], m_new[0], m_new[kM - 1]);
            }
            m_new[k] = z;
            ++m_p;
            return temper(z);
        }
        // Later rounds: the standard twist of the whole state (m_new holds the first round's).
        if (m_p % kN == 0) {
            for (size_t k = 0; k < kN - kM; ++k) m_new[k] = twist(m_new[k], m_new[k + 1], m_new[k + kM]);
            for (size_t k = kN - kM; k < kN - 1; ++k) m_new[k] = twist(m_new[k], m_new[k + 1], m_new[k + kM - kN]);
            m_new[kN - 1] = twist(m_new[kN - 1], m_new[0], m_new[kM - 1]);
        }
        return temper(m_new[m_p++ % kN]);
    }

  private:
    static constexpr size_t kN = 312, kM = 156;
    static uint64_t twist(uint64_t cur, uint64_t next, uint64_t far) {
        const uint64_t upper = ~uint64_t{0} << 31, lower = ~upper;
        const uint64_t y = (cur & upper) | (next & lower);
        return far ^ (y >> 1) ^ ((y & 1) ? uint64_t{0xb5026f5aa96619e9ull} : 0);
    }
    static uint64_t temper(uint64_t z) {
        z ^= (z >> 29) & 0x5555555555555555ull;
        z ^= (z << 17) & 0x71d67fffeda60000ull;
        z ^= (z << 37) & 0xfff7eee000000000ull;
        z ^= z >> 43;
        return z;
    }
    void seed_to(size_t n) {
        for (; m_seeded < n; ++m_seeded)
            m_old[m_seeded] = 6364136223846793005ull * (m_old[m_seeded - 1] ^ (m_old[m_seeded - 1] >> 62)) + m_seeded;
    }
    std::array<uint64_t, kN> m_old{};  // the seeded state (a prefix of it)
    std::array<uint64_t, kN> m_new{};  // the first round's twisted state (a prefix of it)
    size_t m_seeded = 0;               // m_old[0, m_seeded) are set
    size_t m_p = 0;                    // draws so far
};

// The one seeded generator of a schedule: every random choice draws from it, in simulation order.
class ScheduleRng {
  public:
    explicit ScheduleRng(uint64_t seed) : m_gen(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {}
    uint64_t uniform(uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(m_gen); }
    double unit() { return std::uniform_real_distribution<double>(0.0, 1.0)(m_gen); }

  private:
    LazyMt64 m_gen;  // seeded by the schedule's seed only (the values of std::mt19937_64)
};

class ScheduleRng;

// What a strategy decides in a schedule: its visibility delay (resolved once, into the schedule record the
// model, the checker, the report and the replay line read), and, drawn from the schedule's generator in
// simulation order, PCT's change points, each core's start delay, each latency and the stalls at the
// scheduling points (every synchronisation or GM event). One registered object per strategy.
class SchedulePolicy {
  public:
    virtual ~SchedulePolicy() = default;
    virtual Strategy strategy() const = 0;
    virtual std::string name(const Schedule& s) const = 0;                   // "pct:2"
    virtual std::optional<Schedule> parse(std::string_view text) const = 0;  // one of its names
    // The visibility delay the schedule runs with (`fixed_delay`: the session's gm.visibility_delay).
    virtual uint64_t visibility_delay(const Schedule& s, uint64_t fixed_delay) const {
        (void)s;
        return fixed_delay;
    }
    // Drawn once, before any core starts: the change points among the run's scheduling points.
    virtual std::vector<uint64_t> change_points(const Schedule& s, ScheduleRng& rng) const {
        (void)s, (void)rng;
        return {};
    }
    // Each launched core's start delay, drawn in launch order.
    virtual uint64_t start_delay(const Schedule& s, ScheduleRng& rng) const {
        (void)s, (void)rng;
        return 0;
    }
    // An instruction's latency from its cost-model cycles.
    virtual uint64_t latency(const Schedule& s, ScheduleRng& rng, uint64_t cycles) const {
        (void)s, (void)rng;
        return cycles;
    }
    // The stalls (of pct_delay cycles each) a core takes at a scheduling point: the run's `global`-th, the
    // core's `mine`-th; `runner` is the core's position among the `runners` launched.
    virtual uint8_t stalls(const Schedule& s, const std::vector<uint64_t>& points, uint64_t global, uint64_t mine,
                           int runner, int runners) const {
        (void)s, (void)points, (void)global, (void)mine, (void)runner, (void)runners;
        return 0;
    }
};

// The registered policies (nominal, random, pct, sweep), and the one of a strategy.
const std::vector<const SchedulePolicy*>& schedule_policies();
const SchedulePolicy& schedule_policy(Strategy s);

}  // namespace cvsim::sim
