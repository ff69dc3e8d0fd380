// Diagnostics of a wrong verdict (issue 10): a bound hit while work is in flight is E-TIMEOUT, never
// E-DEADLOCK (and a real deadlock stays E-DEADLOCK); a racing pair is reported once, not again with its
// roles swapped when the other core of the pair runs first.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "oracle_support.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string fixture(const std::string& name) {
    return read_file(std::string(CVSIM_SOURCE_DIR) + "/tests/oracle/kernels/" + name);
}

std::unique_ptr<sim::Session> session(const std::string& name, const std::string& text, uint64_t max_cycles,
                                      int blocks = 1, passes::V2CPolicy v2c = passes::V2CPolicy::Fence) {
    sim::SessionOptions so;
    so.blocks = blocks;
    so.v2c = v2c;
    so.max_cycles = max_cycles;
    so.max_wall_seconds = 20;
    return std::make_unique<sim::Session>(std::make_shared<SourceFile>(name, text), so);
}

std::set<std::string> codes_over_schedules(sim::Session& s, int randoms) {
    sim::Machine::instance(std::max(2, s.clusters_needed()));
    std::set<std::string> codes;
    for (int i = 0; i <= randoms; ++i) {
        sim::Schedule sc;
        if (i > 0) {
            sc.strategy = sim::Strategy::Random;
            sc.seed = static_cast<uint64_t>(i);
        }
        for (const auto& f : s.run(sc).findings) codes.insert(f.code);
    }
    return codes;
}

TEST(Diagnostics, ABoundHitWhileTheCubeComputesIsATimeoutNotADeadlock) {
    // Unbounded, the kernel finishes cleanly; bounded below its length, every schedule times out.
    auto full = session("long_cube_loop.py", fixture("long_cube_loop.py"), 20'000'000);
    EXPECT_TRUE(codes_over_schedules(*full, 2).empty());
    for (uint64_t bound : {1500u, 1700u, 2000u}) {
        auto s = session("long_cube_loop.py", fixture("long_cube_loop.py"), bound);
        auto codes = codes_over_schedules(*s, 5);
        EXPECT_TRUE(codes.count("E-TIMEOUT")) << bound;
        EXPECT_FALSE(codes.count("E-DEADLOCK")) << "--max-cycles " << bound << " misreported as a deadlock";
    }
}

TEST(Diagnostics, ARealDeadlockIsNoTimeout) {
    auto s = session("unbalanced_pop.py", read_file(kernel_path("unbalanced_pop.py")), 20'000'000);
    auto codes = codes_over_schedules(*s, 5);
    EXPECT_TRUE(codes.count("E-DEADLOCK"));
    EXPECT_FALSE(codes.count("E-TIMEOUT"));
}

TEST(Diagnostics, ARacingPairIsReportedOnceWhicheverCoreRunsFirst) {
    // --v2c off: fence orders each block's own vector-then-cube write-after-write (a V2C dependency) and
    // gives the cross-cluster one a barrier (gm_sync_blocks.cpp); the test needs the pairs unordered.
    auto s =
        session("two_blocks_same_rows.py", fixture("two_blocks_same_rows.py"), 20'000'000, 2, passes::V2CPolicy::Off);
    sim::Machine::instance(std::max(2, s->clusters_needed()));
    // Unordered pair of (line, cluster, core) -> the finding keys naming it, over many schedules.
    std::map<std::set<std::tuple<uint32_t, uint32_t, int>>, std::set<std::string>> names;
    for (int i = 0; i <= 40; ++i) {
        sim::Schedule sc;
        if (i > 0) {
            sc.strategy = i % 2 ? sim::Strategy::Random : sim::Strategy::Pct;
            sc.seed = static_cast<uint64_t>(i);
        }
        for (const auto& f : s->run(sc).findings) {
            if (f.code.rfind("E-RACE-", 0) != 0) continue;
            ASSERT_EQ(f.accesses.size(), 2u);
            std::set<std::tuple<uint32_t, uint32_t, int>> pair;
            for (const auto& a : f.accesses) pair.insert({a.loc.line, a.cluster, static_cast<int>(a.core)});
            names[pair].insert(f.key);
        }
    }
    // Two blocks x (AIV store, AIC store): six pairs of different cores.
    EXPECT_EQ(names.size(), 6u);
    for (const auto& [pair, keys] : names)
        EXPECT_EQ(keys.size(), 1u) << "one pair, " << keys.size() << " names: " << *keys.begin() << " / "
                                   << *keys.rbegin();
}

}  // namespace
