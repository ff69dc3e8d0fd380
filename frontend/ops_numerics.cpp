// Numerics families of the op registry over the datapath kernels (models/datapath.h).
#include "frontend/ops_numerics.h"

#include <stdexcept>

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

}  // namespace

TileData move(const OpOperands& o) { return tile(o, 0); }

TileData matmul(const OpOperands& o) {
    const bool acc = o.variant_bits(1), bias = o.variant_bits(2), gemv = o.variant_bits(4);
    size_t k = 0;
    TileData a;
    if (acc) a = tile(o, k++);
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

TileData binary(const OpOperands& o) { return cvsim::binary(static_cast<BinaryOp>(o.op->variant), tile(o, 0), tile(o, 1)); }

TileData scalar(const OpOperands& o) {
    return binary_scalar(static_cast<BinaryOp>(o.op->variant), tile(o, 0), num(o, 0));
}

TileData unary(const OpOperands& o) { return cvsim::unary(static_cast<UnaryOp>(o.op->variant), tile(o, 0)); }

TileData cast(const OpOperands& o) {
    CastMode mode = CastMode::Round;
    if (o.call)
        if (auto m = const_str(arg(*o.call, "mode"))) mode = cast_mode_from_name(*m).value_or(CastMode::Round);
    return cvsim::cast(tile(o, 0), o.out_dtype, mode);
}

TileData reduce(const OpOperands& o) { return reduce_rows(static_cast<ReduceOp>(o.op->variant), tile(o, 0)); }

TileData row_expand(const OpOperands& o) {
    return cvsim::row_expand(static_cast<RowExpandOp>(o.op->variant), tile(o, 0), tile(o, 1));
}

TileData transpose(const OpOperands& o) { return cvsim::transpose(tile(o, 0)); }

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
            int64_t R = std::min<int64_t>(o.out_rows, x.m.rows() - r0), C = std::min<int64_t>(o.out_cols, x.m.cols() - c0);
            return TileData{x.dtype, Matrix(x.m.block(r0, c0, R, C))};
        }
        case 1: return TileData{x.dtype, Eigen::Map<const Matrix>(x.m.data(), o.out_rows, o.out_cols)};
        case 2: return cvsim::transpose(x);
        default: return x;
    }
}

}  // namespace cvsim::ir::numerics
