// The 4-bit dtypes PyPTO prints (INT4, UINT4, FP4) and the packed-element helpers every buffer walker uses.
// Representation (docs/DECISIONS.md, "Dtypes"): two elements per byte, element 2k in the low nibble of byte k
// and element 2k + 1 in its high nibble (PyPTO's packed x2 carrier, torch's float4_e2m1fn_x2); a row of a 4-bit
// tensor or tile has an even length, so rows start on a byte. .npy files hold the packed bytes as uint8 with the
// last dimension halved (numpy has no 4-bit type).
//  * FP4 = OCP MX E2M1: sign, 2 exponent bits (bias 1), 1 mantissa bit; magnitudes 0, 0.5, 1, 1.5, 2, 3, 4, 6;
//    no infinity or NaN. Conversion rounds to nearest, ties to the even code (RNE), and saturates: anything past
//    6 (infinities included) gives +-6 (OCP MX leaves FP4 overflow to the implementation; with no inf/NaN code,
//    saturation is the only value-preserving choice); NaN gives +0. -0 is kept.
//  * INT4 / UINT4: two's complement [-8, 7] / [0, 15]; conversion rounds to nearest even and saturates (NaN: 0),
//    the rule of the wider integers.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/dtype.h"

namespace cvsim {
namespace {
constexpr double kFp4Mag[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};

uint8_t fp4_encode(double v) {
    if (std::isnan(v)) return 0;
    const uint8_t sign = std::signbit(v) ? 0x8 : 0x0;
    const double a = std::fabs(v);
    if (a >= 6.0) return sign | 0x7;  // saturation (and +-inf)
    uint8_t best = 0;
    for (uint8_t c = 1; c < 8; ++c) {
        const double d = std::fabs(a - kFp4Mag[c]), db = std::fabs(a - kFp4Mag[best]);
        if (d < db || (d == db && (c & 1) == 0)) best = c;  // ties to the even code (even mantissa bit)
    }
    return sign | best;
}
}  // namespace

int dtype_bits(DType t) {
    return is_sub_byte(t) ? 4 : static_cast<int>(8 * dtype_bytes(t));
}
bool is_sub_byte(DType t) {
    return t == DType::INT4 || t == DType::UINT4 || t == DType::FP4;
}

size_t storage_bytes(DType t, int64_t n) {
    if (n <= 0) return 0;
    return is_sub_byte(t) ? static_cast<size_t>((n + 1) / 2) : static_cast<size_t>(n) * dtype_bytes(t);
}

double sub_byte_decode(DType t, uint8_t code) {
    code &= 0x0F;
    switch (t) {
        case DType::INT4:
            return code >= 8 ? static_cast<double>(code) - 16.0 : static_cast<double>(code);
        case DType::UINT4:
            return code;
        default: {
            const double m = kFp4Mag[code & 0x7];
            return (code & 0x8) ? -m : m;
        }
    }
}

uint8_t sub_byte_encode(DType t, double v) {
    switch (t) {
        case DType::INT4:
        case DType::UINT4: {
            const double lo = t == DType::INT4 ? -8.0 : 0.0, hi = t == DType::INT4 ? 7.0 : 15.0;
            double r = std::isnan(v) ? 0.0 : std::nearbyint(v);
            r = r < lo ? lo : (r > hi ? hi : r);
            return static_cast<uint8_t>(static_cast<int>(r) & 0x0F);
        }
        default:
            return fp4_encode(v);
    }
}

double sub_byte_round(DType t, double v) {
    return sub_byte_decode(t, sub_byte_encode(t, v));
}

double get_element(DType t, const uint8_t* p, int64_t i) {
    if (!is_sub_byte(t)) return decode_element(t, p + static_cast<size_t>(i) * dtype_bytes(t));
    const uint8_t b = p[i / 2];
    return sub_byte_decode(t, (i & 1) ? static_cast<uint8_t>(b >> 4) : static_cast<uint8_t>(b & 0x0F));
}

void put_element(DType t, double v, uint8_t* p, int64_t i) {
    if (!is_sub_byte(t)) {
        encode_element(t, v, p + static_cast<size_t>(i) * dtype_bytes(t));
        return;
    }
    const uint8_t c = sub_byte_encode(t, v);
    uint8_t& b = p[i / 2];
    b = (i & 1) ? static_cast<uint8_t>((b & 0x0F) | (c << 4)) : static_cast<uint8_t>((b & 0xF0) | c);
}

uint64_t element_bits(DType t, const uint8_t* p, int64_t i) {
    if (is_sub_byte(t)) return (i & 1) ? (p[i / 2] >> 4) : (p[i / 2] & 0x0F);
    uint64_t u = 0;
    std::memcpy(&u, p + static_cast<size_t>(i) * dtype_bytes(t), dtype_bytes(t));
    return u;
}

void poison_fill(DType t, uint8_t* p, int64_t n) {
    if (is_sub_byte(t)) {
        std::memset(p, 0x88, storage_bytes(t, n));
        return;
    }
    if (n <= 0) return;
    // Every element holds the same pattern: write the first, then double the filled prefix (a 128 MiB output
    // was 2.5 s of per-element NaN encoding).
    write_poison(t, p);
    const size_t total = static_cast<size_t>(n) * dtype_bytes(t);
    for (size_t done = dtype_bytes(t); done < total;) {
        const size_t k = std::min(done, total - done);
        std::memcpy(p + done, p, k);
        done += k;
    }
}

bool is_poison_element(DType t, const uint8_t* p, int64_t i) {
    if (is_sub_byte(t)) return element_bits(t, p, i) == 0x8;
    return is_poison(t, p + static_cast<size_t>(i) * dtype_bytes(t));
}

}  // namespace cvsim
