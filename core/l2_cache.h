// Set-associative LRU L2 cache (tags only, no data): decides hit/miss for every line a DMA touches.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>

#include "core/params.h"

namespace cvsim {

struct L2Result {
    uint32_t hits = 0;    // lines of the access found in the cache
    uint32_t misses = 0;  // lines of the access filled by it
    bool operator==(const L2Result&) const = default;
};

// Tags are kept per set in recency order (most recent first), so a hit moves its tag to the front and a
// miss shifts the set and drops the last (least recently used) tag: no timestamps, no per-access allocation.
//
// Construction and reset are O(number of sets) at most and touch no line storage: the tag array is
// allocated uninitialised (the OS maps its pages on first touch) and a set whose generation differs from
// the cache's is empty, so reset() is one increment. A 192 MiB / 512 B / 16-way cache has 24,576 sets.
class L2Cache {
  public:
    // Throws std::invalid_argument unless line_bytes is a power of two, ways >= 1 and size_bytes is a
    // positive multiple of line_bytes * ways.
    L2Cache(uint64_t size_bytes, uint64_t line_bytes, uint32_t ways);
    explicit L2Cache(const L2Params& p);

    // Looks up every line overlapping [addr, addr + bytes), filling the misses. bytes == 0 touches nothing.
    L2Result access(uint64_t addr, uint64_t bytes);
    // True if the line holding `addr` is cached; does not change recency.
    bool contains(uint64_t addr) const;
    // Empties the cache and clears the statistics (between schedules).
    void reset();

    uint64_t total_hits() const { return m_total_hits; }
    uint64_t total_misses() const { return m_total_misses; }
    double hit_rate() const;  // hits / (hits + misses), 0 before any access

    uint64_t size_bytes() const { return m_sets * m_ways * (uint64_t{1} << m_line_shift); }
    uint64_t line_bytes() const { return uint64_t{1} << m_line_shift; }
    uint32_t ways() const { return m_ways; }
    uint64_t sets() const { return m_sets; }

  private:
    // A set's row in m_rows: one header word (the generation in which the set was last written, high half; the
    // valid tags at the front of the row, low half), then `ways` tags. A set whose generation is not the
    // cache's counts as empty. Header and tags share cache lines: a lookup touches one row.
    uint64_t set_of(uint64_t line) const { return m_sets_pow2 ? (line & (m_sets - 1)) : line % m_sets; }
    uint64_t* row(uint64_t set) const { return &m_rows[set * (uint64_t{m_ways} + 1)]; }
    uint32_t live_fill(const uint64_t* r) const { return static_cast<uint32_t>(r[0] >> 32) == m_gen ? static_cast<uint32_t>(r[0]) : 0; }
    bool lookup_line(uint64_t line);  // true on hit; fills on miss

    uint32_t m_line_shift;               // log2(line size): address -> line number
    uint32_t m_ways;                     // associativity
    uint64_t m_sets;                     // number of sets; line number % sets picks the set
    bool m_sets_pow2;                    // sets is a power of two: use a mask instead of a modulo
    struct Free {
        void operator()(uint64_t* p) const { std::free(p); }
    };
    std::unique_ptr<uint64_t[], Free> m_rows;  // sets * (1 + ways): per set its header, then its tags most-recent first
    uint32_t m_gen = 1;                  // current generation; reset() advances it
    uint64_t m_total_hits = 0;           // lines that hit since the last reset
    uint64_t m_total_misses = 0;         // lines that missed since the last reset
    // The line looked up last: it is at the front of its set (no lookup since), so looking it up again is a
    // hit that changes nothing (consecutive rows of a window share their boundary line).
    uint64_t m_last_line = 0;
    bool m_have_last = false;
};

}  // namespace cvsim
