// The 8-bit float formats (FP8E4M3FN, FP8E5M2, FP8E8M0, HF8): bit decoding from the format definitions,
// rounding and the value -> bits encoding. The rules (docs/DECISIONS.md, "Dtypes"):
//  * FP8E4M3FN (OCP E4M3, bias 7, no infinities, NaN S.1111.111, max 448) and FP8E5M2 (OCP E5M2, bias 15,
//    IEEE-like with +-inf) round to nearest even without saturation, as ml_dtypes / numpy do: a value past
//    the largest finite one becomes NaN (E4M3FN, which has no infinity) or +-inf (E5M2); +-inf -> NaN in E4M3FN.
//  * FP8E8M0 (OCP MX scale: 2^(e-127), e = 0..254, 0xFF NaN, no sign, no zero): round to nearest power of two
//    (ties to the even biased exponent); positive values under 2^-127 give 2^-127; zero, negatives, NaN and
//    values past 1.5 * 2^127 give NaN.
//  * HF8 (Ascend HiFloat8: sign, a prefix-coded dot field giving 0..4 exponent bits, sign-magnitude exponent with
//    an implicit leading 1, tapered mantissa; 0x00 zero, 0x80 NaN, D=4 exponent 15 mantissa 1 +-inf, denormals
//    2^(m-23)): round to the nearest representable value, ties away from zero (the HiFloat8 TA rounding);
//    magnitudes from 40960 (the midpoint between 2^15 and the next grid point 1.5 * 2^15) become +-inf; -0 -> 0.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/dtype.h"

namespace cvsim {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

double decode_e4m3fn(uint8_t b) {
    const double s = (b & 0x80) ? -1.0 : 1.0;
    const int e = (b >> 3) & 0xF, m = b & 0x7;
    if (e == 15 && m == 7) return kNaN;
    if (e == 0) return s * std::ldexp(m, -9);
    return s * std::ldexp(8 + m, e - 7 - 3);
}

double decode_e5m2(uint8_t b) {
    const double s = (b & 0x80) ? -1.0 : 1.0;
    const int e = (b >> 2) & 0x1F, m = b & 0x3;
    if (e == 31) return m == 0 ? s * kInf : kNaN;
    if (e == 0) return s * std::ldexp(m, -16);
    return s * std::ldexp(4 + m, e - 15 - 2);
}

double decode_e8m0(uint8_t b) {
    return b == 0xFF ? kNaN : std::ldexp(1.0, static_cast<int>(b) - 127);
}

double decode_hf8(uint8_t b) {
    const double s = (b & 0x80) ? -1.0 : 1.0;
    const int p = b & 0x7F;
    if ((p >> 3) == 0) {  // 0000mmm: zero / NaN / denormal 2^(m-23)
        const int m = p & 0x7;
        if (m == 0) return (b & 0x80) ? kNaN : 0.0;
        return s * std::ldexp(1.0, m - 23);
    }
    int dbits = 0, rest = 0;  // exponent bits (the dot value) and the bits after the dot field
    if ((p >> 5) == 3)
        dbits = 4, rest = p & 0x1F;
    else if ((p >> 5) == 2)
        dbits = 3, rest = p & 0x1F;
    else if ((p >> 5) == 1)
        dbits = 2, rest = p & 0x1F;
    else if ((p >> 4) == 1)
        dbits = 1, rest = p & 0xF;
    else
        dbits = 0, rest = p & 0x7;                     // 0001mmm
    const int mant_bits = dbits <= 2 ? 3 : 5 - dbits;  // D = 0, 1, 2, 3, 4: 3, 3, 3, 2, 1 mantissa bits
    const int raw_exp = rest >> mant_bits, raw_mant = rest & ((1 << mant_bits) - 1);
    int exp = 0;
    if (dbits > 0) {
        const int sign_bit = raw_exp & (1 << (dbits - 1));
        const int mag = (1 << (dbits - 1)) | (raw_exp & ((1 << (dbits - 1)) - 1));
        exp = sign_bit ? -mag : mag;
    }
    if (dbits == 4 && exp == 15 && raw_mant == 1) return s * kInf;
    return s * std::ldexp((1 << mant_bits) + raw_mant, exp - mant_bits);
}

struct Fp8Table {
    std::array<double, 256> val{};
    std::vector<std::pair<double, uint8_t>> sorted;  // non-NaN, non-zero values, ascending
    std::vector<double> finite_pos;                  // finite values >= 0, ascending (HF8 rounding)
};

Fp8Table build(double (*decode)(uint8_t)) {
    Fp8Table t;
    for (int i = 0; i < 256; ++i) {
        const double v = decode(static_cast<uint8_t>(i));
        t.val[i] = v;
        if (!std::isnan(v) && v != 0) t.sorted.emplace_back(v, static_cast<uint8_t>(i));
        if (std::isfinite(v) && v >= 0) t.finite_pos.push_back(v);
    }
    std::sort(t.sorted.begin(), t.sorted.end());
    std::sort(t.finite_pos.begin(), t.finite_pos.end());
    t.finite_pos.erase(std::unique(t.finite_pos.begin(), t.finite_pos.end()), t.finite_pos.end());
    return t;
}

const Fp8Table& table(DType t) {
    static const Fp8Table e4m3 = build(decode_e4m3fn);
    static const Fp8Table e5m2 = build(decode_e5m2);
    static const Fp8Table e8m0 = build(decode_e8m0);
    static const Fp8Table hf8 = build(decode_hf8);
    switch (t) {
        case DType::FP8E4M3FN:
            return e4m3;
        case DType::FP8E5M2:
            return e5m2;
        case DType::FP8E8M0:
            return e8m0;
        default:
            return hf8;
    }
}

// Round-to-nearest-even onto a binary float grid with `frac_bits` fraction bits and smallest normal exponent
// `emin` (subnormals below it); no overflow handling (the caller decides).
double rne_grid(double v, int frac_bits, int emin) {
    int e = 0;
    std::frexp(v, &e);  // |v| in [2^(e-1), 2^e)
    const double quantum = std::ldexp(1.0, std::max(e - 1, emin) - frac_bits);
    return std::nearbyint(v / quantum) * quantum;  // power-of-two scaling is exact; nearbyint ties to even
}

double round_e8m0(double v) {
    if (std::isnan(v) || v <= 0) return kNaN;
    if (std::isinf(v)) return kNaN;
    int e = 0;
    const double f = std::frexp(v, &e);  // v = f * 2^e, f in [0.5, 1): v in [2^(e-1), 2^e)
    int k = e - 1;
    if (f > 0.75 || (f == 0.75 && ((k + 127) & 1))) ++k;  // past the midpoint 1.5 * 2^k, or a tie to odd
    if (k < -127) return std::ldexp(1.0, -127);
    if (k > 127) return kNaN;
    return std::ldexp(1.0, k);
}

double round_hf8(double v) {
    if (std::isnan(v)) return kNaN;
    const double a = std::fabs(v);
    if (a >= 40960.0) return std::copysign(kInf, v);
    const auto& g = table(DType::HF8).finite_pos;  // 0 ... 32768
    auto hi = std::lower_bound(g.begin(), g.end(), a);
    if (hi == g.end()) return std::copysign(g.back(), v);  // (32768, 40960): the largest finite value
    if (*hi == a || hi == g.begin()) return a == 0 ? 0.0 : std::copysign(*hi, v);
    const double lo = *(hi - 1);
    const double r = 2 * a < lo + *hi ? lo : *hi;  // both sums exact: ties go to the larger magnitude
    return r == 0 ? 0.0 : std::copysign(r, v);
}

}  // namespace

bool is_float8(DType t) {
    return t == DType::FP8E4M3FN || t == DType::FP8E5M2 || t == DType::FP8E8M0 || t == DType::HF8;
}

double float8_decode(DType t, uint8_t bits) {
    return table(t).val[bits];
}

double float8_round(DType t, double v) {
    switch (t) {
        case DType::FP8E4M3FN: {
            if (!std::isfinite(v)) return kNaN;
            if (v == 0) return v;
            const double r = rne_grid(v, 3, -6);
            return std::fabs(r) > 448.0 ? kNaN : r;
        }
        case DType::FP8E5M2: {
            if (!std::isfinite(v) || v == 0) return v;
            const double r = rne_grid(v, 2, -14);
            return std::fabs(r) > 57344.0 ? std::copysign(kInf, v) : r;
        }
        case DType::FP8E8M0:
            return round_e8m0(v);
        case DType::HF8:
            return round_hf8(v);
        default:
            return v;
    }
}

uint8_t float8_nan_bits(DType t) {
    switch (t) {
        case DType::FP8E4M3FN:
            return 0x7F;
        case DType::FP8E5M2:
            return 0x7F;
        case DType::FP8E8M0:
            return 0xFF;
        default:
            return 0x80;  // HF8
    }
}

uint8_t float8_encode(DType t, double v) {
    const double r = float8_round(t, v);
    if (std::isnan(r)) return float8_nan_bits(t);
    if (r == 0) return std::signbit(r) && (t == DType::FP8E4M3FN || t == DType::FP8E5M2) ? 0x80 : 0x00;
    const auto& s = table(t).sorted;
    auto it = std::lower_bound(s.begin(), s.end(), std::make_pair(r, uint8_t{0}));
    return it != s.end() && it->first == r ? it->second : float8_nan_bits(t);  // r is always on the grid
}

}  // namespace cvsim
