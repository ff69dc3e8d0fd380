// Queries on an op call: its arguments by name, op classes, side and pipe rules, numerics, constant operands.
#include "frontend/ops.h"

#include <fmt/format.h>

#include <map>

#include "frontend/diag.h"
#include "frontend/ops_more.h"
#include "frontend/ops_numerics.h"
#include "frontend/ops_sort.h"

namespace cvsim::ir {

std::string_view side_name(Side s) {
    switch (s) {
        case Side::Shared:
            return "SHARED";
        case Side::Cube:
            return "CUBE";
        case Side::Vector:
            return "VECTOR";
        case Side::Mixed:
            return "MIXED";
        case Side::BoundaryC2V:
            return "BOUNDARY(C2V)";
        case Side::BoundaryV2C:
            return "BOUNDARY(V2C)";
    }
    return "?";
}

const ExprPtr& arg(const Expr& call, const std::string& name) {
    static const ExprPtr kNull;
    if (!call.op) return kNull;
    const auto& ps = call.op->params;
    for (size_t i = 0; i < ps.size() && i < call.args.size(); ++i)
        if (ps[i].name == name) return call.args[i];
    return kNull;
}

bool is_cross_core(OpCode c) {
    return c >= OpCode::TpushToAiv && c <= OpCode::AicGather;
}
bool is_tile_compute(OpCode c) {
    const OpDef& d = op_def(c);
    return d.effect == Effect::Compute && d.side_rule == SideRule::Fixed && d.side == Side::Vector;
}
bool is_matmul(OpCode c) {
    return op_def(c).numerics == &numerics::matmul;
}
bool is_inplace_safe(OpCode c) {
    const OpDef& d = op_def(c);
    if (d.pipe != Pipe::Vector || d.effect != Effect::Compute) return false;
    using O = OpCode;
    switch (c) {
        case O::Fmod:
        case O::Fmods:
        case O::And:
        case O::Ands:
        case O::Or:
        case O::Ors:
        case O::Xor:
        case O::Xors:
        case O::Prelu:
        case O::Recip:
        case O::FillpadExpand:
        case O::Gather:
        case O::GatherMask:
        case O::RowSum:
        case O::RowMax:
        case O::RowMin:
        case O::RowProd:
        case O::RowArgmax:
        case O::RowArgmin:
        case O::ColArgmax:
        case O::ColArgmin:
        case O::Sort32:
        case O::MrgSort1:
        case O::MrgSort2:
        case O::Concat:
        case O::Transpose:
        case O::Gatherb:
        case O::ScatterUpdate:
        case O::GatherCompareDst:
        case O::GatherCompareCdst:
            return false;
        default:
            return true;
    }
}

bool OpOperands::variant_bits(int bits) const {
    return (op->variant & bits) != 0;
}

std::string_view effect_name(Effect e) {
    static constexpr std::string_view names[] = {"compute",   "view", "gm-load", "gm-store",
                                                 "transport", "sync", "scalar"};
    return names[static_cast<int>(e)];
}

std::vector<const ExprPtr*> value_operands(const Expr& call) {
    std::vector<const ExprPtr*> out;
    const auto& ps = call.op->params;
    for (size_t i = 0; i < ps.size() && i < call.args.size(); ++i)
        if (ps[i].value && call.args[i]) out.push_back(&call.args[i]);
    return out;
}

TileData eval_numerics(const OpOperands& in) {
    if (!in.op || !in.op->numerics)
        throw std::invalid_argument((in.op ? in.op->name() : std::string("?")) + ": no numerics entry");
    return in.op->numerics(in);
}

Side call_side(const Expr& call) {
    const OpDef& d = *call.op;
    switch (d.side_rule) {
        case SideRule::Fixed:
            return d.side;
        case SideRule::Move: {
            const ExprPtr& a0 = call.args.empty() ? arg(call, "tile") : call.args[0];  // move's 'tile', extract's 'src'
            if (!a0) return Side::Shared;
            Mem src = a0->type.mem;
            Mem dst = call.type.mem;
            if (is_cube_mem(src) && dst == Mem::Vec) return Side::BoundaryC2V;
            if (src == Mem::Vec && is_cube_mem(dst)) return Side::BoundaryV2C;
            return is_cube_mem(src) ? Side::Cube : Side::Vector;
        }
        case SideRule::Syncall: {
            auto ct = const_str(arg(call, "core_type"));
            if (ct && *ct == "aic_only") return Side::Cube;
            if (ct && *ct == "aiv_only") return Side::Vector;
            return Side::Shared;
        }
        case SideRule::SyncFlag: {
            auto ct = const_str(arg(call, "core_type"));
            if (ct && *ct == "aic") return Side::Cube;
            if (ct && *ct == "aiv") return Side::Vector;
            return Side::Shared;
        }
        case SideRule::ResultMem:
            return call.type.kind == TypeKind::Tile && is_cube_mem(call.type.mem) ? Side::Cube : Side::Vector;
        case SideRule::TileMem: {
            const ExprPtr& t = arg(call, "tile") ? arg(call, "tile")
                                                 : (call.args.empty() ? arg(call, "tile")
                                                                      : call.args[0]);  // reinterpret_view's 'data'
            if (!t || t->type.kind != TypeKind::Tile) return Side::Shared;              // tensor-level slice/reshape
            return is_cube_mem(t->type.mem) ? Side::Cube : Side::Vector;
        }
    }
    return Side::Shared;
}

Pipe call_pipe(const Expr& call) {
    const OpDef& d = *call.op;
    switch (d.pipe_rule) {
        case PipeRule::Fixed:
            return d.pipe;
        case PipeRule::Store:
            return arg(call, "tile")->type.mem == Mem::Acc ? Pipe::Fixp : Pipe::Mte3;
        case PipeRule::Assemble: {  // into UB: the vector unit; into L1: FIXPIPE from L0C, else in MTE2 order
            const ExprPtr& src = arg(call, "source");
            if (call.type.mem != Mem::Mat) return Pipe::Vector;
            return src && src->type.mem == Mem::Acc ? Pipe::Fixp : Pipe::Mte2;
        }
        case PipeRule::Move: {
            const ExprPtr& a0 = call.args.empty() ? arg(call, "tile") : call.args[0];  // move's 'tile', extract's 'src'
            if (!a0) return d.pipe;
            Mem src = a0->type.mem;
            Mem dst = call.type.mem;
            if (src == Mem::Acc) return Pipe::Fixp;
            if (src == Mem::Mat && dst != Mem::Vec) return Pipe::Mte1;
            if (src == Mem::Vec && dst == Mem::Vec) return Pipe::Vector;
            return Pipe::Mte3;
        }
    }
    return Pipe::Scalar;
}

std::optional<int64_t> const_int(const ExprPtr& e) {
    if (!e) return std::nullopt;
    if (e->kind == ExprKind::Int || e->kind == ExprKind::Bool) return e->ival;
    if (e->kind == ExprKind::Const && dtype_is_int(e->dtype)) return static_cast<int64_t>(e->fval);
    return std::nullopt;
}

std::optional<double> const_number(const ExprPtr& e) {
    if (!e) return std::nullopt;
    if (e->kind == ExprKind::Float || e->kind == ExprKind::Const) return e->fval;
    if (auto i = const_int(e)) return static_cast<double>(*i);
    return std::nullopt;
}

std::optional<std::vector<int64_t>> const_int_list(const ExprPtr& e) {
    if (!e || (e->kind != ExprKind::List && e->kind != ExprKind::Tuple)) return std::nullopt;
    std::vector<int64_t> v;
    for (auto& a : e->args) {
        auto i = const_int(a);
        if (!i) return std::nullopt;
        v.push_back(*i);
    }
    return v;
}

bool is_atomic_add_store(const Expr& call) {
    if (!call.op || call.op->code != OpCode::Store) return false;
    const ExprPtr& a = arg(call, "atomic");
    return a && (a->kind == ExprKind::Enum || a->kind == ExprKind::Int) && a->ival == 1;
}

std::optional<std::string> const_str(const ExprPtr& e) {
    if (!e || e->kind != ExprKind::Str) return std::nullopt;
    return e->sval;
}

}  // namespace cvsim::ir
