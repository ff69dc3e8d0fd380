// Element types, memory spaces and tile layouts shared by the IR, the reference interpreter and the models.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cvsim {

enum class DType : uint8_t {
    FP32,
    FP16,
    BF16,
    INT8,
    INT16,
    INT32,
    INT64,
    UINT8,
    BOOL,
    INDEX,
    UINT16,
    UINT32,
    UINT64,
    TASK_ID,  // PyPTO's opaque 64-bit runtime task handle (orchestration scalars)
    FP8E4M3FN,
    FP8E5M2,
    FP8E8M0,
    HF8,  // 8-bit floats (models/dtype_fp8.cpp)
    INT4,
    UINT4,
    FP4,  // 4-bit, packed two per byte (models/dtype_sub_byte.cpp)
};
inline constexpr int kNumDTypes = 21;

// Bytes per element as stored in GM and in tile buffers (INDEX is a 64-bit scalar type; BOOL a byte). The
// 4-bit dtypes give 1 (PyPTO's GetByte: ceil(bits / 8)); they are packed, so size buffers with storage_bytes
// and address their elements with get_element / put_element.
size_t dtype_bytes(DType t);
// Bits per element: 4 for INT4 / UINT4 / FP4, else 8 * dtype_bytes.
int dtype_bits(DType t);
bool is_sub_byte(DType t);  // INT4, UINT4, FP4
// Bytes holding n consecutive elements of a row-major buffer (sub-byte: ceil(n / 2), two per byte).
size_t storage_bytes(DType t, int64_t n);
// Element i of a row-major buffer at p (sub-byte: the low nibble of byte i / 2 is element 2k, the high nibble
// element 2k + 1). put_element leaves the other nibble of the byte unchanged.
double get_element(DType t, const uint8_t* p, int64_t i);
void put_element(DType t, double v, uint8_t* p, int64_t i);
// The bit pattern of element i (for bit-exact comparison), and a poison-filled buffer of n elements.
uint64_t element_bits(DType t, const uint8_t* p, int64_t i);
void poison_fill(DType t, uint8_t* p, int64_t n);
bool is_poison_element(DType t, const uint8_t* p, int64_t i);
// The 4-bit formats (models/dtype_sub_byte.cpp): FP4 = OCP MX E2M1 (bias 1, one mantissa bit, no inf/NaN,
// max 6), round to nearest even, saturating to +-6; NaN -> +0. INT4 / UINT4 saturate to [-8, 7] / [0, 15].
double sub_byte_round(DType t, double v);
uint8_t sub_byte_encode(DType t, double v);  // the 4-bit code (low nibble)
double sub_byte_decode(DType t, uint8_t code);
bool dtype_is_float(DType t);
bool dtype_is_int(DType t);  // integer types including BOOL and INDEX
// False only for TASK_ID: PyPTO's task handle is an orchestration-side dependency token with no arithmetic, so a
// lane program that would hold one gets E-UNSUPPORTED before the simulation starts.
bool dtype_has_numerics(DType t);

// The 8-bit float formats (rounding rules in models/dtype_fp8.cpp and docs/DECISIONS.md).
bool is_float8(DType t);
double float8_decode(DType t, uint8_t bits);
double float8_round(DType t, double v);    // the nearest value of `t` by that format's rule (NaN when none)
uint8_t float8_encode(DType t, double v);  // float8_round then the bit pattern
uint8_t float8_nan_bits(DType t);

// Tile values are doubles, so 64-bit integers are exact only within +-2^53: the largest magnitude cvsim keeps
// exactly (inputs beyond it are refused when read).
inline constexpr double kMaxExactInt = 9007199254740992.0;
// "FP32", "FP16", ... as spelled after `pl.`
std::string_view dtype_name(DType t);
std::optional<DType> dtype_from_name(std::string_view name);

// Round a double to the nearest value representable in `t` (round-to-nearest-even for floats;
// integers saturate). Every datapath result passes through this, so reference and models agree bit
// for bit.
double round_to(DType t, double v);
// Encode/decode one element at `p` (little-endian, `dtype_bytes(t)` bytes).
void encode_element(DType t, double v, uint8_t* p);
double decode_element(DType t, const uint8_t* p);
// The poison pattern written into Out tensors before a run: NaN for floats, 0xDE AD ... for integers.
void write_poison(DType t, uint8_t* p);
bool is_poison(DType t, const uint8_t* p);

// Atomic-add stores (pl.store(..., atomic=pl.AtomicType.Add)): the dtypes the hardware can add into GM.
bool atomic_add_dtype(DType t);  // FP32, FP16, BF16, INT32, INT16, INT8
// One element of an atomic add, shared by the reference and the simulator so both round alike: `*dst` +=
// `*addend` in `t` (both encoded). Floats: the exact sum rounded once to `t` (round-to-nearest-even);
// integers wrap (two's complement), so integer accumulation does not depend on the order. `dst_zero`: the
// destination counts as 0 (an Out element no store wrote yet: the host zeroes an atomic destination).
void atomic_add_element(DType t, uint8_t* dst, const uint8_t* addend, bool dst_zero);
// Unit roundoff of a float dtype (2^-24 FP32, 2^-11 FP16, 2^-8 BF16, 2^-4 E4M3, 2^-3 E5M2, 2^-1 E8M0, 2^-2 HF8
// at its coarsest); 0 for integers.
double unit_roundoff(DType t);

// On-chip and off-chip memory spaces (pl.Mem.X / pl.MemorySpace.X).
enum class Mem : uint8_t { DDR, Vec, Mat, Left, Right, Acc, Bias };
std::string_view mem_name(Mem m);
std::optional<Mem> mem_from_name(std::string_view name);
// Cube memory: Mat, Left, Right, Acc, Bias. Vector memory: Vec.
inline bool is_cube_mem(Mem m) {
    return m == Mem::Mat || m == Mem::Left || m == Mem::Right || m == Mem::Acc || m == Mem::Bias;
}

// pl.TileLayout members used for blayout / slayout.
enum class TileLayout : uint8_t { none_box, row_major, col_major };
std::string_view tile_layout_name(TileLayout l);
std::optional<TileLayout> tile_layout_from_name(std::string_view name);

// Physical layout of tile data (SPEC 4.2).
enum class Layout : uint8_t { ND, DN, NZ, ZN };
std::string_view layout_name(Layout l);
// (blayout, slayout) -> layout: ND (row_major, none_box), DN (col_major, none_box),
// NZ (col_major, row_major), ZN (row_major, col_major). Other combinations have no layout.
std::optional<Layout> layout_from_view(TileLayout blayout, TileLayout slayout);
void view_from_layout(Layout l, TileLayout& blayout, TileLayout& slayout);
// The layout a tile gets by default in each memory: GM/UB ND, L1/L0A/L0C NZ, L0B ZN, Bias ND.
Layout default_layout(Mem m);

}  // namespace cvsim
