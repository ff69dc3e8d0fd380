// Tests of models/datapath_sort: hand-computed outputs of sort32, mrgsort (format 1 and the 2/3/4-list format 2,
// with and without `exhausted`), gather, gather_mask, scatter, scatter_mask and the arg reductions, in the
// exact ISA layouts (value-index tuples).
#include "core/datapath_sort.h"
#include "core/layout.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace cvsim {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

TileData row(DType t, std::vector<double> v) {
    TileData d{t, Matrix(1, static_cast<int64_t>(v.size()))};
    for (size_t i = 0; i < v.size(); ++i) d.m(0, static_cast<int64_t>(i)) = v[i];
    return d;
}

TileData iota_idx(int64_t rows, int64_t cols, int64_t step = 1) {
    TileData d{DType::UINT32, Matrix(rows, cols)};
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) d.m(r, c) = static_cast<double>(c * step);
    return d;
}

// The (value, index) tuples of one row of a sort32/mrgsort tile.
std::vector<std::pair<double, uint32_t>> tuples(const TileData& t, int64_t r = 0) {
    std::vector<std::pair<double, uint32_t>> out;
    const int64_t e = sort_tuple_elems(t.dtype);
    for (int64_t k = 0; k < t.m.cols() / e; ++k) out.emplace_back(t.m(r, k * e), tuple_index(t, r, k));
    return out;
}

TEST(DatapathSortTest, Sort32Fp32TupleLayoutDescendingTiesBySmallerIndex) {
    // 32 values: 5 at columns 3 and 10, 7 at column 20, NaN at 31, the rest -c.
    std::vector<double> v(32);
    for (int c = 0; c < 32; ++c) v[c] = -c;
    v[3] = 5, v[10] = 5, v[20] = 7, v[31] = kNaN;
    const TileData out = sort32(row(DType::FP32, v), iota_idx(1, 32));
    ASSERT_EQ(out.m.cols(), 64);
    // Layout: [value, bits(index)] per tuple; index 20 is the FP32 pattern 0x00000014 (a denormal).
    EXPECT_TRUE(std::isnan(out.m(0, 0)));
    EXPECT_EQ(tuple_index(out, 0, 0), 31u);
    EXPECT_EQ(out.m(0, 2), 7.0);
    EXPECT_EQ(out.m(0, 3), 20 * std::ldexp(1.0, -149));
    const auto t = tuples(out);
    EXPECT_EQ(t[2], (std::pair<double, uint32_t>{5.0, 3}));
    EXPECT_EQ(t[3], (std::pair<double, uint32_t>{5.0, 10}));
    EXPECT_EQ(t[4], (std::pair<double, uint32_t>{0.0, 0}));
    EXPECT_EQ(t[5], (std::pair<double, uint32_t>{-1.0, 1}));
    EXPECT_EQ(t[31], (std::pair<double, uint32_t>{-30.0, 30}));
}

TEST(DatapathSortTest, Sort32BlocksAreIndependentAndIdxRowIsShared) {
    // Two rows, 64 columns (two blocks each), one shared idx row 0, 2, 4, ... (the FP32 convention of PyPTO).
    TileData src{DType::FP32, Matrix(2, 64)};
    for (int c = 0; c < 64; ++c) src.m(0, c) = c, src.m(1, c) = -c;
    const TileData out = sort32(src, iota_idx(1, 64, 2));
    ASSERT_EQ(out.m.cols(), 128);
    const auto r0 = tuples(out, 0), r1 = tuples(out, 1);
    EXPECT_EQ(r0[0], (std::pair<double, uint32_t>{31.0, 62}));  // block 0 of row 0: 31 ... 0
    EXPECT_EQ(r0[31], (std::pair<double, uint32_t>{0.0, 0}));
    EXPECT_EQ(r0[32], (std::pair<double, uint32_t>{63.0, 126}));  // block 1: 63 ... 32, not merged with block 0
    EXPECT_EQ(r1[0], (std::pair<double, uint32_t>{0.0, 0}));
    EXPECT_EQ(r1[32], (std::pair<double, uint32_t>{-32.0, 64}));
}

TEST(DatapathSortTest, Sort32Fp16TupleHasPaddingAndSplitIndex) {
    std::vector<double> v(32, 1.0);
    v[7] = 2.5;
    TileData idx = iota_idx(1, 32);
    idx.m(0, 7) = 0x12345;  // a 32-bit index split over two half slots
    const TileData out = sort32(row(DType::FP16, v), idx);
    ASSERT_EQ(out.m.cols(), 128);
    EXPECT_EQ(out.m(0, 0), 2.5);
    EXPECT_EQ(out.m(0, 1), 0.0);  // the 2-byte pad
    EXPECT_EQ(tuple_index(out, 0, 0), 0x12345u);
    EXPECT_EQ(out.m(0, 3), std::ldexp(1.0, -24));  // high half 0x0001: the smallest FP16 denormal
    EXPECT_EQ(tuple_index(out, 0, 1), 0u);
}

TEST(DatapathSortTest, Mrgsort1MergesFourRunsPerGroup) {
    // 128 FP32 values sorted by sort32 into 4 runs of 32 tuples (block_len 64 columns) -> one sorted list.
    std::vector<double> v(128);
    for (int c = 0; c < 128; ++c) v[c] = (c * 37) % 50;  // duplicates across runs
    const TileData runs = sort32(row(DType::FP32, v), iota_idx(1, 128));
    const TileData out = mrgsort1(runs, 64);
    ASSERT_EQ(out.m.cols(), 256);
    const auto t = tuples(out);
    for (size_t k = 1; k < t.size(); ++k) {
        ASSERT_GE(t[k - 1].first, t[k].first) << k;
        if (t[k - 1].first == t[k].first) {
            ASSERT_LT(t[k - 1].second, t[k].second) << k;  // earlier run first
        }
    }
    EXPECT_EQ(t[0], (std::pair<double, uint32_t>{49.0, 27}));  // 27 * 37 % 50 = 49, the first 49 (run 0)
    std::vector<uint32_t> seen;
    for (auto& p : t) seen.push_back(p.second);
    std::sort(seen.begin(), seen.end());
    for (uint32_t i = 0; i < 128; ++i) EXPECT_EQ(seen[i], i);
}

TEST(DatapathSortTest, Mrgsort1LeavesColumnsPastTheLastGroupUndefined) {
    const TileData runs = sort32(row(DType::FP32, std::vector<double>(160, 1.0)), iota_idx(1, 160));
    const TileData out = mrgsort1(runs, 64);  // 320 columns: one group of 256, 64 columns left
    EXPECT_EQ(out.m(0, 0), 1.0);
    EXPECT_TRUE(std::isnan(out.m(0, 256)));
    EXPECT_THROW(mrgsort1(runs, 63), std::invalid_argument);
}

TEST(DatapathSortTest, Mrgsort2TwoToFourListsAndExhausted) {
    auto list = [](std::vector<std::pair<double, uint32_t>> p) {
        TileData t{DType::FP32, Matrix(1, static_cast<int64_t>(2 * p.size()))};
        for (size_t k = 0; k < p.size(); ++k) {
            t.m(0, static_cast<int64_t>(2 * k)) = p[k].first;
            t.m(0, static_cast<int64_t>(2 * k + 1)) = index_bits_as(DType::FP32, p[k].second);
        }
        return t;
    };
    const TileData a = list({{9, 0}, {5, 1}, {1, 2}}), b = list({{8, 10}, {5, 11}}), c = list({{10, 20}}),
                   d = list({{0, 30}, {-1, 31}});
    std::vector<int64_t> executed;
    TileData two = mrgsort2({&a, &b}, 10, false, &executed);
    using P = std::pair<double, uint32_t>;
    EXPECT_EQ(tuples(two), (std::vector<P>{{9, 0}, {8, 10}, {5, 1}, {5, 11}, {1, 2}}));  // tie: list 0 first
    EXPECT_EQ(executed, (std::vector<int64_t>{3, 2}));
    TileData four = mrgsort2({&a, &b, &c, &d}, 16, false);
    EXPECT_EQ(tuples(four), (std::vector<P>{{10, 20}, {9, 0}, {8, 10}, {5, 1}, {5, 11}, {1, 2}, {0, 30}, {-1, 31}}));
    TileData three = mrgsort2({&a, &b, &c}, 8, false);  // room for 4 tuples only
    EXPECT_EQ(tuples(three), (std::vector<P>{{10, 20}, {9, 0}, {8, 10}, {5, 1}}));
    // exhausted: the merge stops when list c (one tuple) is used up; the rest of the output is undefined.
    TileData ex = mrgsort2({&a, &b, &c}, 12, true, &executed);
    EXPECT_EQ(ex.m(0, 0), 10.0);
    EXPECT_TRUE(std::isnan(ex.m(0, 2)));
    EXPECT_EQ(executed, (std::vector<int64_t>{0, 0, 1}));
    // Larger output than the inputs: the tail is undefined (NaN) without exhausted.
    TileData big = mrgsort2({&a, &c}, 12, false);
    EXPECT_TRUE(std::isnan(big.m(0, 8)));
}

TEST(DatapathSortTest, GatherIsFlatOverTheSourceAndZeroOutside) {
    TileData src{DType::FP32, Matrix(2, 3)};
    src.m << 10, 11, 12, 20, 21, 22;
    TileData idx{DType::INT32, Matrix(2, 2)};
    idx.m << 5, 0, 3, 6;  // 6 is past the 6-element source, -> 0
    const TileData out = gather(src, idx);
    EXPECT_EQ(out.dtype, DType::FP32);
    EXPECT_EQ(out.m(0, 0), 22);
    EXPECT_EQ(out.m(0, 1), 10);
    EXPECT_EQ(out.m(1, 0), 20);
    EXPECT_EQ(out.m(1, 1), 0);
    idx.m(1, 1) = -1;
    EXPECT_EQ(gather(src, idx).m(1, 1), 0);
}

TEST(DatapathSortTest, GatherMaskPatternsAndIndexBits) {
    TileData src{DType::INT32, Matrix(2, 8)};
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 8; ++c) src.m(r, c) = 10 * r + c;
    auto cols = [](const TileData& t, int r) {
        std::vector<double> v;
        for (int64_t c = 0; c < t.m.cols(); ++c) v.push_back(t.m(r, c));
        return v;
    };
    EXPECT_EQ(cols(gather_mask(src, 1, DType::INT32), 1), (std::vector<double>{10, 12, 14, 16}));  // P0101
    EXPECT_EQ(cols(gather_mask(src, 2, DType::INT32), 0), (std::vector<double>{1, 3, 5, 7}));      // P1010
    EXPECT_EQ(cols(gather_mask(src, 3, DType::INT32), 1), (std::vector<double>{10, 14}));          // P0001
    EXPECT_EQ(cols(gather_mask(src, 4, DType::INT32), 0), (std::vector<double>{1, 5}));            // P0010
    EXPECT_EQ(cols(gather_mask(src, 5, DType::INT32), 0), (std::vector<double>{2, 6}));            // P0100
    EXPECT_EQ(cols(gather_mask(src, 6, DType::INT32), 0), (std::vector<double>{3, 7}));            // P1000
    EXPECT_EQ(gather_mask(src, 7, DType::INT32).m, src.m);                                         // P1111
    // sort32 output: P0101 gives the sorted values, P1010 with UINT32 the permutation.
    const TileData sorted = sort32(row(DType::FP32, {3, 1, 4, 1, 5, 9, 2, 6}), iota_idx(1, 8));
    EXPECT_EQ(cols(gather_mask(sorted, 1, DType::FP32), 0), (std::vector<double>{9, 6, 5, 4, 3, 2, 1, 1}));
    EXPECT_EQ(cols(gather_mask(sorted, 2, DType::UINT32), 0), (std::vector<double>{5, 7, 4, 2, 0, 6, 1, 3}));
    EXPECT_EQ(gather_mask(src, 1, DType::FP32).m(0, 1), std::ldexp(2.0, -149));  // INT32 2 as FP32 bits
    EXPECT_THROW(gather_mask(src, 8, DType::INT32), std::invalid_argument);
    EXPECT_THROW(gather_mask(src, 1, DType::INT16), std::invalid_argument);
}

TEST(DatapathSortTest, ScatterAndScatterMask) {
    TileData dst{DType::FP32, Matrix::Constant(2, 4, -1)};
    TileData src{DType::FP32, Matrix(1, 3)};
    src.m << 1, 2, 3;
    TileData idx{DType::INT32, Matrix(1, 3)};
    idx.m << 7, 0, 7;  // a repeated index keeps the last write
    TileData out = scatter(dst, src, idx);
    EXPECT_EQ(out.m(1, 3), 3);
    EXPECT_EQ(out.m(0, 0), 2);
    EXPECT_EQ(out.m(0, 1), -1);
    idx.m(0, 0) = 8;  // outside: dropped
    EXPECT_EQ(scatter(dst, src, idx).m(1, 3), 3);
    TileData s2{DType::FP32, Matrix(2, 2)};
    s2.m << 1, 2, 3, 4;
    const TileData m = scatter_mask(dst, s2, 2);  // P1010: columns 1 and 3
    EXPECT_EQ(m.m(0, 0), -1);
    EXPECT_EQ(m.m(0, 1), 1);
    EXPECT_EQ(m.m(0, 3), 2);
    EXPECT_EQ(m.m(1, 1), 3);
    EXPECT_EQ(m.m(1, 3), 4);
}

TEST(DatapathSortTest, ArgReductionsTakeTheFirstExtremum) {
    TileData x{DType::FP16, Matrix(3, 4)};
    x.m << 1, 5, 5, 0,   //
        -2, -2, -3, -3,  //
        kNaN, 7, 8, -9;
    const TileData amax = row_argmax(x), amin = row_argmin(x);
    EXPECT_EQ(amax.dtype, DType::INT32);
    EXPECT_EQ(amax.m.rows(), 3);
    EXPECT_EQ(amax.m.cols(), 1);
    EXPECT_EQ(amax.m(0, 0), 1);  // first of the two 5s
    EXPECT_EQ(amax.m(1, 0), 0);
    EXPECT_EQ(amax.m(2, 0), 0);  // a leading NaN is never replaced (strict comparisons)
    EXPECT_EQ(amin.m(0, 0), 3);
    EXPECT_EQ(amin.m(1, 0), 2);
    const TileData cmax = col_argmax(x), cmin = col_argmin(x);
    EXPECT_EQ(cmax.m.rows(), 1);
    EXPECT_EQ(cmax.m.cols(), 4);
    EXPECT_EQ(cmax.m(0, 0), 0);  // 1 > -2; the NaN of row 2 does not compare greater
    EXPECT_EQ(cmax.m(0, 1), 2);
    EXPECT_EQ(cmin.m(0, 3), 2);
}

// The simulator keeps tiles as bytes (encode/decode per layout) where the reference keeps values: the tuples'
// index bits and the merged/gathered results must survive that round trip bit for bit, on random inputs of
// several shapes (ND and DN).
TEST(DatapathSortTest, ResultsSurviveTheSimulatorsByteRoundTrip) {
    std::mt19937 gen(7);
    for (auto [rows, cols] : {std::pair<int64_t, int64_t>{1, 32}, {2, 64}, {3, 96}, {1, 256}}) {
        TileData x{DType::FP32, Matrix(rows, cols)};
        for (int64_t i = 0; i < x.m.size(); ++i)
            x.m.data()[i] = static_cast<float>(std::uniform_int_distribution<int>(-20, 20)(gen) * 0.25);
        TileData idx{DType::UINT32, Matrix(rows, cols)};
        for (int64_t i = 0; i < idx.m.size(); ++i)
            idx.m.data()[i] = std::uniform_int_distribution<int>(0, 1 << 20)(gen);
        std::vector<TileData> results{sort32(x, idx)};
        if (cols % 256 == 0) results.push_back(mrgsort1(results[0], 64));
        results.push_back(gather_mask(results.back(), 2, DType::UINT32));
        results.push_back(row_argmax(x));
        for (const TileData& r : results)
            for (Layout l : {Layout::ND, Layout::DN}) {
                const auto bytes = encode(r.m, r.dtype, l, false);
                const Matrix back = decode(bytes.data(), bytes.size(), r.dtype, l, false, r.m.rows(), r.m.cols());
                EXPECT_EQ(encode(back, r.dtype, l, false), bytes) << rows << "x" << cols;
                for (int64_t i = 0; i < r.m.size(); ++i) ASSERT_EQ(back.data()[i], r.m.data()[i]);
            }
        EXPECT_EQ(results[results.size() - 2].m(0, 0), tuple_index(results[results.size() > 3 ? 1 : 0], 0, 0));
    }
}

}  // namespace
}  // namespace cvsim
