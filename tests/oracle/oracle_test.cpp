// Unit tests of the verdict oracle on hand-written expanded kernels and on the shared samples: a known race, a
// known ordered pair, known deadlocks, flags on the wrong pipe / id, a visibility delay without a fence, atomics.
// Every case also runs the oracle's own cross-check (reachability against freezing).
#include <gtest/gtest.h>

#include "oracle_support.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

oracle::Verdict verdict_of(const std::string& name, const std::string& text, const Opts& o = {}) {
    auto s = session_of(name, text, o);
    return oracle_of(*s, true);
}

oracle::Verdict verdict_of_kernel(const std::string& file, const Opts& o = {}) {
    return verdict_of(file, read_file(kernel_path(file)), o);
}

// An expanded program: the AIV stores a scratch, the AIC loads it; {SYNC_V} / {SYNC_C} are the lanes' sync.
std::string v2c_program(const std::string& sync_v, const std::string& sync_c) {
    std::string t = R"(import pypto.language as pl


@pl.program
class Hand:
    @pl.function(type=pl.FunctionType.AIC)
    def k_aic(self, a: pl.Tensor[[16, 16], pl.FP16], scratch: pl.Out[pl.Tensor[[16, 16], pl.FP16]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
SYNC_C
        m: pl.Tile[[16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(scratch, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        l: pl.Tile[[16, 16], pl.FP16, pl.Mem.Left] = pl.tile.move(m, target_memory=pl.Mem.Left)
        r: pl.Tile[[16, 16], pl.FP16, pl.Mem.Right] = pl.tile.move(m, target_memory=pl.Mem.Right)
        z: pl.Tile[[16, 16], pl.FP32, pl.Mem.Acc] = pl.tile.matmul(l, r)
        out: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(z, [0, 0], out)

    @pl.function(type=pl.FunctionType.AIV)
    def k_aiv(self, a: pl.Tensor[[16, 16], pl.FP16], scratch: pl.Out[pl.Tensor[[16, 16], pl.FP16]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        x: pl.Tile[[16, 16], pl.FP16, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 16])
        scratch: pl.Tensor[[16, 16], pl.FP16] = pl.tile.store(x, [0, 0], scratch)
SYNC_V
        return out

    @pl.function(type=pl.FunctionType.Group)
    def k(self, a: pl.Tensor[[16, 16], pl.FP16], scratch: pl.Out[pl.Tensor[[16, 16], pl.FP16]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        self.k_aic(a, scratch, out)
        result: pl.Tensor[[16, 16], pl.FP32] = self.k_aiv(a, scratch, out)
        return result
)";
    auto put = [&](const std::string& key, const std::string& v) {
        t.replace(t.find(key), key.size(), v.empty() ? "        pass" : v);
    };
    put("SYNC_C", sync_c);
    put("SYNC_V", sync_v);
    return t;
}

const std::string kSetMte3 = "        pl.system.sync_set(0, pipe=pl.PipeType.MTE3)";
const std::string kWaitMte2 = "        pl.system.sync_wait(0, pipe=pl.PipeType.MTE2)";

TEST(Oracle, UnsyncedV2cStoreAndLoadRace) {
    auto v = verdict_of("hand.py", v2c_program("", ""));
    EXPECT_TRUE(v.cross_checked);
    EXPECT_FALSE(v.deadlock) << format_verdict(v);
    ASSERT_EQ(v.races.size(), 1u) << format_verdict(v);
    EXPECT_EQ(v.races[0].key.tensor, "scratch");
    EXPECT_EQ(v.races[0].kind, "WAR");  // the AIC's load is on an earlier line than the AIV's store
    EXPECT_EQ(v.races[0].write_core, 1);
    EXPECT_EQ(v.races[0].other_core, 0);
}

TEST(Oracle, FlagOnTheStorePipeOrdersThePair) {
    auto v = verdict_of("hand.py", v2c_program(kSetMte3, kWaitMte2));
    EXPECT_FALSE(v.deadlock) << format_verdict(v);
    EXPECT_TRUE(v.races.empty()) << format_verdict(v);
}

TEST(Oracle, FlagOnAnotherPipeOrdersNothing) {
    // The set runs on the vector pipe, which does not wait for the MTE3 store.
    auto v = verdict_of("hand.py", v2c_program("        pl.system.sync_set(0, pipe=pl.PipeType.V)", kWaitMte2));
    EXPECT_FALSE(v.deadlock) << format_verdict(v);
    EXPECT_EQ(v.race_tensors(), std::set<std::string>{"scratch"}) << format_verdict(v);
    // The wait on the vector... the AIC has no vector pipe: the wait on MTE1 does not hold back the MTE2 load.
    auto w = verdict_of("hand.py", v2c_program(kSetMte3, "        pl.system.sync_wait(0, pipe=pl.PipeType.MTE1)"));
    EXPECT_EQ(w.race_tensors(), std::set<std::string>{"scratch"}) << format_verdict(w);
}

TEST(Oracle, WaitOnAnEventNobodySetsDeadlocks) {
    auto v = verdict_of("hand.py", v2c_program(kSetMte3, "        pl.system.sync_wait(1, pipe=pl.PipeType.MTE2)"));
    EXPECT_TRUE(v.deadlock) << format_verdict(v);
    ASSERT_FALSE(v.blocked.empty());
    EXPECT_NE(v.blocked[0].find("AIC"), std::string::npos) << v.blocked[0];
}

TEST(Oracle, VisibilityDelayNeedsAFenceBeforeTheFlag) {
    Opts o;
    o.vis = 100;
    auto racy = verdict_of("hand.py", v2c_program(kSetMte3, kWaitMte2), o);
    EXPECT_EQ(racy.race_tensors(), std::set<std::string>{"scratch"}) << format_verdict(racy);
    auto fenced = verdict_of("hand.py", v2c_program("        pl.system.fence()\n" + kSetMte3, kWaitMte2), o);
    EXPECT_TRUE(fenced.races.empty()) << format_verdict(fenced);
}

TEST(Oracle, SyncallWithFenceOrdersAndHardModeBelowOccupancyDeadlocks) {
    std::string soft = "        pl.system.syncall(core_type='mix', mode='soft')";
    auto v = verdict_of("hand.py", v2c_program("        pl.system.fence()\n" + soft, soft));
    EXPECT_FALSE(v.deadlock) << format_verdict(v);
    EXPECT_TRUE(v.races.empty()) << format_verdict(v);
    std::string hard = "        pl.system.syncall(core_type='mix', mode='hard')";
    auto h = verdict_of("hand.py", v2c_program("        pl.system.fence()\n" + hard, hard));
    EXPECT_TRUE(h.deadlock) << format_verdict(h);
}

TEST(Oracle, MissingTfreeDeadlocks) {
    auto v = verdict_of_kernel("missing_tfree.py");
    EXPECT_TRUE(v.deadlock) << format_verdict(v);
    EXPECT_TRUE(v.cross_checked);
}

TEST(Oracle, UnbalancedPopDeadlocks) {
    auto v = verdict_of_kernel("unbalanced_pop.py");
    EXPECT_TRUE(v.deadlock) << format_verdict(v);
    bool aiv_pop = false;
    for (const auto& b : v.blocked) aiv_pop |= b.find("AIV0: tile.tpop_from_aic") != std::string::npos;
    EXPECT_TRUE(aiv_pop) << format_verdict(v);
}

TEST(Oracle, SharedSamplesByPolicy) {
    Opts off;
    off.v2c = passes::V2CPolicy::Off;
    for (const char* k : {"v2c_rope_attn.py", "v2c_blocked_loop.py", "v2c_reused_scratch.py"}) {
        auto v = verdict_of_kernel(k, off);
        EXPECT_TRUE(v.race_tensors().count("scratch") || !v.races.empty()) << k << "\n" << format_verdict(v);
        EXPECT_FALSE(v.deadlock) << k;
        for (auto pol : {passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall})
            for (Target t : {Target::A2A3, Target::A5}) {
                Opts o;
                o.v2c = pol;
                o.target = t;
                auto c = verdict_of_kernel(k, o);
                EXPECT_TRUE(c.races.empty() && !c.deadlock)
                    << k << " " << passes::policy_name(pol) << " " << target_name(t) << "\n"
                    << format_verdict(c);
            }
    }
    auto relay = verdict_of_kernel("c2v_row_relay.py", off);
    EXPECT_TRUE(relay.races.empty() && !relay.deadlock) << format_verdict(relay);
    Opts vis = off;
    vis.vis = 200;
    auto manual = verdict_of_kernel("v2c_manual_syncall.py", vis);
    EXPECT_TRUE(manual.races.empty() && !manual.deadlock) << format_verdict(manual);
    Opts split;
    split.v2c = passes::V2CPolicy::Fence;
    auto sp = verdict_of_kernel("split_updown_scratch.py", split);
    EXPECT_TRUE(sp.races.empty() && !sp.deadlock) << format_verdict(sp);
    split.v2c = passes::V2CPolicy::Off;
    auto spo = verdict_of_kernel("split_updown_scratch.py", split);
    EXPECT_EQ(spo.race_tensors(), std::set<std::string>{"scratch"}) << format_verdict(spo);
}

// Two blocks of one AIV-only program accumulate into the same output window: atomic adds do not race with each
// other, plain stores do (WAW between clusters).
std::string two_block_program(bool atomic) {
    std::string store =
        atomic ? "pl.tile.store(x, [0, 0], out, atomic=pl.AtomicType.Add)" : "pl.tile.store(x, [0, 0], out)";
    return R"(import pypto.language as pl


@pl.program
class Acc:
    @pl.function(type=pl.FunctionType.AIV)
    def k_aiv(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        x: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 16])
        out: pl.Tensor[[16, 16], pl.FP32] = )" +
           store + R"(
        return out

    @pl.function(type=pl.FunctionType.Group)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        result: pl.Tensor[[16, 16], pl.FP32] = self.k_aiv(a, out)
        return result
)";
}

TEST(Oracle, AtomicStoresOfTwoBlocksDoNotRace) {
    Opts o;
    o.blocks = 2;
    o.target = Target::A5;  // one AIV lane per cluster
    auto plain = verdict_of("acc.py", two_block_program(false), o);
    EXPECT_EQ(plain.race_tensors(), std::set<std::string>{"out"}) << format_verdict(plain);
    auto atomic = verdict_of("acc.py", two_block_program(true), o);
    EXPECT_TRUE(atomic.races.empty()) << format_verdict(atomic);
    std::string none = two_block_program(true);
    none.replace(none.find("AtomicType.Add"), 14, "AtomicType.None_");  // None_ is a plain store
    auto plain2 = verdict_of("acc.py", none, o);
    EXPECT_EQ(plain2.race_tensors(), std::set<std::string>{"out"}) << format_verdict(plain2);
}

}  // namespace

namespace {

std::string fixture(const std::string& name) {
    return read_file(std::string(CVSIM_SOURCE_DIR) + "/tests/oracle/kernels/" + name);
}

TEST(OracleFixture, A5ReadThroughAViewAfterTfreeRacesWithTheSlotReuse) {
    Opts a5;
    a5.target = Target::A5;
    auto v = verdict_of("a5_view_read_after_tfree.py", fixture("a5_view_read_after_tfree.py"), a5);
    ASSERT_EQ(v.races.size(), 1u) << format_verdict(v);
    EXPECT_EQ(v.races[0].key.tensor, "__slot_c2v0_cluster0_aiv0");
    EXPECT_EQ(v.races[0].write_core, 0);  // the cube's push rewrites the slot
    EXPECT_EQ(v.races[0].other_core, 1);  // while AIV0 still reads the view
    // On a2a3 the pop copies the slot into a landing buffer: nothing races.
    auto a2 = verdict_of("a5_view_read_after_tfree.py", fixture("a5_view_read_after_tfree.py"));
    EXPECT_TRUE(a2.races.empty() && !a2.deadlock) << format_verdict(a2);
}

TEST(OracleFixture, AtomicAddsOfTwoClustersDoNotRace) {
    Opts o;
    o.blocks = 2;
    o.v2c = passes::V2CPolicy::Off;
    auto v = verdict_of("atomic_add_across_blocks.py", fixture("atomic_add_across_blocks.py"), o);
    EXPECT_TRUE(v.races.empty() && !v.deadlock) << format_verdict(v);
    std::string plain = fixture("atomic_add_across_blocks.py");
    plain.replace(plain.find(", atomic=pl.AtomicType.Add"), std::string(", atomic=pl.AtomicType.Add").size(), "");
    auto p = verdict_of("atomic_add_across_blocks.py", plain, o);
    EXPECT_EQ(p.race_tensors(), std::set<std::string>{"out"}) << format_verdict(p);
}

TEST(OracleFixture, RingSlotTrafficIsPublishedByTheReadyFlag) {
    Opts o;
    o.vis = 50;
    auto v = verdict_of("ring_slots_visibility_delay.py", fixture("ring_slots_visibility_delay.py"), o);
    EXPECT_TRUE(v.races.empty() && !v.deadlock) << format_verdict(v);
    bool slot_traffic = false;
    for (const auto& a : v.accesses) slot_traffic |= a.tensor == "__ring_cluster0";
    EXPECT_TRUE(slot_traffic) << "the push and pop copy access the hidden ring tensor";
}

TEST(OracleFixture, AnAuthorFlagPairInALoopLeavesTheLoopCarriedWarOpen) {
    std::string k = fixture("author_flag_loop_war.py");
    auto v = verdict_of("author_flag_loop_war.py", k);
    EXPECT_EQ(v.race_tensors(), std::set<std::string>{"sv0"}) << format_verdict(v);
    // One trip: no next iteration to race with, and the flag pair orders the RAW.
    std::string one = k;
    for (size_t p; (p = one.find("pl.range(2)")) != std::string::npos;) one.replace(p, 11, "pl.range(1)");
    auto w = verdict_of("author_flag_loop_war.py", one);
    EXPECT_TRUE(w.races.empty() && !w.deadlock) << format_verdict(w);
}

}  // namespace

#include "oracle_removal.h"

namespace {

// Property 4 on the seed kernel: the one token (fence) or barrier (syncall) the expander inserts is necessary.
TEST(OracleRemoval, TheSeedKernelsInsertedSynchronisationIsNecessary) {
    for (auto pol : {passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall}) {
        Opts o;
        o.v2c = pol;
        std::string text = read_file(kernel_path("v2c_rope_attn.py"));
        auto s = session_of("v2c_rope_attn.py", text, o);
        ASSERT_TRUE(oracle_of(*s).races.empty());
        Removal r = try_removals(*s, text);
        EXPECT_GE(r.inserted, 1) << passes::policy_name(pol);
        EXPECT_EQ(r.necessary, r.inserted) << passes::policy_name(pol);
    }
}

}  // namespace

namespace {

TEST(OracleFixture, TwoRingIdsHaveTheirOwnSlotsAndFrees) {
    std::string k = fixture("two_ring_ids.py");
    auto v = verdict_of("two_ring_ids.py", k);
    EXPECT_TRUE(v.races.empty() && !v.deadlock) << format_verdict(v);
    // A third push on ring 1 (2 slots) needs the free of ring 1's first pop: freeing ring 0 instead deadlocks.
    std::string wrong = k;
    wrong.replace(wrong.find("pl.tfree_to_aic(b, id=1)"), std::string("pl.tfree_to_aic(b, id=1)").size(),
                  "pl.tfree_to_aic(b)");
    auto push = wrong.find("        pl.tpush_to_aiv(z, split=0, id=1)\n");
    wrong.insert(push, "        pl.tpush_to_aiv(z, split=0, id=1)\n        pl.tpush_to_aiv(z, split=0, id=1)\n");
    auto w = verdict_of("two_ring_ids.py", wrong);
    EXPECT_TRUE(w.deadlock) << format_verdict(w);
}

}  // namespace
