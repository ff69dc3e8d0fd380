// Forms of pypto-lib's printed model kernels that cvsim rejected (issue 11): N-D tile windows, a store of a tile
// whose valid region is set at run time, pl.tile.create(transpose=/flat_layout=), views in the capacity check,
// the pl.prefetch.* ops and gather_row into an L1 tile. Each is checked on numbers the test computes itself
// (the reference interpreter's output against the input it was given), and each rule has the program that would
// break it beside the one it accepts.
#include <gtest/gtest.h>

#include <cmath>

#include "frontend/launch.h"
#include "frontend/printer.h"
#include "frontend/reference.h"
#include "reference_util.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

RefRun run(const std::string& text, uint64_t seed = 11) {
    return run_reference(text, seed);
}

double at(const rt::TensorBuffer& t, int64_t i) {
    return element_at(t, i);
}

// ---- N-D windows: one 2-D tile of [product of all but the last extent, last] ----

TEST(NdWindow, A3dWindowIsOneTileOfItsRowsInRowMajorOrder) {
    // [4, 1, 8] window of a [6, 3, 8] tensor at [1, 2, 0]: tile row i is x[1 + i, 2, :]; stored back through a
    // [4, 1, 8] window at [2, 0, 0]: out[2 + i, 0, :] = 2 * x[1 + i, 2, :].
    RefRun r = run(kernel_with("x: pl.Tensor[[6, 3, 8], pl.FP32], out: pl.Out[pl.Tensor[[6, 3, 8], pl.FP32]]", "",
                               "        t: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [1, 2, 0], [4, 1, "
                               "8], [4, 1, 8], target_memory=pl.Mem.Vec)\n"
                               "        u: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.muls(t, 2.0)\n"
                               "        out = pl.tile.store(u, [2, 0, 0], out, [4, 1, 8])\n"));
    ASSERT_FALSE(r.out.error) << r.out.error->message;
    const auto& x = r.in.tensors[0];
    const auto& out = r.out.gm.tensors[1];
    for (int i = 0; i < 4; ++i)
        for (int c = 0; c < 8; ++c)
            ASSERT_EQ(at(out, ((2 + i) * 3 + 0) * 8 + c), 2 * at(x, ((1 + i) * 3 + 2) * 8 + c)) << i << "," << c;
    // The rows the window does not cover are not written (still the poison).
    EXPECT_TRUE(std::isnan(at(out, ((2 + 0) * 3 + 1) * 8)));
    EXPECT_TRUE(std::isnan(at(out, (1 * 3 + 0) * 8)));
}

TEST(NdWindow, AnNdValidShapePacksTheValidWindowsRowsFromTheTop) {
    // Window [3, 2, 8] with valid [3, 1, 8]: the rows read are x[0, 0], x[1, 0], x[2, 0] and they are tile rows
    // 0..2 (PyPTO's merged valid shape [3 * 1, 8]), not rows 0, 2, 4 of the full window.
    RefRun r = run(kernel_with("x: pl.Tensor[[3, 2, 8], pl.FP32], out: pl.Out[pl.Tensor[[6, 8], pl.FP32]]", "",
                               "        t: pl.Tile[[6, 8], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[3, 8])] = "
                               "pl.tile.load(x, [0, 0, 0], [3, 2, 8], [3, 1, 8], target_memory=pl.Mem.Vec)\n"
                               "        out = pl.tile.store(t, [0, 0], out)\n"));
    ASSERT_FALSE(r.out.error) << r.out.error->message;
    const auto& x = r.in.tensors[0];
    const auto& out = r.out.gm.tensors[1];
    for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 8; ++c) ASSERT_EQ(at(out, i * 8 + c), at(x, (i * 2 + 0) * 8 + c)) << i << "," << c;
    for (int i = 3; i < 6; ++i)
        EXPECT_TRUE(std::isnan(at(out, i * 8))) << "row " << i << " is outside the valid region";
}

TEST(NdWindow, TheTileTypeIsTheMergedShape) {
    auto d = diag_of(kernel_with(
        "x: pl.Tensor[[6, 3, 8], pl.FP32]", "",
        "        t: pl.Tile[[4, 1, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0, 0], [4, 1, 8], [4, 1, 8])\n"));
    ASSERT_TRUE(d);  // a 3-D tile annotation: the load gives [4, 8]
    EXPECT_NE(d->message.find("rank above 2"), std::string::npos) << d->message;
    EXPECT_FALSE(diag_of(kernel_with(
        "x: pl.Tensor[[6, 3, 8], pl.FP32]", "",
        "        t: pl.Tile[[12, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0, 0], [4, 3, 8], [4, 3, 8])\n")));
}

TEST(NdWindow, AStoreWindowLargerThanItsTileIsRejected) {
    // [4, 2, 8] is 8 rows; the tile has 4: the store would read past the tile.
    auto d = diag_of(
        kernel_with("x: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[6, 3, 8], pl.FP32]]", "",
                    "        t: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [4, 8], [4, 8])\n"
                    "        out = pl.tile.store(t, [0, 0, 0], out, [4, 2, 8])\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
    EXPECT_NE(d->message.find("larger than the tile"), std::string::npos) << d->message;
}

// ---- a store of a run-time valid region ----

std::string ragged_store(int base) {
    // n = base + block index (block 0): the region [n, 4] of an [8, 8] tile stored into a [5, 4] tensor.
    return kernel_with(
        "x: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[5, 4], pl.FP32]]", "",
        "        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()\n"
        "        n: pl.Scalar[pl.INDEX] = b + " +
            std::to_string(base) +
            "\n"
            "        t: pl.Tile[[8, 8], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[n, 4])] = pl.tile.load(x, [0, "
            "0], [8, 8], [n, 4], target_memory=pl.Mem.Vec)\n"
            "        u: pl.Tile[[8, 8], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[n, 4])] = pl.tile.adds(t, 1.0)\n"
            "        out = pl.tile.store(u, [0, 0], out)\n");
}

TEST(RuntimeValidStore, TheStoreWritesTheRegionTheRunTimeGives) {
    // Before: E-OOB at compile time (the static check used the [8, 8] tile against the [5, 4] tensor).
    RefRun r = run(ragged_store(5));
    ASSERT_FALSE(r.out.error) << r.out.error->message;
    const auto& x = r.in.tensors[0];
    const auto& out = r.out.gm.tensors[1];
    for (int i = 0; i < 5; ++i)
        for (int c = 0; c < 4; ++c)
            ASSERT_EQ(at(out, i * 4 + c), round_to(DType::FP32, at(x, i * 8 + c) + 1.0)) << i << "," << c;
}

TEST(RuntimeValidStore, ARegionThatLeavesTheTensorIsStillAnErrorWhenItRuns) {
    // 6 rows into a 5-row tensor: not visible statically, an E-OOB when the store runs (never silence).
    RefRun r = run(ragged_store(6));
    ASSERT_TRUE(r.out.error);
    EXPECT_EQ(r.out.error->code, "E-OOB") << r.out.error->message;
}

TEST(RuntimeValidStore, AStaticRegionIsStillCheckedStatically) {
    auto d = diag_of(kernel_with("x: pl.Tensor[[8, 8], pl.FP32], out: pl.Out[pl.Tensor[[5, 4], pl.FP32]]", "",
                                 "        t: pl.Tile[[8, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 8], "
                                 "[6, 4], target_memory=pl.Mem.Vec)\n"
                                 "        out = pl.tile.store(t, [0, 0], out)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-OOB") << d->message;
}

TEST(RuntimeValidStore, ThePrinterPrintsTheRegionBackAndThePrintedProgramReadsBack) {
    auto p = parse_text(ragged_store(5));
    std::string printed = print_program(*p);
    EXPECT_NE(printed.find("valid_shape=[n, 4]"), std::string::npos) << printed;
    auto again = parse_text(printed, "printed.py");
    EXPECT_EQ(print_program(*again), printed);
}

// ---- pl.tile.create(transpose=, flat_layout=) ----

ir::Type created(const std::string& kwargs) {
    auto p = parse_text(
        kernel_with("x: pl.Tensor[[16, 16], pl.FP32]", "",
                    "        m = pl.tile.create([32, 16], dtype=pl.BF16, target_memory=pl.Mem.Mat" + kwargs + ")\n"));
    for (const auto& f : p->functions)
        for (const auto& v : f->vars)
            if (v->name == "m") return v->type;
    ADD_FAILURE() << "no m";
    return {};
}

TEST(TileCreate, TransposeAndFlatLayoutChooseTheL1Layout) {
    EXPECT_EQ(created("").layout(), Layout::NZ);
    EXPECT_EQ(created(", transpose=False").layout(), Layout::NZ);
    EXPECT_EQ(created(", transpose=True").layout(), Layout::ZN);
    EXPECT_EQ(created(", flat_layout=True").layout(), Layout::ND);
}

TEST(TileCreate, TransposeOutsideL1OrWithFlatLayoutIsATypeError) {
    auto d = diag_of(
        kernel_with("x: pl.Tensor[[16, 16], pl.FP32]", "",
                    "        m = pl.tile.create([32, 16], dtype=pl.BF16, target_memory=pl.Mem.Vec, transpose=True)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
    d = diag_of(kernel_with("x: pl.Tensor[[16, 16], pl.FP32]", "",
                            "        m = pl.tile.create([32, 16], dtype=pl.BF16, target_memory=pl.Mem.Mat, "
                            "transpose=True, flat_layout=True)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
    d = diag_of(
        kernel_with("x: pl.Tensor[[16, 16], pl.FP32]", "",
                    "        m = pl.tile.create([32, 16], dtype=pl.BF16, target_memory=pl.Mem.Mat, transpose=2)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
}

// (Capacity: tests/golden/capacity/acc_slice_is_a_view.py and second_acc_beside_full_one.py, through the CLI.)

// ---- pl.prefetch.* ----

std::string prefetch_kernel(const std::string& w_shape) {
    return kernel_with("x: pl.Tensor[[16, 16], pl.FP32], w: pl.Tensor[" + w_shape +
                           ", pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]",
                       "",
                       "        ctx: pl.PrefetchAsyncContext = pl.prefetch.make_context()\n"
                       "        ev: pl.AsyncEvent = pl.prefetch.async_prefetch(w, ctx)\n"
                       "        se: pl.AsyncSession = pl.prefetch.session(ctx)\n"
                       "        done: pl.Scalar[pl.BOOL] = pl.prefetch.wait(ev, se)\n"
                       "        t = pl.load(x, [0, 0], [16, 16])\n"
                       "        if done:\n"
                       "            u = pl.mul(t, 3.0)\n"
                       "            out = pl.store(u, [0, 0], out)\n");
}

TEST(Prefetch, APrefetchChangesNoValueAndWaitIsTrue) {
    RefRun r = run(prefetch_kernel("[1, 256]"));
    ASSERT_FALSE(r.out.error) << r.out.error->message;
    const auto& x = r.in.tensors[0];
    const auto& out = r.out.gm.tensors[2];
    for (int i = 0; i < 256; ++i) ASSERT_EQ(at(out, i), round_to(DType::FP32, 3 * at(x, i))) << i;
    const auto& w = r.out.gm.tensors[1];
    for (int i = 0; i < 256; ++i) ASSERT_EQ(at(w, i), at(r.in.tensors[1], i));
}

TEST(Prefetch, TheSourceMustBeAFlatGmRegionAndTheHandlesTheirOwnTypes) {
    auto d = diag_of(prefetch_kernel("[4, 64]"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
    EXPECT_NE(d->message.find("flat contiguous"), std::string::npos) << d->message;
    d = diag_of(kernel_with("x: pl.Tensor[[1, 16], pl.FP32]", "",
                            "        ctx: pl.PrefetchAsyncContext = pl.prefetch.make_context()\n"
                            "        ev: pl.AsyncEvent = pl.prefetch.async_prefetch(x, ctx)\n"
                            "        done: pl.Scalar[pl.BOOL] = pl.prefetch.wait(ev, ctx)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-TYPE");
    EXPECT_NE(d->message.find("pl.AsyncSession"), std::string::npos) << d->message;
}

// ---- gather_row into L1 with a run-time valid_shape ----

std::string gather_kernel(int second_at_extra) {
    // Two runs of rows from a table into an L1 tile: dst rows [0, n) get src rows [s0, s0 + n), dst rows
    // [n + extra, 16 + extra) get src rows [s1, s1 + 16 - n); n = 5 is a run-time scalar (block index + 5).
    return kernel_with(
        "src: pl.Tensor[[32, 16], pl.FP16], idx: pl.Tensor[[4], pl.INT32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]",
        "",
        "        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()\n"
        "        n: pl.Scalar[pl.INDEX] = b + 5\n"
        "        m0 = pl.tile.create([16, 16], dtype=pl.FP16, target_memory=pl.Mem.Mat)\n"
        "        v0: pl.Scalar[pl.INT32] = pl.tensor.read(idx, [0])\n"
        "        s0: pl.Scalar[pl.INDEX] = pl.cast(v0, pl.INDEX) % 8\n"
        "        m1 = pl.tile.gather_row(m0, src, [0, 0], [s0, 0], [16, 16], valid_shape=[n, 16], transpose=False)\n"
        "        v1: pl.Scalar[pl.INT32] = pl.tensor.read(idx, [1])\n"
        "        s1: pl.Scalar[pl.INDEX] = 16 + pl.cast(v1, pl.INDEX) % 8\n"
        "        m2 = pl.tile.gather_row(m1, src, [n + " +
            std::to_string(second_at_extra) +
            ", 0], [s1, 0], [16, 16], valid_shape=[16 - n, 16])\n"
            "        l = pl.move(m2, target_memory=pl.Mem.Left)\n"
            "        e = pl.tile.create([16, 16], dtype=pl.FP16, target_memory=pl.Mem.Mat)\n"
            "        g = pl.load(src, [0, 0], [16, 16], target_memory=pl.Mem.Mat)\n"
            "        eye = pl.tile.assemble(e, g, [0, 0])\n"
            "        r = pl.move(eye, target_memory=pl.Mem.Right)\n"
            "        z = pl.matmul(l, r)\n"
            "        out = pl.store(z, [0, 0], out)\n");
}

int64_t pymod(int64_t a, int64_t m) {
    return ((a % m) + m) % m;
}

TEST(GatherRowL1, RunsOfRowsLandInPlaceAndTheRestOfTheTilePassesThrough) {
    RefRun r = run(gather_kernel(0));
    ASSERT_FALSE(r.out.error) << r.out.error->message;
    const auto& src = r.in.tensors[0];
    const auto& idx = r.in.tensors[1];
    const auto& out = r.out.gm.tensors[2];
    const int64_t s0 = pymod(static_cast<int64_t>(at(idx, 0)), 8), s1 = 16 + pymod(static_cast<int64_t>(at(idx, 1)), 8);
    auto lhs = [&](int i, int k) { return i < 5 ? at(src, (s0 + i) * 16 + k) : at(src, (s1 + i - 5) * 16 + k); };
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            double s = 0;
            for (int k = 0; k < 16; ++k) s += lhs(i, k) * at(src, k * 16 + j);
            ASSERT_EQ(at(out, i * 16 + j), round_to(DType::FP32, s)) << i << "," << j;
        }
}

TEST(GatherRowL1, ARunThatLeavesTheTileIsAnErrorWhenItRuns) {
    // The second run starts 3 rows later: its 11 rows end at row 19 of a 16-row tile.
    RefRun r = run(gather_kernel(3));
    ASSERT_TRUE(r.out.error);
    EXPECT_EQ(r.out.error->code, "E-OOB") << r.out.error->message;
    EXPECT_NE(r.out.error->message.find("leaves the target"), std::string::npos) << r.out.error->message;
}

}  // namespace
