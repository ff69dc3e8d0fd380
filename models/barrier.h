// Cross-core barriers (syncall, hard and soft) and the counting flag semaphores of sync_set/sync_wait
// (SPEC 4.4). State plus the events waiters sleep on; the engine drives them.
#pragma once

#include <systemc>

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace cvsim {

// One syncall group (mix, aiv_only or aic_only) across every launched cluster.
struct Barrier {
    int expected = 0;         // participants needed to release (hard: physical cores of the chip)
    int arrived = 0;          // participants of the current episode that arrived
    uint64_t generation = 0;  // completed episodes
    std::map<uint64_t, std::vector<uint64_t>>
        episode_tokens;          // episode -> tokens of its arrivals (acquired by every departure)
    uint64_t release_cycle = 0;  // cycle the last episode released
    sc_core::sc_event released;  // notified when an episode completes
    void reset() {
        arrived = 0;
        generation = 0;
        episode_tokens.clear();
        release_cycle = 0;
        released.cancel();
    }
};

// Counting flag semaphores of one cluster: (event id, receiving core) -> pending sets (4-bit on a2a3).
struct FlagBank {
    // Receiver index: 0 = AIC (with the sending lane in `from`), 1/2 = AIV0/AIV1.
    struct Counter {
        std::deque<uint64_t> tokens;  // tokens of pending sets, oldest first (k-th set -> k-th wait)
        std::deque<int> from;         // sending AIV lane of each pending set (AIC receiver)
    };
    std::map<std::pair<int64_t, int>, Counter> counters;
    sc_core::sc_event changed;  // any set or wait
    void reset() {
        counters.clear();
        changed.cancel();
    }
};

}  // namespace cvsim
