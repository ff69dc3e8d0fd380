// Exact timing relations of the cluster model (ClusterUnderTest); each test runs in its own process.
#include <gtest/gtest.h>

#include "cluster_under_test.h"
#include "core/cost_model.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::sim;
using namespace cvsim::test;
using Rec = ClusterUnderTest::Rec;

namespace {

const char* kHeader = "import pypto.language as pl\n\n\n@pl.program\nclass T:\n";

TEST(Timing, MatmulTakesTheMadFormulasCycles) {
    std::string k = std::string(kHeader) +
                    "    @pl.function(type=pl.FunctionType.InCore)\n"
                    "    def mm(self, x: pl.Tensor[[48, 96], pl.FP16], w: pl.Tensor[[96, 80], pl.FP16], out: "
                    "pl.Out[pl.Tensor[[48, 80], pl.FP32]]):\n"
                    "        xm = pl.load(x, [0, 0], [48, 96], target_memory=pl.Mem.Mat)\n"
                    "        xl = pl.move(xm, target_memory=pl.Mem.Left)\n"
                    "        wm = pl.load(w, [0, 0], [96, 80], target_memory=pl.Mem.Mat)\n"
                    "        wr = pl.move(wm, target_memory=pl.Mem.Right)\n"
                    "        z = pl.matmul(xl, wr)\n"
                    "        out = pl.store(z, [0, 0], out)\n";
    ClusterUnderTest cut(k);
    cut.run_until_idle();
    auto mm = cut.find(CoreId::Aic, "tile.matmul");
    ASSERT_EQ(mm.size(), 1u);
    HwParams hw = preset(Target::A2A3);
    uint64_t want = mad_cycles(hw.cube, DType::FP16, 48, 96, 80);  // 21 + 3 * 6 * 5 = 111
    EXPECT_EQ(want, 111u);
    EXPECT_EQ(mm[0].end - mm[0].start, want);
    // The matmul starts the cycle its last operand move completes (a data dependency, no slack).
    auto moves = cut.find(CoreId::Aic, "tile.move");
    ASSERT_EQ(moves.size(), 2u);
    ClusterUnderTest::expect_gap(moves[1].end > moves[0].end ? moves[1] : moves[0], mm[0], 0);
}

// A producer that pushes 6 tiles into a 2-slot ring whose consumer frees each slot only after slow work.
std::string ring_kernel() {
    return std::string(kHeader) +
           "    @pl.function(type=pl.FunctionType.AIC)\n"
           "    def r_aic(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):\n"
           "        buf = pl.import_peer_buffer(name='r_c2v_slot_buffer', peer_func='r_aiv')\n"
           "        pl.aic_initialize_pipe(buf, pl.const(0, pl.INT32), dir_mask=1, slot_size=16384, slot_num=2)\n"
           "        xm = pl.load(x, [0, 0], [64, 64], target_memory=pl.Mem.Mat)\n"
           "        xl = pl.move(xm, target_memory=pl.Mem.Left)\n"
           "        xr = pl.move(xm, target_memory=pl.Mem.Right)\n"
           "        z = pl.matmul(xl, xr)\n"
           "        for i in pl.range(6):\n"
           "            pl.tpush_to_aiv(z, split=0)\n"
           "\n"
           "    @pl.function(type=pl.FunctionType.AIV)\n"
           "    def r_aiv(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):\n"
           "        buf = pl.reserve_buffer(name='r_c2v_slot_buffer', size=32768, base=pl.AUTO)\n"
           "        pl.aiv_initialize_pipe(buf, pl.const(0, pl.INT32), dir_mask=1, slot_size=16384, slot_num=2)\n"
           "        for i in pl.range(6):\n"
           "            t: pl.Tile[[64, 64], pl.FP32, pl.Mem.Vec] = pl.tpop_from_aic(split=0)\n"
           "            a = pl.exp(t)\n"
           "            b = pl.exp(a)\n"
           "            c = pl.exp(b)\n"
           "            d = pl.add(t, c)\n"
           "            pl.tfree_to_aic(t)\n"
           "            out = pl.store(d, [0, 0], out)\n"
           "\n"
           "    @pl.function(type=pl.FunctionType.Group)\n"
           "    def r(self, x: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):\n"
           "        self.r_aic(x, out)\n"
           "        self.r_aiv(x, out)\n";
}

TEST(Timing, TwoSlotRingLetsTheProducerRunExactlyTwoPushesAhead) {
    // The AIV frees each slot only after three exps and an add read the popped tile: a slow consumer, so
    // the producer runs into the full ring.
    ClusterUnderTest cut(ring_kernel());
    cut.run_until_idle();
    auto pushes = cut.find(CoreId::Aic, "tile.tpush_to_aiv");
    auto frees = cut.find(CoreId::Aiv0, "system.tfree_to_aic");
    ASSERT_EQ(pushes.size(), 6u);
    ASSERT_EQ(frees.size(), 6u);
    // The first two pushes go straight in (two pushes ahead of any free) ...
    EXPECT_LT(pushes[1].end, frees[0].end);
    // ... and from then on every push waits for the free of the slot it reuses, and starts right then
    // (the replay lane's free of the same slot happens earlier, so AIV0's free is the last one).
    for (size_t k2 = 2; k2 < 6; ++k2) {
        EXPECT_GE(pushes[k2].start, frees[k2 - 2].end) << k2;
        EXPECT_EQ(pushes[k2].start, frees[k2 - 2].end) << "push " << k2 << " starts the cycle its slot is freed";
    }
}

TEST(Timing, MissingTfreeStallsExactlyWhenTheRingIsFull) {
    ClusterUnderTest cut(read_file(kernel_path("missing_tfree.py")));
    ScheduleResult r = cut.run();
    EXPECT_FALSE(r.outcome.completed);
    // Two slots: two pushes complete, the third never does.
    EXPECT_EQ(cut.find(CoreId::Aic, "tile.tpush_to_aiv").size(), 2u);
    EXPECT_EQ(cut.find(CoreId::Aiv0, "tile.tpop_from_aic").size(), 2u + 2u);  // each pop = ready-wait + MTE2 copy
    bool deadlock = false;
    for (auto& f : r.findings) deadlock |= f.code == "E-DEADLOCK";
    EXPECT_TRUE(deadlock);
}

std::string syncall_kernel(const char* mode) {
    return std::string(kHeader) +
           "    @pl.function(type=pl.FunctionType.InCore)\n"
           "    def s(self, a: pl.Tensor[[64, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], scratch: "
           "pl.Out[pl.Tensor[[64, 64], pl.FP16]],\n"
           "          out: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):\n"
           "        blk = pl.tile.get_block_idx()\n"
           "        t = pl.load(a, [blk * 16, 0], [16, 64])\n"
           "        u = pl.exp(t)\n"
           "        scratch = pl.store(u, [blk * 16, 0], scratch)\n"
           "        pl.system.fence()\n"
           "        pl.system.syncall(core_type='mix', mode='" +
           std::string(mode) +
           "')\n"
           "        sm = pl.load(scratch, [blk * 16, 0], [16, 64], target_memory=pl.Mem.Mat)\n"
           "        sl = pl.move(sm, target_memory=pl.Mem.Left)\n"
           "        wm = pl.load(w, [0, 0], [64, 64], target_memory=pl.Mem.Mat)\n"
           "        wr = pl.move(wm, target_memory=pl.Mem.Right)\n"
           "        z = pl.matmul(sl, wr)\n"
           "        out = pl.store(z, [blk * 16, 0], out)\n";
}

TEST(Timing, HardSyncallReleasesEveryParticipantInTheSameCycle) {
    SessionOptions o;
    o.blocks = 4;
    o.param_sets = {"chip.clusters=4"};  // a 4-cluster chip, fully occupied
    ClusterUnderTest cut(syncall_kernel("hard"), o);
    ScheduleResult r = cut.run_until_idle();
    EXPECT_TRUE(r.clean()) << (r.findings.empty() ? "" : r.findings[0].message);
    std::vector<uint64_t> departures, arrivals;
    for (const auto& h : cut.history())
        if (h.op == "system.syncall")
            (h.detail.find("arrival") != std::string::npos ? arrivals : departures).push_back(h.end);
    ASSERT_EQ(departures.size(), 12u);  // 4 clusters x (AIC, AIV0, AIV1 replay)
    for (uint64_t d : departures) EXPECT_EQ(d, departures[0]);
    uint64_t last_arrival = *std::max_element(arrivals.begin(), arrivals.end());
    HwParams hw = preset(Target::A2A3);
    EXPECT_EQ(departures[0], last_arrival + hw.sync.hard_syncall_release + hw.sync.issue_cost);
}

TEST(Timing, HardSyncallBelowFullOccupancyIsReportedNotHung) {
    SessionOptions o;
    o.blocks = 2;  // of 24 clusters on a2a3
    ClusterUnderTest cut(syncall_kernel("hard"), o);
    ScheduleResult r = cut.run();
    std::vector<std::string> codes;
    for (auto& f : r.findings) codes.push_back(f.code);
    EXPECT_NE(std::find(codes.begin(), codes.end(), "E-OCCUPANCY"), codes.end());
    EXPECT_NE(std::find(codes.begin(), codes.end(), "E-DEADLOCK"), codes.end());
}

TEST(Timing, SoftSyncallAtPartialOccupancyCompletes) {
    SessionOptions o;
    o.blocks = 2;
    ClusterUnderTest cut(syncall_kernel("soft"), o);
    ScheduleResult r = cut.run_until_idle();
    EXPECT_TRUE(r.clean()) << (r.findings.empty() ? "" : r.findings[0].message);
    uint64_t last_arrival = 0, first_departure = UINT64_MAX;
    for (const auto& h : cut.history()) {
        if (h.op != "system.syncall") continue;
        if (h.detail.find("arrival") != std::string::npos)
            last_arrival = std::max(last_arrival, h.end);
        else
            first_departure = std::min(first_departure, h.end);
    }
    EXPECT_GE(first_departure, last_arrival);
}

TEST(Timing, A2a3AicWaitCompletesOnlyAfterBothAivsSet) {
    std::string k = std::string(kHeader) +
                    "    @pl.function(type=pl.FunctionType.AIC)\n"
                    "    def f_aic(self, a: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]):\n"
                    "        pl.system.sync_wait(3, pipe=pl.PipeType.S, core_type='aic')\n"
                    "\n"
                    "    @pl.function(type=pl.FunctionType.AIV, attrs={'split': pl.SplitMode.UP_DOWN})\n"
                    "    def f_aiv(self, a: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]):\n"
                    "        lane = pl.tile.get_subblock_idx()\n"
                    "        t = pl.load(a, [lane * 32, 0], [32, 64])\n"
                    "        if lane == 0:\n"
                    "            u = pl.exp(t)\n"
                    "            v = pl.exp(u)\n"
                    "            out = pl.store(v, [0, 0], out)\n"
                    "        else:\n"
                    "            out = pl.store(t, [32, 0], out)\n"
                    "        pl.system.sync_set(3, pipe=pl.PipeType.MTE3, core_type='aiv')\n"
                    "\n"
                    "    @pl.function(type=pl.FunctionType.Group)\n"
                    "    def f(self, a: pl.Tensor[[64, 64], pl.FP16], out: pl.Out[pl.Tensor[[64, 64], pl.FP16]]):\n"
                    "        self.f_aic(a, out)\n"
                    "        self.f_aiv(a, out)\n";
    ClusterUnderTest cut(k);
    cut.run_until_idle();
    auto wait = cut.find(CoreId::Aic, "system.sync_wait");
    auto set0 = cut.find(CoreId::Aiv0, "system.sync_set");
    auto set1 = cut.find(CoreId::Aiv1, "system.sync_set");
    ASSERT_EQ(wait.size(), 1u);
    ASSERT_EQ(set0.size(), 1u);
    ASSERT_EQ(set1.size(), 1u);
    EXPECT_LT(set1[0].end, set0[0].end) << "lane 1 sets first";
    EXPECT_GE(wait[0].end, set0[0].end) << "the AIC waits for the later lane too";
}

}  // namespace
