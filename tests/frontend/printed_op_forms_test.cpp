// Op keywords and operands PyPTO's printed IR carries that cvsim refused (issue 11, PyPTO's tests/st): the
// high-precision keyword of div/log/recip, row_expand_add's tmp, load's clamp, matmul_acc's init_cond, gemv's
// acc_phase, a tensor.write bound to a name, a launch's dump_vars list, and an in-place op into a view of a tile
// that is read elsewhere (refused). Numbers are checked against what the test computes from the inputs.
#include <gtest/gtest.h>

#include <cmath>

#include "frontend/ops.h"
#include "frontend/printer.h"
#include "reference_util.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

double at(const rt::TensorBuffer& t, int64_t i) {
    return element_at(t, i);
}

std::string vec_kernel(const std::string& dt, const std::string& body) {
    return kernel_with("a: pl.Tensor[[16, 64], " + dt + "], b: pl.Tensor[[16, 64], " + dt +
                           "], out: pl.Out[pl.Tensor[[16, 64], " + dt + "]]",
                       "",
                       "        x: pl.Tile[[16, 64], " + dt +
                           ", pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64])\n"
                           "        y: pl.Tile[[16, 64], " +
                           dt + ", pl.Mem.Vec] = pl.tile.load(b, [0, 0], [16, 64])\n" + body +
                           "        out = pl.tile.store(z, [0, 0], out)\n");
}

// The output tensor of two runs of the reference on the same seed.
void expect_same_output(const std::string& one, const std::string& two, size_t out_index) {
    RefRun a = run_reference(one, 3), b = run_reference(two, 3);
    ASSERT_FALSE(a.out.error) << a.out.error->message;
    ASSERT_FALSE(b.out.error) << b.out.error->message;
    const auto& x = a.out.gm.tensors[out_index];
    const auto& y = b.out.gm.tensors[out_index];
    ASSERT_EQ(x.bytes, y.bytes);
}

}  // namespace

TEST(PrintedOpForms, HighPrecisionIsReadAndComputesTheSameCorrectlyRoundedValue) {
    // PTOAS's high-precision TDIV / TLOG / TRECIP (A5; ignored on A2/A3) are more accurate algorithms for the
    // same function; cvsim computes the correctly rounded value either way.
    for (std::string dt : {"pl.FP32", "pl.FP16"}) {
        SCOPED_TRACE(dt);
        expect_same_output(vec_kernel(dt, "        z = pl.tile.div(x, y, high_precision=True)\n"),
                           vec_kernel(dt, "        z = pl.tile.div(x, y)\n"), 2);
        expect_same_output(vec_kernel(dt, "        z = pl.tile.log(x, high_precision=True)\n"),
                           vec_kernel(dt, "        z = pl.tile.log(x)\n"), 2);
        expect_same_output(vec_kernel(dt, "        z = pl.tile.recip(x, high_precision=True)\n"),
                           vec_kernel(dt, "        z = pl.tile.recip(x)\n"), 2);
    }
    // PyPTO: the high-precision templates exist for FP16 / FP32 only.
    auto d = diag_of(vec_kernel("pl.INT32", "        z = pl.tile.div(x, y, high_precision=True)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
    EXPECT_NE(d->message.find("high_precision=True needs an FP16 or FP32 tile"), std::string::npos) << d->message;
    d = diag_of(vec_kernel("pl.FP32", "        z = pl.tile.log(x, high_precision=2)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
    // It is printed back (print -> parse -> print keeps it).
    std::string p =
        print_program(*parse_text(vec_kernel("pl.FP32", "        z = pl.tile.div(x, y, high_precision=True)\n")));
    EXPECT_NE(p.find("pl.tile.div(x, y, high_precision=True)"), std::string::npos) << p;
}

TEST(PrintedOpForms, RowExpandAddTakesPyptosScratchTilePositionally) {
    auto k = [](const std::string& call) {
        return kernel_with(
            "a: pl.Tensor[[16, 64], pl.FP32], r: pl.Tensor[[16, 1], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], "
            "pl.FP32]]",
            "",
            "        x: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64])\n"
            "        v: pl.Tile[[16, 1], pl.FP32, pl.Mem.Vec] = pl.tile.load(r, [0, 0], [16, 1])\n"
            "        tmp: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.create([16, 64], dtype=pl.FP32, "
            "target_memory=pl.Mem.Vec)\n"
            "        z = " +
                call + "\n        out = pl.tile.store(z, [0, 0], out)\n");
    };
    expect_same_output(k("pl.tile.row_expand_add(x, v, tmp)"), k("pl.tile.row_expand_add(x, v)"), 2);
    RefRun r = run_reference(k("pl.tile.row_expand_add(x, v, tmp)"), 3);
    ASSERT_FALSE(r.out.error);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 64; j += 9)
            ASSERT_EQ(at(r.out.gm.tensors[2], i * 64 + j),
                      round_to(DType::FP32, at(r.in.tensors[0], i * 64 + j) + at(r.in.tensors[1], i)));
    // tmp must be a tile (PyPTO's rule); a scalar is an E-TYPE at it.
    auto d = diag_of(k("pl.tile.row_expand_add(x, v, 1.0)"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
}

TEST(PrintedOpForms, ClampNarrowsTheLoadToTheSourceEdge) {
    // A [16, 64] window at row 8 of a 20-row tensor: 12 rows exist. Without clamp the load reads past the end
    // (E-OOB); with it the tile's valid region is [12, 64] and the store writes those rows only.
    const std::string params = "a: pl.Tensor[[20, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]";
    auto body = [](const std::string& kw) {
        return "        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [8, 0], [16, 64], [16, 64]" + kw +
               ")\n        out = pl.tile.store(t, [0, 0], out)\n";
    };
    auto d = diag_of(kernel_with(params, "", body("")));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-OOB");
    RefRun r = run_reference(kernel_with(params, "", body(", clamp=True")), 7);
    ASSERT_FALSE(r.out.error) << r.out.error->message;
    for (int i = 0; i < 12; ++i)
        ASSERT_EQ(at(r.out.gm.tensors[1], i * 64 + 5), at(r.in.tensors[0], (8 + i) * 64 + 5)) << i;
    for (int i = 12; i < 16; ++i)
        ASSERT_TRUE(std::isnan(at(r.out.gm.tensors[1], i * 64 + 5))) << i;  // not written (poison)
    // clamp=False is the plain load.
    d = diag_of(kernel_with(params, "", body(", clamp=False")));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-OOB");
    // A run-time offset: the clamped region is an expression the run time evaluates, printed back with the keyword.
    std::string p = print_program(*parse_text(kernel_with(
        "a: pl.Tensor[[20, 64], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]", "",
        "        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [n, 0], [16, 64], [16, 64], clamp=True)\n"
        "        out = pl.tile.store(t, [0, 0], out)\n")));
    EXPECT_NE(p.find("valid_shape=[pl.min(16, pl.max(20 - n, 0)), 64]"), std::string::npos) << p;
    EXPECT_NE(p.find("clamp=True"), std::string::npos) << p;
}

TEST(PrintedOpForms, MatmulAccInitCondOverwritesTheAccumulator) {
    // Registry numerics: init_cond true ignores acc; false (or absent) adds to it.
    ir::OpOperands o;
    o.op = &ir::op_def(ir::OpCode::MatmulAcc);
    TileData acc{DType::FP32, Matrix::Constant(2, 2, 100.0)};
    TileData l{DType::FP16, Matrix::Constant(2, 3, 1.0)};
    TileData r{DType::FP16, Matrix::Constant(3, 2, 2.0)};
    o.tiles = {acc, l, r};
    o.out_dtype = DType::FP32;
    o.out_rows = o.out_cols = 2;
    o.scalars = {1.0};
    EXPECT_EQ(ir::eval_numerics(o).m(1, 1), 6.0);
    o.scalars = {0.0};
    EXPECT_EQ(ir::eval_numerics(o).m(1, 1), 106.0);
    o.scalars.clear();
    EXPECT_EQ(ir::eval_numerics(o).m(1, 1), 106.0);
    // PyPTO's split-K form: a loop whose first step overwrites the accumulator (here holding a product of its own).
    const std::string params =
        "a: pl.Tensor[[16, 64], pl.FP16], b: pl.Tensor[[64, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]";
    auto prog = [&](const std::string& cond) {
        return kernel_with(params, "",
                           "        am: pl.Tile[[16, 32], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 32], "
                           "target_memory=pl.Mem.Mat)\n"
                           "        bm: pl.Tile[[32, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [32, 16], "
                           "target_memory=pl.Mem.Mat)\n"
                           "        acc = pl.tile.matmul(pl.tile.move(am, target_memory=pl.Mem.Left), pl.tile.move(bm, "
                           "target_memory=pl.Mem.Right))\n"
                           "        for k in pl.range(0, 64, 32):\n"
                           "            al: pl.Tile[[16, 32], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, k], [16, 32], "
                           "target_memory=pl.Mem.Mat)\n"
                           "            bl: pl.Tile[[32, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [k, 0], [32, 16], "
                           "target_memory=pl.Mem.Mat)\n"
                           "            pl.tile.matmul_acc(acc, pl.tile.move(al, target_memory=pl.Mem.Left), "
                           "pl.tile.move(bl, target_memory=pl.Mem.Right)" +
                               cond +
                               ")\n"
                               "        out = pl.tile.store(acc, [0, 0], out)\n");
    };
    RefRun run = run_reference(prog(", k == 0"), 5);
    ASSERT_FALSE(run.out.error) << run.out.error->message;
    const auto &A = run.in.tensors[0], &B = run.in.tensors[1];
    for (int i = 0; i < 16; i += 5)
        for (int j = 0; j < 16; j += 3) {
            double s0 = 0, s1 = 0;
            for (int k = 0; k < 32; ++k) s0 += at(A, i * 64 + k) * at(B, k * 16 + j);
            for (int k = 32; k < 64; ++k) s1 += at(A, i * 64 + k) * at(B, k * 16 + j);
            // step 0 overwrote the first product; step 1 added to it
            EXPECT_NEAR(at(run.out.gm.tensors[2], i * 16 + j), s0 + s1, 1e-3 * (std::fabs(s0) + std::fabs(s1) + 1))
                << i << "," << j;
        }
    // Without init_cond the first product stays in (three partial products).
    RefRun plain = run_reference(prog(""), 5);
    ASSERT_FALSE(plain.out.error);
    EXPECT_NE(plain.out.gm.tensors[2].bytes, run.out.gm.tensors[2].bytes);
    // init_cond is a BOOL scalar (PyPTO's CheckMatmulInitCond).
    auto d = diag_of(prog(", k"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
    EXPECT_NE(d->message.find("init_cond must be a BOOL scalar"), std::string::npos) << d->message;
}

TEST(PrintedOpForms, AnInPlaceOpIntoAViewOfATileReadElsewhereIsRefused) {
    // PyPTO's views share their source's buffer: matmul_acc into a slice of acc changes acc on the device. cvsim's
    // tiles are values, so the store of acc would give the old contents: refused rather than a silent wrong value.
    const std::string params =
        "a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 64], pl.FP16], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]";
    auto prog = [&](const std::string& tail) {
        return kernel_with(
            params, "",
            "        acc: pl.Tile[[16, 64], pl.FP32, pl.Mem.Acc] = pl.tile.create([16, 64], dtype=pl.FP32, "
            "target_memory=pl.Mem.Acc)\n"
            "        am: pl.Tile[[16, 32], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 32], "
            "target_memory=pl.Mem.Mat)\n"
            "        bm: pl.Tile[[32, 32], pl.FP16, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [32, 32], "
            "target_memory=pl.Mem.Mat)\n"
            "        win: pl.Tile[[16, 32], pl.FP32, pl.Mem.Acc] = pl.tile.slice(acc, [16, 32], [0, 32])\n"
            "        w2 = pl.tile.matmul_acc(win, pl.tile.move(am, target_memory=pl.Mem.Left), pl.tile.move(bm, "
            "target_memory=pl.Mem.Right))\n" +
                tail);
    };
    auto d = diag_of(prog("        out = pl.tile.store(acc, [0, 0], out)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-UNSUPPORTED");
    EXPECT_NE(d->message.find("writes in place into 'win', a view of 'acc' that is read at line"), std::string::npos)
        << d->message;
    // Reading the op's result instead is what cvsim models.
    EXPECT_FALSE(diag_of(prog("        out = pl.tile.store(w2, [0, 32], out)\n")));
}

TEST(PrintedOpForms, ATensorWriteBoundToANameIsTheTensorItWrote) {
    // PyPTO's tensor.write returns the tensor (written in place): `t2 = pl.tensor.write(t, ...)` then a write
    // through t2 writes t too.
    RefRun r = run_reference(kernel_with("t: pl.InOut[pl.Tensor[[4, 8], pl.FP32]]", "",
                                         "        t2: pl.Tensor[[4, 8], pl.FP32] = pl.tensor.write(t, [0, 0], 3.0)\n"
                                         "        t3: pl.Tensor[[4, 8], pl.FP32] = pl.tensor.write(t2, [1, 2], 5.0)\n"
                                         "        pl.tensor.write(t3, [3, 7], 7.0)\n"),
                             9);
    ASSERT_FALSE(r.out.error) << r.out.error->message;
    const auto& t = r.out.gm.tensors[0];
    EXPECT_EQ(at(t, 0), 3.0);
    EXPECT_EQ(at(t, 1 * 8 + 2), 5.0);
    EXPECT_EQ(at(t, 3 * 8 + 7), 7.0);
    EXPECT_EQ(at(t, 5), at(r.in.tensors[0], 5));  // the rest is the input
}

TEST(PrintedOpForms, GemvAccPhaseIsCheckedAndKept) {
    auto prog = [](const std::string& kw) {
        return kernel_with(
            "a: pl.Tensor[[1, 64], pl.FP32], b: pl.Tensor[[64, 32], pl.FP32], out: pl.Out[pl.Tensor[[1, 32], pl.FP32]]",
            "",
            "        am: pl.Tile[[1, 64], pl.FP32, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [1, 64], "
            "target_memory=pl.Mem.Mat)\n"
            "        bm: pl.Tile[[64, 32], pl.FP32, pl.Mem.Mat] = pl.tile.load(b, [0, 0], [64, 32], "
            "target_memory=pl.Mem.Mat)\n"
            "        c = pl.tile.gemv(pl.tile.move(am, target_memory=pl.Mem.Left), pl.tile.move(bm, "
            "target_memory=pl.Mem.Right)" +
                kw +
                ")\n"
                "        out = pl.tile.store(c, [0, 0], out)\n");
    };
    expect_same_output(prog(", acc_phase=\"final\""), prog(""), 2);
    auto d = diag_of(prog(", acc_phase=\"last\""));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
}

TEST(PrintedOpForms, ALaunchsDumpVarsListIsKeptVerbatim) {
    const std::string text =
        "import pypto.language as pl\n\n\n@pl.program\nclass P:\n"
        "    @pl.function(type=pl.FunctionType.InCore)\n"
        "    def k(self, a: pl.Tensor[[16, 16], pl.FP32], o: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, "
        "16], pl.FP32]:\n"
        "        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 16])\n"
        "        o = pl.tile.store(t, [0, 0], o)\n        return o\n\n"
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        "    def main(self, a: pl.Tensor[[16, 16], pl.FP32], o: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> "
        "pl.Tensor[[16, 16], pl.FP32]:\n"
        "        r: pl.Tensor[[16, 16], pl.FP32] = self.k(a, o, attrs={\"dump_vars\": [a, o]})\n        return r\n";
    std::string p = print_program(*parse_text(text));
    EXPECT_NE(p.find("attrs={'dump_vars': [a, o]}"), std::string::npos) << p;
    EXPECT_EQ(print_program(*parse_text(p)), p);
    // A name that is not a variable stays an error.
    auto d = diag_of(text.substr(0, text.find("[a, o]")) + "[a, nope]})\n        return r\n");
    ASSERT_TRUE(d);
}

TEST(PrintedOpForms, AnOnCoreArrayInAKernelIsRefusedNamingWhatItIs) {
    // PyPTO's pl.array.* in a kernel is PTOAS's stack array of the scalar unit, written in place: not modelled.
    auto d =
        diag_of(kernel_with("x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]", "",
                            "        arr: pl.Array[4, pl.INT32] = pl.array.create(4, dtype=pl.INT32)\n"
                            "        t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 16])\n"
                            "        out = pl.tile.store(t, [0, 0], out)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-UNSUPPORTED");
    EXPECT_NE(d->message.find("on-core scalar array (PTOAS pto.declare_local_array, updated in place) is not modelled"),
              std::string::npos)
        << d->message;
}

TEST(PrintedOpForms, ATileOfRankThreeBetweenTwoReshapesIsItsMergedRows) {
    // PyPTO's test_trans deinterleave: [128, 64] -> [128, 32, 2] -> [4096, 2]; the rank-3 tile is held as its merged
    // [4096, 2] rows (the same row-major elements) and printed as written.
    const std::string params = "x: pl.Tensor[[16, 8], pl.FP32], out: pl.Out[pl.Tensor[[64, 2], pl.FP32]]";
    auto prog = [&](const std::string& mid) {
        return kernel_with(params, "",
                           "        t: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 8])\n"
                           "        t3: pl.Tile[[16, 4, 2], pl.FP32, pl.Mem.Vec] = pl.tile.reshape(t, [16, 4, 2])\n" +
                               mid + "        out = pl.tile.store(u, [0, 0], out)\n");
    };
    const std::string ok = prog("        u: pl.Tile[[64, 2], pl.FP32, pl.Mem.Vec] = pl.tile.reshape(t3, [64, 2])\n");
    RefRun r = run_reference(ok, 2);
    ASSERT_FALSE(r.out.error) << r.out.error->message;
    for (int64_t i = 0; i < 128; ++i) ASSERT_EQ(at(r.out.gm.tensors[1], i), at(r.in.tensors[0], i)) << i;
    std::string p = print_program(*parse_text(ok));
    EXPECT_NE(p.find("t3: pl.Tile[[16, 4, 2], pl.FP32, pl.Mem.Vec] = pl.tile.reshape(t, [16, 4, 2])"),
              std::string::npos)
        << p;
    EXPECT_EQ(print_program(*parse_text(p)), p);
    // Any other reader would see the merged rows, not the written axes: refused.
    auto d =
        diag_of(prog("        v = pl.tile.exp(t3)\n        u: pl.Tile[[64, 2], pl.FP32, pl.Mem.Vec] = "
                     "pl.tile.reshape(v, [64, 2])\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-UNSUPPORTED");
    EXPECT_NE(d->message.find("rank-3 tile [16, 4, 2]"), std::string::npos) << d->message;
}
