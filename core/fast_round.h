// Bit-level round-to-nearest-even from double to FP16 / BF16 for bulk encoding (the seeded inputs): the same
// bytes encode_element writes, without its double -> float -> narrow checks, for the values it handles.
#pragma once

#include <cstdint>
#include <cstring>

namespace cvsim {

// FP16 / BF16 bit pattern of `v` rounded to nearest even, straight from the double's bits (one rounding): false,
// and `out` untouched, outside the range it handles (zero, subnormal results, values that may round to infinity,
// inf, NaN), where encode_element decides. Equal to encode_element's bytes wherever it returns true
// (tests/core/fast_round_test.cpp).
inline bool fp16_bits_fast(double v, uint16_t& out) {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    const uint64_t a = b & 0x7FFFFFFFFFFFFFFFull;
    const int e = static_cast<int>(a >> 52) - 1023;
    if (e < -14 || e > 14) return false;  // zero / subnormal, or may round past 65504 (also inf and NaN)
    // Round the 52 fraction bits to 10 (ties to even); a carry out of the fraction bumps the exponent, as it should.
    const uint64_t r = (a + ((1ull << 41) - 1) + ((a >> 42) & 1)) >> 42;
    out = static_cast<uint16_t>(((b >> 63) << 15) | (r - (static_cast<uint64_t>(1023 - 15) << 10)));
    return true;
}
inline bool bf16_bits_fast(double v, uint16_t& out) {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    const uint64_t a = b & 0x7FFFFFFFFFFFFFFFull;
    const int e = static_cast<int>(a >> 52) - 1023;
    if (e < -126 || e > 126) return false;  // zero / subnormal, or may round to infinity (also inf and NaN)
    const uint64_t r = (a + ((1ull << 44) - 1) + ((a >> 45) & 1)) >> 45;  // 7 fraction bits
    out = static_cast<uint16_t>(((b >> 63) << 15) | (r - (static_cast<uint64_t>(1023 - 127) << 7)));
    return true;
}

}  // namespace cvsim
