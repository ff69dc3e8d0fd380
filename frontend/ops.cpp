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
    add(O::TfreeToAic, "system", "tfree_to_aic", {req("tile"), opt("id")});
    add(O::TfreeToAiv, "system", "tfree_to_aiv", {req("tile"), opt("id")});
    add(O::ReserveBuffer, "system", "reserve_buffer", {req_kw("name"), req_kw("size"), opt("base")});
    add(O::ImportPeerBuffer, "system", "import_peer_buffer", {req_kw("name"), req_kw("peer_func")});
    for (auto [c, n] : {std::pair{O::AicInitializePipe, "aic_initialize_pipe"}, std::pair{O::AivInitializePipe, "aiv_initialize_pipe"}})
        add(c, "system", n, {req("c2v_consumer_buf"), req("v2c_consumer_buf"), req_kw("dir_mask"), req_kw("slot_size"), opt("slot_num"), opt("id")});
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

[[noreturn]] void type_error(const Expr& call, const std::string& msg, const std::string& hint = "") {
    raise("E-TYPE", call.loc, msg, hint);
}

std::string op_label(const Expr& call) { return "pl." + call.op->name(); }

const Type& tile_arg(const Expr& call, const std::string& name) {
    const ExprPtr& a = arg(call, name);
    if (!a || a->type.kind != TypeKind::Tile) {
        raise("E-TYPE", a ? a->loc : call.loc,
              fmt::format("{}: argument '{}' must be a tile, got {}", op_label(call), name,
                          a ? type_str(a->type) : "nothing"));
    }
    return a->type;
}

void expect_mem(const Expr& call, const std::string& name, std::initializer_list<Mem> mems) {
    const Type& t = tile_arg(call, name);
    for (Mem m : mems)
        if (t.mem == m) return;
    std::string want;
    for (Mem m : mems) want += (want.empty() ? "" : " or ") + std::string("pl.Mem.") + std::string(mem_name(m));
    raise("E-TYPE", arg(call, name)->loc,
          fmt::format("{}: argument '{}' must be in {}, got {}", op_label(call), name, want, type_str(t)));
}

Mem enum_mem(const Expr& call, const std::string& name, Mem dflt) {
    const ExprPtr& a = arg(call, name);
    if (!a) return dflt;
    if (a->kind != ExprKind::Enum || a->enum_kind != EnumKind::Mem)
        raise("E-TYPE", a->loc, fmt::format("{}: '{}' must be a pl.Mem member", op_label(call), name));
    return static_cast<Mem>(a->ival);
}

std::vector<int64_t> int_list(const Expr& call, const std::string& name) {
    const ExprPtr& a = arg(call, name);
    auto v = const_int_list(a);
    if (!v) raise("E-TYPE", a ? a->loc : call.loc, fmt::format("{}: '{}' must be a list of constant integers", op_label(call), name));
    return *v;
}

// The list's entries may be scalar expressions (run-time offsets): check element kinds only.
void check_index_list(const Expr& call, const std::string& name, size_t rank) {
    const ExprPtr& a = arg(call, name);
    if (!a || (a->kind != ExprKind::List && a->kind != ExprKind::Tuple))
        raise("E-TYPE", a ? a->loc : call.loc, fmt::format("{}: '{}' must be a list", op_label(call), name));
    if (a->args.size() != rank)
        raise("E-TYPE", a->loc, fmt::format("{}: '{}' has {} entries, the tensor has rank {}", op_label(call), name, a->args.size(), rank));
    for (auto& e : a->args)
        if (e->type.kind != TypeKind::Scalar || !dtype_is_int(e->type.dtype))
            raise("E-TYPE", e->loc, fmt::format("{}: offsets must be integer scalars, got {}", op_label(call), type_str(e->type)));
}

// The 2-D tile shape of a window: the tensor window's trailing two extents, leading extents must be 1.
std::vector<int64_t> window_tile_shape(const Expr& call, const std::vector<int64_t>& shapes) {
    if (shapes.size() <= 2) return shapes;
    for (size_t i = 0; i + 2 < shapes.size(); ++i)
        if (shapes[i] != 1)
            raise("E-UNSUPPORTED", call.loc, fmt::format("{}: a tile window must be 2-D (leading extents 1), got {}", op_label(call), shape_str(shapes)));
    return {shapes[shapes.size() - 2], shapes.back()};
}

// E-OOB when every offset is constant and the window leaves the tensor.
void check_window(const Expr& call, const ExprPtr& offsets, const std::vector<int64_t>& extents, const Type& tensor,
                  const std::string& tensor_name) {
    if (extents.size() != tensor.shape.size()) return;
    auto off = const_int_list(offsets);
    for (size_t i = 0; i < extents.size(); ++i) {
        if (extents[i] <= 0) type_error(call, fmt::format("{}: window extent {} is not positive", op_label(call), extents[i]));
        if (extents[i] > tensor.shape[i])
            raise("E-OOB", call.loc, fmt::format("{}: window {} does not fit tensor {} of shape {}", op_label(call),
                                                 shape_str(extents), tensor_name, shape_str(tensor.shape)));
        if (!off) continue;
        int64_t o = (*off)[i];
        if (o < 0 || o + extents[i] > tensor.shape[i]) {
            std::string win;
            for (size_t d = 0; d < extents.size(); ++d)
                win += fmt::format("{}{}:{}", d ? ", " : "", (*off)[d], (*off)[d] + extents[d]);
            raise("E-OOB", call.loc,
                  fmt::format("{}: window [{}] is outside tensor {} of shape {} (dimension {})", op_label(call), win,
                              tensor_name, shape_str(tensor.shape), i),
                  "offsets + shape must stay within the tensor");
        }
    }
}

std::string var_label(const ExprPtr& e) { return e && e->kind == ExprKind::Var ? "'" + e->var->name + "'" : "operand"; }

Type binary_type(const Expr& call) {
    const Type& a = tile_arg(call, "lhs");
    const Type& b = tile_arg(call, "rhs");
    expect_mem(call, "lhs", {Mem::Vec});
    expect_mem(call, "rhs", {Mem::Vec});
    if (a.shape != b.shape)
        type_error(call, fmt::format("{}: operand shapes differ: {} vs {}", op_label(call), shape_str(a.shape), shape_str(b.shape)));
    if (a.dtype != b.dtype)
        type_error(call, fmt::format("{}: operand dtypes differ: {} vs {}", op_label(call), dtype_name(a.dtype), dtype_name(b.dtype)),
                   "insert pl.tile.cast on one operand");
    Type r = Type::tile(a.shape, a.dtype, Mem::Vec);
    r.valid = a.valid;
    return r;
}

Type vec_unary_type(const Expr& call) {
    const Type& a = tile_arg(call, "tile");
    expect_mem(call, "tile", {Mem::Vec});
    Type r = Type::tile(a.shape, a.dtype, Mem::Vec);
    r.valid = a.valid;
    return r;
}

Type matmul_type(const Expr& call, bool gemv, bool has_acc, bool has_bias) {
    expect_mem(call, "lhs", {Mem::Left});
    expect_mem(call, "rhs", {Mem::Right});
    const Type& l = tile_arg(call, "lhs");
    const Type& r = tile_arg(call, "rhs");
    if (l.shape.size() != 2 || r.shape.size() != 2) type_error(call, fmt::format("{}: operands must be 2-D", op_label(call)));
    if (l.dtype != r.dtype)
        type_error(call, fmt::format("{}: lhs is {} but rhs is {}", op_label(call), dtype_name(l.dtype), dtype_name(r.dtype)));
    if (l.shape[1] != r.shape[0])
        type_error(call, fmt::format("{}: inner dimensions differ: lhs {} x rhs {} (K = {} vs {})", op_label(call),
                                     shape_str(l.shape), shape_str(r.shape), l.shape[1], r.shape[0]),
                   "lhs is M x K and rhs is K x N");
    if (gemv && l.shape[0] != 1) type_error(call, fmt::format("{}: lhs must be 1 x K, got {}", op_label(call), shape_str(l.shape)));
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
            type_error(call, fmt::format("{}: accumulator is {}, the product is {}", op_label(call), type_str(a), type_str(res)));
    }
    if (has_bias) {
        expect_mem(call, "bias", {Mem::Bias});
        const Type& b = tile_arg(call, "bias");
        if (b.shape.size() != 2 || b.shape[0] != 1 || b.shape[1] != r.shape[1])
            type_error(call, fmt::format("{}: bias must be 1 x {}, got {}", op_label(call), r.shape[1], shape_str(b.shape)));
    }
    return res;
}

Type move_type(const Expr& call) {
    const Type& src = tile_arg(call, "tile");
    const ExprPtr& tm = arg(call, "target_memory");
    if (!tm) type_error(call, "pl.tile.move: target_memory is required");
    Mem dst = enum_mem(call, "target_memory", Mem::Vec);
    bool ok = false;
    switch (src.mem) {
        case Mem::Mat: ok = dst == Mem::Left || dst == Mem::Right || dst == Mem::Bias || dst == Mem::Vec || dst == Mem::Mat; break;
        case Mem::Acc: ok = dst == Mem::Mat || dst == Mem::Vec; break;
        case Mem::Vec: ok = dst == Mem::Vec || dst == Mem::Mat || dst == Mem::Left || dst == Mem::Right || dst == Mem::Bias; break;
        default: ok = false;
    }
    if (!ok)
        type_error(call, fmt::format("pl.tile.move: cannot move a tile from pl.Mem.{} to pl.Mem.{}", mem_name(src.mem), mem_name(dst)));
    Type r = Type::tile(src.shape, src.dtype, dst);
    r.valid = src.valid;
    auto layout_arg = [&](const char* n) -> std::optional<TileLayout> {
        const ExprPtr& a = arg(call, n);
        if (!a) return std::nullopt;
        if (a->kind != ExprKind::Enum || a->enum_kind != EnumKind::TileLayout)
            raise("E-TYPE", a->loc, fmt::format("pl.tile.move: '{}' must be a pl.TileLayout member", n));
        return static_cast<TileLayout>(a->ival);
    };
    auto b = layout_arg("blayout");
    auto s = layout_arg("slayout");
    if (b || s) {
        r.view.blayout = b;
        r.view.slayout = s;
        r.view.written = true;
        if (!layout_from_view(b.value_or(TileLayout::row_major), s.value_or(TileLayout::none_box)))
            type_error(call, "pl.tile.move: blayout/slayout do not name a layout (ND, DN, NZ or ZN)");
    }
    return r;
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

std::optional<std::string> const_str(const ExprPtr& e) {
    if (!e || e->kind != ExprKind::Str) return std::nullopt;
    return e->sval;
}

Type infer_call_type(const Expr& call) {
    using O = OpCode;
    const O c = call.op->code;
    for (size_t i = 0; i < call.op->params.size(); ++i)
        if (call.op->params[i].required && (i >= call.args.size() || !call.args[i]))
            type_error(call, fmt::format("{}: missing required argument '{}'", op_label(call), call.op->params[i].name));
    switch (c) {
        case O::Load: {
            const ExprPtr& t = arg(call, "tensor");
            if (t->type.kind != TypeKind::Tensor)
                raise("E-TYPE", t->loc, fmt::format("pl.tile.load: 'tensor' must be a tensor, got {}", type_str(t->type)));
            check_index_list(call, "offsets", t->type.shape.size());
            auto shapes = int_list(call, "shapes");
            if (shapes.size() != t->type.shape.size())
                type_error(call, fmt::format("pl.tile.load: shapes {} has rank {}, tensor {} has rank {}", shape_str(shapes), shapes.size(), var_label(t), t->type.shape.size()));
            check_window(call, arg(call, "offsets"), shapes, t->type, var_label(t));
            Mem m = enum_mem(call, "target_memory", Mem::Vec);
            if (m != Mem::Vec && m != Mem::Mat)
                type_error(call, fmt::format("pl.tile.load: target_memory must be pl.Mem.Vec or pl.Mem.Mat, got pl.Mem.{}", mem_name(m)));
            Type r = Type::tile(window_tile_shape(call, shapes), t->type.dtype, m);
            if (auto vs = const_int_list(arg(call, "valid_shape"))) {
                if (vs->size() != r.shape.size()) type_error(call, "pl.tile.load: valid_shape rank differs from the tile's");
                if (*vs != r.shape) r.valid = *vs;
            }
            return r;
        }
        case O::Store: {
            const Type& tile = tile_arg(call, "tile");
            expect_mem(call, "tile", {Mem::Vec, Mem::Acc});
            const ExprPtr& out = arg(call, "output_tensor");
            if (out->type.kind != TypeKind::Tensor)
                raise("E-TYPE", out->loc, fmt::format("pl.tile.store: 'output_tensor' must be a tensor, got {}", type_str(out->type)));
            check_index_list(call, "offsets", out->type.shape.size());
            std::vector<int64_t> ext = tile.shape;
            if (auto s = const_int_list(arg(call, "shapes"))) ext = *s;
            if (ext.size() < out->type.shape.size()) ext.insert(ext.begin(), out->type.shape.size() - ext.size(), 1);
            if (ext.size() != out->type.shape.size())
                type_error(call, fmt::format("pl.tile.store: tile of rank {} into tensor of rank {}", ext.size(), out->type.shape.size()));
            check_window(call, arg(call, "offsets"), ext, out->type, var_label(out));
            bool dtype_ok = tile.dtype == out->type.dtype ||
                            (tile.mem == Mem::Acc && dtype_is_float(tile.dtype) && dtype_is_float(out->type.dtype));
            if (!dtype_ok)
                type_error(call, fmt::format("pl.tile.store: tile is {} but tensor {} is {}", dtype_name(tile.dtype), var_label(out), dtype_name(out->type.dtype)),
                           "cast the tile first (pl.tile.cast)");
            return out->type;
        }
        case O::Move: return move_type(call);
        case O::Slice: {
            const ExprPtr& x = arg(call, "tile");
            auto shape = int_list(call, "shape");
            if (x->type.kind == TypeKind::Tile) {
                Type r = Type::tile(shape, x->type.dtype, x->type.mem);
                r.view = x->type.view;
                if (auto vs = const_int_list(arg(call, "valid_shape")); vs && *vs != shape) r.valid = *vs;
                return r;
            }
            if (x->type.kind == TypeKind::Tensor) {
                check_window(call, arg(call, "offset"), shape, x->type, var_label(x));
                return Type::tensor(shape, x->type.dtype);
            }
            type_error(call, "pl.tile.slice: operand must be a tile or a tensor");
        }
        case O::Reshape: {
            const ExprPtr& x = arg(call, "tile");
            auto shape = int_list(call, "shape");
            int64_t n = 1;
            for (auto d : shape) n *= d;
            if (n != x->type.numel())
                type_error(call, fmt::format("pl.tile.reshape: {} has {} elements, {} has {}", type_str(x->type), x->type.numel(), shape_str(shape), n));
            Type r = x->type;
            r.shape = shape;
            r.valid.clear();
            return r;
        }
        case O::Transpose: {
            Type r = vec_unary_type(call);
            if (r.shape.size() != 2) type_error(call, "pl.tile.transpose: tile must be 2-D");
            std::swap(r.shape[0], r.shape[1]);
            if (!r.valid.empty()) std::swap(r.valid[0], r.valid[1]);
            return r;
        }
        case O::TransposeView: {
            Type r = tile_arg(call, "tile");
            if (r.shape.size() != 2) type_error(call, "pl.tile.transpose_view: tile must be 2-D");
            std::swap(r.shape[0], r.shape[1]);
            Layout l = r.layout();
            Layout nl = l == Layout::NZ ? Layout::ZN : l == Layout::ZN ? Layout::NZ : l == Layout::ND ? Layout::DN : Layout::ND;
            TileLayout b, s;
            view_from_layout(nl, b, s);
            r.view.blayout = b;
            r.view.slayout = s;
            r.view.written = true;
            return r;
        }
        case O::SetValidShape: {
            Type r = tile_arg(call, "tile");
            auto rows = const_int(arg(call, "rows"));
            auto cols = const_int(arg(call, "cols"));
            if (rows && cols) {
                if (*rows > r.rows() || *cols > r.cols() || *rows < 0 || *cols < 0)
                    type_error(call, fmt::format("pl.tile.set_validshape: valid shape [{}, {}] exceeds tile {}", *rows, *cols, shape_str(r.shape)));
                r.valid = {*rows, *cols};
                if (r.valid == r.shape) r.valid.clear();
            }
            return r;
        }
        case O::TensorCreate: {
            auto shape = int_list(call, "shape");
            const ExprPtr& d = arg(call, "dtype");
            if (d->kind != ExprKind::DTypeLit) raise("E-TYPE", d->loc, "pl.tensor.create: dtype must be a pl dtype");
            return Type::tensor(shape, d->dtype);
        }
        case O::Create: case O::Full: {
            auto shape = int_list(call, "shape");
            const ExprPtr& d = arg(call, "dtype");
            if (d->kind != ExprKind::DTypeLit) raise("E-TYPE", d->loc, fmt::format("{}: dtype must be a pl dtype", op_label(call)));
            if (c == O::Full && !const_number(arg(call, "value")) && arg(call, "value")->type.kind != TypeKind::Scalar)
                type_error(call, "pl.tile.full: value must be a number or a scalar");
            return Type::tile(shape, d->dtype, c == O::Full ? Mem::Vec : enum_mem(call, "target_memory", Mem::Vec));
        }
        case O::GetBlockIdx: case O::GetSubblockIdx: return Type::scalar(DType::INDEX);
        case O::Matmul: return matmul_type(call, false, false, false);
        case O::MatmulAcc: return matmul_type(call, false, true, false);
        case O::MatmulBias: return matmul_type(call, false, false, true);
        case O::Gemv: return matmul_type(call, true, false, false);
        case O::GemvAcc: return matmul_type(call, true, true, false);
        case O::GemvBias: return matmul_type(call, true, false, true);
        case O::Add: case O::Sub: case O::Mul: case O::Div: case O::Maximum: case O::Minimum: return binary_type(call);
        case O::Adds: case O::Subs: case O::Muls: case O::Divs: {
            const Type& a = tile_arg(call, "lhs");
            expect_mem(call, "lhs", {Mem::Vec});
            const ExprPtr& s = arg(call, "rhs");
            if (s->type.kind != TypeKind::Scalar)
                raise("E-TYPE", s->loc, fmt::format("{}: 'rhs' must be a scalar, got {}", op_label(call), type_str(s->type)));
            Type r = Type::tile(a.shape, a.dtype, Mem::Vec);
            r.valid = a.valid;
            return r;
        }
        case O::Exp: case O::Log: case O::Sqrt: case O::Rsqrt: case O::Recip: {
            Type r = vec_unary_type(call);
            if (!dtype_is_float(r.dtype)) type_error(call, fmt::format("{}: needs a float tile, got {}", op_label(call), dtype_name(r.dtype)));
            return r;
        }
        case O::Abs: case O::Neg: case O::Relu: return vec_unary_type(call);
        case O::Cast: {
            Type r = vec_unary_type(call);
            const ExprPtr& d = arg(call, "target_type");
            if (d->kind != ExprKind::DTypeLit) raise("E-TYPE", d->loc, "pl.tile.cast: target_type must be a pl dtype");
            r.dtype = d->dtype;
            if (auto m = const_str(arg(call, "mode")); m && *m != "round" && *m != "floor" && *m != "ceil" && *m != "trunc" && *m != "rint")
                raise("E-TYPE", arg(call, "mode")->loc, fmt::format("pl.tile.cast: unknown mode '{}' (round, floor, ceil, trunc)", *m));
            return r;
        }
        case O::RowSum: case O::RowMax: {
            Type r = vec_unary_type(call);
            if (r.shape.size() != 2) type_error(call, fmt::format("{}: tile must be 2-D", op_label(call)));
            r.shape[1] = 1;
            if (!r.valid.empty()) r.valid[1] = 1;
            return r;
        }
        case O::RowExpandMul: case O::RowExpandAdd: case O::RowExpandSub: {
            Type r = vec_unary_type(call);
            const Type& v = tile_arg(call, "row_vec");
            expect_mem(call, "row_vec", {Mem::Vec});
            if (r.shape.size() != 2 || v.shape.size() != 2 || v.shape[0] != r.shape[0] || v.shape[1] != 1)
                type_error(call, fmt::format("{}: row vector must be [{}, 1], got {}", op_label(call), r.shape.empty() ? 0 : r.shape[0], shape_str(v.shape)));
            if (v.dtype != r.dtype) type_error(call, fmt::format("{}: operand dtypes differ", op_label(call)));
            return r;
        }
        case O::TpushToAiv: {
            const Type& t = tile_arg(call, "tile");
            if (!is_cube_mem(t.mem)) type_error(call, fmt::format("pl.tile.tpush_to_aiv: pushes a cube tile, got {}", type_str(t)));
            return Type::none();
        }
        case O::TpushToAic: expect_mem(call, "tile", {Mem::Vec}); return Type::none();
        case O::TpopFromAic: case O::TpopFromAiv: {
            auto shape = const_int_list(arg(call, "shape"));
            const ExprPtr& d = arg(call, "dtype");
            if (!shape || !d) return Type::unknown();
            if (d->kind != ExprKind::DTypeLit) raise("E-TYPE", d->loc, fmt::format("{}: dtype must be a pl dtype", op_label(call)));
            return Type::tile(*shape, d->dtype, c == O::TpopFromAic ? Mem::Vec : Mem::Mat);
        }
        case O::TfreeToAic: case O::TfreeToAiv: tile_arg(call, "tile"); return Type::none();
        case O::ReserveBuffer: case O::ImportPeerBuffer: return Type::scalar(DType::INT32);
        case O::AicInitializePipe: case O::AivInitializePipe: {
            auto dm = const_int(arg(call, "dir_mask"));
            if (!dm || *dm < 1 || *dm > 3) raise("E-TYPE", arg(call, "dir_mask")->loc, fmt::format("{}: dir_mask must be 1 (C2V), 2 (V2C) or 3 (both)", op_label(call)));
            auto ss = const_int(arg(call, "slot_size"));
            if (!ss || *ss <= 0) raise("E-TYPE", arg(call, "slot_size")->loc, fmt::format("{}: slot_size must be a positive constant", op_label(call)));
            if (auto sn = arg(call, "slot_num")) {
                auto v = const_int(sn);
                if (!v || *v <= 0 || *v > 64) raise("E-TYPE", sn->loc, fmt::format("{}: slot_num must be a constant in 1..64", op_label(call)));
            }
            return Type::none();
        }
        case O::AivShard: {
            const Type& t = tile_arg(call, "tile");
            if (!is_cube_mem(t.mem)) type_error(call, fmt::format("pl.tile.aiv_shard: shards a cube tile, got {}", type_str(t)));
            Type r = Type::tile(t.shape, t.dtype, Mem::Vec);
            return r;
        }
        case O::AicGather: {
            const Type& t = tile_arg(call, "tile");
            expect_mem(call, "tile", {Mem::Vec});
            return Type::tile(t.shape, t.dtype, Mem::Mat);
        }
        case O::Syncall: {
            if (auto ct = const_str(arg(call, "core_type")); ct && *ct != "mix" && *ct != "aiv_only" && *ct != "aic_only")
                raise("E-TYPE", arg(call, "core_type")->loc, fmt::format("pl.system.syncall: core_type must be 'mix', 'aiv_only' or 'aic_only', got '{}'", *ct));
            if (auto m = const_str(arg(call, "mode")); m && *m != "hard" && *m != "soft")
                raise("E-TYPE", arg(call, "mode")->loc, fmt::format("pl.system.syncall: mode must be 'hard' or 'soft', got '{}'", *m));
            return Type::none();
        }
        case O::SyncSet: case O::SyncWait: {
            auto id = const_int(arg(call, "event_id"));
            if (!id || *id < 0 || *id > 31) raise("E-TYPE", arg(call, "event_id")->loc, fmt::format("{}: event_id must be a constant in 0..31", op_label(call)));
            if (auto ct = const_str(arg(call, "core_type")); ct && *ct != "aic" && *ct != "aiv")
                raise("E-TYPE", arg(call, "core_type")->loc, fmt::format("{}: core_type must be 'aic' or 'aiv'", op_label(call)));
            return Type::none();
        }
        case O::SetFfts: case O::Fence: case O::CacheInvalid: return Type::none();
    }
    return Type::none();
}

}  // namespace cvsim::ir
