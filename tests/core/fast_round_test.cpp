// Tests of core/fast_round.h: the bit-level FP16 / BF16 round-to-nearest-even gives encode_element's bytes for
// every value it accepts (random doubles over and beyond each format's range, exact ties and their neighbours),
// and it accepts the normal range (so the seeded inputs take it).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "core/dtype.h"
#include "core/fast_round.h"

namespace cvsim {
namespace {

uint16_t encoded(DType t, double v) {
    uint8_t b[2] = {};
    encode_element(t, v, b);
    uint16_t r;
    std::memcpy(&r, b, 2);
    return r;
}

// Checks one value; returns whether the fast path took it.
bool check(DType t, double v) {
    uint16_t fast = 0;
    const bool took = t == DType::FP16 ? fp16_bits_fast(v, fast) : bf16_bits_fast(v, fast);
    if (took) {
        EXPECT_EQ(fast, encoded(t, v)) << dtype_name(t) << " " << std::hexfloat << v;
    }
    return took;
}

TEST(FastRoundTest, RandomDoublesMatchEncodeElement) {
    std::mt19937_64 gen(7);
    for (DType t : {DType::FP16, DType::BF16}) {
        const int lo = t == DType::FP16 ? -30 : -140, hi = t == DType::FP16 ? 20 : 140;
        int64_t taken = 0;
        const int64_t n = 400000;
        for (int64_t k = 0; k < n; ++k) {
            // A random 52-bit fraction at a random exponent, either sign.
            const double m = 1.0 + static_cast<double>(gen() >> 12) * 0x1p-52;
            const int e = lo + static_cast<int>(gen() % static_cast<uint64_t>(hi - lo + 1));
            const double v = std::ldexp(gen() & 1 ? -m : m, e);
            taken += check(t, v);
        }
        EXPECT_GT(taken, n / 2) << dtype_name(t);  // the normal range is most of [lo, hi]
    }
}

TEST(FastRoundTest, UniformInputsInUnitIntervalTakeTheFastPath) {
    std::mt19937_64 gen(11);
    for (DType t : {DType::FP16, DType::BF16}) {
        int64_t taken = 0;
        const int64_t n = 200000;
        for (int64_t k = 0; k < n; ++k) taken += check(t, static_cast<double>(gen() >> 11) * 0x1p-52 - 1.0);
        EXPECT_GT(taken, n - n / 1000) << dtype_name(t);
    }
}

TEST(FastRoundTest, TiesAndTheirNeighbours) {
    // Every FP16 / BF16 value of the handled exponents: the midpoint to its successor (a tie: to the even one),
    // and the doubles just below and above it, with both signs.
    for (DType t : {DType::FP16, DType::BF16}) {
        const int frac = t == DType::FP16 ? 10 : 7;
        const int emin = t == DType::FP16 ? -14 : -126, emax = t == DType::FP16 ? 14 : 126;
        int64_t taken = 0, total = 0;
        for (int e = emin; e <= emax; e += (t == DType::BF16 ? 3 : 1)) {
            for (int m = 0; m < (1 << frac); ++m) {
                const double v = std::ldexp(1.0 + m * std::ldexp(1.0, -frac), e);
                const double mid = v + std::ldexp(1.0, e - frac - 1);
                for (double x : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e300), v, std::nextafter(v, 0.0)})
                    for (double s : {1.0, -1.0}) {
                        taken += check(t, s * x);
                        ++total;
                    }
            }
        }
        EXPECT_GT(taken, total * 9 / 10) << dtype_name(t);
    }
}

TEST(FastRoundTest, RefusesWhatItDoesNotHandle) {
    uint16_t out = 0x1234;
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    for (double v : {0.0, -0.0, 0x1p-15, -0x1p-20, 65504.0, 70000.0, inf, -inf, nan})
        EXPECT_FALSE(fp16_bits_fast(v, out)) << v;
    for (double v : {0.0, 0x1p-127, 0x1p127, 3e38, inf, nan}) EXPECT_FALSE(bf16_bits_fast(v, out)) << v;
    EXPECT_EQ(out, 0x1234);
    // The edges it does take: the smallest normals, and the largest binades that cannot round to infinity.
    EXPECT_TRUE(check(DType::FP16, 0x1p-14));
    EXPECT_TRUE(check(DType::FP16, std::nextafter(0x1p-14, 1.0)));
    EXPECT_TRUE(check(DType::FP16, std::nextafter(0x1p15, 0.0)));  // rounds up to 2^15 = 0x7800
    EXPECT_TRUE(check(DType::BF16, -0x1p-126));
    EXPECT_TRUE(check(DType::BF16, std::nextafter(0x1p127, 0.0)));  // rounds up to 2^127
}

}  // namespace
}  // namespace cvsim
