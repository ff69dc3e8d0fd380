// Semantic analysis: types, names, constant folding, op resolution and their diagnostics.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/printer.h"
#include "frontend/sema.h"
#include "frontend_util.h"

using namespace cvsim;
using namespace cvsim::ir;
using namespace cvsim::test;

namespace {

const char* kParams = "a: pl.Tensor[[16, 32], pl.FP16], out: pl.Out[pl.Tensor[[16, 32], pl.FP16]]";
const char* kRet = "pl.Tensor[[16, 32], pl.FP16]";

TEST(Sema, EverySampleKernelAnalyses) {
    for (const char* k : {"v2c_rope_attn.py", "c2v_row_relay.py", "v2c_blocked_loop.py", "missing_tfree.py",
                          "unbalanced_pop.py", "flash_block.py", "a5_missing_nz.py", "hard_syncall_partial.py",
                          "l2_rows_narrow.py", "l2_rows_wide.py", "nonuniform_gather.py", "split_updown_scratch.py",
                          "v2c_branch.py", "v2c_manual_syncall.py", "v2c_reused_scratch.py"}) {
        EXPECT_NO_THROW(parse_kernel(k)) << k;
    }
}

TEST(Sema, ModuleConstantsFoldIntoShapesWithPythonSemantics) {
    auto p = parse_text(
        "import pypto.language as pl\nB = 4\nK = 64\nH = (B * K) // 3\nM = -7 // 2\n\n@pl.program\nclass P:\n"
        "    @pl.function(type=pl.FunctionType.InCore)\n    def f(self, x: pl.Tensor[[H, B * K], pl.FP16], y: "
        "pl.Tensor[[-M, 2], pl.FP16]):\n"
        "        pass\n");
    const auto& f = *p->functions[0];
    EXPECT_EQ(f.params[0].var->type.shape, (std::vector<int64_t>{85, 256}));
    EXPECT_EQ(f.params[1].var->type.shape, (std::vector<int64_t>{4, 2}));  // -7 // 2 == -4 in Python
}

TEST(Sema, LoadInfersTileTypeAndMemory) {
    auto p = parse_kernel("v2c_rope_attn.py");
    const Function& f = *p->functions[0];
    auto a_mat = f.find_var("a_mat");
    ASSERT_TRUE(a_mat);
    EXPECT_EQ(type_str(a_mat->type), "pl.Tile[[16, 128], pl.FP16, pl.Mem.Mat]");
    EXPECT_EQ(a_mat->type.layout(), Layout::NZ);
    EXPECT_EQ(type_str(f.find_var("scores")->type), "pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc]");
    EXPECT_EQ(f.find_var("k_right")->type.layout(), Layout::ZN);
}

TEST(Sema, UnifiedOpsDispatchOnOperandKind) {
    auto p = parse_kernel("v2c_rope_attn.py");
    bool saw_mul = false, saw_muls = false;
    for (auto& s : p->functions[0]->body)
        if (s->value && s->value->kind == ExprKind::Call) {
            saw_mul |= s->value->op->code == OpCode::Mul;
            saw_muls |= s->value->op->code == OpCode::Muls;
        }
    EXPECT_TRUE(saw_mul);
    EXPECT_TRUE(saw_muls);
}

TEST(Sema, NestedCallsAreHoistedIntoTheirOwnStatements) {
    auto p = parse_kernel("c2v_row_relay.py");
    const Function& f = *p->functions[0];
    ASSERT_TRUE(f.find_var("_muls"));
    EXPECT_EQ(f.find_var("_muls")->type.mem, Mem::Vec);
}

TEST(Sema, AnnotationSuppliesTheTpopType) {
    auto p = parse_kernel("missing_tfree.py");
    auto z = p->find("relay_aiv")->find_var("z");
    ASSERT_TRUE(z);
    EXPECT_EQ(type_str(z->type), "pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec]");
}

TEST(Sema, TpopWithoutAnnotationOrShapeIsATypeError) {
    auto d = diag_of(kernel_with(kParams, "", "        z = pl.tpop_from_aic(split=0)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
    EXPECT_EQ(d->loc.line, 8u);
}

TEST(Sema, UndefinedNameIsENameWithSuggestion) {
    auto d = diag_of(kernel_with(kParams, kRet, "        t = pl.load(a, [0, 0], [16, 32])\n        return tt\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-NAME");
    EXPECT_EQ(d->loc.line, 9u);
    EXPECT_NE(d->hint.find("'t'"), std::string::npos);
}

TEST(Sema, UnknownOpIsUnsupportedNamingIt) {
    auto d = diag_of(kernel_with(kParams, "", "        t = pl.frobnicate(a)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-UNSUPPORTED");
    EXPECT_NE(d->message.find("pl.frobnicate"), std::string::npos);
}

TEST(Sema, UnexpectedKeywordIsATypeErrorListingParameters) {
    auto d = diag_of(kernel_with(kParams, "", "        t = pl.load(a, [0, 0], [16, 32], target_mem=pl.Mem.Vec)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
    EXPECT_NE(d->message.find("target_mem"), std::string::npos);
    EXPECT_NE(d->hint.find("target_memory"), std::string::npos);
}

TEST(Sema, UnknownEnumMemberIsATypeError) {
    auto d = diag_of(kernel_with(kParams, "", "        t = pl.load(a, [0, 0], [16, 32], target_memory=pl.Mem.L7)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
    EXPECT_NE(d->message.find("L7"), std::string::npos);
}

TEST(Sema, MatmulInnerDimensionMismatchNamesBothShapes) {
    auto d = diag_of(SourceFile::read(kernel_path("bad/matmul_shape_mismatch.py"))->text());
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
    EXPECT_EQ(d->loc.line, 12u);
    EXPECT_NE(d->message.find("[16, 32]"), std::string::npos);
    EXPECT_NE(d->message.find("[64, 16]"), std::string::npos);
}

TEST(Sema, ConstantWindowOutsideTheTensorIsOob) {
    auto d = diag_of(SourceFile::read(kernel_path("bad/load_out_of_bounds.py"))->text());
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-OOB");
    EXPECT_EQ(d->loc.line, 8u);
    EXPECT_NE(d->message.find("[8:24, 0:16]"), std::string::npos) << d->message;
}

TEST(Sema, RebindingWithAnotherTypeIsATypeError) {
    auto d = diag_of(kernel_with(
        kParams, "", "        t = pl.load(a, [0, 0], [16, 32])\n        t = pl.load(a, [0, 0], [8, 32])\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
    EXPECT_EQ(d->loc.line, 9u);
    EXPECT_NE(d->message.find("re-bound"), std::string::npos);
}

TEST(Sema, BinaryOpOnDifferentDtypesAsksForACast) {
    auto d = diag_of(kernel_with("a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[16, 32], pl.FP32]", "",
                                 "        x = pl.load(a, [0, 0], [16, 32])\n        y = pl.load(b, [0, 0], [16, 32])\n "
                                 "       z = pl.add(x, y)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
    EXPECT_NE(d->hint.find("cast"), std::string::npos);
}

TEST(Sema, YieldOutsideALoopIsRejected) {
    auto d = diag_of(kernel_with(kParams, "", "        t = pl.load(a, [0, 0], [16, 32])\n        u = pl.yield_(t)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-PARSE");
    EXPECT_EQ(d->loc.line, 9u);
}

TEST(Sema, LoopWithInitValuesMustEndWithYield) {
    auto d = diag_of(
        kernel_with(kParams, "",
                    "        t = pl.load(a, [0, 0], [16, 32])\n        for i, (x,) in pl.range(2, init_values=(t,)):\n"
                    "            y = pl.add(x, x)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-PARSE");
    EXPECT_EQ(d->loc.line, 10u);
}

TEST(Sema, LoopCarriedValuesAndResults) {
    auto p = parse_kernel("flash_block.py");
    const Function& f = *p->functions[0];
    const Stmt* loop = nullptr;
    for (auto& s : f.body)
        if (s->kind == StmtKind::For) loop = s.get();
    ASSERT_TRUE(loop);
    ASSERT_EQ(loop->iter_args.size(), 1u);
    EXPECT_EQ(loop->iter_args[0]->name, "o");
    ASSERT_EQ(loop->targets.size(), 1u);
    EXPECT_EQ(loop->targets[0]->name, "o_out");
    EXPECT_EQ(loop->body.back()->kind, StmtKind::Yield);
}

TEST(Sema, TensorLevelScopesAreUnsupported) {
    auto d = diag_of(kernel_with(kParams, "", "        with pl.at(level=pl.Level.CORE_GROUP):\n            pass\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-UNSUPPORTED");
    EXPECT_EQ(d->loc.line, 8u);
}

std::string region_kernel(const std::string& mode, const std::string& shard_kw, const std::string& rows = "32") {
    return "import pypto.language as pl\n\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n"
           "    def f(self, a: pl.Tensor[[" +
           rows +
           ", 64], pl.FP16]):\n"
           "        m = pl.load(a, [0, 0], [" +
           rows +
           ", 64], target_memory=pl.Mem.Mat)\n"
           "        for lane in pl.split_aiv(2, mode=pl.SplitMode." +
           mode +
           "):\n"
           "            h = pl.aiv_shard(m" +
           shard_kw +
           ")\n"
           "            g = pl.aic_gather(h)\n";
}

TEST(Sema, ShardAndGatherTakeTheRegionMode) {
    auto ud = parse_text(region_kernel("UP_DOWN", ""));
    EXPECT_EQ(type_str(ud->functions[0]->find_var("h")->type), "pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec]");
    EXPECT_EQ(type_str(ud->functions[0]->find_var("g")->type), "pl.Tile[[32, 64], pl.FP16, pl.Mem.Mat]");
    auto lr = parse_text(region_kernel("LEFT_RIGHT", ""));
    EXPECT_EQ(lr->functions[0]->find_var("h")->type.shape, (std::vector<int64_t>{32, 32}));
    EXPECT_EQ(lr->functions[0]->find_var("g")->type.shape, (std::vector<int64_t>{32, 64}));
    auto none = parse_text(region_kernel("NONE", ""));
    EXPECT_EQ(none->functions[0]->find_var("h")->type.shape, (std::vector<int64_t>{32, 64}));
    EXPECT_EQ(none->functions[0]->find_var("g")->type.shape, (std::vector<int64_t>{32, 64}));
}

TEST(Sema, ShardSplitContradictingTheRegionIsATypeError) {
    auto d = diag_of(region_kernel("UP_DOWN", ", split=2"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
    EXPECT_EQ(d->loc.line, 10u);
    EXPECT_NE(d->message.find("contradicts"), std::string::npos);
}

TEST(Sema, OddSplitsGiveLaneZeroTheLargerHalf) {
    auto p = parse_text(kernel_with("a: pl.Tensor[[17, 64], pl.FP16]", "",
                                    "        m = pl.load(a, [0, 0], [17, 64], target_memory=pl.Mem.Mat)\n"
                                    "        h = pl.aiv_shard(m, split=3)\n        g = pl.aic_gather(h, split=3)\n"
                                    "        c = pl.aiv_shard(m, split=4)\n"));
    const auto& f = *p->functions[0];
    EXPECT_EQ(f.find_var("h")->type.shape, (std::vector<int64_t>{9, 64}));
    EXPECT_EQ(f.find_var("g")->type.shape, (std::vector<int64_t>{17, 64}));
    EXPECT_EQ(f.find_var("c")->type.shape, (std::vector<int64_t>{17, 32}));
    auto d = diag_of(kernel_with(
        "a: pl.Tensor[[17, 64], pl.FP16]", "",
        "        m = pl.load(a, [0, 0], [17, 64], target_memory=pl.Mem.Mat)\n        h = pl.aiv_shard(m, split=1)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
    EXPECT_NE(d->hint.find("split=3"), std::string::npos);
}

TEST(Sema, DynamicSymbolsParseButAreUnsupportedAsDimensions) {
    std::string head =
        "import pypto.language as pl\nN = pl.dynamic(\"N\")\n\n@pl.program\nclass P:\n"
        "    @pl.function(type=pl.FunctionType.InCore)\n";
    EXPECT_NO_THROW(parse_text(head + "    def f(self, a: pl.Tensor[[16, 16], pl.FP16]):\n        pass\n"));
    auto d = diag_of(head + "    def f(self, a: pl.Tensor[[N, 16], pl.FP16]):\n        pass\n");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-UNSUPPORTED");
    EXPECT_NE(d->message.find("'N'"), std::string::npos);
}

TEST(Sema, PeerFuncMustNameAFunction) {
    auto d =
        diag_of(kernel_with(kParams, "", "        r = pl.system.import_peer_buffer(name='x', peer_func='nobody')\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-NAME");
    EXPECT_NE(d->message.find("nobody"), std::string::npos);
}

TEST(Sema, TileSliceOutsideTheTileIsOob) {
    auto d = diag_of(kernel_with(
        kParams, "", "        t = pl.load(a, [0, 0], [16, 32])\n        s = pl.slice(t, [8, 32], [12, 0])\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-OOB");
    EXPECT_EQ(d->loc.line, 9u);
}

// A shape error in a program whose dynamic dimensions cvsim chose names the choices (inferred, default, --dim)
// and how to give the launch's real sizes; an error that is not about shapes does not.
std::optional<Diagnostic> dims_diag(const std::string& body, std::map<std::string, int64_t> dims = {}) {
    const std::string text =
        "import pypto.language as pl\nT_DYN = pl.dynamic(\"T_DYN\")\nR = pl.dynamic(\"R\")\n\n@pl.program\nclass P:\n"
        "    @pl.function(type=pl.FunctionType.InCore)\n"
        "    def k(x: pl.Tensor[[T_DYN, 4], pl.FP32], y: pl.Tensor[[R, 4], pl.FP32], o: pl.Out[pl.Tensor[[8, 4], "
        "pl.FP32]]) -> pl.Tensor[[T_DYN, 4], pl.FP32]:\n" +
        body + "        return o\n";
    SemaOptions opt{dims, kDefaultDim};
    try {
        load_program(std::make_shared<SourceFile>("dims.py", text), opt);
    } catch (const CompileError& e) {
        return e.diag();
    }
    return std::nullopt;
}

TEST(Sema, AShapeErrorNamesTheDimensionsCvsimChose) {
    // T_DYN = 8: the return annotation [T_DYN, 4] against the returned [8, 4]; R: the default.
    auto d = dims_diag(
        "        a: pl.Tile[[16, 4], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 4], [16, 4], "
        "target_memory=pl.Mem.Vec)\n");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-OOB");
    EXPECT_NE(d->hint.find("T_DYN=8 (inferred)"), std::string::npos) << d->hint;
    EXPECT_NE(d->hint.find("R=128 (default)"), std::string::npos) << d->hint;
    EXPECT_NE(d->hint.find("--dim NAME=V"), std::string::npos) << d->hint;
    auto b = dims_diag(
        "        a: pl.Tile[[16, 4], pl.FP32, pl.Mem.Vec] = pl.tile.load(y, [0, 0], [16, 4], [16, 4], "
        "target_memory=pl.Mem.Vec)\n",
        {{"R", 8}});
    ASSERT_TRUE(b);
    EXPECT_EQ(b->code, "E-OOB");
    EXPECT_NE(b->hint.find("R=8 (--dim)"), std::string::npos) << b->hint;
    // Not a shape error: no list.
    auto n = dims_diag(
        "        a: pl.Tile[[8, 4], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 4], [8, 4], "
        "target_memory=pl.Mem.Vec)\n"
        "        b = pl.tile.add(a, 1.0, 2.0)\n");
    ASSERT_TRUE(n);
    EXPECT_EQ(n->hint.find("dynamic dimensions"), std::string::npos) << n->hint;
    // No error at the sizes that fit.
    EXPECT_FALSE(
        dims_diag("        a: pl.Tile[[8, 4], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 4], [8, 4], "
                  "target_memory=pl.Mem.Vec)\n"));
}

}  // namespace

TEST(Sema, EveryDtypeThePrinterEmitsParsesWithItsElementSize) {
    // PyPTO's printer spells these after `pl.`; each is a scalar and a tensor element with PyPTO's byte size.
    const std::vector<std::pair<std::string, size_t>> dtypes = {
        {"INT64", 8},   {"INDEX", 8},     {"UINT8", 1},   {"UINT16", 2},  {"UINT32", 4}, {"UINT64", 8},
        {"TASK_ID", 8}, {"FP8E4M3FN", 1}, {"FP8E5M2", 1}, {"FP8E8M0", 1}, {"HF8", 1},    {"BOOL", 1}};
    for (const auto& [name, bytes] : dtypes) {
        auto p = parse_text(
            kernel_with("s: pl.Scalar[pl." + name + "], t: pl.Tensor[[4, 8], pl." + name + "]", "", "        pass\n"));
        const ir::Function& f = *p->functions[0];
        ASSERT_EQ(f.params.size(), 2u) << name;
        EXPECT_EQ(dtype_name(f.params[0].var->type.dtype), name);
        EXPECT_EQ(dtype_bytes(f.params[1].var->type.dtype), bytes) << name;
        EXPECT_EQ(f.params[1].var->type.bytes(), int64_t(32 * bytes)) << name;
    }
}

TEST(Sema, KernelsPrintedWithoutSelfReadLikeMethods) {
    auto p = parse_text(
        "import pypto.language as pl\n\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n"
        "    def k(x: pl.Tensor[[16, 16], pl.FP32]):\n        pass\n\n"
        "    @pl.function(type=pl.FunctionType.Orchestration)\n    def main(self, x: pl.Tensor[[16, 16], pl.FP32]):\n  "
        "      self.k(x)\n");
    ASSERT_EQ(p->functions.size(), 2u);
    EXPECT_EQ(p->functions[0]->params.size(), 1u);
    EXPECT_EQ(p->functions[0]->params[0].var->name, "x");
    EXPECT_EQ(p->functions[1]->params.size(), 1u);
}

// Found by the parser fuzzer: a folded comparison (`16 < 16` is False = 0) was accepted as a dimension, and
// the printed result type `pl.Tensor[[0], ...]` did not parse back. A shape entry is a dimension (1..2^31)
// in every op that takes one, as in a type annotation.
TEST(Sema, ShapeArgumentsAreDimensionsInEveryOp) {
    const char* bodies[] = {
        "        z = pl.tensor.create([16 < 16, 16], pl.FP32)\n", "        z = pl.tile.create([16, 0], pl.FP32)\n",
        "        z = pl.tile.full([-16, 16], pl.FP32, 0.0)\n", "        z = pl.load(a, [0, 0], [16, 0])\n",
        "        t = pl.load(a, [0, 0], [16, 32])\n        z = pl.reshape(t, [-16, -32])\n"};
    for (const char* b : bodies) {
        auto d = diag_of(kernel_with(kParams, "", b));
        ASSERT_TRUE(d) << b;
        EXPECT_EQ(d->code, "E-TYPE") << b;
        EXPECT_NE(d->message.find("out of range (1..2^31)"), std::string::npos) << d->message;
    }
}
