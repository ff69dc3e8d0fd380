// pl.tile.load(..., clamp=True) (PyPTO: python/pypto/language/op/tile_ops.py `load`, src/ir/op/type_inference.cpp
// InferWindowReadValidShape with clamp): "cut the request back to the source edge instead" of asserting that
// offsets + valid_shape stays inside the source. The tile's valid region becomes, per dimension,
// min(requested, max(extent - offset, 0)) (requested = valid_shape, else shapes), and the load reads only that
// region (pl.tile.load reads its valid region; the rest of the tile is zero). cvsim writes that region into
// the call's valid_shape argument (folded to constants when the offsets are, else a scalar expression the
// run time evaluates) and keeps clamp=True, so the printed call reads back to the same region.
#include <fmt/format.h>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"
#include "frontend/sema_types.h"

namespace cvsim::sema {

namespace {

ir::ExprPtr scalar_binary(const std::string& op, ir::ExprPtr a, ir::ExprPtr b, const SourceLoc& loc) {
    auto r = std::make_shared<ir::Expr>();
    r->kind = ir::ExprKind::Binary;
    r->loc = loc;
    r->sval = op;
    r->args = {std::move(a), std::move(b)};
    r->type = ir::Type::scalar(DType::INDEX);
    return r;
}

}  // namespace

void lower_load_clamp(ir::Expr& call) {
    if (!call.op || call.op->code != ir::OpCode::Load) return;
    const ir::ExprPtr& flag = ir::arg(call, "clamp");
    if (!flag || flag->kind == ir::ExprKind::NoneLit) return;
    if (flag->kind != ir::ExprKind::Bool && !(flag->kind == ir::ExprKind::Int && (flag->ival == 0 || flag->ival == 1)))
        raise(codes::kType, flag->loc, "pl.tile.load: clamp must be True or False");
    if (flag->ival == 0) return;
    const ir::ExprPtr& t = ir::arg(call, "tensor");
    const ir::ExprPtr& off = ir::arg(call, "offsets");
    const ir::ExprPtr& shp = ir::arg(call, "shapes");
    if (!t || t->type.kind != ir::TypeKind::Tensor || !off || !shp) return;  // the type rule reports it
    const auto& S = t->type.shape;
    if (off->args.size() != S.size() || shp->args.size() != S.size()) return;
    size_t vi = call.op->params.size();
    for (size_t i = 0; i < call.op->params.size(); ++i)
        if (call.op->params[i].name == "valid_shape") vi = i;
    ir::ExprPtr req = call.args[vi] && call.args[vi]->kind != ir::ExprKind::NoneLit ? call.args[vi] : shp;
    if (req->args.size() != S.size()) return;
    auto out = std::make_shared<ir::Expr>();
    out->kind = ir::ExprKind::List;
    out->loc = req->loc;
    for (size_t d = 0; d < S.size(); ++d) {
        const ir::ExprPtr& o = off->args[d];
        const ir::ExprPtr& v = req->args[d];
        const bool oc = o->kind == ir::ExprKind::Int, vc = v->kind == ir::ExprKind::Int;
        if (oc && o->ival < 0)
            raise(codes::kOob, o->loc,
                  fmt::format(
                      "pl.tile.load: offset {} of dimension {} is negative; a window must start inside its source",
                      o->ival, d));
        if (oc && vc) {
            out->args.push_back(make_int(std::min(v->ival, std::max<int64_t>(S[d] - o->ival, 0)), v->loc));
            continue;
        }
        // min(v, max(extent - offset, 0)) at run time
        ir::ExprPtr avail = scalar_binary("max", scalar_binary("-", passes::int_lit(S[d], o->loc), o, o->loc),
                                          passes::int_lit(0, o->loc), o->loc);
        out->args.push_back(scalar_binary("min", v, avail, v->loc));
    }
    call.args[vi] = out;
}

}  // namespace cvsim::sema
