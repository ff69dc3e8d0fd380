// `--v2c reject` errors exactly when an unordered V2C dependency exists (issue 10, property 3): the classes
// of false errors the oracle sweep found, each with a variant that has the dependency and must still error.
#include <gtest/gtest.h>

#include "oracle_support.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string fixture(const std::string& name) {
    return read_file(std::string(CVSIM_SOURCE_DIR) + "/tests/oracle/kernels/" + name);
}

// An AIV write racing with an AIC read of a kernel tensor in the --v2c off expansion, per the oracle.
// `war`: a cube write racing with an AIV read counts too (a vector-first WAR, for a kernel with no C2V
// dependency on that tensor).
bool oracle_unordered_v2c(const std::string& text, const Opts& base, bool war = false) {
    Opts o = base;
    o.v2c = passes::V2CPolicy::Off;
    auto s = session_of("k.py", text, o);
    auto v = oracle_of(*s, true);
    EXPECT_FALSE(v.deadlock);
    for (const auto& r : v.races) {
        if (r.key.tensor.rfind("__", 0) == 0 || r.other_write) continue;
        if (r.write_core != 0 && r.other_core == 0) return true;
        if (war && r.write_core == 0 && r.other_core != 0) return true;
    }
    return false;
}

bool rejected(const std::string& text, const Opts& base) {
    Opts o = base;
    o.v2c = passes::V2CPolicy::Reject;
    try {
        session_of("k.py", text, o);
    } catch (const CompileError& e) {
        EXPECT_EQ(e.diag().code, "E-V2C-UNFENCED") << render_text(e.diag());
        return true;
    }
    return false;
}

struct Case {
    const char* kernel;
    Target target;
    int blocks;
    const char* from;  // the edit that creates an unordered dependency
    const char* to;
    bool war = false;  // the dependency is a vector-first WAR (a vector load, then a cube store)
};

class RejectExact : public ::testing::TestWithParam<Case> {};

TEST_P(RejectExact, ErrorsIffTheOracleFindsAnUnorderedV2cDependency) {
    const Case& c = GetParam();
    Opts o;
    o.target = c.target;
    o.blocks = c.blocks;
    std::string ok = fixture(c.kernel);
    EXPECT_FALSE(oracle_unordered_v2c(ok, o, c.war)) << c.kernel;
    EXPECT_FALSE(rejected(ok, o)) << c.kernel << ": reject errors although every V2C dependency is ordered";
    if (!*c.from) return;
    std::string racy = ok;
    size_t p = racy.find(c.from);
    ASSERT_NE(p, std::string::npos);
    racy.replace(p, std::string(c.from).size(), c.to);
    EXPECT_TRUE(oracle_unordered_v2c(racy, o, c.war)) << c.kernel << " with " << c.to;
    EXPECT_TRUE(rejected(racy, o)) << c.kernel << " with " << c.to << ": reject silent on an unordered dependency";
}

INSTANTIATE_TEST_SUITE_P(
    Classes, RejectExact,
    ::testing::Values(
        // an author's flag pair in a loop of a constant trip count (the wrong pipe orders nothing)
        Case{"reject_flags_in_one_trip_loop.py", Target::A2A3, 1, "pipe=pl.PipeType.MTE3", "pipe=pl.PipeType.V"},
        // `if i1 == 0:` fixes the loop variable, and i1 % 2 over range(2) is affine (i1 == 1: the rows meet)
        Case{"reject_arm_fixes_loop_var.py", Target::A5, 2, "    if i1 == 0:", "    if i1 == 1:"},
        // `if i1 > 0:` never runs in a 1-trip loop (in a 2-trip loop it does, and the rows meet)
        Case{"reject_dead_arm.py", Target::A2A3, 1, "pl.range(1)", "pl.range(2)"},
        // the else of `if i0 == 0:` never runs in a 1-trip loop
        Case{"reject_dead_else_flags_in_loop.py", Target::A5, 2, "", ""},
        // ---- ordering read off the unrolled function (gm_sync_trace.cpp) ----
        // a flag pair in the load's loop, before the load (the wrong pipe orders nothing)
        Case{"reject_flags_in_load_loop.py", Target::A2A3, 1, "pipe=pl.PipeType.MTE3", "pipe=pl.PipeType.V"},
        // a hand-written ring pair between store and load (pushed before the store, it orders nothing)
        Case{"reject_hand_ring_orders.py", Target::A5, 1,
             "        sv0 = pl.store(vin, [0, 0], sv0)\n        pl.tpush_to_aic(vin, split=0, id=1)\n",
             "        pl.tpush_to_aic(vin, split=0, id=1)\n        sv0 = pl.store(vin, [0, 0], sv0)\n"},
        Case{"reject_hand_ring_orders.py", Target::A2A3, 1,
             "        sv0 = pl.store(vin, [0, 0], sv0)\n        pl.tpush_to_aic(vin, split=0, id=1)\n",
             "        pl.tpush_to_aic(vin, split=0, id=1)\n        sv0 = pl.store(vin, [0, 0], sv0)\n"},
        // a tile move next to hand-written transports of the same ring (before the store, it orders nothing)
        Case{"reject_move_with_hand_ring.py", Target::A2A3, 1,
             "        sv0 = pl.store(vin, [0, 0], sv0)\n        m0 = pl.move(vin, target_memory=pl.MemorySpace.Mat)\n",
             "        m0 = pl.move(vin, target_memory=pl.MemorySpace.Mat)\n        sv0 = pl.store(vin, [0, 0], sv0)\n"},
        // a tile move in an arm some iteration takes (in a 1-trip loop no iteration takes it)
        Case{"reject_move_in_taken_arm.py", Target::A5, 1, "pl.range(3)", "pl.range(1)"},
        // per instance: iteration 0 reads rows the store does not write (rows 0-15 it does: a race)
        Case{"reject_barrier_orders_later_iteration.py", Target::A2A3, 1, "sv0 = pl.store(vin, [16, 0], sv0)",
             "sv0 = pl.store(vin, [0, 0], sv0)"},
        // `(i0 % 2) * 16` over range(3): known per iteration (enumeration), bounded in [0, 16] otherwise
        Case{"reject_mod_window_loop.py", Target::A2A3, 1, "g1 = pl.load(sv0, [16, 0]", "g1 = pl.load(sv0, [0, 0]"},
        Case{"reject_mod_window_loop.py", Target::A5, 1, "g1 = pl.load(sv0, [16, 0]", "g1 = pl.load(sv0, [0, 0]"},
        Case{"reject_mod_window_blocks.py", Target::A2A3, 2, "g2 = pl.load(sv0, [bi * 32 + 16, 0]",
             "g2 = pl.load(sv0, [(1 - bi) * 32 + 16, 0]"},
        Case{"reject_mod_window_blocks.py", Target::A5, 2, "g2 = pl.load(sv0, [bi * 32 + 16, 0]",
             "g2 = pl.load(sv0, [(1 - bi) * 32 + 16, 0]"},
        // a5: the NZ adapter of a hand-written push runs on the V pipe after a cast of the loaded tile (the cast
        // after the push: nothing orders the load before the cube store)
        Case{"reject_a5_adapter_drains_load.py", Target::A5, 1,
             "        v6 = pl.cast(g5, pl.FP16)\n        pl.tpush_to_aic(vin, split=0, id=1)\n",
             "        pl.tpush_to_aic(vin, split=0, id=1)\n        v6 = pl.cast(g5, pl.FP16)\n", true}));

}  // namespace

namespace {

// A load lane DCE removes (nothing reads its tile) is no access of the expanded program: reject does not
// error on it and fence / syncall order nothing for it (the merged sweep's 118 "dead" false rejects: a
// vector load before a cube store, a vector-first write-after-read). Reading the tile makes the
// dependency real again: reject errors at the cube access.
TEST(RejectExact, ALoadTheSplitRemovesIsNoDependency) {
    const char* k = "reject_dead_loads.py";
    std::string dead = fixture(k);
    struct Live {
        const char* from;
        const char* to;
        uint32_t line;  // where reject reports the pair (the cube access, in the edited kernel)
    };
    const Live lives[] = {
        {"        v1 = pl.cast(g0, pl.FP16)\n",
         "        v1 = pl.cast(g0, pl.FP16)\n        vout = pl.store(v1, [0, 0], vout)\n", 30},
        {"        lhs9 = pl.move(g8, target_memory=pl.MemorySpace.Left)\n",
         "        lhs9 = pl.move(g8, target_memory=pl.MemorySpace.Left)\n        cz = pl.matmul(lhs9, rhs0)\n"
         "        cout = pl.store(cz, [0, 0], cout)\n",
         31}};
    for (Target t : {Target::A2A3, Target::A5}) {
        Opts o;
        o.target = t;
        std::string tn(target_name(t));
        // Every compile that throws comes first (ASan + QuickThreads, docs/DECISIONS.md).
        EXPECT_FALSE(rejected(dead, o)) << tn << ": reject errors on loads the split removes";
        for (const Live& l : lives) {
            std::string live = dead;
            live.replace(live.find(l.from), std::string(l.from).size(), l.to);
            o.v2c = passes::V2CPolicy::Reject;
            try {
                session_of("k.py", live, o);
                ADD_FAILURE() << tn << ": reject silent on a live dependency:\n" << live;
            } catch (const CompileError& e) {
                EXPECT_EQ(e.diag().code, "E-V2C-UNFENCED") << render_text(e.diag());
                EXPECT_EQ(e.diag().loc.line, l.line) << render_text(e.diag());
            }
        }
        for (auto v2c : {passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall}) {
            o.v2c = v2c;
            auto s = session_of("k.py", dead, o);
            const auto& st = s->compiled().stats;
            EXPECT_EQ(st.v2c_fences + st.war_orders + st.barriers + st.fallbacks, 0)
                << tn << " --v2c " << passes::policy_name(v2c);
            auto v = oracle_of(*s, true);
            EXPECT_TRUE(v.races.empty() && !v.deadlock) << format_verdict(v);
        }
        o.v2c = passes::V2CPolicy::Off;
        EXPECT_FALSE(oracle_unordered_v2c(dead, o)) << tn;
    }
}

}  // namespace

namespace {

// The racy half of the case taken out above (a flag on the V pipe does not cover the MTE3 store): reject errors.
TEST(RejectExact, FlagsInALoadLoopRacyVariant) {
    std::string text = read_file(std::string(CVSIM_SOURCE_DIR) + "/tests/oracle/kernels/reject_flags_in_load_loop.py");
    const std::string from = "pipe=pl.PipeType.MTE3";
    ASSERT_NE(text.find(from), std::string::npos);
    text.replace(text.find(from), from.size(), "pipe=pl.PipeType.V");
    Opts o;
    o.target = Target::A2A3;
    EXPECT_TRUE(rejected(text, o));
}

}  // namespace
