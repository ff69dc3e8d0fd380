// Element types, memory spaces and layout names.
#include "core/dtype.h"

#include <Eigen/Core>
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core/fast_round.h"

namespace cvsim {

size_t dtype_bytes(DType t) {
    switch (t) {
        case DType::FP32:
            return 4;
        case DType::FP16:
            return 2;
        case DType::BF16:
            return 2;
        case DType::INT8:
            return 1;
        case DType::INT16:
            return 2;
        case DType::INT32:
            return 4;
        case DType::INT64:
            return 8;
        case DType::UINT8:
            return 1;
        case DType::BOOL:
            return 1;
        case DType::INDEX:
            return 8;
        case DType::UINT16:
            return 2;
        case DType::UINT32:
            return 4;
        case DType::UINT64:
            return 8;
        case DType::TASK_ID:
            return 8;
        case DType::FP8E4M3FN:
        case DType::FP8E5M2:
        case DType::FP8E8M0:
        case DType::HF8:
        case DType::INT4:
        case DType::UINT4:
        case DType::FP4:
            return 1;
    }
    return 1;
}

bool dtype_is_float(DType t) {
    return t == DType::FP32 || t == DType::FP16 || t == DType::BF16 || t == DType::FP8E4M3FN || t == DType::FP8E5M2 ||
           t == DType::FP8E8M0 || t == DType::HF8 || t == DType::FP4;
}
bool dtype_is_int(DType t) {
    return !dtype_is_float(t);
}
bool dtype_has_numerics(DType t) {
    return t != DType::TASK_ID;
}

namespace {
constexpr std::string_view kDtypeNames[kNumDTypes] = {
    "FP32",   "FP16",   "BF16",    "INT8",      "INT16",   "INT32",   "INT64", "UINT8", "BOOL",  "INDEX", "UINT16",
    "UINT32", "UINT64", "TASK_ID", "FP8E4M3FN", "FP8E5M2", "FP8E8M0", "HF8",   "INT4",  "UINT4", "FP4"};
constexpr std::string_view kMemNames[] = {"DDR", "Vec", "Mat", "Left", "Right", "Acc", "Bias"};
constexpr std::string_view kTileLayoutNames[] = {"none_box", "row_major", "col_major"};
constexpr std::string_view kLayoutNames[] = {"ND", "DN", "NZ", "ZN"};

double saturate(double v, double lo, double hi) {
    if (std::isnan(v)) return 0;
    v = std::nearbyint(v) + 0.0;  // + 0.0 turns -0 into 0: integers have no negative zero, and decode gives +0
    return v < lo ? lo : (v > hi ? hi : v);
}

// Round-to-nearest-even straight from double to a narrow binary float (`frac_bits` stored fraction bits,
// smallest normal exponent `emin`, largest finite value `max_finite`). Going double -> float -> half rounds
// twice and can land on the wrong side of a tie (1 + 2^-8 + 2^-30 became 1 in BF16 instead of 1 + 2^-7).
double round_narrow_float(double v, int frac_bits, int emin, double max_finite) {
    if (!std::isfinite(v) || v == 0) return v;
    int e = 0;
    std::frexp(v, &e);  // |v| in [2^(e-1), 2^e)
    const double quantum = std::ldexp(1.0, std::max(e - 1, emin) - frac_bits);
    const double r = std::nearbyint(v / quantum) * quantum;  // scaling by a power of two is exact
    return std::fabs(r) > max_finite ? std::copysign(std::numeric_limits<double>::infinity(), v) : r;
}
}  // namespace

std::string_view dtype_name(DType t) {
    return kDtypeNames[static_cast<int>(t)];
}
std::optional<DType> dtype_from_name(std::string_view name) {
    for (int i = 0; i < kNumDTypes; ++i)
        if (kDtypeNames[i] == name) return static_cast<DType>(i);
    return std::nullopt;
}

double round_to(DType t, double v) {
    switch (t) {
        case DType::FP32:
            return static_cast<double>(static_cast<float>(v));
        // Values exact in float (most tile data) take Eigen's single, correctly rounded float conversion.
        case DType::FP16: {
            const float f = static_cast<float>(v);
            if (f == v) {
                // Already a half (most loaded and stored data): a normal half's float has the exponent in
                // [-14, 15] and the 13 low fraction bits clear; zero is one too. Returned as is, the value
                // Eigen's conversion round trip would give.
                const uint32_t b = std::bit_cast<uint32_t>(f);
                const uint32_t e = (b >> 23) & 0xffu;
                if (((b & 0x1fffu) == 0 && e >= 127 - 14 && e <= 127 + 15) || (b & 0x7fffffffu) == 0) return f;
                return static_cast<float>(Eigen::half(f));
            }
            return round_narrow_float(v, 10, -14, 65504.0);
        }
        case DType::BF16: {
            const float f = static_cast<float>(v);
            if (f == v) {
                // Already a bfloat16 (the 16 low fraction bits clear, finite): returned as is.
                const uint32_t b = std::bit_cast<uint32_t>(f);
                if ((b & 0xffffu) == 0 && ((b >> 23) & 0xffu) != 0xffu) return f;
                return static_cast<float>(Eigen::bfloat16(f));
            }
            return round_narrow_float(v, 7, -126, 3.3895313892515355e38);
        }
        case DType::INT8:
            return saturate(v, -128, 127);
        case DType::INT16:
            return saturate(v, -32768, 32767);
        case DType::INT32:
            return saturate(v, -2147483648.0, 2147483647.0);
        case DType::INT64:
        case DType::INDEX:
            return saturate(v, -9.2233720368547758e18, 9.2233720368547748e18);
        case DType::UINT8:
            return saturate(v, 0, 255);
        case DType::BOOL:
            return v != 0 ? 1 : 0;
        case DType::UINT16:
            return saturate(v, 0, 65535);
        case DType::UINT32:
            return saturate(v, 0, 4294967295.0);
        case DType::UINT64:
            return saturate(v, 0, 1.8446744073709550e19);
        case DType::TASK_ID:
            return saturate(v, -9.2233720368547758e18, 9.2233720368547748e18);
        case DType::FP8E4M3FN:
        case DType::FP8E5M2:
        case DType::FP8E8M0:
        case DType::HF8:
            return float8_round(t, v);
        case DType::INT4:
        case DType::UINT4:
        case DType::FP4:
            return sub_byte_round(t, v);
    }
    return v;
}

void encode_element(DType t, double v, uint8_t* p) {
    switch (t) {
        case DType::FP32: {
            float f = static_cast<float>(v);
            std::memcpy(p, &f, 4);
            return;
        }
        // round_to first: its result is exact in float and in the target, so the casts below do not round again.
        // The normal range takes the bit-level rounding of core/fast_round.h (the same bytes).
        case DType::FP16: {
            uint16_t b;
            if (!fp16_bits_fast(v, b))
                b = Eigen::numext::bit_cast<uint16_t>(Eigen::half(static_cast<float>(round_to(t, v))));
            std::memcpy(p, &b, 2);
            return;
        }
        case DType::BF16: {
            uint16_t b;
            if (!bf16_bits_fast(v, b))
                b = Eigen::numext::bit_cast<uint16_t>(Eigen::bfloat16(static_cast<float>(round_to(t, v))));
            std::memcpy(p, &b, 2);
            return;
        }
        case DType::INT8: {
            int8_t x = static_cast<int8_t>(round_to(t, v));
            std::memcpy(p, &x, 1);
            return;
        }
        case DType::INT16: {
            int16_t x = static_cast<int16_t>(round_to(t, v));
            std::memcpy(p, &x, 2);
            return;
        }
        case DType::INT32: {
            int32_t x = static_cast<int32_t>(round_to(t, v));
            std::memcpy(p, &x, 4);
            return;
        }
        case DType::INT64:
        case DType::INDEX: {
            int64_t x = static_cast<int64_t>(round_to(t, v));
            std::memcpy(p, &x, 8);
            return;
        }
        case DType::UINT8:
        case DType::BOOL: {
            uint8_t x = static_cast<uint8_t>(round_to(t, v));
            std::memcpy(p, &x, 1);
            return;
        }
        case DType::UINT16: {
            uint16_t x = static_cast<uint16_t>(round_to(t, v));
            std::memcpy(p, &x, 2);
            return;
        }
        case DType::UINT32: {
            uint32_t x = static_cast<uint32_t>(round_to(t, v));
            std::memcpy(p, &x, 4);
            return;
        }
        case DType::UINT64: {
            uint64_t x = static_cast<uint64_t>(round_to(t, v));
            std::memcpy(p, &x, 8);
            return;
        }
        case DType::TASK_ID: {
            int64_t x = static_cast<int64_t>(round_to(t, v));
            std::memcpy(p, &x, 8);
            return;
        }
        case DType::FP8E4M3FN:
        case DType::FP8E5M2:
        case DType::FP8E8M0:
        case DType::HF8:
            *p = float8_encode(t, v);
            return;
        case DType::INT4:
        case DType::UINT4:
        case DType::FP4:
            *p = static_cast<uint8_t>((*p & 0xF0) | sub_byte_encode(t, v));
            return;  // the low nibble
    }
}

double decode_element(DType t, const uint8_t* p) {
    switch (t) {
        case DType::FP32: {
            float f;
            std::memcpy(&f, p, 4);
            return f;
        }
        case DType::FP16: {
            uint16_t b;
            std::memcpy(&b, p, 2);
            return static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(b));
        }
        case DType::BF16: {
            uint16_t b;
            std::memcpy(&b, p, 2);
            return static_cast<float>(Eigen::numext::bit_cast<Eigen::bfloat16>(b));
        }
        case DType::INT8: {
            int8_t x;
            std::memcpy(&x, p, 1);
            return x;
        }
        case DType::INT16: {
            int16_t x;
            std::memcpy(&x, p, 2);
            return x;
        }
        case DType::INT32: {
            int32_t x;
            std::memcpy(&x, p, 4);
            return x;
        }
        case DType::INT64:
        case DType::INDEX: {
            int64_t x;
            std::memcpy(&x, p, 8);
            return static_cast<double>(x);
        }
        case DType::UINT8:
        case DType::BOOL:
            return *p;
        case DType::UINT16: {
            uint16_t x;
            std::memcpy(&x, p, 2);
            return x;
        }
        case DType::UINT32: {
            uint32_t x;
            std::memcpy(&x, p, 4);
            return x;
        }
        case DType::UINT64: {
            uint64_t x;
            std::memcpy(&x, p, 8);
            return static_cast<double>(x);
        }
        case DType::TASK_ID: {
            int64_t x;
            std::memcpy(&x, p, 8);
            return static_cast<double>(x);
        }
        case DType::FP8E4M3FN:
        case DType::FP8E5M2:
        case DType::FP8E8M0:
        case DType::HF8:
            return float8_decode(t, *p);
        case DType::INT4:
        case DType::UINT4:
        case DType::FP4:
            return sub_byte_decode(t, *p & 0x0F);
    }
    return 0;
}

void write_poison(DType t, uint8_t* p) {
    if (is_sub_byte(t)) {  // no NaN in 4 bits: the code 0x8 (FP4 -0, INT4 -8, UINT4 8), in the low nibble
        *p = static_cast<uint8_t>((*p & 0xF0) | 0x8);
        return;
    }
    if (dtype_is_float(t)) {
        encode_element(t, std::numeric_limits<double>::quiet_NaN(), p);
        return;
    }
    static constexpr uint8_t kDead[8] = {0xEF, 0xBE, 0xAD, 0xDE, 0xEF, 0xBE, 0xAD, 0xDE};
    std::memcpy(p, kDead, dtype_bytes(t));
}

bool atomic_add_dtype(DType t) {
    return t == DType::FP32 || t == DType::FP16 || t == DType::BF16 || t == DType::INT32 || t == DType::INT16 ||
           t == DType::INT8;
}

void atomic_add_element(DType t, uint8_t* dst, const uint8_t* addend, bool dst_zero) {
    if (dtype_is_float(t)) {
        double old = dst_zero ? 0.0 : decode_element(t, dst);
        encode_element(t, round_to(t, old + decode_element(t, addend)), dst);
        return;
    }
    // Integers: modular addition in the element width (little-endian bytes).
    const size_t n = dtype_bytes(t);
    uint64_t a = 0, b = 0;
    if (!dst_zero) std::memcpy(&a, dst, n);
    std::memcpy(&b, addend, n);
    uint64_t s = a + b;
    std::memcpy(dst, &s, n);
}

double unit_roundoff(DType t) {
    switch (t) {
        case DType::FP32:
            return std::ldexp(1.0, -24);
        case DType::FP16:
            return std::ldexp(1.0, -11);
        case DType::BF16:
            return std::ldexp(1.0, -8);
        case DType::FP8E4M3FN:
            return std::ldexp(1.0, -4);
        case DType::FP8E5M2:
            return std::ldexp(1.0, -3);
        case DType::FP8E8M0:
            return 0.5;
        case DType::HF8:
            return 0.25;
        case DType::FP4:
            return 0.25;
        default:
            return 0;
    }
}

bool is_poison(DType t, const uint8_t* p) {
    if (is_sub_byte(t)) return (*p & 0x0F) == 0x8;
    if (dtype_is_float(t)) return std::isnan(decode_element(t, p));
    uint8_t ref[8];
    write_poison(t, ref);
    return std::memcmp(ref, p, dtype_bytes(t)) == 0;
}

std::string_view mem_name(Mem m) {
    return kMemNames[static_cast<int>(m)];
}
std::optional<Mem> mem_from_name(std::string_view name) {
    for (int i = 0; i < 7; ++i)
        if (kMemNames[i] == name) return static_cast<Mem>(i);
    return std::nullopt;
}

std::string_view tile_layout_name(TileLayout l) {
    return kTileLayoutNames[static_cast<int>(l)];
}
std::optional<TileLayout> tile_layout_from_name(std::string_view name) {
    for (int i = 0; i < 3; ++i)
        if (kTileLayoutNames[i] == name) return static_cast<TileLayout>(i);
    return std::nullopt;
}

std::string_view layout_name(Layout l) {
    return kLayoutNames[static_cast<int>(l)];
}

std::optional<Layout> layout_from_view(TileLayout b, TileLayout s) {
    if (b == TileLayout::row_major && s == TileLayout::none_box) return Layout::ND;
    if (b == TileLayout::col_major && s == TileLayout::none_box) return Layout::DN;
    if (b == TileLayout::col_major && s == TileLayout::row_major) return Layout::NZ;
    if (b == TileLayout::row_major && s == TileLayout::col_major) return Layout::ZN;
    return std::nullopt;
}

void view_from_layout(Layout l, TileLayout& b, TileLayout& s) {
    switch (l) {
        case Layout::ND:
            b = TileLayout::row_major;
            s = TileLayout::none_box;
            return;
        case Layout::DN:
            b = TileLayout::col_major;
            s = TileLayout::none_box;
            return;
        case Layout::NZ:
            b = TileLayout::col_major;
            s = TileLayout::row_major;
            return;
        case Layout::ZN:
            b = TileLayout::row_major;
            s = TileLayout::col_major;
            return;
    }
}

Layout default_layout(Mem m) {
    switch (m) {
        case Mem::Mat:
        case Mem::Left:
        case Mem::Acc:
            return Layout::NZ;
        case Mem::Right:
            return Layout::ZN;
        default:
            return Layout::ND;
    }
}

}  // namespace cvsim
