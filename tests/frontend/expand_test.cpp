// The expander: lane split, boundaries, tfree, pipe setup, GM fences per policy.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "frontend/launch.h"
#include "frontend/passes/expand_mixed_kernel.h"
#include "frontend/printer.h"
#include "frontend/reference.h"
#include "frontend_util.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

struct Expanded {
    std::string text;
    passes::ExpandStats stats;
};

Expanded expand(const std::string& kernel, passes::V2CPolicy pol, Target t = Target::A2A3) {
    passes::ExpandOptions o;
    o.v2c = pol;
    o.target = t;
    Expanded e;
    e.text = print_program(*passes::expand_mixed_kernel(*parse_kernel(kernel), o, e.stats));
    return e;
}

// The text of one function of a printed program.
std::string function_text(const std::string& prog, const std::string& name) {
    auto b = prog.find("    def " + name + "(");
    if (b == std::string::npos) return "";
    auto e = prog.find("\n    @pl.function", b);
    return prog.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

size_t pos(const std::string& s, const std::string& needle) {
    auto p = s.find(needle);
    EXPECT_NE(p, std::string::npos) << "missing: " << needle << "\nin:\n" << s;
    return p;
}

TEST(Expand, SplitsIntoAicAivAndGroupNamedAsUpstream) {
    Expanded e = expand("v2c_rope_attn.py", passes::V2CPolicy::Off);
    EXPECT_NE(e.text.find("@pl.function(type=pl.FunctionType.AIC)\n    def rope_attn_aic("), std::string::npos);
    EXPECT_NE(e.text.find("@pl.function(type=pl.FunctionType.AIV)\n    def rope_attn_aiv("), std::string::npos);
    EXPECT_NE(e.text.find("@pl.function(type=pl.FunctionType.Group)\n    def rope_attn("), std::string::npos);
    std::string aic = function_text(e.text, "rope_attn_aic"), aiv = function_text(e.text, "rope_attn_aiv");
    EXPECT_EQ(aic.find("pl.tile.mul("), std::string::npos) << "vector ops stay off the cube lane";
    EXPECT_EQ(aiv.find("pl.tile.matmul("), std::string::npos);
    EXPECT_EQ(aic.find("return"), std::string::npos) << "the AIC function returns nothing";
    EXPECT_NE(aiv.find("return out"), std::string::npos);
    EXPECT_EQ(e.stats.boundaries, 1);
}

TEST(Expand, BoundaryMoveBecomesPushPopWithTfreeAfterLastUse) {
    Expanded e = expand("v2c_rope_attn.py", passes::V2CPolicy::Off);
    std::string aic = function_text(e.text, "rope_attn_aic"), aiv = function_text(e.text, "rope_attn_aiv");
    pos(aic, "pl.tile.tpush_to_aiv(scores, split=0)");
    size_t pop = pos(aiv, "scores_vec: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)");
    size_t use = pos(aiv, "pl.tile.muls(scores_vec, 0.0625)");
    size_t freed = pos(aiv, "pl.system.tfree_to_aic(scores_vec)");
    EXPECT_LT(pop, use);
    EXPECT_LT(use, freed);
}

TEST(Expand, PipeSetupHasBuffersDirMaskSlotSizeAndSlotNum) {
    Expanded e = expand("v2c_rope_attn.py", passes::V2CPolicy::Fence);
    std::string aic = function_text(e.text, "rope_attn_aic"), aiv = function_text(e.text, "rope_attn_aiv");
    pos(aic, "pl.system.import_peer_buffer(name='rope_attn_c2v_slot_buffer', peer_func='rope_attn_aiv')");
    pos(aic, "pl.system.reserve_buffer(name='rope_attn_v2c_slot_buffer', size=8192, base=pl.AUTO)");
    pos(aic, "pl.system.aic_initialize_pipe(c2v_buf, v2c_buf, dir_mask=3, slot_size=4096, slot_num=2)");
    pos(aiv, "pl.system.reserve_buffer(name='rope_attn_c2v_slot_buffer', size=8192, base=pl.AUTO)");
    pos(aiv, "pl.system.aiv_initialize_pipe(c2v_buf, v2c_buf, dir_mask=3, slot_size=4096, slot_num=2)");
    // Only C2V crosses under `off`: one direction, and the other buffer is a zero constant.
    Expanded off = expand("v2c_rope_attn.py", passes::V2CPolicy::Off);
    pos(function_text(off.text, "rope_attn_aic"),
        "pl.system.aic_initialize_pipe(c2v_buf, pl.const(0, pl.INT32), dir_mask=1, slot_size=4096, slot_num=2)");
}

TEST(Expand, V2cFencePushesAfterTheStoreAndPopsBeforeTheLoad) {
    Expanded e = expand("v2c_rope_attn.py", passes::V2CPolicy::Fence);
    std::string aic = function_text(e.text, "rope_attn_aic"), aiv = function_text(e.text, "rope_attn_aiv");
    size_t store = pos(aiv, "pl.tile.store(r, [0, 0], q_rot)");
    size_t push = pos(aiv, "pl.tile.tpush_to_aic(r, split=0)");
    EXPECT_LT(store, push);
    size_t pop = pos(aic, "_v2c_token: pl.Tile[[16, 128], pl.FP16, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)");
    size_t fr = pos(aic, "pl.system.tfree_to_aiv(_v2c_token)");
    size_t load = pos(aic, "pl.tile.load(q_rot, [0, 0], [16, 128], target_memory=pl.Mem.Mat)");
    EXPECT_LT(pop, fr);
    EXPECT_LT(fr, load);
    EXPECT_EQ(e.stats.v2c_fences, 1);
}

TEST(Expand, V2cFenceOnA5AdaptsTheTokenToNz) {
    Expanded e = expand("v2c_rope_attn.py", passes::V2CPolicy::Fence, Target::A5);
    std::string aiv = function_text(e.text, "rope_attn_aiv");
    pos(aiv,
        "r_nz: pl.Tile[[16, 128], pl.FP16, pl.Mem.Vec, pl.TileView(blayout=pl.TileLayout.col_major, "
        "slayout=pl.TileLayout.row_major)] = "
        "pl.tile.move(r, target_memory=pl.Mem.Vec, blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)");
    pos(aiv, "pl.tile.tpush_to_aic(r_nz, split=0)");
}

TEST(Expand, OffLeavesV2cUnfencedButC2vIsFencedAsUpstream) {
    Expanded off = expand("v2c_rope_attn.py", passes::V2CPolicy::Off);
    EXPECT_EQ(off.text.find("tpop_from_aiv"), std::string::npos);
    EXPECT_EQ(off.stats.unfenced, 1);
    Expanded relay = expand("c2v_row_relay.py", passes::V2CPolicy::Off);
    std::string aiv = function_text(relay.text, "row_relay_aiv");
    size_t pop = pos(aiv, "_c2v_token: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)");
    size_t loop = pos(aiv, "for r in pl.range(16):");
    EXPECT_LT(pop, loop) << "the C2V pop is hoisted before the loop: one pop per push";
    pos(function_text(relay.text, "row_relay_aic"), "pl.tile.tpush_to_aiv(z, split=0)");
    EXPECT_EQ(relay.stats.c2v_fences, 1);
}

TEST(Expand, FenceInTheSameLoopBodyStaysInTheLoop) {
    Expanded e = expand("v2c_blocked_loop.py", passes::V2CPolicy::Fence);
    std::string aic = function_text(e.text, "blocked_aic");
    size_t loop = pos(aic, "for i in pl.range(4):");
    size_t pop = pos(aic, "pl.tile.tpop_from_aiv(split=0)");
    EXPECT_LT(loop, pop);
    EXPECT_EQ(e.stats.war_orders, 0) << "disjoint blocks per iteration need no loop-carried ordering";
}

TEST(Expand, ReusedScratchAlsoOrdersTheLoopCarriedWar) {
    Expanded e = expand("v2c_reused_scratch.py", passes::V2CPolicy::Fence);
    EXPECT_EQ(e.stats.war_orders, 1);
    std::string aic = function_text(e.text, "reused_aic"), aiv = function_text(e.text, "reused_aiv");
    pos(aic, "pl.system.sync_set(0, pipe=pl.PipeType.MTE2, core_type='aic')");
    size_t wait = pos(aiv, "pl.system.sync_wait(0, pipe=pl.PipeType.MTE3, core_type='aiv')");
    size_t store = pos(aiv, "pl.tile.store(t, [0, 0], scratch)");
    EXPECT_LT(wait, store);
}

// The loop-carried WAR waits for the LAST cube load of the scratch in the body, not only the paired one.
TEST(Expand, LoopCarriedWarWaitsForTheLastLoadOfTheIteration) {
    std::string k = kernel_with(
        "a: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 64], pl.FP16], s: pl.Out[pl.Tensor[[16, 64], pl.FP16]], "
        "out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]",
        "pl.Tensor[[32, 64], pl.FP32]",
        "        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.Mem.Mat)\n"
        "        w_right = pl.move(w_mat, target_memory=pl.Mem.Right)\n"
        "        for i in pl.range(2):\n"
        "            t = pl.load(a, [0, 0], [16, 64])\n"
        "            s = pl.store(t, [0, 0], s)\n"
        "            g0 = pl.load(s, [0, 0], [16, 64], target_memory=pl.Mem.Mat)\n"
        "            l0 = pl.move(g0, target_memory=pl.Mem.Left)\n"
        "            z0 = pl.matmul(l0, w_right)\n"
        "            g1 = pl.load(s, [0, 0], [16, 64], target_memory=pl.Mem.Mat)\n"
        "            l1 = pl.move(g1, target_memory=pl.Mem.Left)\n"
        "            z1 = pl.matmul_acc(z0, l1, w_right)\n"
        "            out = pl.store(z1, [i * 16, 0], out)\n"
        "        return out\n");
    for (auto pol : {passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall}) {
        passes::ExpandOptions o;
        o.v2c = pol;
        passes::ExpandStats st;
        std::string text = print_program(*passes::expand_mixed_kernel(*parse_text(k), o, st));
        std::string aic = function_text(text, "f_aic");
        EXPECT_EQ(st.war_orders, 1);
        size_t last_load = pos(aic, "g1: pl.Tile[[16, 64], pl.FP16, pl.Mem.Mat] = pl.tile.load(s, [0, 0], [16, 64]");
        const char* reverse = pol == passes::V2CPolicy::Fence ? "pl.system.sync_set(" : "pl.system.syncall(";
        size_t after_first = aic.find(reverse, pos(aic, "g0: "));
        ASSERT_NE(after_first, std::string::npos) << aic;
        EXPECT_GT(after_first, last_load) << "the reverse order comes after the second load, not between the two\n"
                                          << aic;
    }
}

// A tile transport in one arm of a branch does not order a dependency (the arm may not run): the token is
// still placed, and its pop goes before the branch so the ring stays FIFO.
TEST(Expand, ATransportInOneArmIsNotAlreadyOrdered) {
    Expanded e;
    passes::ExpandOptions o;
    auto p = load_program(SourceFile::read(source_dir() + "/tests/golden/expand/v2c_token_ring_order.py"));
    e.text = print_program(*passes::expand_mixed_kernel(*p, o, e.stats));
    EXPECT_EQ(e.stats.already_ordered, 0);
    EXPECT_EQ(e.stats.v2c_fences, 1);
    std::string aic = function_text(e.text, "ring_order_aic");
    EXPECT_LT(pos(aic, "_v2c_token: "), pos(aic, "for i in pl.range(2):"));
}

TEST(Expand, BranchFallsBackToABarrier) {
    Expanded e = expand("v2c_branch.py", passes::V2CPolicy::Fence);
    EXPECT_EQ(e.stats.fallbacks, 1);
    EXPECT_EQ(e.stats.barriers, 1);
    std::string aic = function_text(e.text, "branch_aic");
    size_t bar = pos(aic, "pl.system.syncall(core_type='mix', mode='soft', gm_workspace=__syncall_workspace)");
    pos(aic, "__syncall_workspace: pl.InOut[pl.Tensor[[64], pl.INT32]]");
    EXPECT_LT(bar, pos(aic, "pl.tile.load(scratch"));
}

TEST(Expand, RejectNamesTheTensorTheProducerAndTheFix) {
    try {
        expand("v2c_rope_attn.py", passes::V2CPolicy::Reject);
        FAIL() << "expected E-V2C-UNFENCED";
    } catch (const CompileError& e) {
        EXPECT_EQ(e.diag().code, "E-V2C-UNFENCED");
        EXPECT_EQ(e.diag().loc.line, 33u);
        EXPECT_NE(e.diag().message.find("q_rot"), std::string::npos);
        EXPECT_NE(e.diag().message.find("v2c_rope_attn.py:31"), std::string::npos);
        EXPECT_NE(e.diag().hint.find("syncall"), std::string::npos);
    }
}

TEST(Expand, AlreadyOrderedByAnAuthorSyncallAddsNothing) {
    for (auto pol : {passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall, passes::V2CPolicy::Reject}) {
        Expanded e = expand("v2c_manual_syncall.py", pol);
        EXPECT_EQ(e.stats.already_ordered, 1);
        EXPECT_EQ(e.stats.v2c_fences + e.stats.barriers, 0);
    }
}

// Every sample kernel of ../shared/kernels (bad/ excluded), sorted.
std::vector<std::string> sample_kernels() {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(shared_dir() + "/kernels"))
        if (e.is_regular_file() && e.path().extension() == ".py") out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

// expand(expand(k)) == expand(k) for every sample kernel, policy and target; only `reject` may refuse a
// kernel (an unordered V2C dependency), and then there is nothing to expand twice.
TEST(Expand, ExpandingAnExpandedProgramAddsNothing) {
    auto kernels = sample_kernels();
    ASSERT_GE(kernels.size(), 15u);
    int rejected = 0;
    for (const std::string& k : kernels) {
        for (auto pol : {passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall, passes::V2CPolicy::Off,
                         passes::V2CPolicy::Reject}) {
            for (Target t : {Target::A2A3, Target::A5}) {
                std::string what =
                    k + " --v2c " + std::string(passes::policy_name(pol)) + " --target " + std::string(target_name(t));
                Expanded once;
                try {
                    once = expand(k, pol, t);
                } catch (const CompileError& e) {
                    EXPECT_EQ(pol, passes::V2CPolicy::Reject) << what << ": " << e.diag().message;
                    EXPECT_EQ(e.diag().code, "E-V2C-UNFENCED") << what;
                    ++rejected;
                    continue;
                }
                passes::ExpandOptions o;
                o.v2c = pol;
                o.target = t;
                passes::ExpandStats st;
                std::string twice =
                    print_program(*passes::expand_mixed_kernel(*parse_text(once.text, "once.py"), o, st));
                EXPECT_EQ(twice, once.text) << what;
                EXPECT_EQ(st.functions_expanded + st.boundaries + st.c2v_fences + st.v2c_fences + st.war_orders +
                              st.fallbacks + st.barriers,
                          0)
                    << what;
            }
        }
    }
    EXPECT_GT(rejected, 0) << "some sample kernel has an unordered V2C dependency";
}

TEST(Expand, LoopCarriedAccumulatorStaysOnTheCubeLane) {
    Expanded e = expand("flash_block.py", passes::V2CPolicy::Fence);
    std::string aic = function_text(e.text, "flash_aic"), aiv = function_text(e.text, "flash_aiv");
    pos(aic, "for i, (o,) in pl.range(1, 16, init_values=(o0,)):");
    pos(aiv, "for i in pl.range(1, 16):");
    EXPECT_EQ(aiv.find("init_values"), std::string::npos);
}

// The expanded program computes what the original computes (reference interpretation of both), for every
// sample kernel the expander splits. Under `off` a V2C kernel is racy, so only the ordering policies must
// agree. Not compared: kernels written already expanded (nothing to compare), and nonuniform_gather.py,
// whose lanes push different data into one split-0 slot (the result depends on which landed last).
TEST(Expand, ExpandedReferenceEqualsTheOriginal) {
    int compared = 0;
    for (const std::string& k : sample_kernels()) {
        if (k == "nonuniform_gather.py") continue;
        for (auto pol : {passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall}) {
            for (Target t : {Target::A2A3, Target::A5}) {
                CompileOptions co;
                co.expand.v2c = pol;
                co.expand.target = t;
                Compiled c = compile(parse_kernel(k), co);
                if (!c.mixed) continue;
                rt::TensorStore gm;
                rt::bind_entry(c.plan, gm, {});
                rt::fill_inputs(gm, 3);
                rt::poison_outputs(gm);
                ref::Result a = ref::interpret(c.plan, gm);
                ref::Result b = ref::interpret_lanes(c.plan, gm);
                ASSERT_FALSE(a.error) << k << ": " << a.error->message;
                ASSERT_FALSE(b.error) << k << ": " << b.error->message;
                for (size_t i = 0; i < gm.tensors.size(); ++i) {
                    if (gm.tensors[i].is_output()) {
                        EXPECT_EQ(a.gm.tensors[i].bytes, b.gm.tensors[i].bytes) << k << " " << gm.tensors[i].name;
                    }
                }
                ++compared;
            }
        }
    }
    EXPECT_GE(compared, 4 * 9);  // the nine mixed sample kernels, two policies, two targets
}

}  // namespace
