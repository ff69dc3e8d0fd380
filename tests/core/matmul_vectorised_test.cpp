// The vectorised matmul gives, bit for bit, what the scalar i-k-j loop it replaced gives: the same products
// added in the same (ascending k) order, rounded once. Random shapes (K not a multiple of the 4-wide k step,
// N not a multiple of the packet width), values spread over many binades so that a different summation
// order would round differently, with and without accumulator and bias.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/datapath.h"
#include "core/dtype.h"
#include "core/matmul_kernel.h"

namespace cvsim {
namespace {

// The scalar loop of models/datapath.cpp before vectorisation (kept here as the oracle).
TileData scalar_matmul(const TileData& lhs, const TileData& rhs, const TileData* acc, const TileData* bias) {
    const Eigen::Index M = lhs.m.rows(), K = lhs.m.cols(), N = rhs.m.cols();
    const DType t = matmul_result_dtype(lhs.dtype);
    Matrix sum = acc ? acc->m : Matrix::Zero(M, N);
    if (bias) sum.rowwise() += bias->m.row(0);
    for (Eigen::Index i = 0; i < M; ++i) {
        double* s = sum.data() + i * N;
        for (Eigen::Index k = 0; k < K; ++k) {
            const double a = lhs.m(i, k);
            const double* b = rhs.m.data() + k * N;
            for (Eigen::Index j = 0; j < N; ++j) s[j] += a * b[j];
        }
    }
    TileData out{t, std::move(sum)};
    for (Eigen::Index i = 0, n = out.m.size(); i < n; ++i) out.m.data()[i] = round_to(t, out.m.data()[i]);
    return out;
}

TileData random_tile(std::mt19937_64& rng, DType t, Eigen::Index rows, Eigen::Index cols) {
    std::uniform_real_distribution<double> mant(-1.0, 1.0);
    std::uniform_int_distribution<int> expo(-20, 20);
    TileData d{t, Matrix(rows, cols)};
    for (Eigen::Index i = 0; i < d.m.size(); ++i) d.m.data()[i] = round_to(t, std::ldexp(mant(rng), expo(rng)));
    return d;
}

bool bit_equal(const Matrix& a, const Matrix& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

TEST(MatmulVectorisedTest, BitIdenticalToTheScalarLoopOnRandomInputs) {
    std::mt19937_64 rng(20261201);
    std::uniform_int_distribution<int> dim(1, 70);
    const DType types[] = {DType::FP16, DType::BF16, DType::FP32};
    for (int iter = 0; iter < 120; ++iter) {
        DType t = types[iter % 3];
        Eigen::Index M = dim(rng), K = dim(rng), N = dim(rng);
        TileData l = random_tile(rng, t, M, K), r = random_tile(rng, t, K, N);
        TileData acc = random_tile(rng, DType::FP32, M, N), bias = random_tile(rng, DType::FP32, 1, N);
        const TileData* a = iter % 4 == 1 ? &acc : nullptr;
        const TileData* b = iter % 4 == 2 ? &bias : nullptr;
        TileData want = scalar_matmul(l, r, a, b);
        TileData got = matmul(l, r, a, b);
        ASSERT_EQ(got.dtype, want.dtype);
        ASSERT_TRUE(bit_equal(got.m, want.m)) << "M=" << M << " K=" << K << " N=" << N << " iter " << iter;
    }
}

// Ascending k, whatever the blocking: 2^60 - 2^60 + 1 is 1 in that order and 0 summed from the other end
// (or with the 1 added to 2^60 first), in the four-wide body and in the remainder.
TEST(MatmulVectorisedTest, SumsInAscendingK) {
    const double big = std::ldexp(1.0, 60);
    for (Eigen::Index K : {3, 4, 5, 7, 8}) {
        TileData l{DType::FP32, Matrix::Ones(2, K)};
        TileData r{DType::FP32, Matrix::Zero(K, 3)};
        for (Eigen::Index j = 0; j < 3; ++j) {
            Eigen::Index at = (j + K - 3) % (K - 2);  // the pattern starts at a different k per column
            r.m(at, j) = big;
            r.m(at + 1, j) = -big;
            r.m(at + 2, j) = 1;
        }
        TileData out = matmul(l, r);
        for (Eigen::Index j = 0; j < 3; ++j) EXPECT_EQ(out.m(1, j), 1.0) << "K=" << K << " column " << j;
    }
}

// The register-blocked kernels (blocks of 4 rows by two packets of columns, a copied panel of rhs, the last
// N % width columns and M % 4 rows apart; SSE2 and AVX): every combination of full and partial blocks, long K, INT8
// into INT32 with an accumulator, and infinities, NaN and signed zeros among the values, bit for bit the scalar loop.
// The NaN is the one the hardware makes (inf * 0): which of two different NaNs a sum keeps depends on the operand
// order the compiler picks (in the scalar loop too), so the test uses one NaN pattern.
TEST(MatmulVectorisedTest, BlockedKernelEdgesBitIdentical) {
    std::mt19937_64 rng(20261207);
    const double inf = std::numeric_limits<double>::infinity();
    int iter = 0;
    for (Eigen::Index M : {1, 3, 4, 5, 8, 9}) {
        for (Eigen::Index N : {1, 2, 3, 4, 5, 7, 8, 9, 16, 19}) {
            for (Eigen::Index K : {1, 2, 5, 64, 257}) {
                ++iter;
                const DType t = iter % 3 == 0 ? DType::INT8 : iter % 3 == 1 ? DType::FP16 : DType::FP32;
                TileData l = random_tile(rng, t, M, K), r = random_tile(rng, t, K, N);
                if (t == DType::INT8) {
                    std::uniform_int_distribution<int> v(-128, 127);
                    for (Eigen::Index i = 0; i < l.m.size(); ++i) l.m.data()[i] = v(rng);
                    for (Eigen::Index i = 0; i < r.m.size(); ++i) r.m.data()[i] = v(rng);
                } else if (iter % 5 == 0) {
                    l.m(M - 1, K - 1) = inf;
                    r.m(0, N - 1) = -inf;
                    r.m(K - 1, 0) = -0.0;
                    l.m(0, 0) = -std::numeric_limits<double>::quiet_NaN();  // x86's default NaN, as inf * 0 makes it
                }
                const DType at = matmul_result_dtype(t);
                TileData acc = random_tile(rng, at, M, N), bias = random_tile(rng, at, 1, N);
                if (t == DType::INT8)
                    for (Eigen::Index i = 0; i < acc.m.size(); ++i) acc.m.data()[i] = std::round(acc.m.data()[i]);
                const TileData* a = iter % 4 == 1 ? &acc : nullptr;
                const TileData* b = iter % 4 == 2 ? &bias : nullptr;
                TileData want = scalar_matmul(l, r, a, b);
                TileData got = matmul(l, r, a, b);
                ASSERT_EQ(got.dtype, want.dtype);
                ASSERT_TRUE(bit_equal(got.m, want.m)) << "M=" << M << " K=" << K << " N=" << N << " iter " << iter;
                // Both kernels (the SSE2 one and, where the CPU has AVX, the 4-wide one), before rounding.
                for (bool wide : {false, true}) {
                    Matrix sum = a ? a->m : Matrix::Zero(M, N);
                    if (b) sum.rowwise() += b->m.row(0);
                    detail::matmul_accumulate(l.m.data(), r.m.data(), sum.data(), M, K, N, wide);
                    for (Eigen::Index i = 0; i < sum.size(); ++i) sum.data()[i] = round_to(at, sum.data()[i]);
                    ASSERT_TRUE(bit_equal(sum, want.m)) << "wide=" << wide << " M=" << M << " K=" << K << " N=" << N;
                }
            }
        }
    }
}

}  // namespace
}  // namespace cvsim
