// WindowAnalysis::may_overlap_across_blocks: may a window in one cluster meet a window in ANOTHER
// cluster of the same launch (block index different, scalar parameters equal, loop variables as asked)?
#include <gtest/gtest.h>

#include "frontend/ops.h"
#include "frontend/passes/gm_windows.h"
#include "frontend/passes/ir_util.h"
#include "frontend_util.h"

using namespace cvsim;
using namespace cvsim::test;
using passes::GmWindow;
using passes::WindowAnalysis;

namespace {

// The GM accesses (stores and loads) of a one-function kernel, in program order, with their windows.
struct Accesses {
    std::shared_ptr<ir::Program> prog;
    std::unique_ptr<WindowAnalysis> wa;
    std::vector<GmWindow> win;
    std::vector<const ir::Stmt*> loops;  // every For, in program order
};

void collect(Accesses& r, ir::Block& b, passes::StmtPath path) {
    for (size_t i = 0; i < b.size(); ++i) {
        passes::StmtPath here = path;
        here.push_back({&b, i});
        if (const ir::Expr* c = passes::stmt_call(*b[i]))
            if (c->op->code == ir::OpCode::Store || c->op->code == ir::OpCode::Load)
                r.win.push_back(r.wa->window(*c, here));
        if (b[i]->kind == ir::StmtKind::For) r.loops.push_back(b[i].get());
        collect(r, b[i]->body, here);
        collect(r, b[i]->orelse, here);
    }
}

Accesses accesses(const std::string& params, const std::string& body) {
    Accesses r;
    r.prog = parse_text(kernel_with(params, "", body));
    ir::Function& f = *r.prog->find("f");
    r.wa = std::make_unique<WindowAnalysis>(f);
    collect(r, f.body, {});
    return r;
}

const std::string kParams = "x: pl.Tensor[[64, 64], pl.FP16], s: pl.InOut[pl.Tensor[[80, 64], pl.FP16]]";

// Vector store of band `store_row` of s, cube load of band `load_row` (16 rows each).
Accesses band_pair(const std::string& store_row, const std::string& load_row, const std::string& pre = "") {
    return accesses(kParams + ", n: pl.Scalar[pl.INDEX]", "        blk = pl.tile.get_block_idx()\n" + pre +
                                                              "        t = pl.load(x, [0, 0], [16, 64])\n"
                                                              "        s = pl.store(t, [" +
                                                              store_row +
                                                              ", 0], s)\n"
                                                              "        m = pl.load(s, [" +
                                                              load_row +
                                                              ", 0], [16, 64], target_memory=pl.MemorySpace.Mat)\n");
}

bool across(const Accesses& a, int blocks) {
    return WindowAnalysis::may_overlap_across_blocks(a.win[1], a.win[2], blocks, *a.wa);
}

TEST(CrossBlockWindows, OwnBandInEveryClusterNeverMeetsAnotherCluster) {
    Accesses a = band_pair("blk * 16", "blk * 16");
    ASSERT_TRUE(a.win[1].ok && a.win[2].ok);
    for (int blocks : {1, 2, 4, 24, 200}) EXPECT_FALSE(across(a, blocks)) << blocks;
}

TEST(CrossBlockWindows, TheNextClustersBandMeetsItsStore) {
    Accesses a = band_pair("blk * 16", "(blk + 1) * 16");
    EXPECT_FALSE(across(a, 1)) << "one cluster: nothing crosses";
    EXPECT_TRUE(across(a, 2));
    // Half-band offset: rows 8..23 of cluster 0's read meet cluster 1's band 16..31.
    EXPECT_TRUE(across(band_pair("blk * 16", "blk * 16 + 8"), 2));
    // A read 16 * NBLK rows down never meets a launch of 2 (rows 32.. are nobody's band but the load's).
    EXPECT_FALSE(across(band_pair("blk * 16", "blk * 16 + 48"), 2));
    EXPECT_TRUE(across(band_pair("blk * 16", "blk * 16 + 48"), 4));
}

TEST(CrossBlockWindows, WindowsMovingAtDifferentRatesMeetOnlyOnWideEnoughLaunches) {
    // Store rows [16x, 16x + 16), load rows [32y, 32y + 16): x = 2, y = 1 is the first meeting (x != y).
    Accesses a = band_pair("blk * 16", "blk * 32");
    EXPECT_FALSE(across(a, 2));
    EXPECT_TRUE(across(a, 3));
}

TEST(CrossBlockWindows, ABlockIndependentWindowIsEveryClusters) {
    EXPECT_TRUE(across(band_pair("0", "0"), 2));
    EXPECT_FALSE(across(band_pair("0", "16"), 2));
}

TEST(CrossBlockWindows, ScalarParametersAreTheSameLaunchArgumentInEveryCluster) {
    EXPECT_FALSE(across(band_pair("blk * 16 + n", "blk * 16 + n"), 2));
    // A scalar on one side only: no conclusion, may overlap.
    EXPECT_TRUE(across(band_pair("blk * 16", "blk * 16 + n"), 2));
}

TEST(CrossBlockWindows, EveryVariableBoundToTheBlockIndexHoldsTheSameValue) {
    EXPECT_FALSE(across(band_pair("blk * 16", "b2 * 16", "        b2 = pl.tile.get_block_idx()\n"), 2));
}

TEST(CrossBlockWindows, AnUnknownOffsetMayMeetAnythingInItsDimension) {
    // (blk + 1) % 2 is not affine (the block index's range is the launch's): an atom of its own in [0, 1] (the
    // block index is never negative: triage11; hunt8a had the rows the tensor allows), so its rows are 0 or 16
    // and it may meet the other block's band.
    Accesses a = band_pair("blk * 16", "((blk + 1) % 2) * 16");
    ASSERT_TRUE(a.win[2].ok);
    EXPECT_FALSE(a.win[2].off[0].terms.empty());
    EXPECT_TRUE(across(a, 2));
    auto b = a.wa->bounds(a.win[2].off[0]);
    ASSERT_TRUE(b.has_value());
    EXPECT_EQ(b->first, 0);
    EXPECT_EQ(b->second, 16);
}

TEST(CrossBlockWindows, AnUnknownOffsetKeepsTheOtherDimensions) {
    // Rows i * j (no affine form) of columns 0-15 against columns 32-47: apart whatever the rows.
    Accesses a = accesses(kParams,
                          "        t = pl.load(x, [0, 0], [16, 16])\n"
                          "        for i in pl.range(2):\n"
                          "            for j in pl.range(2):\n"
                          "                s = pl.store(t, [i * j * 16, 0], s)\n"
                          "                m = pl.load(s, [0, 32], [16, 16], target_memory=pl.MemorySpace.Mat)\n"
                          "                q = pl.load(s, [0, 8], [16, 16], target_memory=pl.MemorySpace.Mat)\n");
    ASSERT_EQ(a.win.size(), 4u);
    EXPECT_FALSE(WindowAnalysis::may_overlap(a.win[1], a.win[2], {}, nullptr, 0, 0, *a.wa));
    EXPECT_TRUE(WindowAnalysis::may_overlap(a.win[1], a.win[3], {}, nullptr, 0, 0, *a.wa));
}

TEST(CrossBlockWindows, LoopVariablesAreFreeUnlessTiedByTheIterationOrder) {
    // Cluster b reads band b + 1 of column block i; its store writes band b of column block i.
    Accesses a =
        accesses("x: pl.Tensor[[64, 64], pl.FP16], s: pl.InOut[pl.Tensor[[48, 192], pl.FP16]]",
                 "        blk = pl.tile.get_block_idx()\n"
                 "        for i in pl.range(3):\n"
                 "            t = pl.load(x, [0, 0], [16, 64])\n"
                 "            s = pl.store(t, [blk * 16, i * 64], s)\n"
                 "            m = pl.load(s, [(blk + 1) * 16, i * 64], [16, 64], target_memory=pl.MemorySpace.Mat)\n");
    ASSERT_EQ(a.loops.size(), 1u);
    const ir::Stmt* loop = a.loops[0];
    const ir::Var* i = loop->loop_var.get();
    EXPECT_TRUE(WindowAnalysis::may_overlap_across_blocks(a.win[1], a.win[2], 2, *a.wa)) << "free: any iterations";
    EXPECT_TRUE(WindowAnalysis::may_overlap_across_blocks(a.win[1], a.win[2], 2, *a.wa, {i})) << "same iteration";
    // The store in an earlier iteration than the load (or a later one): other columns.
    EXPECT_FALSE(WindowAnalysis::may_overlap_across_blocks(a.win[1], a.win[2], 2, *a.wa, {}, loop, -2, -1));
    EXPECT_FALSE(WindowAnalysis::may_overlap_across_blocks(a.win[2], a.win[1], 2, *a.wa, {}, loop, -2, -1));
}

}  // namespace
