// Run-time data: seeded GM inputs (a per-element function of seed, name and index), poisoned and sparse
// outputs, .npy files.
#include "frontend/runtime.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string_view>

#include "core/fast_round.h"
#include "frontend/codes.h"
#include "frontend/diag.h"

namespace cvsim::rt {

namespace {
// splitmix64's finaliser: a bijective mix of 64 bits.
inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
// The 64 random bits of element i (splitmix64 at counter i of the tensor's stream).
inline uint64_t input_bits(uint64_t key, int64_t i) {
    return mix64(key + static_cast<uint64_t>(i) * 0x9E3779B97F4A7C15ull);
}
// Uniform in [-1, 1): 53 bits on the grid of 2^-52 (exact in double).
inline double unit_float(uint64_t x) {
    return static_cast<double>(x >> 11) * 0x1p-52 - 1.0;
}
// Uniform in [-8, 8] (17 values; multiply-shift on the top 32 bits).
inline int unit_int(uint64_t x) {
    return static_cast<int>(((x >> 32) * 17) >> 32) - 8;
}
// Unsigned types (and the sign-less E8M0 scale) get magnitudes, not saturated zeros.
bool magnitude_input(DType t) {
    return t == DType::UINT8 || t == DType::BOOL || t == DType::UINT16 || t == DType::UINT32 || t == DType::UINT64 ||
           t == DType::FP8E8M0 || t == DType::UINT4;
}
template <class T>
void generate_ints(uint64_t key, int64_t first, int64_t n, uint8_t* out, bool magnitude) {
    for (int64_t j = 0; j < n; ++j) {
        int k = unit_int(input_bits(key, first + j));
        if (magnitude && k < 0) k = -k;
        const T x = static_cast<T>(k);
        std::memcpy(out + static_cast<size_t>(j) * sizeof(T), &x, sizeof(T));
    }
}
template <bool (*Fast)(double, uint16_t&)>
void generate_half(DType t, uint64_t key, int64_t first, int64_t n, uint8_t* out) {
    for (int64_t j = 0; j < n; ++j) {
        const double v = unit_float(input_bits(key, first + j));
        uint16_t h;
        if (Fast(v, h))
            std::memcpy(out + static_cast<size_t>(j) * 2, &h, 2);
        else
            encode_element(t, v, out + static_cast<size_t>(j) * 2);  // zero and FP16 subnormals
    }
}
}  // namespace

uint64_t input_key(uint64_t seed, const std::string& name) {
    uint64_t h = seed * 0x9E3779B97F4A7C15ull;
    for (char c : name) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001B3ull;
    return mix64(h);
}

double input_value(DType t, uint64_t key, int64_t i) {
    const uint64_t x = input_bits(key, i);
    double v = dtype_is_float(t) ? unit_float(x) : static_cast<double>(unit_int(x));
    if (magnitude_input(t)) v = std::fabs(v);
    if (t == DType::FP4) v *= 6.0;  // E2M1's range is +-6: spread the inputs over its grid
    return v;
}

void generate_inputs(DType t, uint64_t key, int64_t first, int64_t n, uint8_t* out) {
    if (n <= 0) return;
    switch (t) {
        case DType::FP32:
            for (int64_t j = 0; j < n; ++j) {
                const float f = static_cast<float>(unit_float(input_bits(key, first + j)));
                std::memcpy(out + static_cast<size_t>(j) * 4, &f, 4);
            }
            return;
        case DType::FP16:
            return generate_half<fp16_bits_fast>(t, key, first, n, out);
        case DType::BF16:
            return generate_half<bf16_bits_fast>(t, key, first, n, out);
        case DType::INT8:
            return generate_ints<int8_t>(key, first, n, out, false);
        case DType::INT16:
            return generate_ints<int16_t>(key, first, n, out, false);
        case DType::INT32:
            return generate_ints<int32_t>(key, first, n, out, false);
        case DType::INT64:
        case DType::INDEX:
        case DType::TASK_ID:
            return generate_ints<int64_t>(key, first, n, out, false);
        case DType::UINT8:
            return generate_ints<uint8_t>(key, first, n, out, true);
        case DType::UINT16:
            return generate_ints<uint16_t>(key, first, n, out, true);
        case DType::UINT32:
            return generate_ints<uint32_t>(key, first, n, out, true);
        case DType::UINT64:
            return generate_ints<uint64_t>(key, first, n, out, true);
        default:
            break;
    }
    // The rest (BOOL, the 8-bit floats, the 4-bit types): the generic encoding. put_element keeps a 4-bit
    // element's neighbour nibble, so the bytes start zeroed.
    if (is_sub_byte(t)) std::memset(out, 0, storage_bytes(t, n));
    for (int64_t j = 0; j < n; ++j) put_element(t, input_value(t, key, first + j), out, j);
}

size_t lazy_input_bytes() {
    const char* v = std::getenv("CVSIM_LAZY_INPUT_BYTES");
    if (!v || !*v) return size_t{1} << 20;
    if (std::string_view(v) == "off") return SIZE_MAX;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(v, &end, 10);
    if (*end != '\0') throw std::invalid_argument(fmt::format("CVSIM_LAZY_INPUT_BYTES={}: not a byte count or off", v));
    return static_cast<size_t>(n);
}

void fill_inputs(TensorStore& store, uint64_t seed) {
    const size_t lazy_min = lazy_input_bytes();
    for (auto& t : store.tensors) {
        if (t.hidden || t.dir == ir::ParamDir::Out) continue;
        // One stream per tensor, keyed by (seed, name): adding a tensor does not change the others, and element i
        // does not depend on any other element (a window of the tensor can be generated alone).
        const size_t size = storage_bytes(t.dtype, t.numel());
        if (size >= lazy_min) {  // In and InOut (an InOut's run writes go to pages of their own: "Sparse outputs")
            t.bytes = ByteStore::lazy_input(t.dtype, input_key(seed, t.name), t.numel());
            continue;
        }
        t.bytes.assign(size, 0);
        generate_inputs(t.dtype, input_key(seed, t.name), 0, t.numel(), t.bytes.data());
    }
}

void poison_outputs(TensorStore& store) {
    for (auto& t : store.tensors) {
        if (t.hidden || t.dir != ir::ParamDir::Out) continue;
        if (storage_bytes(t.dtype, t.numel()) >= lazy_input_bytes()) {  // docs/DECISIONS.md, "Sparse outputs"
            t.bytes = ByteStore::lazy_poison(t.dtype, t.numel());
            continue;
        }
        t.bytes.assign(storage_bytes(t.dtype, t.numel()), 0);
        poison_fill(t.dtype, t.bytes.data(), t.numel());
    }
}

void sparsify_output(TensorBuffer& t, const TensorBuffer& initial) {
    const ByteStore& gen = initial.bytes;
    if (!gen.lazy() || t.bytes.lazy() || t.bytes.patched() || t.bytes.size() != gen.size() || t.dtype != initial.dtype)
        return;
    const int64_t numel = t.numel();
    if (t.written.size() != static_cast<size_t>(numel)) return;
    const uint8_t* flat = t.bytes.data();
    std::vector<uint8_t> scratch(ByteStore::kPageBytes);
    ByteStore::Patch patch;
    for (size_t p = 0; p < gen.num_pages(); ++p) {
        const int64_t first = static_cast<int64_t>(p) * gen.page_elems();
        const int64_t count = std::min(gen.page_elems(), numel - first);
        const size_t nb = gen.page_bytes(p);
        const uint8_t* bytes = flat + p * ByteStore::kPageBytes;
        const auto w0 = t.written.begin() + first, w1 = w0 + count;
        const bool written = std::any_of(w0, w1, [](uint8_t v) { return v != 0; });
        gen.fill_page(p, scratch.data());
        if (!written && std::memcmp(bytes, scratch.data(), nb) == 0) continue;
        ByteStore::PatchPage pg;
        pg.bytes.assign(bytes, bytes + nb);
        pg.written.assign(w0, w1);
        patch.emplace(p, std::move(pg));
    }
    t.bytes = ByteStore::patched(gen, std::move(patch));
    t.written.clear();
}

namespace {
// The shape in an .npy header (nullopt: none); numpy writes (4,) for one dimension and () for a scalar.
std::optional<std::vector<int64_t>> npy_header_shape(const std::string& header) {
    auto at = header.find("'shape': (");
    if (at == std::string::npos) return std::nullopt;
    std::vector<int64_t> shape;
    for (size_t i = at + 10; i < header.size() && header[i] != ')';) {
        if (std::isdigit(static_cast<unsigned char>(header[i]))) {
            size_t used = 0;
            shape.push_back(std::stoll(header.substr(i, 19), &used));
            i += used;
        } else {
            ++i;
        }
    }
    return shape;
}

// Python's tuple spelling: (4,), (2, 3), ().
std::string npy_shape_text(const std::vector<int64_t>& shape) {
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.size() == 1 ? ",)" : ")");
}
const char* npy_descr(DType d) {
    switch (d) {
        case DType::FP32:
            return "<f4";
        case DType::FP16:
            return "<f2";
        case DType::BF16:
            return "<u2";  // numpy has no bfloat16: raw bits
        case DType::INT8:
            return "|i1";
        case DType::INT16:
            return "<i2";
        case DType::INT32:
            return "<i4";
        case DType::INT64:
        case DType::INDEX:
            return "<i8";
        case DType::UINT8:
            return "|u1";
        case DType::BOOL:
            return "|b1";
        case DType::UINT16:
            return "<u2";
        case DType::UINT32:
            return "<u4";
        case DType::UINT64:
            return "<u8";
        case DType::TASK_ID:
            return "<i8";
        case DType::FP8E4M3FN:
        case DType::FP8E5M2:
        case DType::FP8E8M0:
        case DType::HF8:
            return "|u1";  // raw bits
        case DType::INT4:
        case DType::UINT4:
        case DType::FP4:
            return "|u1";  // packed bytes, two elements each
    }
    return "|u1";
}
}  // namespace

namespace {
// The shape an .npy file of `t` has: a 4-bit tensor is saved as its packed bytes (uint8), the last dimension
// halved (rows have even lengths).
std::vector<int64_t> npy_file_shape(const TensorBuffer& t) {
    std::vector<int64_t> s = t.shape;
    if (is_sub_byte(t.dtype) && !s.empty()) s.back() = (s.back() + 1) / 2;
    return s;
}
}  // namespace

void write_npy(const TensorBuffer& t, const std::string& path) {
    std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", npy_descr(t.dtype),
                                     npy_shape_text(npy_file_shape(t)));
    size_t total = 10 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';
    std::ofstream out(path, std::ios::binary);
    if (!out) throw std::runtime_error("cannot write '" + path + "'");
    out.write("\x93NUMPY\x01\x00", 8);
    uint16_t len = static_cast<uint16_t>(header.size());
    out.put(static_cast<char>(len & 0xff));
    out.put(static_cast<char>(len >> 8));
    out << header;
    out.write(reinterpret_cast<const char*>(t.bytes.data()), static_cast<std::streamsize>(t.bytes.size()));
    if (!out) throw std::runtime_error("cannot write '" + path + "'");
}

std::optional<std::vector<int64_t>> npy_shape(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char magic[8];
    if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0) return std::nullopt;
    uint32_t len = 0;
    unsigned char b[4] = {0, 0, 0, 0};
    if (!in.read(reinterpret_cast<char*>(b), magic[6] == 1 ? 2 : 4)) return std::nullopt;
    len = b[0] | (b[1] << 8) | (b[2] << 16) | (uint32_t(b[3]) << 24);
    if (len > (1u << 20)) return std::nullopt;
    std::string header(len, '\0');
    if (!in.read(header.data(), len)) return std::nullopt;
    return npy_header_shape(header);
}

void read_npy(TensorBuffer& t, const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open '" + path + "'");
    char magic[8];
    in.read(magic, 8);
    if (!in || std::memcmp(magic, "\x93NUMPY", 6) != 0) throw std::runtime_error("'" + path + "' is not an .npy file");
    uint32_t len = 0;
    if (magic[6] == 1) {
        unsigned char b[2];
        in.read(reinterpret_cast<char*>(b), 2);
        len = b[0] | (b[1] << 8);
    } else {
        unsigned char b[4];
        in.read(reinterpret_cast<char*>(b), 4);
        len = b[0] | (b[1] << 8) | (b[2] << 16) | (uint32_t(b[3]) << 24);
    }
    if (!in || len > (1u << 20)) throw std::runtime_error("'" + path + "': bad header");
    std::string header(len, '\0');
    in.read(header.data(), len);
    // Types numpy lacks (BF16, the 8-bit floats) are raw bit patterns: unsigned integers of the element size, or
    // the opaque void type an ml_dtypes array saves as (|V1, <V2/|V2).
    std::vector<std::string> descrs{npy_descr(t.dtype)};
    if (t.dtype == DType::BF16) descrs = {"<u2", "<V2", "|V2"};
    if (is_float8(t.dtype)) descrs = {"|u1", "|V1", "<V1"};
    bool descr_ok = false;
    for (const auto& d : descrs) descr_ok |= header.find("'descr': '" + d + "'") != std::string::npos;
    if (!descr_ok)
        throw std::runtime_error(
            fmt::format("'{}': dtype does not match {} ({})", path, dtype_name(t.dtype), npy_descr(t.dtype)));
    if (header.find("'fortran_order': False") == std::string::npos)
        throw std::runtime_error("'" + path + "': Fortran order is not supported");
    const std::vector<int64_t> fshape = npy_file_shape(t);
    if (npy_header_shape(header) != fshape)
        throw std::runtime_error(fmt::format("'{}': shape does not match {}{}", path, ir::shape_str(fshape),
                                             is_sub_byte(t.dtype)
                                                 ? fmt::format(" (the packed bytes of {} {}: two elements per byte)",
                                                               dtype_name(t.dtype), ir::shape_str(t.shape))
                                                 : std::string()));
    t.bytes.assign(storage_bytes(t.dtype, t.numel()), 0);
    in.read(reinterpret_cast<char*>(t.bytes.data()), static_cast<std::streamsize>(t.bytes.size()));
    if (!in) throw std::runtime_error("'" + path + "': file is too short");
    // Tile values are doubles: a 64-bit integer beyond +-2^53 would be silently rounded, so it is refused.
    if (t.dtype == DType::INT64 || t.dtype == DType::INDEX || t.dtype == DType::UINT64 || t.dtype == DType::TASK_ID)
        for (int64_t i = 0; i < t.numel(); ++i) {
            const uint8_t* p = t.bytes.data() + i * 8;
            uint64_t u = 0;
            std::memcpy(&u, p, 8);
            const bool unsigned_type = t.dtype == DType::UINT64;
            const int64_t s = static_cast<int64_t>(u);
            const bool exact =
                unsigned_type ? u <= (uint64_t{1} << 53) : (s <= (int64_t{1} << 53) && s >= -(int64_t{1} << 53));
            if (!exact && !is_poison(t.dtype, p))
                throw std::runtime_error(
                    fmt::format("'{}': element {} ({}) is beyond +-2^53, which cvsim cannot hold exactly", path, i,
                                unsigned_type ? std::to_string(u) : std::to_string(s)));
        }
}

}  // namespace cvsim::rt
