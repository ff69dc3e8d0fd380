// Run-time data: GM tensors, windows, inputs, .npy files, scalar evaluation, entry binding.
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

int64_t TensorBuffer::numel() const {
    int64_t n = 1;
    for (auto d : shape) n *= d;
    return n;
}

std::vector<int64_t> TensorBuffer::strides() const {
    std::vector<int64_t> s(shape.size(), 1);
    for (size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * shape[i];
    return s;
}

int64_t Window::rows() const {
    int64_t r = 1;
    for (size_t i = 0; i + 1 < extents.size(); ++i) r *= extents[i];
    return r;
}

std::string window_str(const Window& w) {
    std::string s = "[";
    for (size_t i = 0; i < w.offsets.size(); ++i)
        s += fmt::format("{}{}:{}", i ? ", " : "", w.offsets[i], sat_add(w.offsets[i], w.extents[i]));
    return s + "]";
}

std::pair<int64_t, int64_t> clamped_region(const std::vector<int64_t>& valid, int64_t rows, int64_t cols) {
    return {std::clamp<int64_t>(valid_rows(valid), 0, rows),
            std::clamp<int64_t>(valid.empty() ? cols : valid.back(), 0, cols)};
}

int64_t valid_rows(const std::vector<int64_t>& valid) {
    int64_t r = 1;
    for (size_t d = 0; d + 1 < valid.size(); ++d) {
        if (valid[d] <= 0) return 0;
        if (__builtin_mul_overflow(r, valid[d], &r)) return INT64_MAX;
    }
    return r;
}

int64_t window_row_start(const TensorBuffer& t, const Window& w, int64_t r) {
    // Decompose r over the leading extents (row-major), then add the window offsets.
    // The tensor's row-major strides are accumulated on the way (no allocation: this runs per GM row).
    const size_t n = w.extents.size();
    int64_t idx = w.offsets[n - 1], stride = 1, tstride = t.shape[n - 1];
    for (size_t d = n - 1; d-- > 0;) {
        int64_t coord = (r / stride) % w.extents[d];
        stride *= w.extents[d];
        idx += (w.offsets[d] + coord) * tstride;
        tstride *= t.shape[d];
    }
    return idx;
}

namespace {

// The linear range [lo, lo + len) of a row-major group of dimensions `s` as a box (offsets/extents appended
// outermost first), or false when it is not one.
bool range_as_box(int64_t lo, int64_t len, const std::vector<int64_t>& s, std::vector<int64_t>& off,
                  std::vector<int64_t>& ext) {
    std::vector<int64_t> o(s.size()), e(s.size());
    size_t d = s.size();
    while (d-- > 0) {
        const int64_t n = s[d];
        if (lo % n + len <= n) {  // fits in this dimension: the outer ones take one index each
            o[d] = lo % n;
            e[d] = len;
            lo /= n;
            for (size_t k = d; k-- > 0;) o[k] = lo % s[k], e[k] = 1, lo /= s[k];
            off.insert(off.end(), o.begin(), o.end());
            ext.insert(ext.end(), e.begin(), e.end());
            return true;
        }
        if (lo % n != 0 || len % n != 0) return false;
        o[d] = 0, e[d] = n, lo /= n, len /= n;
    }
    return len <= 1 && lo == 0 &&
           (off.insert(off.end(), o.begin(), o.end()), ext.insert(ext.end(), e.begin(), e.end()), true);
}

}  // namespace

int64_t indexed_capacity(const std::vector<int64_t>& shape, bool row) {
    int64_t n = 1;
    for (size_t d = 0; d + (row ? 1 : 0) < shape.size(); ++d)
        n = shape[d] > 0 && n > INT64_MAX / shape[d] ? INT64_MAX : n * shape[d];
    return n;
}

bool box_contiguous(const std::vector<int64_t>& shape, const std::vector<int64_t>& base) {
    if (shape.size() != base.size()) return false;
    size_t d = shape.size();
    while (d > 0 && shape[d - 1] == base[d - 1]) --d;  // whole trailing dimensions
    if (d == 0) return true;
    for (size_t k = 0; k + 1 < d; ++k)  // before the one partial dimension: extent 1 only
        if (shape[k] != 1) return false;
    return true;
}

std::optional<Window> indexed_window(uint32_t tensor, const std::vector<int64_t>& off,
                                     const std::vector<int64_t>& shape, const std::vector<int64_t>& reshape,
                                     const std::vector<int64_t>& tensor_shape, int64_t k, bool row) {
    if (shape.empty() || off.size() != shape.size()) return std::nullopt;
    Window w;
    w.tensor = tensor;
    w.offsets.assign(shape.size(), 0);
    w.extents.assign(shape.size(), 1);
    // Unravel k over the view's dimensions (row mode: all but the last, which the row spans whole).
    size_t last = shape.size() - (row ? 1 : 0);
    for (size_t d = last; d-- > 0;) {
        if (shape[d] <= 0) return std::nullopt;
        w.offsets[d] = k % shape[d];
        k /= shape[d];
    }
    if (row) w.extents.back() = shape.back();
    for (size_t d = 0; d < shape.size(); ++d) w.offsets[d] = sat_add(w.offsets[d], off[d]);
    if (!reshape.empty()) return reshape_window(reshape, w, tensor_shape);
    return w;
}

std::optional<Window> view_range_window(uint32_t tensor, const std::vector<int64_t>& off,
                                        const std::vector<int64_t>& shape, const std::vector<int64_t>& reshape,
                                        const std::vector<int64_t>& tensor_shape, int64_t lo, int64_t len) {
    if (shape.empty() || off.size() != shape.size() || lo < 0 || len <= 0) return std::nullopt;
    Window w;
    w.tensor = tensor;
    if (!range_as_box(lo, len, shape, w.offsets, w.extents)) return std::nullopt;
    for (size_t d = 0; d < shape.size(); ++d) w.offsets[d] = sat_add(w.offsets[d], off[d]);
    if (!reshape.empty()) return reshape_window(reshape, w, tensor_shape);
    return w;
}

IndexPick pick_index(double raw, int64_t capacity, int oob_mode) {
    IndexPick p;
    // The kernels read the INT32 element and index with it unsigned: a negative index is a huge one.
    const auto u = static_cast<uint32_t>(
        static_cast<int32_t>(std::isnan(raw) ? 0.0 : std::clamp(raw, -2147483648.0, 2147483647.0)));
    const auto cap = static_cast<uint64_t>(std::max<int64_t>(capacity, 1));
    uint64_t i = u;
    if (i >= cap) {
        switch (oob_mode) {
            case 1:
                i = cap - 1;
                break;
            case 2:
                i %= cap;
                break;
            case 3:
                p.zero = true;
                break;
            default:
                p.oob = true;
                break;
        }
    }
    p.index = static_cast<int64_t>(i);
    return p;
}

std::optional<Window> reshape_window(const std::vector<int64_t>& from, const Window& w,
                                     const std::vector<int64_t>& to) {
    if (w.offsets.size() != from.size() || w.extents.size() != from.size()) return std::nullopt;
    Window r;
    r.tensor = w.tensor;
    size_t i = 0, j = 0;
    while (i < from.size() || j < to.size()) {
        // The next group: dimensions of `from` and of `to` with the same product.
        const size_t i0 = i, j0 = j;
        int64_t pf = 1, pt = 1;
        if (i < from.size()) pf *= from[i++];
        if (j < to.size()) pt *= to[j++];
        while (pf != pt) {
            if (pf < pt) {
                if (i >= from.size()) return std::nullopt;
                pf *= from[i++];
            } else {
                if (j >= to.size()) return std::nullopt;
                pt *= to[j++];
            }
        }
        // The window's part in the group must be one linear range: dimensions inside the outermost one
        // with an extent above 1 are whole.
        int64_t lo = 0, len = 1;
        bool inner_full = true;
        for (size_t k = i; k-- > i0;) {
            if (!inner_full && w.extents[k] != 1) return std::nullopt;
            len = inner_full ? len * w.extents[k] : len;
            if (w.extents[k] != from[k]) inner_full = false;
        }
        int64_t stride = 1;
        for (size_t k = i; k-- > i0;) lo += w.offsets[k] * stride, stride *= from[k];
        std::vector<int64_t> sizes(to.begin() + static_cast<std::ptrdiff_t>(j0),
                                   to.begin() + static_cast<std::ptrdiff_t>(j));
        if (!range_as_box(lo, len, sizes, r.offsets, r.extents)) return std::nullopt;
    }
    if (r.cols() != w.cols() || r.rows() != w.rows()) return std::nullopt;
    return r;
}

std::optional<Window> partition_window(uint32_t tensor, const std::vector<int64_t>& shape,
                                       const std::vector<int64_t>& off, const std::vector<int64_t>& ext) {
    const size_t n = shape.size();
    if (n < 2 || off.size() != n || ext.size() != n) return std::nullopt;
    for (size_t d = 0; d < n; ++d)
        if (off[d] < 0 || ext[d] <= 0 || shape[d] <= 0) return std::nullopt;
    if (!range_inside(off[n - 1], ext[n - 1], shape[n - 1]))
        return std::nullopt;  // a row would spill into the next one
    // The tensor's rows (all dimensions but the last, row-major): partition row i starts at tensor row
    // sum((off_d + i_d) * w_d), w_d the product of the tensor's extents between d and the last dimension.
    std::vector<int64_t> lead(shape.begin(), shape.end() - 1);
    int64_t total = 1, r0 = 0, w = 1, expect = 1;
    for (int64_t s : lead) {
        if (total > INT64_MAX / s) return std::nullopt;
        total *= s;
    }
    for (size_t d = n - 1; d-- > 0;) {
        if (off[d] > INT64_MAX / w) return std::nullopt;
        r0 = sat_add(r0, off[d] * w);
        // The rows are consecutive when each dimension with more than one index steps by the rows inside it.
        if (ext[d] > 1 && w != expect) return std::nullopt;
        if (expect > INT64_MAX / ext[d]) return std::nullopt;
        expect *= ext[d];
        w *= shape[d];
    }
    if (!range_inside(r0, expect, total)) return std::nullopt;
    Window r;
    r.tensor = tensor;
    if (!range_as_box(r0, expect, lead, r.offsets, r.extents)) return std::nullopt;
    r.offsets.push_back(off[n - 1]);
    r.extents.push_back(ext[n - 1]);
    return r;
}

std::optional<std::string> check_window(const TensorBuffer& t, const Window& w) {
    if (w.offsets.size() != t.shape.size() || w.extents.size() != t.shape.size())
        return fmt::format("window of rank {} on tensor {} of rank {}", w.offsets.size(), t.name, t.shape.size());
    for (size_t d = 0; d < t.shape.size(); ++d)
        if (!window_inside(w.offsets[d], w.extents[d], t.shape[d]))
            return fmt::format("window {} is outside tensor {} of shape {} (dimension {})", window_str(w), t.name,
                               ir::shape_str(t.shape), d);
    // A 4-bit tensor packs two elements per byte: a window row must start and end on a byte (DMA moves bytes).
    if (is_sub_byte(t.dtype) && !t.shape.empty() &&
        (t.shape.back() % 2 || w.offsets.back() % 2 || w.extents.back() % 2))
        return fmt::format(
            "window {} of {} tensor {} of shape {} splits a byte: a 4-bit tensor's last dimension, window column "
            "offset and column extent must be even (two elements per byte)",
            window_str(w), dtype_name(t.dtype), t.name, ir::shape_str(t.shape));
    return std::nullopt;
}

std::optional<uint32_t> TensorStore::find(const std::string& name) const {
    for (uint32_t i = 0; i < tensors.size(); ++i)
        if (tensors[i].name == name) return i;
    return std::nullopt;
}

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

int64_t tensor_bytes(const std::vector<int64_t>& shape, DType dtype) {
    int64_t n = is_sub_byte(dtype) ? 1 : static_cast<int64_t>(dtype_bytes(dtype));
    for (auto d : shape)
        if (d < 0 || __builtin_mul_overflow(n, d, &n)) return -1;
    return is_sub_byte(dtype) ? (n + 1) / 2 : n;
}

void charge_gm(int64_t& used, int64_t bytes, const std::string& what, const SourceLoc& loc) {
    if (bytes >= 0 && bytes <= kMaxGmBytes - used) {
        used += bytes;
        return;
    }
    raise(
        codes::kCapacity, loc,
        fmt::format("GM for {}: {} bytes; cvsim simulates at most {} MiB of GM per run (all tensors together; {} bytes "
                    "before this one)",
                    what, bytes < 0 ? std::string("more than 2^63") : std::to_string(bytes), kMaxGmBytes >> 20, used),
        "simulate a smaller problem size: the hazards of a kernel do not depend on its tensor sizes beyond a few "
        "tiles");
}

const AliasGroup* alias_group(const LaunchPlan& plan, const std::string& name, const ParamView** view) {
    for (const auto& g : plan.aliases)
        for (const auto& m : g.members)
            if (m.param == name) {
                if (view) *view = &m;
                return &g;
            }
    return nullptr;
}

namespace {
// A tensor's zeroed bytes, before fill_inputs / poison_outputs: a large one lazily (its inputs usually replace
// them: zero-filling a 400 MB weight first was 15 % of a whole-model check).
ByteStore zeroed(DType dtype, int64_t numel) {
    if (storage_bytes(dtype, numel) >= lazy_input_bytes()) return ByteStore::lazy_zero(dtype, numel);
    return ByteStore(std::vector<uint8_t>(storage_bytes(dtype, numel), 0));
}
}  // namespace

void bind_entry(LaunchPlan& plan, TensorStore& store, const std::map<std::string, Scalar>& scalars) {
    plan.entry_args.clear();
    // What the run will hold, checked before any allocation.
    int64_t used = 0;
    for (const auto& t : store.tensors) used += static_cast<int64_t>(t.bytes.size());
    for (const auto& p : plan.entry->params)
        if (p.var->type.kind == ir::TypeKind::Tensor && !alias_group(plan, p.var->name) && !store.find(p.var->name))
            charge_gm(used, tensor_bytes(p.var->type.shape, p.var->type.dtype),
                      fmt::format("tensor '{}' of shape {}", p.var->name, ir::shape_str(p.var->type.shape)),
                      p.var->loc);
    for (const auto& g : plan.aliases)
        if (!store.find(g.name))
            charge_gm(used, tensor_bytes(g.shape, g.dtype),
                      fmt::format("tensor '{}' of shape {}", g.name, ir::shape_str(g.shape)), plan.entry->loc);
    // One tensor per alias group, its parameters views of it.
    std::vector<uint32_t> group_ids;
    for (const auto& g : plan.aliases) {
        if (auto existing = store.find(g.name)) {
            group_ids.push_back(*existing);
            continue;
        }
        TensorBuffer buf;
        buf.name = g.name;
        buf.dtype = g.dtype;
        buf.shape = g.shape;
        buf.dir = g.dir;
        buf.bytes = zeroed(g.dtype, buf.numel());
        group_ids.push_back(store.add(std::move(buf)));
    }
    for (const auto& c : plan.created)
        charge_gm(used, tensor_bytes(c.shape, c.dtype),
                  fmt::format("created tensor '{}' of shape {}", c.name, ir::shape_str(c.shape)), plan.entry->loc);
    for (const auto& p : plan.entry->params) {
        ArgBinding b;
        const ir::Type& t = p.var->type;
        const ParamView* view = nullptr;
        if (const AliasGroup* g = t.kind == ir::TypeKind::Tensor ? alias_group(plan, p.var->name, &view) : nullptr) {
            b.kind = ArgBinding::Kind::Tensor;
            b.tensor = group_ids[static_cast<size_t>(g - plan.aliases.data())];
            b.view_off = view->off;
            b.view_shape = view->shape;
            b.view_reshape = view->reshape;
        } else if (t.kind == ir::TypeKind::Tensor) {
            b.kind = ArgBinding::Kind::Tensor;
            if (auto existing = store.find(p.var->name)) {
                b.tensor = *existing;
            } else {
                TensorBuffer buf;
                buf.name = p.var->name;
                buf.dtype = t.dtype;
                buf.shape = t.shape;
                buf.dir = p.dir;
                // A parameter named __x is added by cvsim itself (the soft-syncall workspace): zeroed, internal.
                buf.hidden = p.var->name.rfind("__", 0) == 0;
                buf.bytes = zeroed(t.dtype, buf.numel());
                b.tensor = store.add(std::move(buf));
            }
        } else if (t.kind == ir::TypeKind::Scalar) {
            b.kind = ArgBinding::Kind::Scalar;
            auto it = scalars.find(p.var->name);
            b.scalar = it != scalars.end() ? it->second : Scalar::of_int(0, t.dtype);
            b.scalar.dtype = t.dtype;
            if (dtype_is_float(t.dtype) && it != scalars.end() && !it->second.is_float())
                b.scalar.f = static_cast<double>(it->second.i);
        } else {
            raise(codes::kUnsupported, p.var->loc,
                  fmt::format("entry parameter '{}' of type {} cannot be bound", p.var->name, ir::type_str(t)));
        }
        plan.entry_args.push_back(b);
    }
    // A view whose offset is a scalar parameter's value (a computed slice offset the launch passes too): add it
    // now that the scalars are bound, and check the box lies in the shared tensor.
    for (size_t i = 0; i < plan.entry->params.size(); ++i) {
        const ParamView* view = nullptr;
        const auto& p = plan.entry->params[i];
        const AliasGroup* g =
            p.var->type.kind == ir::TypeKind::Tensor ? alias_group(plan, p.var->name, &view) : nullptr;
        if (!g || !view || view->off_param.empty()) continue;
        ArgBinding& b = plan.entry_args[i];
        for (size_t k = 0; k < view->off_param.size() && k < b.view_off.size(); ++k) {
            if (view->off_param[k].empty()) continue;
            for (size_t q = 0; q < plan.entry->params.size(); ++q)
                if (plan.entry->params[q].var->name == view->off_param[k])
                    b.view_off[k] += plan.entry_args[q].scalar.as_int();
        }
        const auto& base = view->reshape.empty() ? g->shape : view->reshape;
        for (size_t k = 0; k < b.view_off.size() && k < b.view_shape.size() && k < base.size(); ++k)
            if (b.view_off[k] < 0 || b.view_off[k] > base[k] - b.view_shape[k])
                raise(codes::kUnsupported, p.var->loc,
                      fmt::format("'{}' is a slice at offset {} (from the scalar arguments '{}') of shape {} of a "
                                  "tensor of shape {}: outside it",
                                  p.var->name, ir::shape_str(b.view_off), fmt::join(view->off_param, "', '"),
                                  ir::shape_str(b.view_shape), ir::shape_str(base)));
    }
    plan.created_ids.clear();
    for (const auto& c : plan.created) {
        TensorBuffer buf;
        buf.name = c.name;
        buf.dtype = c.dtype;
        buf.shape = c.shape;
        buf.dir = ir::ParamDir::InOut;
        buf.hidden = true;
        buf.bytes = zeroed(c.dtype, buf.numel());
        plan.created_ids.push_back(store.add(std::move(buf)));
    }
    for (auto* lane : {&plan.aic, &plan.aiv, &plan.mixed_prog}) {
        if (!*lane) continue;
        auto& lp = **lane;
        lp.args.resize(lp.entry_param.size());
        for (size_t i = 0; i < lp.entry_param.size(); ++i) {
            int src = lp.entry_param[i];
            if (src >= 0 && static_cast<size_t>(src) < plan.entry_args.size()) {
                lp.args[i] = plan.entry_args[static_cast<size_t>(src)];
            } else if (src <= kCreatedArg && static_cast<size_t>(kCreatedArg - src) < plan.created_ids.size()) {
                lp.args[i].kind = ArgBinding::Kind::Tensor;
                lp.args[i].tensor = plan.created_ids[static_cast<size_t>(kCreatedArg - src)];
            }
        }
    }
}

std::optional<std::string> valid_shape_error(const std::vector<int64_t>& valid, const std::vector<int64_t>& shape) {
    if (valid.size() != shape.size()) {
        // A 2-D region of an N-D window's tile: compare the merged forms ([rows, last]).
        if (valid.empty() || shape.empty()) return std::nullopt;  // rank rules are the type checker's
        const int64_t sr = valid_rows(shape), vr = valid_rows(valid);
        for (int64_t v : valid)
            if (v < 0) return fmt::format("pl.tile.load: valid_shape {} is negative", ir::shape_str(valid));
        if (vr > sr || valid.back() > shape.back())
            return fmt::format("pl.tile.load: valid_shape {} is outside the loaded shape {} (its tile is [{}, {}])",
                               ir::shape_str(valid), ir::shape_str(shape), sr, shape.back());
        return std::nullopt;
    }
    for (size_t d = 0; d < valid.size(); ++d)
        if (valid[d] < 0 || valid[d] > shape[d])
            return fmt::format("pl.tile.load: valid_shape {} is outside the loaded shape {} (dimension {})",
                               ir::shape_str(valid), ir::shape_str(shape), d);
    return std::nullopt;
}

bool truthy(const Scalar& s) {
    return s.is_float() ? s.f != 0 : s.i != 0;
}

namespace {

int64_t floordiv(int64_t a, int64_t b) {
    if (b == 0) return 0;
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

int64_t pymod(int64_t a, int64_t b) {
    if (b == 0) return 0;
    int64_t m = a % b;
    if (m != 0 && ((m < 0) != (b < 0))) m += b;
    return m;
}

}  // namespace

Scalar eval_scalar(const ir::Expr& e, const std::function<Scalar(const ir::Var&)>& lookup) {
    using ir::ExprKind;
    switch (e.kind) {
        case ExprKind::Int:
            return Scalar::of_int(e.ival, DType::INDEX);
        case ExprKind::Bool:
            return Scalar::of_int(e.ival, DType::BOOL);
        case ExprKind::Float:
            return Scalar::of_float(e.fval, DType::FP32);
        case ExprKind::Const:
            return dtype_is_float(e.dtype) ? Scalar::of_float(e.fval, e.dtype)
                                           : Scalar::of_int(static_cast<int64_t>(e.fval), e.dtype);
        case ExprKind::Var:
            return lookup(*e.var);
        case ExprKind::Unary: {
            Scalar x = eval_scalar(*e.args[0], lookup);
            if (e.sval == "not") return Scalar::of_int(!truthy(x), DType::BOOL);
            if (e.sval == "cast") {  // scalar pl.cast: to the target dtype (floats round, integers truncate toward 0)
                if (dtype_is_float(e.dtype)) return Scalar::of_float(round_to(e.dtype, x.as_double()), e.dtype);
                double d = x.is_float() ? std::trunc(x.f) : static_cast<double>(x.i);
                return Scalar::of_int(x.is_float() ? static_cast<int64_t>(round_to(e.dtype, d)) : x.i, e.dtype);
            }
            if (e.sval == "abs") {
                if (x.is_float())
                    x.f = std::fabs(x.f);
                else if (x.i < 0)
                    x.i = static_cast<int64_t>(0ull - static_cast<uint64_t>(x.i));
                return x;
            }
            if (e.sval == "-") {
                if (x.is_float())
                    x.f = -x.f;
                else
                    x.i = static_cast<int64_t>(0ull - static_cast<uint64_t>(x.i));
            }
            return x;
        }
        case ExprKind::BoolOp: {
            Scalar a = eval_scalar(*e.args[0], lookup);
            if (e.sval == "and" ? !truthy(a) : truthy(a)) return Scalar::of_int(truthy(a), DType::BOOL);
            return Scalar::of_int(truthy(eval_scalar(*e.args[1], lookup)), DType::BOOL);
        }
        case ExprKind::Compare: {
            Scalar a = eval_scalar(*e.args[0], lookup), b = eval_scalar(*e.args[1], lookup);
            bool r;
            if (a.is_float() || b.is_float()) {
                double x = a.as_double(), y = b.as_double();
                r = e.sval == "<"    ? x < y
                    : e.sval == "<=" ? x <= y
                    : e.sval == ">"  ? x > y
                    : e.sval == ">=" ? x >= y
                    : e.sval == "==" ? x == y
                                     : x != y;
            } else {
                int64_t x = a.i, y = b.i;
                r = e.sval == "<"    ? x < y
                    : e.sval == "<=" ? x <= y
                    : e.sval == ">"  ? x > y
                    : e.sval == ">=" ? x >= y
                    : e.sval == "==" ? x == y
                                     : x != y;
            }
            return Scalar::of_int(r, DType::BOOL);
        }
        case ExprKind::Binary: {
            Scalar a = eval_scalar(*e.args[0], lookup), b = eval_scalar(*e.args[1], lookup);
            const std::string& op = e.sval;
            if (op == "min" || op == "max") {  // pl.min / pl.max of scalars
                if (a.is_float() || b.is_float()) {
                    double x = a.as_double(), y = b.as_double();
                    return Scalar::of_float(op == "min" ? std::min(x, y) : std::max(x, y), DType::FP32);
                }
                return Scalar::of_int(op == "min" ? std::min(a.i, b.i) : std::max(a.i, b.i), e.type.dtype);
            }
            if (a.is_float() || b.is_float() || op == "/") {
                double x = a.as_double(), y = b.as_double(), r = 0;
                if (op == "+")
                    r = x + y;
                else if (op == "-")
                    r = x - y;
                else if (op == "*")
                    r = x * y;
                else if (op == "/")
                    r = x / y;
                else if (op == "//")
                    r = std::floor(x / y);
                else if (op == "%")
                    r = std::fmod(x, y);
                return Scalar::of_float(
                    r, e.type.dtype == DType::FP32 || !dtype_is_float(e.type.dtype) ? DType::FP32 : e.type.dtype);
            }
            // Saturating 64-bit integer arithmetic (Python's integers do not wrap: a huge offset must stay
            // huge and be reported out of bounds, not wrap back into the tensor); never undefined behaviour.
            uint64_t x = static_cast<uint64_t>(a.i);
            int64_t r = 0;
            const int64_t sat = (a.i < 0) != (b.i < 0) ? INT64_MIN : INT64_MAX;
            if (op == "+")
                r = __builtin_add_overflow(a.i, b.i, &r) ? (a.i < 0 ? INT64_MIN : INT64_MAX) : r;
            else if (op == "-")
                r = __builtin_sub_overflow(a.i, b.i, &r) ? (a.i < 0 ? INT64_MIN : INT64_MAX) : r;
            else if (op == "*")
                r = __builtin_mul_overflow(a.i, b.i, &r) ? sat : r;
            else if (op == "//")
                r = (a.i == INT64_MIN && b.i == -1) ? INT64_MIN : floordiv(a.i, b.i);
            else if (op == "%")
                r = (b.i == -1) ? 0 : pymod(a.i, b.i);
            else if (op == "<<")
                r = b.i >= 0 && b.i < 64 ? static_cast<int64_t>(x << b.i) : 0;
            else if (op == ">>")
                r = b.i >= 0 && b.i < 64 ? (a.i >> b.i) : (a.i < 0 ? -1 : 0);
            return Scalar::of_int(r, e.type.dtype);
        }
        default:
            return Scalar::of_int(0);
    }
}

}  // namespace cvsim::rt
