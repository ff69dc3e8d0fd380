// Sorting, gathering, scattering and index kernels (see datapath_sort.h for the layouts and choices).
#include "core/datapath_sort.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace cvsim {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void require(bool ok, const char* op, const std::string& what) {
    if (!ok) throw std::invalid_argument(fmt::format("{}: {}", op, what));
}

void require_sortable(DType t, const char* op) {
    require(t == DType::FP32 || t == DType::FP16, op, fmt::format("dtype {} is not FP32 or FP16", dtype_name(t)));
}

// Descending order with NaN above +inf: a key that orders NaN first.
bool greater(double a, double b) {
    if (std::isnan(a)) return !std::isnan(b);
    if (std::isnan(b)) return false;
    return a > b;
}

uint32_t as_u32(double v) {  // an INT32/UINT32 tile value as its 32-bit pattern
    return static_cast<uint32_t>(static_cast<int64_t>(v));
}

// Bits of one element encoded in `t` (at most 8 bytes), and back.
uint64_t bits_of(DType t, double v) {
    uint8_t b[8] = {};
    encode_element(t, v, b);
    uint64_t u = 0;
    std::memcpy(&u, b, dtype_bytes(t));
    return u;
}
double from_bits(DType t, uint64_t u) {
    uint8_t b[8] = {};
    std::memcpy(b, &u, dtype_bytes(t));
    return decode_element(t, b);
}

struct Tuple {
    double value = 0;
    uint32_t index = 0;
};

void write_tuple(TileData& t, int64_t row, int64_t k, const Tuple& x) {
    const int64_t e = sort_tuple_elems(t.dtype), c = k * e;
    t.m(row, c) = x.value;
    if (e == 2) {
        t.m(row, c + 1) = index_bits_as(DType::FP32, x.index);
    } else {
        t.m(row, c + 1) = 0;
        t.m(row, c + 2) = index_bits_as(DType::FP16, x.index, 0);
        t.m(row, c + 3) = index_bits_as(DType::FP16, x.index, 1);
    }
}

// Copies whole tuples (all slots) so a merge moves the exact bits the sort wrote.
void copy_tuple(const TileData& from, int64_t frow, int64_t fk, TileData& to, int64_t trow, int64_t tk) {
    const int64_t e = sort_tuple_elems(from.dtype);
    for (int64_t s = 0; s < e; ++s) to.m(trow, tk * e + s) = from.m(frow, fk * e + s);
}

TileData arg_reduce(const TileData& x, bool rows, bool max) {
    require(x.m.rows() > 0 && x.m.cols() > 0, rows ? "row_arg" : "col_arg", "empty tile");
    const int64_t outer = rows ? x.m.rows() : x.m.cols(), inner = rows ? x.m.cols() : x.m.rows();
    TileData out{DType::INT32, rows ? Matrix(outer, 1) : Matrix(1, outer)};
    for (int64_t o = 0; o < outer; ++o) {
        auto at = [&](int64_t i) { return rows ? x.m(o, i) : x.m(i, o); };
        double best = at(0);
        int64_t bi = 0;
        for (int64_t i = 1; i < inner; ++i) {
            const double v = at(i);
            if (max ? v > best : v < best) best = v, bi = i;
        }
        out.m.data()[o] = static_cast<double>(bi);
    }
    return out;
}

}  // namespace

int64_t sort_tuple_elems(DType t) {
    require_sortable(t, "sort");
    return t == DType::FP32 ? 2 : 4;
}

double index_bits_as(DType t, uint32_t index, int half) {
    if (t == DType::FP32) return from_bits(DType::FP32, index);
    return from_bits(DType::FP16, half == 0 ? (index & 0xFFFFu) : (index >> 16));
}

uint32_t tuple_index(const TileData& pairs, int64_t row, int64_t k) {
    const int64_t e = sort_tuple_elems(pairs.dtype), c = k * e;
    if (e == 2) return static_cast<uint32_t>(bits_of(DType::FP32, pairs.m(row, c + 1)));
    return static_cast<uint32_t>(bits_of(DType::FP16, pairs.m(row, c + 2)) |
                                 (bits_of(DType::FP16, pairs.m(row, c + 3)) << 16));
}

TileData sort32(const TileData& src, const TileData& idx) {
    require_sortable(src.dtype, "sort32");
    require(idx.dtype == DType::UINT32 || idx.dtype == DType::INT32, "sort32", "idx is not UINT32 or INT32");
    const int64_t R = src.m.rows(), C = src.m.cols(), e = sort_tuple_elems(src.dtype);
    require(idx.m.cols() == C && (idx.m.rows() == R || idx.m.rows() == 1), "sort32", "idx shape differs from src");
    TileData out{src.dtype, Matrix(R, C * e)};
    std::vector<Tuple> block;
    for (int64_t r = 0; r < R; ++r) {
        const int64_t ir = idx.m.rows() == 1 ? 0 : r;
        for (int64_t b = 0; b < C; b += 32) {
            const int64_t n = std::min<int64_t>(32, C - b);
            block.clear();
            for (int64_t k = 0; k < n; ++k) block.push_back(Tuple{src.m(r, b + k), as_u32(idx.m(ir, b + k))});
            std::stable_sort(block.begin(), block.end(), [](const Tuple& x, const Tuple& y) {
                if (greater(x.value, y.value)) return true;
                if (greater(y.value, x.value)) return false;
                return x.index < y.index;
            });
            for (int64_t k = 0; k < n; ++k) write_tuple(out, r, b + k, block[static_cast<size_t>(k)]);
        }
    }
    return out;
}

TileData mrgsort1(const TileData& src, int64_t block_len) {
    require_sortable(src.dtype, "mrgsort");
    const int64_t e = sort_tuple_elems(src.dtype);
    require(block_len > 0 && block_len % e == 0, "mrgsort",
            fmt::format("block_len {} is not a positive multiple of {}", block_len, e));
    const int64_t R = src.m.rows(), C = src.m.cols(), per_block = block_len / e, group = 4 * block_len;
    TileData out{src.dtype, Matrix::Constant(R, C, kNaN)};
    for (int64_t r = 0; r < R; ++r)
        for (int64_t base = 0; base + group <= C; base += group) {
            const int64_t first = base / e;  // tuple position of block 0
            int64_t pos[4] = {0, 0, 0, 0};
            for (int64_t o = 0; o < 4 * per_block; ++o) {
                int pick = -1;
                double best = 0;
                for (int b = 0; b < 4; ++b) {
                    if (pos[b] >= per_block) continue;
                    const double v = src.m(r, (first + b * per_block + pos[b]) * e);
                    if (pick < 0 || greater(v, best)) pick = b, best = v;
                }
                copy_tuple(src, r, first + pick * per_block + pos[pick], out, r, first + o);
                ++pos[pick];
            }
        }
    return out;
}

TileData mrgsort2(const std::vector<const TileData*>& srcs, int64_t out_cols, bool exhausted,
                  std::vector<int64_t>* executed) {
    require(srcs.size() >= 2 && srcs.size() <= 4, "mrgsort", "needs 2 to 4 source lists");
    const DType t = srcs[0]->dtype;
    require_sortable(t, "mrgsort");
    const int64_t e = sort_tuple_elems(t);
    std::vector<int64_t> len, pos(srcs.size(), 0);
    for (auto* s : srcs) {
        require(s->dtype == t && s->m.rows() == 1, "mrgsort", "source lists must be [1, C] tiles of one dtype");
        len.push_back(s->m.cols() / e);
    }
    TileData out{t, Matrix::Constant(1, out_cols, kNaN)};
    const int64_t out_tuples = out_cols / e;
    for (int64_t o = 0; o < out_tuples; ++o) {
        int pick = -1;
        double best = 0;
        for (size_t l = 0; l < srcs.size(); ++l) {
            if (pos[l] >= len[l]) continue;
            const double v = srcs[l]->m(0, pos[l] * e);
            if (pick < 0 || greater(v, best)) pick = static_cast<int>(l), best = v;
        }
        if (pick < 0) break;
        copy_tuple(*srcs[static_cast<size_t>(pick)], 0, pos[static_cast<size_t>(pick)], out, 0, o);
        ++pos[static_cast<size_t>(pick)];
        if (exhausted) {  // the hardware suspends once any list is used up (an empty list counts at once)
            bool any_done = false;
            for (size_t l = 0; l < srcs.size(); ++l) any_done |= pos[l] == len[l];
            if (any_done) break;
        }
    }
    if (executed) *executed = pos;
    return out;
}

TileData gather(const TileData& src, const TileData& indices) {
    const int64_t n = src.m.size(), C = src.m.cols();
    TileData out{src.dtype, Matrix(indices.m.rows(), indices.m.cols())};
    for (int64_t i = 0; i < indices.m.size(); ++i) {
        const double raw = indices.m.data()[i];
        out.m.data()[i] = raw >= 0 && raw < static_cast<double>(n)
                              ? src.m(static_cast<int64_t>(raw) / C, static_cast<int64_t>(raw) % C)
                              : 0.0;
    }
    return out;
}

bool mask_pattern_selects(int pattern, int64_t col) {
    switch (pattern) {
        case 1:
            return col % 2 == 0;  // P0101
        case 2:
            return col % 2 == 1;  // P1010
        case 3:
            return col % 4 == 0;  // P0001
        case 4:
            return col % 4 == 1;  // P0010
        case 5:
            return col % 4 == 2;  // P0100
        case 6:
            return col % 4 == 3;  // P1000
        case 7:
            return true;  // P1111
        default:
            throw std::invalid_argument(fmt::format("mask pattern {} is not 1..7", pattern));
    }
}

int64_t mask_pattern_stride(int pattern) {
    require(pattern >= 1 && pattern <= 7, "mask pattern", fmt::format("{} is not 1..7", pattern));
    return pattern == 7 ? 1 : pattern <= 2 ? 2 : 4;
}

TileData gather_mask(const TileData& src, int pattern, DType out_dtype) {
    require(dtype_bytes(out_dtype) == dtype_bytes(src.dtype), "gather_mask", "output_dtype has another width");
    const int64_t stride = mask_pattern_stride(pattern), R = src.m.rows(), C = src.m.cols();
    TileData out{out_dtype, Matrix(R, C / stride)};
    for (int64_t r = 0; r < R; ++r) {
        int64_t k = 0;
        for (int64_t c = 0; c < C && k < C / stride; ++c)
            if (mask_pattern_selects(pattern, c)) {
                const double v = src.m(r, c);
                out.m(r, k++) = out_dtype == src.dtype ? v : from_bits(out_dtype, bits_of(src.dtype, v));
            }
    }
    return out;
}

TileData scatter(const TileData& dst, const TileData& src, const TileData& indexes) {
    require(src.dtype == dst.dtype, "scatter", "src and dst dtypes differ");
    require(indexes.m.rows() == src.m.rows() && indexes.m.cols() == src.m.cols(), "scatter",
            "indexes shape differs from src");
    TileData out = dst;
    const double n = static_cast<double>(dst.m.size());
    for (int64_t i = 0; i < src.m.size(); ++i) {
        const double raw = indexes.m.data()[i];
        if (raw >= 0 && raw < n) out.m.data()[static_cast<int64_t>(raw)] = src.m.data()[i];
    }
    return out;
}

TileData scatter_mask(const TileData& dst, const TileData& src, int pattern) {
    require(src.dtype == dst.dtype && src.m.rows() == dst.m.rows(), "scatter_mask",
            "src and dst differ in dtype or rows");
    TileData out = dst;
    for (int64_t r = 0; r < dst.m.rows(); ++r) {
        int64_t k = 0;
        for (int64_t c = 0; c < dst.m.cols() && k < src.m.cols(); ++c)
            if (mask_pattern_selects(pattern, c)) out.m(r, c) = src.m(r, k++);
    }
    return out;
}

TileData row_argmax(const TileData& x) {
    return arg_reduce(x, true, true);
}
TileData row_argmin(const TileData& x) {
    return arg_reduce(x, true, false);
}
TileData col_argmax(const TileData& x) {
    return arg_reduce(x, false, true);
}
TileData col_argmin(const TileData& x) {
    return arg_reduce(x, false, false);
}

namespace {

bool gather_cmp_match(GatherCmp mode, double v, double k) {
    return mode == GatherCmp::EQ ? v == k : v > k;
}

// The matching columns of row r (NaN compares false either way).
template <typename F>
int64_t for_each_match(const TileData& src, int64_t r, int64_t valid_cols, double k, GatherCmp mode, F&& f) {
    int64_t n = 0;
    for (int64_t c = 0; c < valid_cols; ++c)
        if (gather_cmp_match(mode, src.m(r, c), k)) f(n++, c);
    return n;
}

void check_gather_compare(const TileData& src, int64_t valid_rows, int64_t valid_cols) {
    require(valid_rows >= 0 && valid_rows <= src.m.rows() && valid_cols >= 0 && valid_cols <= src.m.cols(),
            "gather_compare", "valid region outside the source tile");
}

}  // namespace

TileData gather_compare_dst(const TileData& src, int64_t valid_rows, int64_t valid_cols, double k, GatherCmp mode,
                            int64_t offset, int64_t out_cols) {
    check_gather_compare(src, valid_rows, valid_cols);
    require(out_cols > 0, "gather_compare", "out_cols must be positive");
    TileData out{DType::INT32, Matrix::Zero(src.m.rows(), out_cols)};
    for (int64_t r = 0; r < valid_rows; ++r)
        for_each_match(src, r, valid_cols, k, mode, [&](int64_t n, int64_t c) {
            if (n < out_cols) out.m(r, n) = round_to(DType::INT32, static_cast<double>(offset + c));
        });
    return out;
}

TileData gather_compare_cdst(const TileData& src, int64_t valid_rows, int64_t valid_cols, double k, GatherCmp mode,
                             DType count_dtype) {
    check_gather_compare(src, valid_rows, valid_cols);
    require(count_dtype == DType::INT32 || count_dtype == DType::UINT32, "gather_compare",
            "count_dtype must be INT32 or UINT32");
    TileData out{count_dtype, Matrix::Zero(1, src.m.rows())};
    for (int64_t r = 0; r < valid_rows; ++r)
        out.m(0, r) = static_cast<double>(for_each_match(src, r, valid_cols, k, mode, [](int64_t, int64_t) {}));
    return out;
}

std::optional<std::pair<int64_t, int64_t>> gather_compare_overflow(const TileData& src, int64_t valid_rows,
                                                                   int64_t valid_cols, double k, GatherCmp mode,
                                                                   int64_t out_cols) {
    check_gather_compare(src, valid_rows, valid_cols);
    for (int64_t r = 0; r < valid_rows; ++r)
        if (int64_t n = for_each_match(src, r, valid_cols, k, mode, [](int64_t, int64_t) {}); n > out_cols)
            return std::make_pair(r, n);
    return std::nullopt;
}

}  // namespace cvsim
