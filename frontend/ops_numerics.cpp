// Numerics families of the op registry over the datapath kernels (models/datapath.h).
#include "frontend/ops_numerics.h"

#include <limits>
#include <stdexcept>
#include <tuple>

namespace cvsim::ir::numerics {

namespace {

const TileData& tile(const OpOperands& o, size_t i) {
    if (i >= o.tiles.size()) throw std::invalid_argument(o.op->name() + ": missing tile operand");
    return o.tiles[i];
}
double num(const OpOperands& o, size_t i) {
    if (i >= o.scalars.size()) throw std::invalid_argument(o.op->name() + ": missing scalar operand");
    return o.scalars[i];
}

std::pair<int64_t, int64_t> valid_of(const OpOperands& o, size_t i) {
    if (i < o.valid.size()) return o.valid[i];
    const TileData& t = tile(o, i);
    return {t.m.rows(), t.m.cols()};
}

int64_t attr_int(const OpOperands& o, const char* name, int64_t dflt) {
    if (!o.call) return dflt;
    return const_int(arg(*o.call, name)).value_or(dflt);
}

// pad_value=: pl.PadValue.zero / max / min or a number; max/min are +-inf (the integer range's ends).
double pad_value(const OpOperands& o) {
    const ExprPtr& a = o.call ? arg(*o.call, "pad_value") : ExprPtr();
    if (!a) return 0;
    if (auto v = const_number(a)) return *v;
    const std::string& n = a->sval;
    if (n.ends_with("max")) return std::numeric_limits<double>::infinity();
    if (n.ends_with("min")) return -std::numeric_limits<double>::infinity();
    return 0;
}

std::pair<int64_t, int64_t> rc(const std::vector<int64_t>& v) {
    if (v.empty()) return {0, 0};
    return {v.size() >= 2 ? v[v.size() - 2] : 0, v.back()};
}

}  // namespace

TileData col_reduce(const OpOperands& o) {
    return reduce_cols(static_cast<ReduceOp>(o.op->variant), tile(o, 0));
}

TileData col_expand(const OpOperands& o) {
    return cvsim::col_expand(static_cast<RowExpandOp>(o.op->variant), tile(o, 0), tile(o, 1));
}

TileData ternary(const OpOperands& o) {
    return cvsim::ternary(static_cast<BinaryOp>(o.op->variant / 16), static_cast<BinaryOp>(o.op->variant % 16),
                          tile(o, 0), tile(o, 1), tile(o, 2));
}

TileData ternary_scalar(const OpOperands& o) {
    return cvsim::ternary_scalar(static_cast<BinaryOp>(o.op->variant / 16), static_cast<BinaryOp>(o.op->variant % 16),
                                 tile(o, 0), num(o, 0), tile(o, 1));
}

TileData prelu(const OpOperands& o) {
    return cvsim::prelu(tile(o, 0), tile(o, 1));
}
TileData lrelu(const OpOperands& o) {
    return cvsim::lrelu(tile(o, 0), num(o, 0));
}

TileData cmp(const OpOperands& o) {
    const auto mode = static_cast<CmpMode>(attr_int(o, "cmp_type", 0));
    if (o.op->variant == 0) return compare(mode, tile(o, 0), tile(o, 1), o.out_cols);
    return compare_scalar(mode, tile(o, 0), num(o, 0), o.out_cols);
}

TileData sel(const OpOperands& o) {
    if (o.op->variant == 0) return select(tile(o, 0), tile(o, 1), tile(o, 2));
    return select_scalar(tile(o, 0), tile(o, 1), num(o, 0));
}

TileData fillpad(const OpOperands& o) {
    auto [vr, vc] = valid_of(o, 0);
    return cvsim::fillpad(tile(o, 0), vr, vc, o.out_rows, o.out_cols, pad_value(o));
}

TileData ci(const OpOperands& o) {
    return iota(o.out_rows, o.out_cols, o.out_dtype, num(o, 0), attr_int(o, "descending", 0) != 0);
}

TileData tri(const OpOperands& o) {
    int64_t vr = o.out_rows, vc = o.out_cols;
    if (o.call)
        if (auto vs = const_int_list(arg(*o.call, "valid_shape"))) std::tie(vr, vc) = rc(*vs);
    return cvsim::tri(o.out_rows, o.out_cols, o.out_dtype, static_cast<int64_t>(num(o, 0)),
                      attr_int(o, "upper", 0) != 0, vr, vc);
}

TileData concat(const OpOperands& o) {
    return concat_cols(tile(o, 0), valid_of(o, 0).second, tile(o, 1), valid_of(o, 1).second, o.out_cols);
}

TileData extract(const OpOperands& o) {
    return window(tile(o, 0), static_cast<int64_t>(num(o, 0)), static_cast<int64_t>(num(o, 1)), o.out_rows, o.out_cols);
}

TileData write(const OpOperands& o) {
    TileData t = tile(o, 0);
    auto [r, c] = rc(o.ints);
    if (o.ints.size() == 1) r = 0, c = o.ints[0];
    if (r < 0 || c < 0 || r >= t.m.rows() || c >= t.m.cols())
        throw std::invalid_argument("tile.write: index outside the tile");
    t.m(r, c) = round_to(t.dtype, num(o, 0));
    return t;
}

TileData assemble(const OpOperands& o) {
    auto [r, c] = rc(o.ints);
    // Only the source's valid region is written (a gather_row's run of rows; TINSERT's valid extent): the rest of
    // the target passes through. assemble_outside_error reports a region that leaves the target.
    const TileData& src = tile(o, 1);
    if (o.valid.size() >= 2 && (o.valid[1].first < src.m.rows() || o.valid[1].second < src.m.cols())) {
        const int64_t vr = std::clamp<int64_t>(o.valid[1].first, 0, src.m.rows()),
                      vc = std::clamp<int64_t>(o.valid[1].second, 0, src.m.cols());
        TileData part{src.dtype, Matrix(src.m.topLeftCorner(vr, vc))};
        return cvsim::assemble(tile(o, 0), part, r, c);
    }
    return cvsim::assemble(tile(o, 0), src, r, c);
}

TileData move(const OpOperands& o) {
    return tile(o, 0);
}

TileData matmul(const OpOperands& o) {
    const bool bias = o.variant_bits(2), gemv = o.variant_bits(4);
    // matmul_acc's init_cond (its only value operand): true overwrites the accumulator instead of adding to it.
    const bool init = o.variant_bits(1) && !o.scalars.empty() && o.scalars[0] != 0;
    const bool acc = o.variant_bits(1) && !init;
    size_t k = 0;
    TileData a;
    if (o.variant_bits(1)) a = tile(o, k++);
    const TileData& l = tile(o, k++);
    const TileData& r = tile(o, k++);
    const TileData* b = bias ? &tile(o, k) : nullptr;
    if (acc && gemv) a.m = Matrix(a.m.topRows(1));
    TileData res = cvsim::matmul(l, r, acc ? &a : nullptr, b);
    if (gemv && res.m.rows() < o.out_rows) {
        Matrix padded = Matrix::Zero(o.out_rows, res.m.cols());
        padded.topRows(res.m.rows()) = res.m;
        res.m = std::move(padded);
    }
    return res;
}

TileData binary(const OpOperands& o) {
    return cvsim::binary(static_cast<BinaryOp>(o.op->variant), tile(o, 0), tile(o, 1));
}

TileData scalar(const OpOperands& o) {
    return binary_scalar(static_cast<BinaryOp>(o.op->variant), tile(o, 0), num(o, 0));
}

TileData unary(const OpOperands& o) {
    return cvsim::unary(static_cast<UnaryOp>(o.op->variant), tile(o, 0));
}

TileData cast(const OpOperands& o) {
    CastMode mode = CastMode::Round;
    if (o.call)
        if (auto m = const_str(arg(*o.call, "mode"))) mode = cast_mode_from_name(*m).value_or(CastMode::Round);
    return cvsim::cast(tile(o, 0), o.out_dtype, mode);
}

TileData reduce(const OpOperands& o) {
    return reduce_rows(static_cast<ReduceOp>(o.op->variant), tile(o, 0));
}

TileData row_expand(const OpOperands& o) {
    return cvsim::row_expand(static_cast<RowExpandOp>(o.op->variant), tile(o, 0), tile(o, 1));
}

TileData transpose(const OpOperands& o) {
    return cvsim::transpose(tile(o, 0));
}

TileData fill(const OpOperands& o) {
    return full(o.out_rows, o.out_cols, o.out_dtype, o.op->variant == 0 ? 0.0 : num(o, 0));
}

TileData view(const OpOperands& o) {
    const TileData& x = tile(o, 0);
    switch (o.op->variant) {
        case 0: {
            const auto& ints = o.ints;
            int64_t r0 = ints.size() >= 2 ? ints[ints.size() - 2] : 0, c0 = ints.empty() ? 0 : ints.back();
            r0 = std::clamp<int64_t>(r0, 0, x.m.rows());
            c0 = std::clamp<int64_t>(c0, 0, x.m.cols());
            int64_t R = std::min<int64_t>(o.out_rows, x.m.rows() - r0),
                    C = std::min<int64_t>(o.out_cols, x.m.cols() - c0);
            return TileData{x.dtype, Matrix(x.m.block(r0, c0, R, C))};
        }
        case 1:
            return TileData{x.dtype, Eigen::Map<const Matrix>(x.m.data(), o.out_rows, o.out_cols)};
        case 2:
            return cvsim::transpose(x);
        default:
            return x;
    }
}

}  // namespace cvsim::ir::numerics
