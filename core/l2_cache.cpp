// Set-associative LRU L2 cache: per-set tag rows in recency order, generation-stamped sets for O(1) reset.
#include "core/l2_cache.h"

#include <bit>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace cvsim {

namespace {

uint64_t checked_sets(uint64_t size_bytes, uint64_t line_bytes, uint32_t ways) {
    if (line_bytes == 0 || !std::has_single_bit(line_bytes)) {
        throw std::invalid_argument("L2Cache: line size " + std::to_string(line_bytes) + " is not a power of two");
    }
    if (ways == 0 || ways > 65535) throw std::invalid_argument("L2Cache: ways must be in [1, 65535]");
    if (size_bytes == 0 || size_bytes % (line_bytes * ways) != 0) {
        throw std::invalid_argument("L2Cache: size " + std::to_string(size_bytes) +
                                    " is not a positive multiple of line * ways");
    }
    const uint64_t sets = size_bytes / (line_bytes * ways);
    if (sets > (uint64_t{1} << 32)) throw std::invalid_argument("L2Cache: more than 2^32 sets");
    return sets;
}

template <typename T>
T* allocate(uint64_t n, bool zero) {
    // 64-byte aligned (a 16-way set's tags are one cache line); large blocks are pages mapped on first touch.
    const uint64_t bytes = (n * sizeof(T) + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, bytes == 0 ? 64 : bytes);
    if (!p) throw std::bad_alloc();
    if (zero) std::memset(p, 0, bytes);
    return static_cast<T*>(p);
}

}  // namespace

L2Cache::L2Cache(uint64_t size_bytes, uint64_t line_bytes, uint32_t ways)
    : m_line_shift(0), m_ways(ways), m_sets(checked_sets(size_bytes, line_bytes, ways)) {
    m_line_shift = static_cast<uint32_t>(std::countr_zero(line_bytes));
    m_sets_pow2 = std::has_single_bit(m_sets);
    if (!m_sets_pow2) m_mod_magic = ~uint64_t{0} / m_sets + 1;
    m_touched.reset(allocate<uint64_t>((m_sets + 63) / 64, true));  // every set empty
    m_fill.reset(allocate<uint16_t>(m_sets, false));
    // Uninitialised on purpose: a stale or empty set never reads its tags.
    m_tags.reset(allocate<uint32_t>(m_sets * m_ways, false));
}

L2Cache::L2Cache(const L2Params& p) : L2Cache(p.size_bytes, p.line_bytes, static_cast<uint32_t>(p.ways)) {}

bool L2Cache::lookup_line(uint32_t line) {
    if (m_have_last && line == m_last_line) return true;
    m_last_line = line;
    m_have_last = true;
    const uint32_t set = set_of(line);
    uint32_t* tags = row(set);
    uint64_t& word = m_touched[set >> 6];
    const uint64_t bit = uint64_t{1} << (set & 63);
    if (!(word & bit)) {
        // The first line of an empty set: a miss, its only tag.
        word |= bit;
        m_fill[set] = 1;
        tags[0] = line;
        return false;
    }
    const uint32_t fill = m_fill[set];
    if (tags[0] == line) return true;  // the set's most recent line: nothing moves
    for (uint32_t i = 1; i < fill; ++i) {
        if (tags[i] == line) {
            for (uint32_t j = i; j > 0; --j) tags[j] = tags[j - 1];
            tags[0] = line;
            return true;
        }
    }
    // Miss: shift the set down one place (dropping the LRU tag when the set is full) and insert in front.
    const uint32_t keep = fill < m_ways ? fill : m_ways - 1;
    for (uint32_t j = keep; j > 0; --j) tags[j] = tags[j - 1];
    tags[0] = line;
    m_fill[set] = static_cast<uint16_t>(keep + 1);
    return false;
}

L2Result L2Cache::access(uint64_t addr, uint64_t bytes) {
    L2Result r;
    if (bytes == 0) return r;
    const uint64_t first = addr >> m_line_shift;
    const uint64_t last = (addr + bytes - 1) >> m_line_shift;
    if (last > UINT32_MAX) throw std::out_of_range("L2Cache: an address beyond 2^32 lines");
    for (uint64_t line = first; line <= last; ++line) {
        if (lookup_line(static_cast<uint32_t>(line))) {
            ++r.hits;
        } else {
            ++r.misses;
        }
    }
    m_total_hits += r.hits;
    m_total_misses += r.misses;
    return r;
}

bool L2Cache::contains(uint64_t addr) const {
    const uint64_t line64 = addr >> m_line_shift;
    if (line64 > UINT32_MAX) return false;
    const uint32_t line = static_cast<uint32_t>(line64);
    const uint32_t set = set_of(line);
    const uint32_t* tags = row(set);
    const uint32_t fill = live_fill(set);
    for (uint32_t i = 0; i < fill; ++i) {
        if (tags[i] == line) return true;
    }
    return false;
}

void L2Cache::reset() {
    std::memset(m_touched.get(), 0, (m_sets + 63) / 64 * sizeof(uint64_t));
    m_total_hits = 0;
    m_total_misses = 0;
    m_have_last = false;
}

double L2Cache::hit_rate() const {
    const uint64_t total = m_total_hits + m_total_misses;
    return total == 0 ? 0.0 : static_cast<double>(m_total_hits) / static_cast<double>(total);
}

}  // namespace cvsim
