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
// Construction and reset touch no line storage: the tag array is allocated uninitialised (the OS maps its
// pages on first touch) and a set not marked in the `touched` bitmap is empty, so reset() clears one bit
// per set. A 192 MiB / 512 B / 16-way cache has 24,576 sets: the bitmap (3 KiB) and the fills (48 KiB) stay
// in the host's caches (a first touch of a set reads no tag), and a set's 16 tags are one 64-byte line.
class L2Cache {
  public:
    // Throws std::invalid_argument unless line_bytes is a power of two, 1 <= ways <= 65535 and size_bytes is
    // a positive multiple of line_bytes * ways.
    L2Cache(uint64_t size_bytes, uint64_t line_bytes, uint32_t ways);
    explicit L2Cache(const L2Params& p);

    // Looks up every line overlapping [addr, addr + bytes), filling the misses. bytes == 0 touches nothing.
    // Lines are numbered in 32 bits: addresses beyond 2^32 lines throw std::out_of_range.
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
    uint32_t set_of(uint32_t line) const {
        if (m_sets_pow2) return line & static_cast<uint32_t>(m_sets - 1);
        // line % sets by multiplication (Lemire's fastmod, exact for 32-bit operands).
        const uint64_t low = m_mod_magic * line;
        return static_cast<uint32_t>((static_cast<unsigned __int128>(low) * m_sets) >> 64);
    }
    bool touched(uint32_t set) const { return (m_touched[set >> 6] >> (set & 63)) & 1; }
    uint32_t live_fill(uint32_t set) const { return touched(set) ? m_fill[set] : 0; }
    uint32_t* row(uint32_t set) const { return &m_tags[static_cast<uint64_t>(set) * m_ways]; }
    bool lookup_line(uint32_t line);  // true on hit; fills on miss

    struct Free {
        void operator()(void* p) const { std::free(p); }
    };
    uint32_t m_line_shift;                        // log2(line size): address -> line number
    uint32_t m_ways;                              // associativity
    uint64_t m_sets;                              // number of sets; line number % sets picks the set
    bool m_sets_pow2;                             // sets is a power of two: use a mask instead of a modulo
    uint64_t m_mod_magic = 0;                     // ~0 / sets + 1 (fastmod)
    std::unique_ptr<uint64_t[], Free> m_touched;  // per set, one bit: written since the last reset (else empty)
    std::unique_ptr<uint16_t[], Free> m_fill;     // per touched set: the valid tags at the front of its row
    std::unique_ptr<uint32_t[], Free> m_tags;     // sets * ways line numbers, each set most-recent first
    uint64_t m_total_hits = 0;                    // lines that hit since the last reset
    uint64_t m_total_misses = 0;                  // lines that missed since the last reset
    // The line looked up last: it is at the front of its set (no lookup since), so looking it up again is a
    // hit that changes nothing (consecutive rows of a window share their boundary line).
    uint32_t m_last_line = 0;
    bool m_have_last = false;
};

}  // namespace cvsim
