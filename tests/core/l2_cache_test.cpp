// Tests of the L2 cache: hits after fills, LRU eviction order, set mapping, reset, multi-line accesses.
#include "core/l2_cache.h"

#include <algorithm>
#include <list>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace cvsim {
namespace {

TEST(L2Cache, HitAfterFill) {
    L2Cache c(4096, 512, 2);
    EXPECT_EQ(c.access(0, 512), (L2Result{0, 1}));
    EXPECT_EQ(c.access(0, 512), (L2Result{1, 0}));
    EXPECT_EQ(c.access(100, 4), (L2Result{1, 0}));  // same line, other bytes
    EXPECT_TRUE(c.contains(511));
    EXPECT_FALSE(c.contains(512));
    EXPECT_EQ(c.access(0, 0), (L2Result{0, 0}));  // zero bytes touch nothing
}

TEST(L2Cache, AccessSpanningLinesLooksUpEveryLine) {
    L2Cache c(64 * 1024, 512, 4);
    EXPECT_EQ(c.access(100, 1000), (L2Result{0, 3}));   // bytes 100..1099: lines 0, 1, 2
    EXPECT_EQ(c.access(511, 2), (L2Result{2, 0}));      // straddles lines 0 and 1
    EXPECT_EQ(c.access(1024, 1024), (L2Result{1, 1}));  // line 2 cached, line 3 new
    EXPECT_EQ(c.total_hits(), 3u);
    EXPECT_EQ(c.total_misses(), 4u);
    EXPECT_DOUBLE_EQ(c.hit_rate(), 3.0 / 7.0);
}

TEST(L2Cache, LruEvictionOrderInOneSet) {
    L2Cache c(4 * 64, 64, 4);  // one set, four ways
    ASSERT_EQ(c.sets(), 1u);
    for (uint64_t line : {0, 1, 2, 3}) EXPECT_EQ(c.access(line * 64, 64), (L2Result{0, 1}));
    EXPECT_EQ(c.access(0 * 64, 64), (L2Result{1, 0}));  // recency now 0, 3, 2, 1
    EXPECT_EQ(c.access(4 * 64, 64), (L2Result{0, 1}));  // evicts line 1, the least recent
    EXPECT_FALSE(c.contains(1 * 64));
    for (uint64_t line : {0, 2, 3, 4}) EXPECT_TRUE(c.contains(line * 64)) << line;
    EXPECT_EQ(c.access(2 * 64, 64), (L2Result{1, 0}));  // recency 2, 4, 0, 3
    EXPECT_EQ(c.access(5 * 64, 64), (L2Result{0, 1}));  // evicts 3
    EXPECT_EQ(c.access(6 * 64, 64), (L2Result{0, 1}));  // evicts 0
    EXPECT_FALSE(c.contains(3 * 64));
    EXPECT_FALSE(c.contains(0 * 64));
    for (uint64_t line : {2, 4, 5, 6}) EXPECT_TRUE(c.contains(line * 64)) << line;
    EXPECT_EQ(c.access(1 * 64, 64), (L2Result{0, 1}));  // the evicted line misses again
}

TEST(L2Cache, LinesMapToSetsByModulo) {
    L2Cache pow2(2 * 64, 64, 1);  // two sets, direct mapped
    pow2.access(0, 64);
    pow2.access(64, 64);  // line 1: other set, both stay
    EXPECT_TRUE(pow2.contains(0));
    pow2.access(128, 64);  // line 2 conflicts with line 0
    EXPECT_FALSE(pow2.contains(0));
    EXPECT_TRUE(pow2.contains(64));

    L2Cache three(3 * 64, 64, 1);  // a set count that is not a power of two (like 192 MiB / 512 / 16)
    ASSERT_EQ(three.sets(), 3u);
    three.access(0, 64);
    three.access(2 * 64, 64);
    EXPECT_TRUE(three.contains(0));
    three.access(3 * 64, 64);  // line 3 conflicts with line 0
    EXPECT_FALSE(three.contains(0));
    EXPECT_TRUE(three.contains(2 * 64));
}

TEST(L2Cache, ResetEmptiesTheCacheAndTheStatistics) {
    L2Cache c(8 * 512, 512, 2);
    c.access(0, 4096);
    EXPECT_EQ(c.access(0, 4096), (L2Result{8, 0}));
    c.reset();
    EXPECT_EQ(c.total_hits(), 0u);
    EXPECT_EQ(c.total_misses(), 0u);
    EXPECT_EQ(c.hit_rate(), 0.0);
    EXPECT_FALSE(c.contains(0));
    EXPECT_EQ(c.access(0, 4096), (L2Result{0, 8}));
    EXPECT_EQ(c.access(0, 4096), (L2Result{8, 0}));
    // LRU still right after a reset: a third line in a 2-way set evicts the older one.
    c.reset();
    c.access(0, 512);        // set 0 holds line 0
    c.access(4 * 512, 512);  // line 4, set 0
    c.access(8 * 512, 512);  // line 8, set 0: evicts line 0
    EXPECT_FALSE(c.contains(0));
    EXPECT_TRUE(c.contains(4 * 512));
}

TEST(L2Cache, FullSizePresetCache) {
    const L2Params p = preset(Target::A2A3).l2;
    L2Cache c(p);
    EXPECT_EQ(c.sets(), 24576u);
    EXPECT_EQ(c.size_bytes(), 192u * 1024 * 1024);
    EXPECT_EQ(c.access(1ull << 32, 1 << 20), (L2Result{0, 2048}));
    EXPECT_EQ(c.access(1ull << 32, 1 << 20), (L2Result{2048, 0}));
    // Many schedules reuse one cache: reset is cheap and leaves it empty.
    for (int i = 0; i < 10000; ++i) c.reset();
    EXPECT_EQ(c.access(1ull << 32, 1 << 20), (L2Result{0, 2048}));
}

TEST(L2Cache, RejectsBadGeometry) {
    EXPECT_THROW(L2Cache(4096, 500, 2), std::invalid_argument);
    EXPECT_THROW(L2Cache(4096, 512, 0), std::invalid_argument);
    EXPECT_THROW(L2Cache(4096, 512, 3), std::invalid_argument);
    EXPECT_THROW(L2Cache(0, 512, 1), std::invalid_argument);
}

// Reference: each set a list of lines, most recent first.
class ReferenceLru {
  public:
    ReferenceLru(uint64_t sets, uint64_t ways, uint64_t line) : m_sets(sets), m_ways(ways), m_line(line), m_lru(sets) {}
    L2Result access(uint64_t addr, uint64_t bytes) {
        L2Result r;
        if (bytes == 0) return r;
        for (uint64_t l = addr / m_line; l <= (addr + bytes - 1) / m_line; ++l) {
            auto& set = m_lru[l % m_sets];
            auto it = std::find(set.begin(), set.end(), l);
            if (it != set.end()) {
                set.erase(it);
                ++r.hits;
            } else {
                ++r.misses;
                if (set.size() == m_ways) set.pop_back();
            }
            set.push_front(l);
        }
        return r;
    }

  private:
    uint64_t m_sets;                         // set count
    uint64_t m_ways;                         // associativity
    uint64_t m_line;                         // line size
    std::vector<std::list<uint64_t>> m_lru;  // per set, most recent first
};

RC_GTEST_PROP(L2CacheProperty, MatchesAReferenceLru, ()) {
    const uint64_t sets = *rc::gen::inRange<uint64_t>(1, 6);
    const uint32_t ways = *rc::gen::inRange<uint32_t>(1, 5);
    const uint64_t line = *rc::gen::element<uint64_t>(32, 64, 512);
    L2Cache cache(sets * ways * line, line, ways);
    ReferenceLru ref(sets, ways, line);
    const auto ops = *rc::gen::container<std::vector<std::pair<uint64_t, uint64_t>>>(
        rc::gen::pair(rc::gen::inRange<uint64_t>(0, 40 * line), rc::gen::inRange<uint64_t>(0, 4 * line)));
    for (const auto& [addr, bytes] : ops) {
        if (addr % 17 == 3) {
            cache.reset();
            ref = ReferenceLru(sets, ways, line);
            continue;
        }
        RC_ASSERT(cache.access(addr, bytes) == ref.access(addr, bytes));
    }
}

}  // namespace
}  // namespace cvsim
