// Type rules of the compute ops: matmul and gemv (with acc / bias), elementwise binary, scalar and unary ops,
// casts, row reductions and row expansions (OPS.md).
#include <fmt/format.h>

#include <optional>
#include <string>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/ops_types_internal.h"

namespace cvsim::ir::typing {

Type vec_unary_type(const Expr& call) {
    const Type& a = tile_arg(call, "tile");
    expect_mem(call, "tile", {Mem::Vec});
    Type r = Type::tile(a.shape, a.dtype, Mem::Vec);
    r.valid = a.valid;
    return r;
}

namespace {

// PyPTO's high_precision keyword (tile.div / tile.log / tile.recip): the PTOAS high-precision templates exist
// for FP16 and FP32 only (tile.div and tile.recip refuse other dtypes with it; tile.log takes no other dtype).
void check_high_precision(const Expr& call, DType dt) {
    if (const_flag(call, "high_precision") && dt != DType::FP16 && dt != DType::FP32)
        raise(
            codes::kType, arg(call, "high_precision")->loc,
            fmt::format("{}: high_precision=True needs an FP16 or FP32 tile (PTOAS's high-precision template), got {}",
                        op_label(call), dtype_name(dt)));
}

Type binary_type(const Expr& call) {
    const Type& a = tile_arg(call, "lhs");
    const Type& b = tile_arg(call, "rhs");
    expect_mem(call, "lhs", {Mem::Vec});
    expect_mem(call, "rhs", {Mem::Vec});
    if (a.shape != b.shape)
        type_error(call, fmt::format("{}: operand shapes differ: {} vs {}", op_label(call), shape_str(a.shape),
                                     shape_str(b.shape)));
    if (a.dtype != b.dtype)
        type_error(call,
                   fmt::format("{}: operand dtypes differ: {} vs {}", op_label(call), dtype_name(a.dtype),
                               dtype_name(b.dtype)),
                   "insert pl.tile.cast on one operand");
    Type r = Type::tile(a.shape, a.dtype, Mem::Vec);
    r.valid = a.valid;
    return r;
}

Type matmul_type(const Expr& call, bool gemv, bool has_acc, bool has_bias) {
    expect_mem(call, "lhs", {Mem::Left});
    expect_mem(call, "rhs", {Mem::Right});
    const Type& l = tile_arg(call, "lhs");
    const Type& r = tile_arg(call, "rhs");
    if (l.shape.size() != 2 || r.shape.size() != 2)
        type_error(call, fmt::format("{}: operands must be 2-D", op_label(call)));
    if (l.dtype != r.dtype)
        type_error(
            call, fmt::format("{}: lhs is {} but rhs is {}", op_label(call), dtype_name(l.dtype), dtype_name(r.dtype)));
    if (l.shape[1] != r.shape[0])
        type_error(call,
                   fmt::format("{}: inner dimensions differ: lhs {} x rhs {} (K = {} vs {})", op_label(call),
                               shape_str(l.shape), shape_str(r.shape), l.shape[1], r.shape[0]),
                   "lhs is M x K and rhs is K x N");
    if (gemv && l.shape[0] != 1)
        type_error(call, fmt::format("{}: lhs must be 1 x K, got {}", op_label(call), shape_str(l.shape)));
    if (const ExprPtr& ph = arg(call, "acc_phase")) {
        auto v = const_str(ph);
        if (!v || (*v != "unspecified" && *v != "partial" && *v != "final"))
            raise(codes::kType, ph->loc,
                  fmt::format("{}: acc_phase must be one of 'unspecified', 'partial', 'final'", op_label(call)));
    }
    DType out = l.dtype == DType::INT8 ? DType::INT32 : DType::FP32;
    if (!dtype_is_float(l.dtype) && l.dtype != DType::INT8)
        type_error(call, fmt::format("{}: unsupported operand dtype {}", op_label(call), dtype_name(l.dtype)));
    std::vector<int64_t> shape = {gemv ? 16 : l.shape[0], r.shape[1]};
    Type res = Type::tile(shape, out, Mem::Acc);
    if (gemv) res.valid = {1, r.shape[1]};
    if (has_acc) {
        expect_mem(call, "acc", {Mem::Acc});
        const Type& a = tile_arg(call, "acc");
        if (a.shape != res.shape || a.dtype != out)
            type_error(call, fmt::format("{}: accumulator is {}, the product is {}", op_label(call), type_str(a),
                                         type_str(res)));
        // PyPTO's CheckMatmulInitCond: a BOOL scalar (a comparison, a bool variable or a literal).
        if (const ExprPtr& ic = arg(call, "init_cond");
            ic && ic->kind != ExprKind::Bool && !(ic->type.kind == TypeKind::Scalar && ic->type.dtype == DType::BOOL))
            raise(codes::kType, ic->loc,
                  fmt::format("{}: init_cond must be a BOOL scalar, got {}", op_label(call), type_str(ic->type)));
    }
    if (has_bias) {
        expect_mem(call, "bias", {Mem::Bias});
        const Type& b = tile_arg(call, "bias");
        if (b.shape.size() != 2 || b.shape[0] != 1 || b.shape[1] != r.shape[1])
            type_error(call,
                       fmt::format("{}: bias must be 1 x {}, got {}", op_label(call), r.shape[1], shape_str(b.shape)));
    }
    return res;
}

}  // namespace

std::optional<Type> compute_op_type(const Expr& call) {
    using O = OpCode;
    const O c = call.op->code;
    switch (c) {
        case O::Matmul:
            return matmul_type(call, false, false, false);
        case O::MatmulAcc:
            return matmul_type(call, false, true, false);
        case O::MatmulBias:
            return matmul_type(call, false, false, true);
        case O::Gemv:
            return matmul_type(call, true, false, false);
        case O::GemvAcc:
            return matmul_type(call, true, true, false);
        case O::GemvBias:
            return matmul_type(call, true, false, true);
        case O::Add:
        case O::Sub:
        case O::Mul:
        case O::Maximum:
        case O::Minimum:
            return binary_type(call);
        case O::Div: {
            Type r = binary_type(call);
            check_high_precision(call, r.dtype);
            return r;
        }
        case O::Adds:
        case O::Subs:
        case O::Muls:
        case O::Divs: {
            const Type& a = tile_arg(call, "lhs");
            expect_mem(call, "lhs", {Mem::Vec});
            const ExprPtr& s = arg(call, "rhs");
            if (s->type.kind != TypeKind::Scalar)
                raise(codes::kType, s->loc,
                      fmt::format("{}: 'rhs' must be a scalar, got {}", op_label(call), type_str(s->type)));
            Type r = Type::tile(a.shape, a.dtype, Mem::Vec);
            r.valid = a.valid;
            return r;
        }
        case O::Exp:
        case O::Log:
        case O::Sqrt:
        case O::Rsqrt:
        case O::Recip: {
            Type r = vec_unary_type(call);
            if (!dtype_is_float(r.dtype))
                type_error(call, fmt::format("{}: needs a float tile, got {}", op_label(call), dtype_name(r.dtype)));
            if (c == O::Log || c == O::Recip) check_high_precision(call, r.dtype);
            if (c == O::Rsqrt && arg(call, "tmp")) {
                const Type& t = tile_arg(call, "tmp");
                expect_mem(call, "tmp", {Mem::Vec});
                if (t.dtype != r.dtype || t.shape != arg(call, "tile")->type.shape)
                    raise(codes::kType, arg(call, "tmp")->loc,
                          fmt::format("{}: tmp must have the tile's shape and dtype ({}), got {}", op_label(call),
                                      type_str(arg(call, "tile")->type), type_str(t)));
            }
            return r;
        }
        case O::Abs:
        case O::Neg:
        case O::Relu:
            return vec_unary_type(call);
        case O::Cast: {
            Type r = vec_unary_type(call);
            const ExprPtr& d = arg(call, "target_type");
            if (d->kind != ExprKind::DTypeLit)
                raise(codes::kType, d->loc, "pl.tile.cast: target_type must be a pl dtype");
            r.dtype = d->dtype;
            if (auto m = const_str(arg(call, "mode")); m && !cast_mode_from_name(*m))
                raise(codes::kType, arg(call, "mode")->loc,
                      fmt::format("pl.tile.cast: unknown mode '{}' (round, rint, none, floor, ceil, trunc, odd)", *m));
            return r;
        }
        case O::RowSum:
        case O::RowMax: {
            Type r = vec_unary_type(call);
            if (arg(call, "tmp_tile")) {
                const Type& t = tile_arg(call, "tmp_tile");
                expect_mem(call, "tmp_tile", {Mem::Vec});
                if (t.dtype != r.dtype || t.shape.size() != arg(call, "tile")->type.shape.size())
                    raise(codes::kType, arg(call, "tmp_tile")->loc,
                          fmt::format("{}: tmp_tile must have the tile's dtype and rank, got {}", op_label(call),
                                      type_str(t)));
            }
            if (r.shape.size() != 2) type_error(call, fmt::format("{}: tile must be 2-D", op_label(call)));
            r.shape[1] = 1;
            if (!r.valid.empty()) r.valid[1] = 1;
            return r;
        }
        case O::RowExpandMul:
        case O::RowExpandAdd:
        case O::RowExpandSub: {
            Type r = vec_unary_type(call);
            const Type& v = tile_arg(call, "row_vec");
            expect_mem(call, "row_vec", {Mem::Vec});
            if (r.shape.size() != 2 || v.shape.size() != 2 || v.shape[0] != r.shape[0] || v.shape[1] != 1)
                type_error(call, fmt::format("{}: row vector must be [{}, 1], got {}", op_label(call),
                                             r.shape.empty() ? 0 : r.shape[0], shape_str(v.shape)));
            if (v.dtype != r.dtype) type_error(call, fmt::format("{}: operand dtypes differ", op_label(call)));
            if (c == O::RowExpandAdd && arg(call, "tmp")) {
                tile_arg(call, "tmp");  // PyPTO asks a tile only; a Vec one (the op's input memories)
                expect_mem(call, "tmp", {Mem::Vec});
            }
            return r;
        }
        default:
            return std::nullopt;
    }
}

}  // namespace cvsim::ir::typing
