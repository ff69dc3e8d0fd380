// The op catalogue (OPS.md): table, spellings, side rules, pipes and type rules.
#include "frontend/ops.h"

#include <fmt/format.h>

#include <map>

#include "frontend/diag.h"

namespace cvsim::ir {

namespace {

ParamSpec req(const char* n) { return {n, true, true}; }
ParamSpec opt(const char* n) { return {n, false, false}; }
ParamSpec req_kw(const char* n) { return {n, true, false}; }

std::vector<OpDef> build_ops() {
    using O = OpCode;
    std::vector<OpDef> v;
    auto add = [&](O c, const char* ns, const char* n, std::vector<ParamSpec> p) {
        v.push_back({c, ns, n, std::move(p), std::string(ns) + "." + n});
    };
    add(O::Load, "tile", "load", {req("tensor"), req("offsets"), req("shapes"), opt("valid_shape"), opt("target_memory")});
    add(O::Store, "tile", "store", {req("tile"), req("offsets"), req("output_tensor"), opt("shapes"), opt("atomic")});
    add(O::Move, "tile", "move", {req("tile"), req_kw("target_memory"), opt("blayout"), opt("slayout")});
    add(O::Slice, "tile", "slice", {req("tile"), req("shape"), req("offset"), opt("valid_shape")});
    add(O::Reshape, "tile", "reshape", {req("tile"), req("shape")});
    add(O::Transpose, "tile", "transpose", {req("tile"), req("axis1"), req("axis2")});
    add(O::TransposeView, "tile", "transpose_view", {req("tile")});
    add(O::SetValidShape, "tile", "set_validshape", {req("tile"), req("rows"), req("cols")});
    add(O::TensorCreate, "tensor", "create", {req("shape"), req("dtype")});
    add(O::Create, "tile", "create", {req("shape"), req_kw("dtype"), opt("target_memory")});
    add(O::Full, "tile", "full", {req("shape"), req_kw("dtype"), req_kw("value")});
    add(O::GetBlockIdx, "tile", "get_block_idx", {});
    add(O::GetSubblockIdx, "tile", "get_subblock_idx", {});
    add(O::Matmul, "tile", "matmul", {req("lhs"), req("rhs")});
    add(O::MatmulAcc, "tile", "matmul_acc", {req("acc"), req("lhs"), req("rhs")});
    add(O::MatmulBias, "tile", "matmul_bias", {req("lhs"), req("rhs"), req("bias")});
    add(O::Gemv, "tile", "gemv", {req("lhs"), req("rhs")});
    add(O::GemvAcc, "tile", "gemv_acc", {req("acc"), req("lhs"), req("rhs")});
    add(O::GemvBias, "tile", "gemv_bias", {req("lhs"), req("rhs"), req("bias")});
    const char* bin[] = {"add", "sub", "mul", "div", "maximum", "minimum"};
    for (int i = 0; i < 6; ++i) add(static_cast<O>(int(O::Add) + i), "tile", bin[i], {req("lhs"), req("rhs")});
    const char* sc[] = {"adds", "subs", "muls", "divs"};
    for (int i = 0; i < 4; ++i) add(static_cast<O>(int(O::Adds) + i), "tile", sc[i], {req("lhs"), req("rhs")});
    const char* un[] = {"exp", "log", "sqrt", "rsqrt", "recip", "abs", "neg", "relu"};
    for (int i = 0; i < 8; ++i) add(static_cast<O>(int(O::Exp) + i), "tile", un[i], {req("tile")});
    add(O::Cast, "tile", "cast", {req("tile"), req("target_type"), opt("mode")});
    add(O::RowSum, "tile", "row_sum", {req("tile")});
    add(O::RowMax, "tile", "row_max", {req("tile")});
    add(O::RowExpandMul, "tile", "row_expand_mul", {req("tile"), req("row_vec")});
    add(O::RowExpandAdd, "tile", "row_expand_add", {req("tile"), req("row_vec")});
    add(O::RowExpandSub, "tile", "row_expand_sub", {req("tile"), req("row_vec")});
    add(O::TpushToAiv, "tile", "tpush_to_aiv", {req("tile"), req_kw("split"), opt("id")});
    add(O::TpushToAic, "tile", "tpush_to_aic", {req("tile"), req_kw("split"), opt("id")});
    add(O::TpopFromAic, "tile", "tpop_from_aic", {opt("split"), opt("id"), opt("shape"), opt("dtype")});
    add(O::TpopFromAiv, "tile", "tpop_from_aiv", {opt("split"), opt("id"), opt("shape"), opt("dtype")});
    // split= is accepted and ignored as upstream does (its StampTfreeSplit takes it from the pop).
    add(O::TfreeToAic, "system", "tfree_to_aic", {req("tile"), opt("split"), opt("id")});
    add(O::TfreeToAiv, "system", "tfree_to_aiv", {req("tile"), opt("split"), opt("id")});
    add(O::ReserveBuffer, "system", "reserve_buffer", {req_kw("name"), req_kw("size"), opt("base")});
    add(O::ImportPeerBuffer, "system", "import_peer_buffer", {req_kw("name"), req_kw("peer_func")});
    for (auto [c, n] : {std::pair{O::AicInitializePipe, "aic_initialize_pipe"}, std::pair{O::AivInitializePipe, "aiv_initialize_pipe"}})
        // The consumer buffers default to 0 (as PyPTO's op builder does; sema fills them in).
        add(c, "system", n, {{"c2v_consumer_buf", false, true}, {"v2c_consumer_buf", false, true}, req_kw("dir_mask"), req_kw("slot_size"),
                             opt("slot_num"), opt("local_slot_num"), opt("id")});
    add(O::AivShard, "tile", "aiv_shard", {req("tile"), opt("split")});
    add(O::AicGather, "tile", "aic_gather", {req("tile"), opt("split")});
    add(O::Syncall, "system", "syncall", {opt("core_type"), opt("mode"), opt("gm_workspace"), opt("used_cores")});
    add(O::SyncSet, "system", "sync_set", {req("event_id"), opt("pipe"), opt("ffts_mode"), opt("core_type")});
    add(O::SyncWait, "system", "sync_wait", {req("event_id"), opt("pipe"), opt("core_type")});
    add(O::SetFfts, "system", "set_ffts", {req("workspace")});
    add(O::Fence, "system", "fence", {});
    add(O::CacheInvalid, "system", "cacheinvalid", {opt("tensor")});
    return v;
}

const std::map<std::string, std::vector<const OpDef*>, std::less<>>& spelling_table() {
    static const auto table = [] {
        std::map<std::string, std::vector<const OpDef*>, std::less<>> t;
        for (const auto& op : all_ops()) {
            t[op.name()].push_back(&op);
            auto& shorts = t[op.short_name];
            shorts.push_back(&op);
        }
        // `pl.create_tensor` is the short spelling of tensor.create; `pl.create` stays tile.create.
        t["create_tensor"] = {&op_def(OpCode::TensorCreate)};
        t["create"] = {&op_def(OpCode::Create)};
        // Unified ops: pl.add(tile, tile) is tile.add, pl.add(tile, scalar) is tile.adds.
        const std::pair<const char*, OpCode> unified[] = {
            {"add", OpCode::Adds}, {"sub", OpCode::Subs}, {"mul", OpCode::Muls}, {"div", OpCode::Divs}};
        for (auto [n, c] : unified) t[n].push_back(&op_def(c));
        return t;
    }();
    return table;
}

}  // namespace

std::string_view side_name(Side s) {
    switch (s) {
        case Side::Shared: return "SHARED";
        case Side::Cube: return "CUBE";
        case Side::Vector: return "VECTOR";
        case Side::Mixed: return "MIXED";
        case Side::BoundaryC2V: return "BOUNDARY(C2V)";
        case Side::BoundaryV2C: return "BOUNDARY(V2C)";
    }
    return "?";
}

std::string_view pipe_name(Pipe p) {
    static constexpr std::string_view names[] = {"SCALAR", "MTE1", "MTE2", "MTE3", "CUBE", "FIXP", "VECTOR"};
    return names[static_cast<int>(p)];
}

const std::vector<OpDef>& all_ops() {
    static const std::vector<OpDef> ops = build_ops();
    return ops;
}

const OpDef& op_def(OpCode code) {
    static const auto index = [] {
        std::vector<const OpDef*> v(256, nullptr);
        for (const auto& op : all_ops()) v[static_cast<size_t>(op.code)] = &op;
        return v;
    }();
    return *index[static_cast<size_t>(code)];
}

std::vector<const OpDef*> lookup_ops(std::string_view spelling) {
    const auto& t = spelling_table();
    auto it = t.find(spelling);
    if (it == t.end()) return {};
    return it->second;
}

const ExprPtr& arg(const Expr& call, const std::string& name) {
    static const ExprPtr kNull;
    if (!call.op) return kNull;
    const auto& ps = call.op->params;
    for (size_t i = 0; i < ps.size() && i < call.args.size(); ++i)
        if (ps[i].name == name) return call.args[i];
    return kNull;
}

bool is_cross_core(OpCode c) { return c >= OpCode::TpushToAiv && c <= OpCode::AicGather; }
bool is_tile_compute(OpCode c) { return c >= OpCode::Add && c <= OpCode::RowExpandSub; }
bool is_matmul(OpCode c) { return c >= OpCode::Matmul && c <= OpCode::GemvBias; }

Side call_side(const Expr& call) {
    using O = OpCode;
    switch (call.op->code) {
        case O::TpushToAiv: case O::TpopFromAiv: case O::TfreeToAiv: case O::AicInitializePipe: return Side::Cube;
        case O::TpushToAic: case O::TpopFromAic: case O::TfreeToAic: case O::AivInitializePipe: return Side::Vector;
        case O::AivShard: return Side::BoundaryC2V;
        case O::AicGather: return Side::BoundaryV2C;
        case O::Move: {
            Mem src = arg(call, "tile")->type.mem;
            Mem dst = call.type.mem;
            if (is_cube_mem(src) && dst == Mem::Vec) return Side::BoundaryC2V;
            if (src == Mem::Vec && is_cube_mem(dst)) return Side::BoundaryV2C;
            return is_cube_mem(src) ? Side::Cube : Side::Vector;
        }
        case O::Syncall: {
            auto ct = const_str(arg(call, "core_type"));
            if (ct && *ct == "aic_only") return Side::Cube;
            if (ct && *ct == "aiv_only") return Side::Vector;
            return Side::Shared;
        }
        case O::SyncSet: case O::SyncWait: {
            auto ct = const_str(arg(call, "core_type"));
            if (ct && *ct == "aic") return Side::Cube;
            if (ct && *ct == "aiv") return Side::Vector;
            return Side::Shared;
        }
        case O::GetSubblockIdx: return Side::Vector;
        case O::Load: case O::Create: case O::Full:
            return call.type.kind == TypeKind::Tile && is_cube_mem(call.type.mem) ? Side::Cube : Side::Vector;
        case O::Store: case O::Reshape: case O::Transpose: case O::TransposeView: case O::Slice: case O::SetValidShape: {
            const ExprPtr& t = arg(call, "tile");
            if (!t || t->type.kind != TypeKind::Tile) return Side::Shared;  // tensor-level slice/reshape
            return is_cube_mem(t->type.mem) ? Side::Cube : Side::Vector;
        }
        default:
            break;
    }
    if (is_matmul(call.op->code)) return Side::Cube;
    if (is_tile_compute(call.op->code)) return Side::Vector;
    return Side::Shared;
}

Pipe call_pipe(const Expr& call) {
    using O = OpCode;
    switch (call.op->code) {
        case O::Load: return Pipe::Mte2;
        case O::Store: return arg(call, "tile")->type.mem == Mem::Acc ? Pipe::Fixp : Pipe::Mte3;
        case O::Move: {
            Mem src = arg(call, "tile")->type.mem;
            Mem dst = call.type.mem;
            if (src == Mem::Acc) return Pipe::Fixp;
            if (src == Mem::Mat && dst != Mem::Vec) return Pipe::Mte1;
            if (src == Mem::Vec && dst == Mem::Vec) return Pipe::Vector;
            return Pipe::Mte3;
        }
        case O::Transpose: case O::Full: return Pipe::Vector;
        case O::TpushToAiv: return Pipe::Fixp;
        case O::TpushToAic: return Pipe::Mte3;
        case O::TpopFromAic: case O::TpopFromAiv: return Pipe::Mte2;
        default: break;
    }
    if (is_matmul(call.op->code)) return Pipe::Cube;
    if (is_tile_compute(call.op->code)) return Pipe::Vector;
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
