// The last PyPTO tile ops of issue 12 (frontend/ops_more.cpp): hand-computed numerics of part_add/mul/max/min,
// reinterpret_view, gatherb and scatter_update, and their type rules (exit-2 diagnostics), plus the sub-byte
// dtypes' rejection and the 4-list mrgsort's acceptance.
#include <gtest/gtest.h>

#include <cstring>

#include "frontend/ops.h"
#include "frontend_util.h"

using namespace cvsim;
using namespace cvsim::ir;
using namespace cvsim::test;

namespace {

TileData tile(DType t, int64_t rows, int64_t cols, std::vector<double> v) {
    TileData d{t, Matrix(rows, cols)};
    for (int64_t i = 0; i < rows * cols; ++i) d.m(i / cols, i % cols) = v[static_cast<size_t>(i)];
    return d;
}

TileData run(OpCode c, std::vector<TileData> tiles, DType out, int64_t rows, int64_t cols,
             std::vector<std::pair<int64_t, int64_t>> valid = {}) {
    OpOperands o;
    o.op = &op_def(c);
    o.tiles = std::move(tiles);
    o.valid = std::move(valid);
    o.out_dtype = out;
    o.out_rows = rows;
    o.out_cols = cols;
    return eval_numerics(o);
}

std::optional<Diagnostic> diag_body(const std::string& params, const std::string& body) {
    return diag_of(kernel_with(params, "", body));
}

}  // namespace

TEST(OpMore, PartOpsCombineWhereBothAreValidAndCopyTheOnlyValidOperand) {
    // a valid [2, 2] of [2, 3]; b valid [1, 3]: (0,0),(0,1) both; (0,2) only b; (1,0),(1,1) only a; (1,2) neither.
    const TileData a = tile(DType::FP32, 2, 3, {1, 2, 3, 4, 5, 6});
    const TileData b = tile(DType::FP32, 2, 3, {10, -20, 30, 40, 50, 60});
    const std::vector<std::pair<int64_t, int64_t>> v = {{2, 2}, {1, 3}};
    struct Want {
        OpCode op;
        double both0, both1;
    };
    for (Want w : {Want{OpCode::PartAdd, 11, -18}, Want{OpCode::PartMul, 10, -40}, Want{OpCode::PartMax, 10, 2},
                   Want{OpCode::PartMin, 1, -20}}) {
        SCOPED_TRACE(op_def(w.op).name());
        TileData r = run(w.op, {a, b}, DType::FP32, 2, 3, v);
        EXPECT_EQ(r.m(0, 0), w.both0);
        EXPECT_EQ(r.m(0, 1), w.both1);
        EXPECT_EQ(r.m(0, 2), 30);  // only b
        EXPECT_EQ(r.m(1, 0), 4);   // only a
        EXPECT_EQ(r.m(1, 1), 5);
        EXPECT_EQ(r.m(1, 2), 0);  // neither (documented: 0)
    }
}

TEST(OpMore, ReinterpretViewReadsTheSameLittleEndianBytes) {
    // 1.0f = 0x3F800000, -2.0f = 0xC0000000: as INT16 halves (low first) 0, 0x3F80, 0, 0xC000.
    TileData r = run(OpCode::ReinterpretView, {tile(DType::FP32, 1, 2, {1.0, -2.0})}, DType::INT16, 1, 4);
    EXPECT_EQ(r.dtype, DType::INT16);
    EXPECT_EQ(r.m(0, 0), 0);
    EXPECT_EQ(r.m(0, 1), 0x3F80);
    EXPECT_EQ(r.m(0, 2), 0);
    EXPECT_EQ(r.m(0, 3), -16384);
    TileData f = run(OpCode::ReinterpretView, {tile(DType::INT32, 1, 2, {1065353216, -1073741824})}, DType::FP32, 1, 2);
    EXPECT_EQ(f.m(0, 0), 1.0);
    EXPECT_EQ(f.m(0, 1), -2.0);
    TileData u = run(OpCode::ReinterpretView, {tile(DType::INT32, 1, 1, {-1})}, DType::UINT32, 1, 1);
    EXPECT_EQ(u.m(0, 0), 4294967295.0);
}

TEST(OpMore, GatherbCopiesThe32ByteBlockAtEachByteOffset) {
    std::vector<double> v(32);
    for (int k = 0; k < 32; ++k) v[k] = k;
    const TileData src = tile(DType::FP32, 2, 16, v);  // 128 bytes
    const TileData off = tile(DType::UINT32, 1, 8, {32, 0, 96, 64, 4, 128, 1000, 100});
    TileData r = run(OpCode::Gatherb, {src, off}, DType::FP32, 1, 64);
    const int first[] = {8, 0, 24, 16, 1};  // the element each block starts at (offset / 4; 4 is unaligned by a block)
    for (int b = 0; b < 5; ++b)
        for (int e = 0; e < 8; ++e) EXPECT_EQ(r.m(0, b * 8 + e), first[b] + e) << b << "," << e;
    for (int e = 0; e < 16; ++e) EXPECT_EQ(r.m(0, 40 + e), 0) << "a block past the source reads zeros";
    for (int e = 0; e < 8; ++e)
        EXPECT_EQ(r.m(0, 56 + e), e < 7 ? 25 + e : 0) << "a block running off the end is zero-filled";
    // output_dtype reads the bytes as another type: 8 FP32 -> 16 INT16 per block
    TileData h =
        run(OpCode::Gatherb,
            {tile(DType::FP32, 1, 8, {1, 0, 0, 0, 0, 0, 0, 0}), tile(DType::UINT32, 1, 8, {0, 0, 0, 0, 0, 0, 0, 0})},
            DType::INT16, 1, 128);
    EXPECT_EQ(h.m(0, 1), 0x3F80);
    EXPECT_EQ(h.m(0, 17), 0x3F80);
}

TEST(OpMore, ScatterUpdateOverwritesTheIndexedRowsLastWriteWins) {
    const TileData in = tile(DType::FP32, 4, 2, {0, 0, 1, 1, 2, 2, 3, 3});
    const TileData idx = tile(DType::INT32, 2, 2, {2, 0, 2, 9});  // row 9 is outside: dropped
    const TileData src = tile(DType::FP32, 4, 2, {10, 11, 20, 21, 30, 31, 40, 41});
    TileData r = run(OpCode::ScatterUpdate, {in, idx, src}, DType::FP32, 4, 2);
    const double want[4][2] = {{20, 21}, {1, 1}, {30, 31}, {3, 3}};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 2; ++j) EXPECT_EQ(r.m(i, j), want[i][j]) << i << "," << j;
}

TEST(OpMore, MisusesAreExit2DiagnosticsAtTheOperand) {
    struct Bad {
        std::string params, body, code, text;
    };
    const std::string p =
        "a: pl.Tensor[[16, 16], pl.FP32], q: pl.Tensor[[16, 16], pl.INT8], r: pl.Tensor[[16, 8], pl.INT32]";
    const std::string ld =
        "        x = pl.load(a, [0, 0], [16, 16])\n        c = pl.load(q, [0, 0], [16, 3])\n        o = pl.load(r, [0, "
        "0], [16, 8])\n";
    const Bad cases[] = {
        {p, ld + "        y = pl.tile.part_add(x, c)\n", "E-TYPE", "same dtype"},
        {p, ld + "        y = pl.tile.reinterpret_view(c, pl.INT32)\n", "E-TYPE", "not divisible by 4"},
        {p, ld + "        y = pl.tile.reinterpret_view(x, pl.FP32)\n", "E-TYPE", "must differ"},
        {p, ld + "        y = pl.tile.reinterpret_view(x, pl.INT64)\n", "E-UNSUPPORTED", "64-bit"},
        {p, ld + "        y = pl.tile.reinterpret_view(x, pl.INT8, shape=[16, 32])\n", "E-TYPE", "bytes"},
        {p, ld + "        y = pl.tile.gatherb(x, o)\n", "E-TYPE", "offset dtype to be UINT32"},
        {p, ld + "        y = pl.tile.scatter_update(x, -2, o)\n", "E-TYPE", "printed form"},
        {p, ld + "        y = pl.tile.max(x, x)\n", "E-TYPE", "scalar operands"},
        {"a: pl.Tensor[[16, 16], pl.HF4]", "        x = pl.load(a, [0, 0], [16, 16])\n", "E-UNSUPPORTED", "pl.HF4"},
    };
    for (const Bad& b : cases) {
        SCOPED_TRACE(b.body);
        auto d = diag_body(b.params, b.body);
        ASSERT_TRUE(d);
        EXPECT_EQ(d->code, b.code) << d->message;
        EXPECT_NE(d->message.find(b.text), std::string::npos) << d->message;
        EXPECT_GE(d->loc.line, 7u);
    }
}

TEST(OpMore, FourListMrgsortAndScalarMaxAreAccepted) {
    const std::string body =
        "        x = pl.load(a, [0, 0], [1, 32])\n        i = pl.tile.ci(0, [1, 32], dtype=pl.INT32)\n        s = "
        "pl.tile.sort32(x, i)\n"
        "        t = pl.tile.create([1, 256], dtype=pl.FP32)\n        m = pl.tile.mrgsort(s, s, s, s, tmp=t)\n"
        "        n = pl.tile.max(pl.tile.get_block_num(), 2)\n        y = pl.adds(m, pl.tile.min(n, 3))\n";
    EXPECT_FALSE(diag_body("a: pl.Tensor[[1, 32], pl.FP32]", body))
        << diag_body("a: pl.Tensor[[1, 32], pl.FP32]", body)->message;
}
