// Type rules of tile creation (create, full), block indices and the GM tensor ops (tensor.create, read, write,
// view) (OPS.md).
#include <fmt/format.h>

#include <optional>
#include <string>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/ops_types_internal.h"
#include "frontend/runtime.h"

namespace cvsim::ir::typing {

std::optional<Type> tensor_op_type(const Expr& call) {
    using O = OpCode;
    const O c = call.op->code;
    switch (c) {
        case O::TensorCreate: {
            auto shape = shape_list(call, "shape");
            const ExprPtr& d = arg(call, "dtype");
            if (d->kind != ExprKind::DTypeLit)
                raise(codes::kType, d->loc, "pl.tensor.create: dtype must be a pl dtype");
            return Type::tensor(shape, d->dtype);
        }
        case O::Create:
        case O::Full: {
            auto shape = shape_list(call, "shape");
            const ExprPtr& d = arg(call, "dtype");
            if (d->kind != ExprKind::DTypeLit)
                raise(codes::kType, d->loc, fmt::format("{}: dtype must be a pl dtype", op_label(call)));
            if (c == O::Full && !const_number(arg(call, "value")) && arg(call, "value")->type.kind != TypeKind::Scalar)
                type_error(call, "pl.tile.full: value must be a number or a scalar");
            Type r = Type::tile(shape, d->dtype, c == O::Full ? Mem::Vec : enum_mem(call, "target_memory", Mem::Vec));
            if (c == O::Create) {
                // transpose=True allocates the transposed Mat fractal (ZN, a b_trans operand's layout);
                // flat_layout=True a flat (ND, none_box) Mat staging buffer. None / False keep the default.
                auto flag = [&](const char* n) {
                    const ExprPtr& a = arg(call, n);
                    if (!a || a->kind == ExprKind::NoneLit) return false;
                    if (a->kind != ExprKind::Bool && !(a->kind == ExprKind::Int && (a->ival == 0 || a->ival == 1)))
                        raise(codes::kType, a->loc, fmt::format("pl.tile.create: {} must be True, False or None", n));
                    return a->ival != 0;
                };
                const bool tr = flag("transpose"), flat = flag("flat_layout");
                if ((tr || flat) && r.mem != Mem::Mat)
                    type_error(call, fmt::format("pl.tile.create: {}=True needs target_memory=pl.Mem.Mat",
                                                 tr ? "transpose" : "flat_layout"));
                if (tr && flat) type_error(call, "pl.tile.create: transpose and flat_layout are mutually exclusive");
                if (tr || flat) {
                    TileLayout b, sl;
                    view_from_layout(tr ? Layout::ZN : Layout::ND, b, sl);
                    r.view.blayout = b;
                    r.view.slayout = sl;
                    r.view.written = true;
                }
            }
            return r;
        }
        case O::GetBlockIdx:
        case O::GetSubblockIdx:
            return Type::scalar(DType::INDEX);
        case O::TensorRead: {
            const ExprPtr& t = arg(call, "tensor");
            if (t->type.kind != TypeKind::Tensor) type_error(call, "pl.tensor.read: tensor must be a GM tensor");
            const ExprPtr& idx = arg(call, "indices");
            if (!idx || (idx->kind != ExprKind::List && idx->kind != ExprKind::Tuple) ||
                idx->args.size() != t->type.shape.size())
                type_error(
                    call, fmt::format("pl.tensor.read: indices must be a list of {} index(es), one per dimension of {}",
                                      t->type.shape.size(), type_str(t->type)));
            for (const auto& i : idx->args)
                if (i->type.kind != TypeKind::Scalar && i->kind != ExprKind::Int)
                    type_error(call, "pl.tensor.read: each index must be a scalar");
            check_window(call, idx, std::vector<int64_t>(t->type.shape.size(), 1), t->type,
                         var_label(t));  // constant indices: E-OOB here
            return Type::scalar(t->type.dtype);
        }
        case O::TensorWrite: {
            const ExprPtr& t = arg(call, "tensor");
            if (t->type.kind != TypeKind::Tensor) type_error(call, "pl.tensor.write: tensor must be a GM tensor");
            const ExprPtr& idx = arg(call, "indices");
            if (!idx || (idx->kind != ExprKind::List && idx->kind != ExprKind::Tuple) ||
                idx->args.size() != t->type.shape.size())
                type_error(call, fmt::format(
                                     "pl.tensor.write: indices must be a list of {} index(es), one per dimension of {}",
                                     t->type.shape.size(), type_str(t->type)));
            for (const auto& i : idx->args)
                if (i->type.kind != TypeKind::Scalar && i->kind != ExprKind::Int)
                    type_error(call, "pl.tensor.write: each index must be a scalar");
            check_window(call, idx, std::vector<int64_t>(t->type.shape.size(), 1), t->type,
                         var_label(t));  // constant indices: E-OOB here
            const ExprPtr& v = arg(call, "value");
            if (!v || (v->type.kind != TypeKind::Scalar && v->kind != ExprKind::Int && v->kind != ExprKind::Float))
                type_error(call, "pl.tensor.write: value must be a scalar");
            return Type::none();
        }
        case O::TensorView: {
            // The annotation (the printed form always has one) gives the view's type; sema checks it against this.
            const ExprPtr& t = arg(call, "tensor");
            if (t->type.kind != TypeKind::Tensor) type_error(call, "pl.tensor.view: tensor must be a GM tensor");
            auto shape = const_int_list(arg(call, "shape"));
            if (!shape) type_error(call, "pl.tensor.view: in a kernel, shape must be a list of constants");
            int64_t a = 1, b = 1;
            for (int64_t d : *shape) a *= d;
            for (int64_t d : t->type.shape) b *= d;
            if (a != b || shape->empty())
                type_error(call, fmt::format("pl.tensor.view: shape {} does not hold the {} elements of {}",
                                             shape_str(*shape), b, type_str(t->type)));
            Type r = t->type;
            r.shape = *shape;
            r.valid.clear();
            return r;
        }
        default:
            return std::nullopt;
    }
}

}  // namespace cvsim::ir::typing
