// The parity comparison's op sequences (sim/parity.cpp): what counts as an op, what is a printing detail.
#include "app/parity.h"

#include <gtest/gtest.h>

using namespace cvsim::sim;

namespace {

const char* kOurs = R"(# pypto.program: P
import pypto.language as pl
@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV)
    def k_aiv(self, x: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        pl.func_attr({'split': pl.SplitMode.UP_DOWN})
        buf: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(name='k_c2v_slot_buffer', size=8192, base=pl.AUTO)
        for i in pl.range(4):
            z: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)
            if i == 0:
                e: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(z)
            else:
                e2 = pl.tile.relu(z)
            pl.system.tfree_to_aic(z)
        n = i + 1
        return x
)";

// The same program as another printer wraps and annotates it.
const char* kTheirs = R"(# pypto.program: P
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.AIV, attrs={"split": pl.SplitMode.UP_DOWN})
    def k_aiv(x: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        buf__ssa: pl.Scalar[pl.INT32] = pl.system.reserve_buffer(
            name="k_c2v_slot_buffer", size=16384, base=-1
        )  # a comment
        for i, (acc,) in pl.range(4, init_values=(x,)):
            z_0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[16, 64])] = pl.tile.tpop_from_aic(
                split=0
            )
            if i == 0:
                e: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(z_0)
            else:
                e2: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.relu(z_0)
            pl.system.tfree_to_aic(z_0)
        return x
)";

TEST(ParityOps, TokensAreOpsAndBlocksInProgramOrder) {
    auto seq = op_sequences(kOurs);
    ASSERT_EQ(seq.count("k_aiv"), 1u);
    EXPECT_EQ(seq["k_aiv"].type, "AIV");
    std::vector<std::string> want = {"system.reserve_buffer",
                                     "for",
                                     "tile.tpop_from_aic",
                                     "if",
                                     "tile.exp",
                                     "}",
                                     "else",
                                     "tile.relu",
                                     "}",
                                     "system.tfree_to_aic",
                                     "}",
                                     "return"};
    EXPECT_EQ(seq["k_aiv"].tokens, want);
}

TEST(ParityOps, PrintingDetailsDoNotMatter) {
    std::string report;
    EXPECT_TRUE(compare_op_sequences(op_sequences(kOurs), op_sequences(kTheirs), report)) << report;
    EXPECT_NE(report.find("k_aiv: same"), std::string::npos) << report;
}

TEST(ParityOps, AnOpOutOfOrderOrMissingIsADifference) {
    std::string moved = kTheirs;
    // The free before the branch instead of after it.
    auto at = moved.find("            pl.system.tfree_to_aic(z_0)\n");
    ASSERT_NE(at, std::string::npos);
    moved.erase(at, std::string("            pl.system.tfree_to_aic(z_0)\n").size());
    auto ifat = moved.find("            if i == 0:");
    moved.insert(ifat, "            pl.system.tfree_to_aic(z_0)\n");
    std::string report;
    EXPECT_FALSE(compare_op_sequences(op_sequences(kOurs), op_sequences(moved), report));
    EXPECT_NE(report.find("k_aiv: differs at op 4"), std::string::npos) << report;
    std::string renamed = kTheirs;
    renamed.replace(renamed.find("def k_aiv"), 9, "def k_aiw");
    report.clear();
    EXPECT_FALSE(compare_op_sequences(op_sequences(kOurs), op_sequences(renamed), report));
    EXPECT_NE(report.find("k_aiv: only in cvsim's expansion"), std::string::npos) << report;
    EXPECT_NE(report.find("k_aiw: only in upstream's expansion"), std::string::npos) << report;
}

TEST(ParityOps, AFunctionTypeDifferenceIsReported) {
    std::string other = kTheirs;
    other.replace(other.find("FunctionType.AIV"), 16, "FunctionType.AIC");
    std::string report;
    EXPECT_FALSE(compare_op_sequences(op_sequences(kOurs), op_sequences(other), report));
    EXPECT_NE(report.find("type AIV (cvsim) vs AIC (upstream)"), std::string::npos) << report;
}

TEST(ParityOps, ACallTheFormatterWrapsInParenthesesIsStillACall) {
    // PyPTO's printer wraps a long call as `x: T = (\n self.f(...)\n)` (the paged attention example): it is the
    // same `call` token as the one-line form; a parenthesised non-call is not one.
    const char* wrapped = R"(@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def o(self, x: pl.Tensor[[16, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
        t: pl.Tuple[pl.Tensor[[16, 64], pl.FP32], pl.Tensor[[16, 64], pl.FP32]] = (
            self.k(
                x, x
            )
        )
        n: pl.Scalar[pl.INDEX] = (1 + 2)
        u: pl.Tensor[[16, 64], pl.FP32] = (pl.tensor.create([16, 64], dtype=pl.FP32))
        return x
)";
    auto seq = op_sequences(wrapped);
    std::vector<std::string> want = {"call", "tensor.create", "return"};
    EXPECT_EQ(seq["o"].tokens, want);
}

TEST(ParityOps, APerCallCopyIsComparedWithTheFunctionItCopies) {
    // cvsim's expansion of a kernel called at two sizes has `f__N_24`, marked as a copy of `f`: it matches
    // upstream's `f` when its ops do, and differs when they do not; an unmarked extra function is still "only in".
    const std::string head =
        "@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.AIV)\n    def f(self, x: pl.Tensor[[8, 64], "
        "pl.FP32]):\n"
        "        t: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 64])\n        return x\n";
    const std::string copy =
        "    # cvsim: 'f__N_24' is a per-call copy of 'f'\n    @pl.function(type=pl.FunctionType.AIV)\n"
        "    def f__N_24(self, x: pl.Tensor[[24, 64], pl.FP32]):\n";
    auto theirs = op_sequences(head);
    std::string report;
    EXPECT_TRUE(compare_op_sequences(op_sequences(head + copy +
                                                  "        t: pl.Tile[[24, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, "
                                                  "[0, 0], [24, 64])\n        return x\n"),
                                     theirs, report))
        << report;
    EXPECT_NE(report.find("f__N_24: per-call copy of f: same ops"), std::string::npos) << report;
    report.clear();
    EXPECT_FALSE(compare_op_sequences(
        op_sequences(head + copy +
                     "        t: pl.Tile[[24, 64], pl.FP32, pl.Mem.Vec] = pl.tile.exp(x)\n        return x\n"),
        theirs, report));
    EXPECT_NE(report.find("differs from upstream's f"), std::string::npos) << report;
    report.clear();
    const std::string unmarked =
        "    @pl.function(type=pl.FunctionType.AIV)\n    def f__N_24(self, x: pl.Tensor[[24, 64], pl.FP32]):\n"
        "        t: pl.Tile[[24, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [24, 64])\n        return x\n";
    EXPECT_FALSE(compare_op_sequences(op_sequences(head + unmarked), theirs, report));
    EXPECT_NE(report.find("only in cvsim's expansion"), std::string::npos) << report;
}

}  // namespace

TEST(ParityOps, CvsimsGatherComparePairIsUpstreamsOneCall) {
    // cvsim prints pl.tile.gather_compare as gather_compare_dst + gather_compare_cdst on the same operands;
    // upstream prints one call returning the tuple (PyPTO's GatherCompareEqProgram): the same op.
    const std::string head =
        "@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.AIV)\n    def f(self, x: pl.Tensor[[16, 64], "
        "pl.FP32]):\n"
        "        s: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])\n";
    const std::string ours = head +
                             "        d: pl.Tile[[16, 8], pl.INT32, pl.Mem.Vec] = pl.tile.gather_compare_dst(s, k, t, "
                             "cmp_mode=0, offset=0, out_cols=8)\n"
                             "        c: pl.Tile[[1, 16], pl.INT32, pl.Mem.Vec] = pl.tile.gather_compare_cdst(s, k, t, "
                             "cmp_mode=0, offset=0, out_cols=8)\n"
                             "        return x\n";
    const std::string theirs = head +
                               "        r: pl.Tuple[pl.Tile[[16, 8], pl.INT32, pl.Mem.Vec], pl.Tile[[1, 16], pl.INT32, "
                               "pl.Mem.Vec]] = pl.tile.gather_compare(\n"
                               "            s, k, t, cmp_mode=0, offset=0, out_cols=8\n        )\n        d = r[0]\n   "
                               "     c = r[1]\n        return x\n";
    std::vector<std::string> want = {"tile.load", "tile.gather_compare", "return"};
    EXPECT_EQ(op_sequences(ours)["f"].tokens, want);
    std::string report;
    EXPECT_TRUE(compare_op_sequences(op_sequences(ours), op_sequences(theirs), report)) << report;
    // Two calls stay two (the cdst of other operands is another call), and one call is not two.
    const std::string two = head +
                            "        d: pl.Tile[[16, 8], pl.INT32, pl.Mem.Vec] = pl.tile.gather_compare_dst(s, k, t, "
                            "cmp_mode=0, offset=0, out_cols=8)\n"
                            "        c: pl.Tile[[1, 16], pl.INT32, pl.Mem.Vec] = pl.tile.gather_compare_cdst(s, k2, t, "
                            "cmp_mode=0, offset=0, out_cols=8)\n"
                            "        return x\n";
    want = {"tile.load", "tile.gather_compare", "tile.gather_compare", "return"};
    EXPECT_EQ(op_sequences(two)["f"].tokens, want);
    report.clear();
    EXPECT_FALSE(compare_op_sequences(op_sequences(two), op_sequences(theirs), report));
}

TEST(ParityOps, UpstreamsGatherRowIsCvsimsLoadAndAssemble) {
    // cvsim reads pl.tile.gather_row as a load of the source rows and an assemble into dst (docs/DECISIONS.md) and
    // prints those; upstream prints the one op (pypto-lib's sparse attention kernels gather KV rows into a Mat tile).
    const std::string head =
        "@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.AIC)\n    def f(self, kv: pl.Tensor[[256, 64], "
        "pl.BF16], idx: pl.Tensor[[16], pl.INT32]):\n"
        "        d: pl.Tile[[16, 64], pl.BF16, pl.Mem.Mat] = pl.tile.create([16, 64], dtype=pl.BF16, "
        "target_memory=pl.Mem.Mat)\n";
    const std::string ours = head +
                             "        r: pl.Tile[[1, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(kv, [3, 0], [1, 64], "
                             "target_memory=pl.Mem.Mat)\n"
                             "        d2: pl.Tile[[16, 64], pl.BF16, pl.Mem.Mat] = pl.tile.assemble(d, r, [0, 0])\n"
                             "        return d2\n";
    const std::string theirs = head +
                               "        d2: pl.Tile[[16, 64], pl.BF16, pl.Mem.Mat] = pl.tile.gather_row(\n"
                               "            d, kv, [0, 0], [3, 0], [1, 64]\n        )\n        return d2\n";
    std::vector<std::string> want = {"tile.create", "tile.load", "tile.assemble", "return"};
    EXPECT_EQ(op_sequences(theirs)["f"].tokens, want);
    std::string report;
    EXPECT_TRUE(compare_op_sequences(op_sequences(ours), op_sequences(theirs), report)) << report;
    // A load without the assemble is not the gather.
    const std::string half = head +
                             "        r: pl.Tile[[1, 64], pl.BF16, pl.Mem.Mat] = pl.tile.load(kv, [3, 0], [1, 64], "
                             "target_memory=pl.Mem.Mat)\n"
                             "        return r\n";
    report.clear();
    EXPECT_FALSE(compare_op_sequences(op_sequences(half), op_sequences(theirs), report));
}
