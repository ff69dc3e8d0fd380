// Tests of the dtype numerics: every 8-bit float pattern round-trips, hand-checked values and the rounding of ties
// and overflow in FP8E4M3FN / FP8E5M2 / FP8E8M0 / HF8, BF16 and FP16, and casts between the formats.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

#include "core/datapath.h"
#include "core/dtype.h"

namespace cvsim {
namespace {

constexpr DType kFp8[] = {DType::FP8E4M3FN, DType::FP8E5M2, DType::FP8E8M0, DType::HF8};
const double kInf = std::numeric_limits<double>::infinity();

double via_bytes(DType t, double v) {
    uint8_t b[8] = {};
    encode_element(t, v, b);
    return decode_element(t, b);
}

TEST(DtypeFp8Test, EveryPatternRoundTrips) {
    for (DType t : kFp8) {
        int nans = 0;
        for (int i = 0; i < 256; ++i) {
            const uint8_t bits = static_cast<uint8_t>(i);
            const double v = float8_decode(t, bits);
            if (std::isnan(v)) {
                ++nans;
                EXPECT_TRUE(std::isnan(float8_decode(t, float8_encode(t, v)))) << dtype_name(t) << " " << i;
                continue;
            }
            EXPECT_EQ(float8_encode(t, v), bits) << dtype_name(t) << " pattern " << i << " value " << v;
            EXPECT_EQ(round_to(t, v), v) << dtype_name(t) << " " << i;
            uint8_t b = 0;
            encode_element(t, v, &b);
            EXPECT_EQ(b, bits);
            EXPECT_EQ(decode_element(t, &b), v);
        }
        // NaN encodings: E4M3FN S.1111.111 (2), E5M2 exponent 31 with a mantissa (6), E8M0 0xFF, HF8 0x80.
        const int want = t == DType::FP8E4M3FN ? 2 : t == DType::FP8E5M2 ? 6 : 1;
        EXPECT_EQ(nans, want) << dtype_name(t);
        EXPECT_TRUE(dtype_has_numerics(t));
        EXPECT_EQ(dtype_bytes(t), 1u);
    }
}

TEST(DtypeFp8Test, HandCheckedPatterns) {
    EXPECT_EQ(float8_decode(DType::FP8E4M3FN, 0x38), 1.0);
    EXPECT_EQ(float8_decode(DType::FP8E4M3FN, 0x7E), 448.0);
    EXPECT_EQ(float8_decode(DType::FP8E4M3FN, 0x08), std::ldexp(1.0, -6));
    EXPECT_EQ(float8_decode(DType::FP8E4M3FN, 0x01), std::ldexp(1.0, -9));
    EXPECT_EQ(float8_decode(DType::FP8E4M3FN, 0xC4), -3.0);
    EXPECT_TRUE(std::signbit(float8_decode(DType::FP8E4M3FN, 0x80)));
    EXPECT_EQ(float8_decode(DType::FP8E5M2, 0x3C), 1.0);
    EXPECT_EQ(float8_decode(DType::FP8E5M2, 0x7B), 57344.0);
    EXPECT_EQ(float8_decode(DType::FP8E5M2, 0x7C), kInf);
    EXPECT_EQ(float8_decode(DType::FP8E5M2, 0xFC), -kInf);
    EXPECT_EQ(float8_decode(DType::FP8E5M2, 0x01), std::ldexp(1.0, -16));
    EXPECT_EQ(float8_decode(DType::FP8E8M0, 0x7F), 1.0);
    EXPECT_EQ(float8_decode(DType::FP8E8M0, 0x00), std::ldexp(1.0, -127));
    EXPECT_EQ(float8_decode(DType::FP8E8M0, 0xFE), std::ldexp(1.0, 127));
    // HF8: 0001mmm is D=0 (exponent 0): 0x08 = 1.0, 0x09 = 1.125; D=1 (001 e mmm): 0x10 = 2.0, 0x18 = 0.5;
    // D=4 (11 eeee m): exponent +15 mantissa 0 = 32768 (0x6E), mantissa 1 = inf (0x6F); denormal 0x01 = 2^-22.
    EXPECT_EQ(float8_decode(DType::HF8, 0x00), 0.0);
    EXPECT_EQ(float8_decode(DType::HF8, 0x08), 1.0);
    EXPECT_EQ(float8_decode(DType::HF8, 0x09), 1.125);
    EXPECT_EQ(float8_decode(DType::HF8, 0x10), 2.0);
    EXPECT_EQ(float8_decode(DType::HF8, 0x18), 0.5);
    EXPECT_EQ(float8_decode(DType::HF8, 0x1F), 0.5 * 1.875);
    EXPECT_EQ(float8_decode(DType::HF8, 0x6E), 32768.0);
    EXPECT_EQ(float8_decode(DType::HF8, 0x6F), kInf);
    EXPECT_EQ(float8_decode(DType::HF8, 0xEF), -kInf);
    EXPECT_EQ(float8_decode(DType::HF8, 0x01), std::ldexp(1.0, -22));
    EXPECT_EQ(float8_decode(DType::HF8, 0x88), -1.0);
    EXPECT_TRUE(std::isnan(float8_decode(DType::HF8, 0x80)));
    // The tapered code has no duplicate values: the 128 non-negative patterns (zero, 126 finite, +inf) differ.
    std::set<double> seen;
    for (int i = 0; i < 128; ++i) seen.insert(float8_decode(DType::HF8, static_cast<uint8_t>(i)));
    EXPECT_EQ(seen.size(), 128u);
}

TEST(DtypeFp8Test, RoundingTiesAndOverflow) {
    // E4M3FN: 3 fraction bits, ties to even, past 448 NaN (no infinity).
    EXPECT_EQ(round_to(DType::FP8E4M3FN, 1.0625), 1.0);   // tie between 1 and 1.125 -> even
    EXPECT_EQ(round_to(DType::FP8E4M3FN, 1.1875), 1.25);  // tie between 1.125 and 1.25 -> even
    EXPECT_EQ(round_to(DType::FP8E4M3FN, 1.07), 1.125);
    EXPECT_EQ(round_to(DType::FP8E4M3FN, 464.0), 448.0);  // tie between 448 (even) and 480
    EXPECT_TRUE(std::isnan(round_to(DType::FP8E4M3FN, 465.0)));
    EXPECT_TRUE(std::isnan(round_to(DType::FP8E4M3FN, kInf)));
    EXPECT_EQ(round_to(DType::FP8E4M3FN, std::ldexp(1.0, -10)), 0.0);  // half the smallest denormal: even
    EXPECT_EQ(round_to(DType::FP8E4M3FN, std::ldexp(1.5, -10)), std::ldexp(1.0, -9));
    EXPECT_EQ(float8_encode(DType::FP8E4M3FN, -0.0), 0x80);
    // E5M2: 2 fraction bits, IEEE overflow to infinity.
    EXPECT_EQ(round_to(DType::FP8E5M2, 61439.0), 57344.0);
    EXPECT_EQ(round_to(DType::FP8E5M2, 61440.0), kInf);  // tie: 57344 has an odd mantissa
    EXPECT_EQ(round_to(DType::FP8E5M2, -1e9), -kInf);
    EXPECT_EQ(round_to(DType::FP8E5M2, 1.125), 1.0);  // tie -> even
    EXPECT_EQ(round_to(DType::FP8E5M2, 1.375), 1.5);
    // E8M0: powers of two, ties to the even biased exponent, no zero or sign.
    EXPECT_EQ(round_to(DType::FP8E8M0, 3.0), 2.0);  // 2 = 2^(128-127): even biased exponent
    EXPECT_EQ(round_to(DType::FP8E8M0, 6.0), 8.0);  // 8 = 2^(130-127)
    EXPECT_EQ(round_to(DType::FP8E8M0, 5.0), 4.0);
    EXPECT_EQ(round_to(DType::FP8E8M0, 1e-300), std::ldexp(1.0, -127));
    EXPECT_TRUE(std::isnan(round_to(DType::FP8E8M0, 0.0)));
    EXPECT_TRUE(std::isnan(round_to(DType::FP8E8M0, -4.0)));
    EXPECT_TRUE(std::isnan(round_to(DType::FP8E8M0, 1e39)));
    // HF8: nearest, ties away from zero; 40960 and beyond -> inf; -0 -> +0.
    EXPECT_EQ(round_to(DType::HF8, 1.0625), 1.125);
    EXPECT_EQ(round_to(DType::HF8, -1.0625), -1.125);
    EXPECT_EQ(round_to(DType::HF8, 1.06), 1.0);
    EXPECT_EQ(round_to(DType::HF8, 40959.0), 32768.0);
    EXPECT_EQ(round_to(DType::HF8, 40960.0), kInf);
    EXPECT_EQ(round_to(DType::HF8, std::ldexp(1.0, -23)), std::ldexp(1.0, -22));
    EXPECT_EQ(round_to(DType::HF8, std::ldexp(0.99, -23)), 0.0);
    EXPECT_EQ(float8_encode(DType::HF8, -0.0), 0x00);
    EXPECT_EQ(float8_encode(DType::HF8, std::nan("")), 0x80);
}

TEST(DtypeFp8Test, Bf16AndFp16TiesAndOverflow) {
    EXPECT_EQ(via_bytes(DType::FP16, 1 + std::ldexp(1.0, -11)), 1.0);
    EXPECT_EQ(via_bytes(DType::FP16, 1 + 3 * std::ldexp(1.0, -11)), 1 + std::ldexp(1.0, -9));
    EXPECT_EQ(via_bytes(DType::FP16, 65519.0), 65504.0);
    EXPECT_EQ(via_bytes(DType::FP16, 65520.0), kInf);
    EXPECT_EQ(via_bytes(DType::FP16, std::ldexp(1.0, -25)), 0.0);  // half the smallest denormal: tie to 0
    EXPECT_EQ(via_bytes(DType::FP16, std::ldexp(1.5, -25)), std::ldexp(1.0, -24));
    EXPECT_EQ(via_bytes(DType::BF16, 1 + std::ldexp(1.0, -8)), 1.0);
    EXPECT_EQ(via_bytes(DType::BF16, 1 + 3 * std::ldexp(1.0, -8)), 1 + std::ldexp(1.0, -6));
    const double bf_max = std::ldexp(2 - std::ldexp(1.0, -7), 127);
    EXPECT_EQ(via_bytes(DType::BF16, std::ldexp(2 - std::ldexp(1.0, -8), 127) * 0.9999999), bf_max);
    EXPECT_EQ(via_bytes(DType::BF16, std::ldexp(2 - std::ldexp(1.0, -8), 127)), kInf);
}

TEST(DtypeFp8Test, CastsBetweenAllDtypes) {
    TileData x{DType::FP32, Matrix(1, 4)};
    x.m << 1.0625, 500.0, -0.0, 0.3;
    const TileData e4 = cast(x, DType::FP8E4M3FN);
    EXPECT_EQ(e4.m(0, 0), 1.0);
    EXPECT_TRUE(std::isnan(e4.m(0, 1)));
    EXPECT_TRUE(std::signbit(e4.m(0, 2)));
    EXPECT_EQ(e4.m(0, 3), 0.3125);  // 0.3 between 0.28125 and 0.3125 (2^-2 * 1.25)
    const TileData e5 = cast(x, DType::FP8E5M2);
    EXPECT_EQ(e5.m(0, 1), 512.0);
    // FP8 -> integers and back: exact values survive, integer rounding applies after the FP8 value.
    TileData back = cast(cast(e5, DType::INT32), DType::HF8);
    EXPECT_EQ(back.m(0, 0), 1.0);
    EXPECT_EQ(back.m(0, 1), 512.0);
    // Every dtype with numerics casts to every other: a value exact everywhere (2) comes back unchanged.
    for (int a = 0; a < kNumDTypes; ++a)
        for (int b = 0; b < kNumDTypes; ++b) {
            const DType ta = static_cast<DType>(a), tb = static_cast<DType>(b);
            if (!dtype_has_numerics(ta) || !dtype_has_numerics(tb)) continue;
            TileData v{ta, Matrix::Constant(1, 1, ta == DType::BOOL || tb == DType::BOOL ? 1.0 : 2.0)};
            EXPECT_EQ(cast(cast(v, tb), ta).m(0, 0), v.m(0, 0)) << dtype_name(ta) << " -> " << dtype_name(tb);
        }
    EXPECT_FALSE(dtype_has_numerics(DType::TASK_ID));
}

}  // namespace
}  // namespace cvsim
