// The 4-bit dtypes (INT4, UINT4, FP4) in kernels: which ops take them, and the byte-alignment rule of their
// windows (docs/DECISIONS.md, "Dtypes"). PyPTO lowers 4-bit data to packed loads and stores and TCVT
// conversions (its MX-scaled matmuls, which cvsim does not define, are the other consumer), so cvsim models
// 4-bit tiles in UB through load, store, cast, create and full; any other op on one is E-UNSUPPORTED naming it.
#include <fmt/format.h>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/ops_more.h"

namespace cvsim::ir {
namespace {

bool takes_sub_byte(OpCode c) {
    return c == OpCode::Load || c == OpCode::Store || c == OpCode::Cast || c == OpCode::Create || c == OpCode::Full ||
           c == OpCode::TensorCreate;
}

const Expr* sub_byte_operand(const Expr& call, const Type& result) {
    if ((result.kind == TypeKind::Tile || result.kind == TypeKind::Tensor) && is_sub_byte(result.dtype)) return &call;
    for (const auto& a : call.args)
        if (a && (a->type.kind == TypeKind::Tile || a->type.kind == TypeKind::Tensor) && is_sub_byte(a->type.dtype))
            return a.get();
    return nullptr;
}

// Even column extent and (constant) column offset of a window on a 4-bit tensor.
void check_bytes_whole(const Expr& call, const ExprPtr& offsets, int64_t cols, DType t) {
    const std::string op = "pl." + call.op->name();
    if (cols % 2)
        raise(codes::kType, call.loc,
              fmt::format("{}: a {} window of {} columns splits a byte (two 4-bit elements per byte): the column "
                          "extent must be even",
                          op, dtype_name(t), cols));
    if (!offsets || (offsets->kind != ExprKind::List && offsets->kind != ExprKind::Tuple) || offsets->args.empty())
        return;
    const ExprPtr& last = offsets->args.back();
    if (auto o = const_int(last); o && *o % 2)
        raise(
            codes::kType, last->loc,
            fmt::format(
                "{}: column offset {} of a {} window starts in the middle of a byte (two 4-bit elements per byte): it "
                "must be even",
                op, *o, dtype_name(t)));
}

}  // namespace

void check_sub_byte_call(const Expr& call, const Type& result) {
    const Expr* at = sub_byte_operand(call, result);
    if (!at) return;
    const DType t = at == &call ? result.dtype : at->type.dtype;
    const OpCode c = call.op->code;
    const std::string op = "pl." + call.op->name();
    if (!takes_sub_byte(c))
        raise(codes::kUnsupported, at->loc,
              fmt::format(
                  "{} on {} data: cvsim models 4-bit tiles only through pl.tile.load, store, cast, create and full "
                  "(PyPTO "
                  "lowers 4-bit data to packed loads/stores and TCVT; its other consumer, the MX-scaled matmul, is not "
                  "defined in cvsim)",
                  op, dtype_name(t)),
              "cast to FP16 / FP32 / INT8 first (pl.tile.cast)");
    if (result.kind == TypeKind::Tile && is_sub_byte(result.dtype)) {
        if (result.mem != Mem::Vec)
            raise(codes::kUnsupported, call.loc,
                  fmt::format("{}: a {} tile in pl.Mem.{}: cvsim keeps 4-bit tiles in UB (pl.Mem.Vec) only", op,
                              dtype_name(t), mem_name(result.mem)));
        if (!result.shape.empty() && result.shape.back() % 2)
            raise(
                codes::kType, call.loc,
                fmt::format(
                    "{}: a {} tile of shape {} has an odd number of columns; 4-bit rows are whole bytes (two elements "
                    "per byte)",
                    op, dtype_name(t), shape_str(result.shape)));
        if (!result.valid.empty() && result.valid.back() % 2)
            raise(codes::kType, call.loc,
                  fmt::format(
                      "{}: a {} tile's valid region {} has an odd number of columns (two 4-bit elements per byte)", op,
                      dtype_name(t), shape_str(result.valid)));
    }
    if (c == OpCode::Load && is_sub_byte(result.dtype)) {
        int64_t cols = result.valid.empty() ? result.shape.back() : result.valid.back();
        check_bytes_whole(call, arg(call, "offsets"), cols, t);
    }
    if (c == OpCode::Store) {
        const ExprPtr& out = arg(call, "output_tensor");
        const ExprPtr& tile = arg(call, "tile");
        if (out && is_sub_byte(out->type.dtype) && tile && tile->type.kind == TypeKind::Tile) {
            int64_t cols = tile->type.valid.empty() ? tile->type.shape.back() : tile->type.valid.back();
            if (auto s = const_int_list(arg(call, "shapes")); s && !s->empty()) cols = s->back();
            check_bytes_whole(call, arg(call, "offsets"), cols, out->type.dtype);
        }
    }
}

}  // namespace cvsim::ir
