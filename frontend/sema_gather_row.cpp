// pl.tile.gather_row(dst, src, dst_offset, src_offset, shapes[, transpose][, valid_shape]): PyPTO's per-row
// primitive of its paged-gather lowering, one GM window DMA'd straight into a sub-region of dst (DPS: dst is
// written in place and the result aliases it). cvsim models it in SSA form as the two registry ops it amounts
// to: `_load = pl.tile.load(src, src_offset, shapes)` — the same GM window read by MTE2, which the GM window
// analysis, the expander and the hazard checker already know — then `pl.tile.assemble(dst, _load, dst_offset)`,
// dst with those elements replaced (docs/DECISIONS.md). dst is a UB (Vec) or L1 (Mat) tile. A valid_shape narrows
// the transfer (only its elements are read and written, the rest of dst passes through): a constant one is the
// load's window, a run-time one the load's valid_shape (assemble writes the source's valid region only).
// transpose=True (places the GM row as an L1 column for a matmul B operand) is E-UNSUPPORTED at the argument.
#include <fmt/format.h>

#include <array>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"
#include "frontend/sema_lower.h"

namespace cvsim::sema {

using namespace ir;

ExprPtr FunctionLowering::lower_gather_row(const ast::Expr& e) {
    enum { kDst, kSrc, kDstOff, kSrcOff, kShapes, kTranspose, kValid, kN };
    static const char* names[kN] = {"dst", "src", "dst_offset", "src_offset", "shapes", "transpose", "valid_shape"};
    std::array<ExprPtr, kN> a{};
    if (e.args.size() > 7)
        raise(codes::kType, e.args[7]->loc,
              fmt::format("pl.tile.gather_row() takes at most 7 arguments, got {}", e.args.size()));
    for (size_t i = 0; i < e.args.size(); ++i) {
        ExprPtr v = lower_expr(*e.args[i], false, nullptr);
        // The DSL's sixth positional is transpose; PyPTO's printed IR puts valid_shape there (transpose is an
        // attribute).
        size_t slot = i;
        if (i == kTranspose && (v->kind == ExprKind::List || v->kind == ExprKind::Tuple)) slot = kValid;
        if (i == kValid && a[kValid]) slot = kTranspose;
        a[slot] = v;
    }
    for (const auto& kw : e.keywords) {
        size_t idx = kN;
        for (size_t i = 0; i < kN; ++i)
            if (kw.name == names[i]) idx = i;
        if (idx == kN)
            raise(codes::kType, kw.loc,
                  fmt::format("pl.tile.gather_row() got an unexpected keyword argument '{}'", kw.name),
                  "its parameters are: dst, src, dst_offset, src_offset, shapes, transpose, valid_shape",
                  static_cast<uint32_t>(kw.name.size()));
        if (a[idx])
            raise(codes::kType, kw.loc,
                  fmt::format("pl.tile.gather_row() got multiple values for argument '{}'", kw.name));
        a[idx] = lower_expr(*kw.value, false, nullptr);
    }
    for (size_t i = 0; i < kTranspose; ++i)
        if (!a[i])
            raise(codes::kType, e.loc, fmt::format("pl.tile.gather_row: missing required argument '{}'", names[i]));
    const ExprPtr &dst = a[kDst], &src = a[kSrc];
    if (dst->type.kind != TypeKind::Tile)
        raise(codes::kType, dst->loc,
              fmt::format("pl.tile.gather_row: 'dst' must be a tile, got {}", type_str(dst->type)));
    if (src->type.kind != TypeKind::Tensor)
        raise(codes::kType, src->loc,
              fmt::format("pl.tile.gather_row: 'src' must be a GM tensor, got {}", type_str(src->type)));
    if (dst->type.dtype != src->type.dtype)
        raise(codes::kType, src->loc,
              fmt::format("pl.tile.gather_row: dst and src must share a dtype, got {} and {}",
                          dtype_name(dst->type.dtype), dtype_name(src->type.dtype)));
    if (a[kTranspose]) {
        auto t = const_int(a[kTranspose]);
        if (!t) raise(codes::kType, a[kTranspose]->loc, "pl.tile.gather_row: transpose must be a constant bool");
        if (*t)
            raise(codes::kUnsupported, a[kTranspose]->loc,
                  "pl.tile.gather_row(transpose=True) places the GM row as an L1 column (a matmul B operand): cvsim "
                  "models "
                  "gather_row as pl.tile.load + pl.tile.assemble, which has no transposing form");
    }
    if (dst->type.mem != Mem::Vec && dst->type.mem != Mem::Mat)
        raise(codes::kUnsupported, dst->loc,
              fmt::format("pl.tile.gather_row into a tile in pl.Mem.{}: gather_row DMAs GM rows into UB (pl.Mem.Vec) "
                          "or L1 (pl.Mem.Mat)",
                          mem_name(dst->type.mem)));
    ExprPtr shapes = a[kShapes];
    ExprPtr runtime_valid;
    if (const ExprPtr& vs = a[kValid]) {
        if (const_int_list(vs))
            shapes = vs;  // only the valid part is transferred; the rest of dst passes through
        else
            runtime_valid = vs;  // a run-time extent: the load reads only its valid window, assemble writes only that
    }
    if (const ExprPtr& vs = a[kValid]) {
        auto v = const_int_list(vs), s = const_int_list(a[kShapes]);
        if (v && s && v->size() == s->size())
            for (size_t d = 0; d < v->size(); ++d)
                if ((*v)[d] > (*s)[d])
                    raise(codes::kType, vs->loc,
                          fmt::format("pl.tile.gather_row: valid_shape {} is larger than shapes {}", shape_str(*v),
                                      shape_str(*s)));
    }
    std::vector<std::pair<std::string, ExprPtr>> la = {{"tensor", src}, {"offsets", a[kSrcOff]}, {"shapes", shapes}};
    if (runtime_valid) la.emplace_back("valid_shape", runtime_valid);
    if (dst->type.mem == Mem::Mat) la.emplace_back("target_memory", passes::mem_lit(Mem::Mat, e.loc));
    ExprPtr ld = passes::make_call(OpCode::Load, la, e.loc);
    ExprPtr rows = hoist(ld);
    return passes::make_call(OpCode::Assemble, {{"target", dst}, {"source", rows}, {"offset", a[kDstOff]}}, e.loc);
}

}  // namespace cvsim::sema
