// Physical tile layouts: offsets and the byte-level encode/decode/repack loops.
//
// All four SPEC 4.2 formulas split into a row part and a column part: offset(r, c) = offset(r, 0) + offset(0,
// c) (ND r*C | c, DN r | c*R, NZ (r/r0)*r0*c0 + (r%r0)*c0 | (c/c0)*R*c0 + c%c0, ZN likewise transposed). Each
// call therefore builds two small tables, one entry per row and per column, and the element loops are a table
// lookup plus one typed conversion: no division, no per-element switch, no allocation.
//
// The typed codecs convert exactly as encode_element/decode_element (dtype.cpp) do and hand every value they
// do not handle trivially (not representable, out of range, NaN) to those functions; layout_test checks that
// the bytes agree for arbitrary doubles.
#include "core/layout.h"
#include "core/layout_assemble.h"
#include "core/layout_window.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace cvsim {

namespace {

int64_t round_up(int64_t v, int64_t m) {
    return (v + m - 1) / m * m;
}

struct OffsetTables {
    std::vector<int64_t> row;  // offset(r, 0) in elements
    std::vector<int64_t> col;  // offset(0, c) in elements
    int64_t max_col = 0;       // largest col entry: a row is fully inside a buffer iff row[r] + max_col fits
};

// The tables of rows [ra, rb) and columns [ca, cb) of the logical tile (entry 0 is row ra, column ca).
OffsetTables offset_tables(Layout l, BoxShape b, int64_t R, int64_t C, int64_t ra, int64_t rb, int64_t ca, int64_t cb) {
    OffsetTables t;
    t.row.resize(static_cast<size_t>(rb - ra));
    t.col.resize(static_cast<size_t>(cb - ca));
    for (int64_t r = ra; r < rb; ++r) t.row[static_cast<size_t>(r - ra)] = element_offset(l, R, C, b, r, 0);
    for (int64_t c = ca; c < cb; ++c) {
        t.col[static_cast<size_t>(c - ca)] = element_offset(l, R, C, b, 0, c);
        t.max_col = std::max(t.max_col, t.col[static_cast<size_t>(c - ca)]);
    }
    return t;
}

OffsetTables offset_tables(Layout l, BoxShape b, int64_t R, int64_t C, int64_t rows, int64_t cols) {
    return offset_tables(l, b, R, C, 0, rows, 0, cols);
}

// Codecs: load(p) -> double and store(v, p), `bytes` wide.
struct Fp32Codec {
    static constexpr size_t bytes = 4;
    static double load(const uint8_t* p) {
        float f;
        std::memcpy(&f, p, 4);
        return f;
    }
    static void store(double v, uint8_t* p) {
        const float f = static_cast<float>(v);
        std::memcpy(p, &f, 4);
    }
};

template <class Half, DType kType>
struct HalfCodec {
    static constexpr size_t bytes = 2;
    static double load(const uint8_t* p) {
        uint16_t b;
        std::memcpy(&b, p, 2);
        return static_cast<float>(Eigen::numext::bit_cast<Half>(b));
    }
    static void store(double v, uint8_t* p) {
        const float f = static_cast<float>(v);
        if (f != v) return encode_element(kType, v, p);  // needs rounding (or NaN): the one correct rounding
        const uint16_t b = Eigen::numext::bit_cast<uint16_t>(Half(f));
        std::memcpy(p, &b, 2);
    }
};

template <class I, DType kType>
struct IntCodec {
    static constexpr size_t bytes = sizeof(I);
    static double load(const uint8_t* p) {
        I x;
        std::memcpy(&x, p, sizeof(I));
        return static_cast<double>(x);
    }
    static void store(double v, uint8_t* p) {
        // In range and integral: store directly; otherwise round_to's rounding and saturation (NaN -> 0).
        constexpr double lo = static_cast<double>(std::numeric_limits<I>::min());
        constexpr double hi = static_cast<double>(std::numeric_limits<I>::max());
        if (v >= lo && v <= hi) {
            const I x = static_cast<I>(v);
            if (static_cast<double>(x) == v) {
                std::memcpy(p, &x, sizeof(I));
                return;
            }
        }
        encode_element(kType, v, p);
    }
};

// INT64, INDEX and BOOL are rare in tiles: they go through the element functions.
struct GenericCodec {
    DType t;
    size_t bytes;
    double load(const uint8_t* p) const { return decode_element(t, p); }
    void store(double v, uint8_t* p) const { encode_element(t, v, p); }
};

template <class F>
void with_codec(DType t, F&& f) {
    switch (t) {
        case DType::FP32:
            return f(Fp32Codec{});
        case DType::FP16:
            return f(HalfCodec<Eigen::half, DType::FP16>{});
        case DType::BF16:
            return f(HalfCodec<Eigen::bfloat16, DType::BF16>{});
        case DType::INT8:
            return f(IntCodec<int8_t, DType::INT8>{});
        case DType::INT16:
            return f(IntCodec<int16_t, DType::INT16>{});
        case DType::INT32:
            return f(IntCodec<int32_t, DType::INT32>{});
        case DType::UINT8:
            return f(IntCodec<uint8_t, DType::UINT8>{});
        default:
            return f(GenericCodec{t, dtype_bytes(t)});
    }
}

// Reads one element whose bytes may extend past the end of the buffer; the missing bytes are zero.
template <class Codec>
double load_partial(const Codec& codec, const uint8_t* bytes, size_t nbytes, size_t at) {
    uint8_t tmp[8] = {};
    if (at < nbytes) std::memcpy(tmp, bytes + at, std::min<size_t>(codec.bytes, nbytes - at));
    return codec.load(tmp);
}

// Copies one element of `eb` bytes; a fixed size lets the compiler emit a single load and store.
template <size_t kBytes>
void copy_elements(const uint8_t* src, size_t nbytes, uint8_t* dst, const OffsetTables& from, const OffsetTables& to,
                   int64_t rows, int64_t cols) {
    for (int64_t r = 0; r < rows; ++r) {
        const int64_t fr = from.row[static_cast<size_t>(r)], tr = to.row[static_cast<size_t>(r)];
        const bool whole_row = static_cast<size_t>(fr + from.max_col + 1) * kBytes <= nbytes;
        for (int64_t c = 0; c < cols; ++c) {
            const size_t at = static_cast<size_t>(fr + from.col[static_cast<size_t>(c)]) * kBytes;
            uint8_t* d = dst + static_cast<size_t>(tr + to.col[static_cast<size_t>(c)]) * kBytes;
            if (whole_row) {
                std::memcpy(d, src + at, kBytes);
            } else if (at < nbytes) {
                std::memcpy(d, src + at, std::min(kBytes, nbytes - at));
            }
        }
    }
}

}  // namespace

BoxShape box_shape(Layout l, DType t, bool acc) {
    const int64_t per_32_bytes = 256 / dtype_bits(t);  // 64 for the packed 4-bit dtypes
    switch (l) {
        case Layout::ND:
        case Layout::DN:
            return {1, 1};
        case Layout::NZ:
            return acc ? BoxShape{16, 16} : BoxShape{16, per_32_bytes};
        case Layout::ZN:
            return acc ? BoxShape{16, 16} : BoxShape{per_32_bytes, 16};
    }
    return {1, 1};
}

std::pair<int64_t, int64_t> physical_shape(Layout l, DType t, bool acc, int64_t rows, int64_t cols) {
    const BoxShape b = box_shape(l, t, acc);
    return {round_up(std::max<int64_t>(rows, 0), b.r0), round_up(std::max<int64_t>(cols, 0), b.c0)};
}

size_t physical_bytes(Layout l, DType t, bool acc, int64_t rows, int64_t cols) {
    const auto [R, C] = physical_shape(l, t, acc, rows, cols);
    return storage_bytes(t, R * C);
}

int64_t element_offset(Layout l, int64_t R, int64_t C, BoxShape b, int64_t r, int64_t c) {
    switch (l) {
        case Layout::ND:
            return r * C + c;
        case Layout::DN:
            return c * R + r;
        case Layout::NZ:
            return (c / b.c0) * (R * b.c0) + (r / b.r0) * (b.r0 * b.c0) + (r % b.r0) * b.c0 + c % b.c0;
        case Layout::ZN:
            return (r / b.r0) * (C * b.r0) + (c / b.c0) * (b.r0 * b.c0) + (c % b.c0) * b.r0 + r % b.r0;
    }
    return 0;
}

std::vector<uint8_t> encode(const Matrix& logical, DType t, Layout l, bool acc) {
    const int64_t rows = logical.rows(), cols = logical.cols();
    const auto [R, C] = physical_shape(l, t, acc, rows, cols);
    const OffsetTables tab = offset_tables(l, box_shape(l, t, acc), R, C, rows, cols);
    std::vector<uint8_t> out(storage_bytes(t, R * C), 0);
    if (is_sub_byte(t)) {  // packed: two elements per byte, addressed by element index
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c)
                put_element(t, logical(r, c), out.data(),
                            tab.row[static_cast<size_t>(r)] + tab.col[static_cast<size_t>(c)]);
        return out;
    }
    with_codec(t, [&](const auto codec) {
        const double* src = logical.data();
        for (int64_t r = 0; r < rows; ++r) {
            uint8_t* row = out.data() + static_cast<size_t>(tab.row[static_cast<size_t>(r)]) * codec.bytes;
            for (int64_t c = 0; c < cols; ++c, ++src)
                codec.store(*src, row + static_cast<size_t>(tab.col[static_cast<size_t>(c)]) * codec.bytes);
        }
    });
    return out;
}

Matrix decode(const uint8_t* bytes, size_t nbytes, DType t, Layout l, bool acc, int64_t rows, int64_t cols) {
    return decode_window(bytes, nbytes, t, l, acc, rows, cols, 0, 0, rows, cols);
}

Matrix decode_window(const uint8_t* bytes, size_t nbytes, DType t, Layout l, bool acc, int64_t rows, int64_t cols,
                     int64_t r0, int64_t c0, int64_t wr, int64_t wc) {
    rows = std::max<int64_t>(rows, 0);
    cols = std::max<int64_t>(cols, 0);
    wr = std::max<int64_t>(wr, 0);
    wc = std::max<int64_t>(wc, 0);
    // The window's rows and columns that lie inside the tile, [ra, rb) x [ca, cb) in tile coordinates; the rest of
    // the window reads zero (as datapath's window() of a decoded tile).
    const int64_t ra = std::clamp<int64_t>(r0, 0, rows), rb = std::clamp<int64_t>(r0 + wr, ra, rows);
    const int64_t ca = std::clamp<int64_t>(c0, 0, cols), cb = std::clamp<int64_t>(c0 + wc, ca, cols);
    const bool whole = ra == r0 && ca == c0 && rb - ra == wr && cb - ca == wc;
    Matrix m = whole ? Matrix(wr, wc) : Matrix::Zero(wr, wc);
    if (rb == ra || cb == ca) return m;
    const auto [R, C] = physical_shape(l, t, acc, rows, cols);
    const OffsetTables tab = offset_tables(l, box_shape(l, t, acc), R, C, ra, rb, ca, cb);
    const int64_t n_rows = rb - ra, n_cols = cb - ca;
    // Row i of the tables is window row ra - r0 + i, column j window column ca - c0 + j.
    double* const origin = m.data() + (ra - r0) * wc + (ca - c0);
    if (bytes == nullptr) nbytes = 0;
    if (is_sub_byte(t)) {
        for (int64_t r = 0; r < n_rows; ++r)
            for (int64_t c = 0; c < n_cols; ++c) {
                const int64_t k = tab.row[static_cast<size_t>(r)] + tab.col[static_cast<size_t>(c)];
                origin[r * wc + c] = static_cast<size_t>(k / 2) < nbytes ? get_element(t, bytes, k) : 0.0;
            }
        return m;
    }
    with_codec(t, [&](const auto codec) {
        for (int64_t r = 0; r < n_rows; ++r) {
            double* dst = origin + r * wc;
            const int64_t base = tab.row[static_cast<size_t>(r)];
            if (static_cast<size_t>(base + tab.max_col + 1) * codec.bytes <= nbytes) {
                const uint8_t* row = bytes + static_cast<size_t>(base) * codec.bytes;
                for (int64_t c = 0; c < n_cols; ++c, ++dst)
                    *dst = codec.load(row + static_cast<size_t>(tab.col[static_cast<size_t>(c)]) * codec.bytes);
            } else {
                for (int64_t c = 0; c < n_cols; ++c, ++dst)
                    *dst = load_partial(codec, bytes, nbytes,
                                        static_cast<size_t>(base + tab.col[static_cast<size_t>(c)]) * codec.bytes);
            }
        }
    });
    return m;
}

std::vector<uint8_t> repack(const uint8_t* bytes, size_t nbytes, DType t, Layout from, bool from_acc, Layout to,
                            bool to_acc, int64_t rows, int64_t cols) {
    rows = std::max<int64_t>(rows, 0);
    cols = std::max<int64_t>(cols, 0);
    const auto [fR, fC] = physical_shape(from, t, from_acc, rows, cols);
    const auto [tR, tC] = physical_shape(to, t, to_acc, rows, cols);
    const OffsetTables ft = offset_tables(from, box_shape(from, t, from_acc), fR, fC, rows, cols);
    const OffsetTables tt = offset_tables(to, box_shape(to, t, to_acc), tR, tC, rows, cols);
    std::vector<uint8_t> out(storage_bytes(t, tR * tC), 0);
    if (bytes == nullptr) nbytes = 0;
    if (is_sub_byte(t)) {  // every 4-bit code is a value (no NaN payloads), so decode + encode moves the bits
        for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c) {
                const int64_t k = ft.row[static_cast<size_t>(r)] + ft.col[static_cast<size_t>(c)];
                if (static_cast<size_t>(k / 2) < nbytes)
                    put_element(t, get_element(t, bytes, k), out.data(),
                                tt.row[static_cast<size_t>(r)] + tt.col[static_cast<size_t>(c)]);
            }
        return out;
    }
    switch (dtype_bytes(t)) {
        case 1:
            copy_elements<1>(bytes, nbytes, out.data(), ft, tt, rows, cols);
            break;
        case 2:
            copy_elements<2>(bytes, nbytes, out.data(), ft, tt, rows, cols);
            break;
        case 4:
            copy_elements<4>(bytes, nbytes, out.data(), ft, tt, rows, cols);
            break;
        default:
            copy_elements<8>(bytes, nbytes, out.data(), ft, tt, rows, cols);
            break;
    }
    return out;
}

Matrix reinterpret(const Matrix& logical, DType t, Layout written_as, bool written_acc, Layout read_as, bool read_acc) {
    const std::vector<uint8_t> bytes = encode(logical, t, written_as, written_acc);
    return decode(bytes.data(), bytes.size(), t, read_as, read_acc, logical.rows(), logical.cols());
}

namespace {

// Whether an encoded float tile holds a NaN bit pattern (words of sizeof(W) bytes, sign bit masked off).
template <class W>
bool any_nan(const std::vector<uint8_t>& bytes, W inf_bits, W abs_mask) {
    for (size_t i = 0; i + sizeof(W) <= bytes.size(); i += sizeof(W)) {
        W w;
        std::memcpy(&w, bytes.data() + i, sizeof(W));
        if ((w & abs_mask) > inf_bits) return true;
    }
    return false;
}

}  // namespace

bool assemble_encoded(std::vector<uint8_t>& bytes, DType t, Layout l, bool acc, int64_t rows, int64_t cols,
                      const Matrix& src, int64_t r0, int64_t c0) {
    // The typed codecs load and store every non-NaN value of their dtype exactly (layout_test), so the elements
    // outside the window keep their bytes through a decode and an encode; a NaN may not.
    switch (t) {
        case DType::INT8:
        case DType::INT16:
        case DType::INT32:
        case DType::UINT8:
            break;
        case DType::FP32:
            if (any_nan<uint32_t>(bytes, 0x7f800000u, 0x7fffffffu)) return false;
            break;
        case DType::FP16:
            if (any_nan<uint16_t>(bytes, 0x7c00u, 0x7fffu)) return false;
            break;
        case DType::BF16:
            if (any_nan<uint16_t>(bytes, 0x7f80u, 0x7fffu)) return false;
            break;
        default:
            return false;
    }
    if (rows < 0 || cols < 0) return false;
    const auto [R, C] = physical_shape(l, t, acc, rows, cols);
    if (R != rows || C != cols || bytes.size() != physical_bytes(l, t, acc, rows, cols)) return false;
    if (r0 < 0 || c0 < 0 || r0 + src.rows() > rows || c0 + src.cols() > cols) return false;
    const OffsetTables tab = offset_tables(l, box_shape(l, t, acc), R, C, rows, cols);
    with_codec(t, [&](const auto codec) {
        for (int64_t i = 0; i < src.rows(); ++i) {
            uint8_t* row = bytes.data() + static_cast<size_t>(tab.row[static_cast<size_t>(r0 + i)]) * codec.bytes;
            for (int64_t j = 0; j < src.cols(); ++j)
                codec.store(round_to(t, src(i, j)),
                            row + static_cast<size_t>(tab.col[static_cast<size_t>(c0 + j)]) * codec.bytes);
        }
    });
    return true;
}

}  // namespace cvsim
