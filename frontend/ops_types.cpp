// Type rules of the op catalogue (OPS.md): operand checks with expected vs actual types (E-TYPE), constant
// windows outside their tensor (E-OOB), and the result type of every op.
#include <fmt/format.h>

#include <optional>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/ops_more.h"
#include "frontend/ops_sort.h"
#include "frontend/runtime.h"

namespace cvsim::ir {

namespace {

[[noreturn]] void type_error(const Expr& call, const std::string& msg, const std::string& hint = "") {
    raise(codes::kType, call.loc, msg, hint);
}

std::string op_label(const Expr& call) {
    if (call.op->code == OpCode::GatherCompareDst || call.op->code == OpCode::GatherCompareCdst)
        return "pl.tile.gather_compare";
    return "pl." + call.op->name();
}

const Type& tile_arg(const Expr& call, const std::string& name) {
    const ExprPtr& a = arg(call, name);
    if (!a || a->type.kind != TypeKind::Tile) {
        raise(codes::kType, a ? a->loc : call.loc,
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
    raise(codes::kType, arg(call, name)->loc,
          fmt::format("{}: argument '{}' must be in {}, got {}", op_label(call), name, want, type_str(t)));
}

Mem enum_mem(const Expr& call, const std::string& name, Mem dflt) {
    const ExprPtr& a = arg(call, name);
    if (!a) return dflt;
    if (a->kind != ExprKind::Enum || a->enum_kind != EnumKind::Mem)
        raise(codes::kType, a->loc, fmt::format("{}: '{}' must be a pl.Mem member", op_label(call), name));
    return static_cast<Mem>(a->ival);
}

std::vector<int64_t> int_list(const Expr& call, const std::string& name) {
    const ExprPtr& a = arg(call, name);
    auto v = const_int_list(a);
    if (!v)
        raise(codes::kType, a ? a->loc : call.loc,
              fmt::format("{}: '{}' must be a list of constant integers", op_label(call), name));
    return *v;
}

// A shape argument: constant integers, each a valid dimension (as in a type annotation: 1..2^31), so the
// printed result type parses back (a folded `16 < 16` is False = 0, not a dimension).
std::vector<int64_t> shape_list(const Expr& call, const std::string& name) {
    auto v = int_list(call, name);
    const ExprPtr& a = arg(call, name);
    for (size_t i = 0; i < v.size(); ++i)
        if (v[i] <= 0 || v[i] > (int64_t(1) << 31))
            raise(codes::kType, a->kind == ExprKind::List || a->kind == ExprKind::Tuple ? a->args[i]->loc : a->loc,
                  fmt::format("{}: dimension {} of '{}' is {}, out of range (1..2^31)", op_label(call), i, name, v[i]));
    return v;
}

// The list's entries may be scalar expressions (run-time offsets): check element kinds only.
void check_index_list(const Expr& call, const std::string& name, size_t rank) {
    const ExprPtr& a = arg(call, name);
    if (!a || (a->kind != ExprKind::List && a->kind != ExprKind::Tuple))
        raise(codes::kType, a ? a->loc : call.loc, fmt::format("{}: '{}' must be a list", op_label(call), name));
    if (a->args.size() != rank)
        raise(
            codes::kType, a->loc,
            fmt::format("{}: '{}' has {} entries, the tensor has rank {}", op_label(call), name, a->args.size(), rank));
    for (auto& e : a->args)
        if (e->type.kind != TypeKind::Scalar || !dtype_is_int(e->type.dtype))
            raise(codes::kType, e->loc,
                  fmt::format("{}: offsets must be integer scalars, got {}", op_label(call), type_str(e->type)));
}

// The 2-D tile shape of a window: [product of all extents but the last, last], as PyPTO's FlattenTileNdTo2D
// merges an N-D tile (a [4, 1, 4096] window of a [T, 4, 4096] tensor is a [4, 4096] tile). The tile's rows are
// the window's rows in row-major order (rt::window_row_start), in the simulator and the reference alike.
std::vector<int64_t> window_tile_shape(const Expr& call, const std::vector<int64_t>& shapes) {
    if (shapes.size() <= 2) return shapes;
    int64_t rows = 1;
    for (size_t i = 0; i + 1 < shapes.size(); ++i)
        if (__builtin_mul_overflow(rows, shapes[i], &rows) || rows > (int64_t(1) << 31))
            raise(codes::kType, call.loc,
                  fmt::format("{}: window {} has too many rows for one tile", op_label(call), shape_str(shapes)));
    return {rows, shapes.back()};
}

// E-OOB when every offset is constant and the window leaves the tensor.
void check_window(const Expr& call, const ExprPtr& offsets, const std::vector<int64_t>& extents, const Type& tensor,
                  const std::string& tensor_name) {
    if (extents.size() != tensor.shape.size()) return;
    const char* what = tensor.kind == TypeKind::Tile ? "tile" : "tensor";
    auto off = const_int_list(offsets);
    if (offsets && (offsets->kind == ExprKind::List || offsets->kind == ExprKind::Tuple) &&
        offsets->args.size() != extents.size())
        raise(codes::kType, offsets->loc,
              fmt::format("{}: {} offsets for a window of rank {}", op_label(call), offsets->args.size(),
                          extents.size()));
    for (size_t i = 0; i < extents.size(); ++i) {
        if (extents[i] <= 0)
            type_error(call, fmt::format("{}: window extent {} is not positive", op_label(call), extents[i]));
        if (extents[i] > tensor.shape[i])
            raise(codes::kOob, call.loc,
                  fmt::format("{}: window {} does not fit {} {} of shape {}", op_label(call), shape_str(extents), what,
                              tensor_name, shape_str(tensor.shape)));
        if (!off) continue;
        int64_t o = (*off)[i];
        if (!rt::range_inside(o, extents[i], tensor.shape[i])) {
            std::string win;
            for (size_t d = 0; d < extents.size(); ++d)
                win += fmt::format("{}{}:{}", d ? ", " : "", (*off)[d], rt::sat_add((*off)[d], extents[d]));
            raise(codes::kOob, call.loc,
                  fmt::format("{}: window [{}] is outside {} {} of shape {} (dimension {})", op_label(call), win, what,
                              tensor_name, shape_str(tensor.shape), i),
                  "offsets + shape must stay within the tensor");
        }
    }
}

// A constant boolean keyword (True / False / None, or 0 / 1 as the printer may write it); absent is false.
bool const_flag(const Expr& call, const char* name) {
    const ExprPtr& a = arg(call, name);
    if (!a || a->kind == ExprKind::NoneLit) return false;
    if (a->kind != ExprKind::Bool && !(a->kind == ExprKind::Int && (a->ival == 0 || a->ival == 1)))
        raise(codes::kType, a->loc, fmt::format("{}: {} must be True or False", op_label(call), name));
    return a->ival != 0;
}

// PyPTO's high_precision keyword (tile.div / tile.log / tile.recip): the PTOAS high-precision templates exist
// for FP16 and FP32 only (tile.div and tile.recip refuse other dtypes with it; tile.log takes no other dtype).
void check_high_precision(const Expr& call, DType dt) {
    if (const_flag(call, "high_precision") && dt != DType::FP16 && dt != DType::FP32)
        raise(
            codes::kType, arg(call, "high_precision")->loc,
            fmt::format("{}: high_precision=True needs an FP16 or FP32 tile (PTOAS's high-precision template), got {}",
                        op_label(call), dtype_name(dt)));
}

std::string var_label(const ExprPtr& e) {
    return e && e->kind == ExprKind::Var ? "'" + e->var->name + "'" : "operand";
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

Type move_type(const Expr& call) {
    const Type& src = tile_arg(call, "tile");
    const ExprPtr& tm = arg(call, "target_memory");
    if (!tm) type_error(call, "pl.tile.move: target_memory is required");
    Mem dst = enum_mem(call, "target_memory", Mem::Vec);
    bool ok = false;
    switch (src.mem) {
        case Mem::Mat:
            ok = dst == Mem::Left || dst == Mem::Right || dst == Mem::Bias || dst == Mem::Vec || dst == Mem::Mat;
            break;
        case Mem::Acc:
            ok = dst == Mem::Mat || dst == Mem::Vec;
            break;
        case Mem::Vec:
            ok = dst == Mem::Vec || dst == Mem::Mat || dst == Mem::Left || dst == Mem::Right || dst == Mem::Bias;
            break;
        default:
            ok = false;
    }
    if (!ok)
        type_error(call, fmt::format("pl.tile.move: cannot move a tile from pl.Mem.{} to pl.Mem.{}", mem_name(src.mem),
                                     mem_name(dst)));
    Type r = Type::tile(src.shape, src.dtype, dst);
    r.valid = src.valid;
    auto layout_arg = [&](const char* n) -> std::optional<TileLayout> {
        const ExprPtr& a = arg(call, n);
        if (!a) return std::nullopt;
        if (a->kind != ExprKind::Enum || a->enum_kind != EnumKind::TileLayout)
            raise(codes::kType, a->loc, fmt::format("pl.tile.move: '{}' must be a pl.TileLayout member", n));
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

// aiv_shard / aic_gather: the split code comes from the enclosing split_aiv region, else from split=N.
// aiv_shard hands a lane its half on the split axis (rows for 1/3, columns for 2/4; the larger half
// for the odd codes, which lane 0 gets); aic_gather joins two halves (double extent, minus one for odd).
Type shard_gather_type(const Expr& call, int region_split) {
    bool shard = call.op->code == OpCode::AivShard;
    const Type& t = tile_arg(call, "tile");
    if (shard && !is_cube_mem(t.mem))
        type_error(
            call, fmt::format("pl.tile.aiv_shard: shards a cube tile (pl.Mem.Mat or pl.Mem.Acc), got {}", type_str(t)));
    if (!shard) expect_mem(call, "tile", {Mem::Vec});
    const ExprPtr& sa = arg(call, "split");
    std::optional<int64_t> given = sa ? const_int(sa) : std::nullopt;
    if (sa && (!given || *given < 0 || *given > 4))
        raise(codes::kType, sa->loc,
              fmt::format("{}: split must be a constant 0..4 (0 none, 1 up-down, 2 left-right, 3 up-down-odd, 4 "
                          "left-right-odd), got {}",
                          op_label(call), given ? std::to_string(*given) : "a non-constant"));
    int split = 0;
    if (region_split >= 0) {
        // The odd variant of the region's mode (3 in an UP_DOWN region, 4 in a LEFT_RIGHT one) does not
        // contradict it: it is how an odd extent is split there.
        bool odd_variant = given && region_split > 0 && *given == region_split + 2;
        if (given && *given != region_split && !odd_variant)
            raise(codes::kType, sa->loc,
                  fmt::format("{}: split={} contradicts the enclosing pl.split_aiv region (split {})", op_label(call),
                              *given, region_split),
                  region_split > 0
                      ? fmt::format(
                            "inside a split_aiv region the op takes the region's mode; drop split= (or use split={} "
                            "for an odd extent)",
                            region_split + 2)
                      : "inside a split_aiv region the op takes the region's mode; drop split=");
        split = odd_variant ? static_cast<int>(*given) : region_split;
    } else if (given) {
        split = static_cast<int>(*given);
    } else {
        type_error(call, fmt::format("{} outside a pl.split_aiv region needs split=N", op_label(call)),
                   "0 none, 1 up-down, 2 left-right, 3 up-down-odd, 4 left-right-odd");
    }
    Type r = Type::tile(t.shape, t.dtype, shard ? Mem::Vec : Mem::Mat);
    if (split == 0) return r;
    if (t.shape.size() != 2)
        type_error(call, fmt::format("{}: split {} needs a 2-D tile, got {}", op_label(call), split, type_str(t)));
    size_t axis = split == 1 || split == 3 ? 0 : 1;
    bool odd = split >= 3;
    int64_t n = t.shape[axis];
    if (shard) {
        if (n < 2) type_error(call, fmt::format("{}: cannot split extent {} between two lanes", op_label(call), n));
        if (!odd && n % 2 != 0)
            type_error(call,
                       fmt::format("{}: split {} halves the {} evenly, but the tile is {}", op_label(call), split,
                                   axis == 0 ? "rows" : "columns", shape_str(t.shape)),
                       fmt::format("use split={} (lane 0 gets the larger half)", split + 2));
        r.shape[axis] = (n + 1) / 2;
    } else {
        r.shape[axis] = odd ? 2 * n - 1 : 2 * n;
    }
    return r;
}

// tpush/tpop split= must be a constant split code.
void check_split(const Expr& call, bool optional) {
    const ExprPtr& sa = arg(call, "split");
    if (!sa && optional) return;
    auto v = const_int(sa);
    if (!v || *v < 0 || *v > 4)
        raise(
            codes::kType, sa ? sa->loc : call.loc,
            fmt::format(
                "{}: split must be a constant 0..4 (0 none, 1 up-down, 2 left-right, 3 up-down-odd, 4 left-right-odd)",
                op_label(call)));
}

void expect_str(const Expr& call, const std::string& name) {
    const ExprPtr& a = arg(call, name);
    if (!a || a->kind != ExprKind::Str)
        raise(
            codes::kType, a ? a->loc : call.loc,
            fmt::format("{}: '{}' must be a string, got {}", op_label(call), name, a ? type_str(a->type) : "nothing"));
}

}  // namespace

std::optional<Type> infer_catalogue_type(const Expr& call);  // ops_types_catalogue.cpp

namespace {
Type infer_call_type_of(const Expr& call, int region_split);
}  // namespace

Type infer_call_type(const Expr& call, int region_split) {
    Type r = infer_call_type_of(call, region_split);
    check_sub_byte_call(call, r);
    return r;
}

namespace {
Type infer_call_type_of(const Expr& call, int region_split) {
    using O = OpCode;
    const O c = call.op->code;
    for (size_t i = 0; i < call.op->params.size(); ++i)
        if (call.op->params[i].required && (i >= call.args.size() || !call.args[i]))
            type_error(call,
                       fmt::format("{}: missing required argument '{}'", op_label(call), call.op->params[i].name));
    if (auto t = infer_catalogue_type(call)) return *t;
    if (auto t = more_op_type(call)) return *t;
    if (auto t = gm_index_type(call)) return *t;
    switch (c) {
        case O::Load: {
            const ExprPtr& t = arg(call, "tensor");
            if (t->type.kind != TypeKind::Tensor)
                raise(codes::kType, t->loc,
                      fmt::format("pl.tile.load: 'tensor' must be a tensor, got {}", type_str(t->type)));
            check_index_list(call, "offsets", t->type.shape.size());
            auto shapes = shape_list(call, "shapes");
            if (shapes.size() != t->type.shape.size())
                type_error(call, fmt::format("pl.tile.load: shapes {} has rank {}, tensor {} has rank {}",
                                             shape_str(shapes), shapes.size(), var_label(t), t->type.shape.size()));
            // Only the valid region is read (the tile may be larger than what the source has): bounds are checked
            // on it; a valid_shape that is not constant is checked when the load runs.
            const ExprPtr& vsa = arg(call, "valid_shape");
            if (!vsa)
                check_window(call, arg(call, "offsets"), shapes, t->type, var_label(t));
            else if (auto vs = const_int_list(vsa); vs && vs->size() == shapes.size()) {
                for (size_t d = 0; d < vs->size(); ++d)
                    if ((*vs)[d] > shapes[d])
                        type_error(call, fmt::format("pl.tile.load: valid_shape {} is larger than the window {}",
                                                     shape_str(*vs), shape_str(shapes)));
                check_window(call, arg(call, "offsets"), *vs, t->type, var_label(t));
            }
            Mem m = enum_mem(call, "target_memory", Mem::Vec);
            if (m != Mem::Vec && m != Mem::Mat)
                type_error(call,
                           fmt::format("pl.tile.load: target_memory must be pl.Mem.Vec or pl.Mem.Mat, got pl.Mem.{}",
                                       mem_name(m)));
            Type r = Type::tile(window_tile_shape(call, shapes), t->type.dtype, m);
            if (auto vs = const_int_list(arg(call, "valid_shape"))) {
                // A valid_shape of the window's rank names the 2-D tile's region as PyPTO merges it: [product of
                // all but the last, last] (only the valid window is read, its rows packed from the tile's top).
                if (vs->size() == shapes.size() && vs->size() > 2) {
                    int64_t vr = 1;
                    for (size_t d = 0; d + 1 < vs->size(); ++d) vr *= (*vs)[d];
                    vs = std::vector<int64_t>{vr, vs->back()};
                }
                if (vs->size() != r.shape.size())
                    type_error(call, "pl.tile.load: valid_shape rank differs from the tile's");
                if (*vs != r.shape) r.valid = *vs;
            } else if (vsa) {
                r.valid_dynamic = true;  // a scalar valid_shape: the region is the run time's
            }
            return r;
        }
        case O::Store: {
            const Type& tile = tile_arg(call, "tile");
            expect_mem(call, "tile", {Mem::Vec, Mem::Acc});
            const ExprPtr& out = arg(call, "output_tensor");
            if (out->type.kind != TypeKind::Tensor)
                raise(codes::kType, out->loc,
                      fmt::format("pl.tile.store: 'output_tensor' must be a tensor, got {}", type_str(out->type)));
            check_index_list(call, "offsets", out->type.shape.size());
            // What is written is the tile's valid region. A run-time region (valid_dynamic) is no larger than the
            // tile and is checked against the tensor when the store runs: only its rank is checked here.
            std::vector<int64_t> ext = tile.valid.empty() ? tile.shape : tile.valid;
            const auto shapes = const_int_list(arg(call, "shapes"));
            if (shapes) {
                // An N-D window (PyPTO's FlattenTileNdTo2D gives its partition shape) covers the tile's rows in
                // row-major order: it must not hold more rows or columns than the tile has.
                int64_t rows = 1;
                for (size_t d = 0; d + 1 < shapes->size(); ++d) rows *= (*shapes)[d];
                const int64_t cols = shapes->empty() ? 1 : shapes->back();
                if (shapes->empty() || rows > tile.rows() || cols > tile.cols())
                    type_error(call, fmt::format("pl.tile.store: window {} is larger than the tile {}",
                                                 shape_str(*shapes), type_str(tile)));
                ext = *shapes;
            }
            if (ext.size() < out->type.shape.size()) ext.insert(ext.begin(), out->type.shape.size() - ext.size(), 1);
            while (!shapes && ext.size() > out->type.shape.size() && ext.front() == 1) ext.erase(ext.begin());
            if (ext.size() != out->type.shape.size())
                type_error(call, fmt::format("pl.tile.store: tile of rank {} into tensor of rank {}", ext.size(),
                                             out->type.shape.size()));
            // A `shapes` partition that runs past a tensor dimension (FlattenTileNdTo2D's collapsed leading extent)
            // addresses the tensor's rows linearly: fine when they are one box of it (rt::partition_window). With
            // run-time offsets the run time decides.
            bool partition = false;
            if (shapes && ext.size() == out->type.shape.size())
                for (size_t d = 0; d < ext.size(); ++d) partition |= ext[d] > out->type.shape[d];
            if (partition) {
                if (auto off = const_int_list(arg(call, "offsets"));
                    !off || rt::partition_window(0, out->type.shape, *off, ext))
                    partition = true;
                else
                    partition = false;
            }
            if ((!tile.valid_dynamic || shapes) && !partition)
                check_window(call, arg(call, "offsets"), ext, out->type, var_label(out));
            bool dtype_ok = tile.dtype == out->type.dtype ||
                            (tile.mem == Mem::Acc && dtype_is_float(tile.dtype) && dtype_is_float(out->type.dtype));
            if (!dtype_ok)
                type_error(call,
                           fmt::format("pl.tile.store: tile is {} but tensor {} is {}", dtype_name(tile.dtype),
                                       var_label(out), dtype_name(out->type.dtype)),
                           "cast the tile first (pl.tile.cast)");
            if (const ExprPtr& at = arg(call, "atomic")) {
                // pl.AtomicType.None_ / Add, or their integer values (as PyPTO stores the kwarg).
                bool ok =
                    (at->kind == ExprKind::Enum && at->enum_kind == EnumKind::AtomicType) || at->kind == ExprKind::Int;
                if (!ok)
                    raise(codes::kType, at->loc,
                          "pl.tile.store: 'atomic' must be a pl.AtomicType member (None_ or Add)");
                if (at->ival != 0 && at->ival != 1)
                    raise(codes::kUnsupported, at->loc,
                          fmt::format(
                              "pl.tile.store: atomic mode {} is not modelled (cvsim models None_ = 0 and Add = 1)",
                              at->ival));
                if (at->ival == 1 && !atomic_add_dtype(out->type.dtype))
                    raise(codes::kType, at->loc,
                          fmt::format("pl.tile.store with atomic=pl.AtomicType.Add needs an "
                                      "FP32/BF16/FP16/INT32/INT16/INT8 tensor (hardware atomic-add dtypes), got {}",
                                      dtype_name(out->type.dtype)));
            }
            return out->type;
        }
        case O::Move:
            return move_type(call);
        case O::Slice: {
            const ExprPtr& x = arg(call, "tile");
            auto shape = shape_list(call, "shape");
            if (x->type.kind == TypeKind::Tile) {
                if (shape.size() != x->type.shape.size())
                    type_error(call,
                               fmt::format("pl.tile.slice: shape {} has rank {}, the tile {} has rank {}",
                                           shape_str(shape), shape.size(), type_str(x->type), x->type.shape.size()));
                check_window(call, arg(call, "offset"), shape, x->type, var_label(x));
                Type r = Type::tile(shape, x->type.dtype, x->type.mem);
                r.view = x->type.view;
                if (auto vs = const_int_list(arg(call, "valid_shape")); vs && *vs != shape)
                    r.valid = *vs;
                else if (!vs && arg(call, "valid_shape"))
                    r.valid_dynamic = true;
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
            auto shape = shape_list(call, "shape");
            int64_t n = 1;
            for (auto d : shape) n *= d;
            if (n != x->type.numel())
                type_error(call, fmt::format("pl.tile.reshape: {} has {} elements, {} has {}", type_str(x->type),
                                             x->type.numel(), shape_str(shape), n));
            Type r = x->type;
            r.shape = shape;
            r.nd_shape.clear();
            if (shape.size() > 2) {
                // Rank above 2: the merged 2-D tile of the same row-major elements (Type::nd_shape); it may only be
                // reshaped again (sema_expr.cpp).
                r.nd_shape = shape;
                int64_t lead = 1;
                for (size_t i = 0; i + 1 < shape.size(); ++i) lead *= shape[i];
                r.shape = {lead, shape.back()};
            }
            r.valid.clear();
            r.valid_dynamic = false;
            return r;
        }
        case O::Transpose: {
            auto a1 = const_int(arg(call, "axis1"));
            auto a2 = const_int(arg(call, "axis2"));
            // Negative axes count from the end, as PyPTO's (a 2-D tile: -2 is 0, -1 is 1).
            if (a1 && *a1 < 0) *a1 += 2;
            if (a2 && *a2 < 0) *a2 += 2;
            if (!a1 || !a2 || *a1 == *a2 || *a1 < 0 || *a2 < 0 || *a1 > 1 || *a2 > 1)
                raise(codes::kType, arg(call, "axis1")->loc,
                      "pl.tile.transpose: axes must be the constants 0 and 1 (or -2 and -1) of a 2-D tile");
            if (arg(call, "tmp_tile")) {
                const Type& t = tile_arg(call, "tmp_tile");
                if (t.dtype != arg(call, "tile")->type.dtype)
                    raise(codes::kType, arg(call, "tmp_tile")->loc,
                          fmt::format("pl.tile.transpose: tmp_tile must have the tile's dtype, got {}", type_str(t)));
            }
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
            Layout nl = l == Layout::NZ   ? Layout::ZN
                        : l == Layout::ZN ? Layout::NZ
                        : l == Layout::ND ? Layout::DN
                                          : Layout::ND;
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
                    type_error(call, fmt::format("pl.tile.set_validshape: valid shape [{}, {}] exceeds tile {}", *rows,
                                                 *cols, shape_str(r.shape)));
                r.valid = {*rows, *cols};
                if (r.valid == r.shape) r.valid.clear();
                r.valid_dynamic = false;
            } else {
                r.valid.clear();
                r.valid_dynamic = true;  // scalar rows/cols: the region is the run time's
            }
            return r;
        }
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
        case O::TpushToAiv: {
            check_split(call, false);
            const Type& t = tile_arg(call, "tile");
            if (!is_cube_mem(t.mem))
                type_error(call, fmt::format("pl.tile.tpush_to_aiv: pushes a cube tile, got {}", type_str(t)));
            return Type::none();
        }
        case O::TpushToAic:
            check_split(call, false);
            expect_mem(call, "tile", {Mem::Vec});
            return Type::none();
        case O::TpopFromAic:
        case O::TpopFromAiv: {
            check_split(call, true);
            auto shape = const_int_list(arg(call, "shape"));
            const ExprPtr& d = arg(call, "dtype");
            if (!shape || !d) return Type::unknown();
            if (d->kind != ExprKind::DTypeLit)
                raise(codes::kType, d->loc, fmt::format("{}: dtype must be a pl dtype", op_label(call)));
            return Type::tile(*shape, d->dtype, c == O::TpopFromAic ? Mem::Vec : Mem::Mat);
        }
        case O::TfreeToAic:
        case O::TfreeToAiv: {
            tile_arg(call, "tile");
            // split= is ignored (the pop's split code applies, as upstream's StampTfreeSplit does).
            if (const ExprPtr& sp = arg(call, "split");
                sp && (!const_int(sp) || *const_int(sp) < 0 || *const_int(sp) > 2))
                raise(codes::kType, sp->loc, fmt::format("{}: split must be 0, 1 or 2", op_label(call)));
            return Type::none();
        }
        case O::ReserveBuffer: {
            expect_str(call, "name");
            auto size = const_int(arg(call, "size"));
            if (!size || *size <= 0)
                raise(codes::kType, arg(call, "size")->loc,
                      "pl.system.reserve_buffer: size must be a positive constant (bytes)");
            if (const ExprPtr& b = arg(call, "base"); b && !const_int(b))
                raise(codes::kType, b->loc, "pl.system.reserve_buffer: base must be a constant address or pl.AUTO");
            return Type::scalar(DType::INT32);
        }
        case O::ImportPeerBuffer:
            expect_str(call, "name");
            expect_str(call, "peer_func");
            return Type::scalar(DType::INT32);
        case O::AicInitializePipe:
        case O::AivInitializePipe: {
            auto dm = const_int(arg(call, "dir_mask"));
            if (!dm || *dm < 1 || *dm > 3)
                raise(codes::kType, arg(call, "dir_mask")->loc,
                      fmt::format("{}: dir_mask must be 1 (C2V), 2 (V2C) or 3 (both)", op_label(call)));
            auto ss = const_int(arg(call, "slot_size"));
            if (!ss || *ss <= 0)
                raise(codes::kType, arg(call, "slot_size")->loc,
                      fmt::format("{}: slot_size must be a positive constant", op_label(call)));
            int64_t slots = *dm == 3 ? 4 : 8;  // PTOAS's default depth when slot_num is omitted
            if (auto sn = arg(call, "slot_num")) {
                auto v = const_int(sn);
                if (!v || *v <= 0 || *v > 64)
                    raise(codes::kType, sn->loc,
                          fmt::format("{}: slot_num must be a constant in 1..64", op_label(call)));
                slots = *v;
            }
            // a2a3's local resident window (<= slot_num); the ring keeps slot_num slots (docs/DECISIONS.md).
            if (auto ln = arg(call, "local_slot_num")) {
                auto v = const_int(ln);
                if (!v || *v <= 0 || *v > slots)
                    raise(codes::kType, ln->loc,
                          fmt::format("{}: local_slot_num must be a constant in 1..slot_num ({})", op_label(call),
                                      slots));
            }
            return Type::none();
        }
        case O::AivShard:
        case O::AicGather:
            return shard_gather_type(call, region_split);
        case O::Syncall: {
            if (auto ct = const_str(arg(call, "core_type"));
                ct && *ct != "mix" && *ct != "aiv_only" && *ct != "aic_only")
                raise(
                    codes::kType, arg(call, "core_type")->loc,
                    fmt::format("pl.system.syncall: core_type must be 'mix', 'aiv_only' or 'aic_only', got '{}'", *ct));
            if (auto m = const_str(arg(call, "mode")); m && *m != "hard" && *m != "soft")
                raise(codes::kType, arg(call, "mode")->loc,
                      fmt::format("pl.system.syncall: mode must be 'hard' or 'soft', got '{}'", *m));
            // used_cores (a soft barrier's participant count) is checked against the launch: compile() in
            // frontend/launch_compile.cpp (check_soft_barrier_counts).
            return Type::none();
        }
        case O::SyncSet:
        case O::SyncWait: {
            if (const ExprPtr& p = arg(call, "pipe");
                p && (p->kind != ExprKind::Enum || p->enum_kind != EnumKind::PipeType))
                raise(codes::kType, p->loc,
                      fmt::format("{}: pipe must be a pl.PipeType member, got {}", op_label(call), type_str(p->type)));
            auto id = const_int(arg(call, "event_id"));
            if (!id || *id < 0 || *id > 31)
                raise(codes::kType, arg(call, "event_id")->loc,
                      fmt::format("{}: event_id must be a constant in 0..31", op_label(call)));
            if (auto ct = const_str(arg(call, "core_type")); ct && *ct != "aic" && *ct != "aiv")
                raise(codes::kType, arg(call, "core_type")->loc,
                      fmt::format("{}: core_type must be 'aic' or 'aiv'", op_label(call)));
            // cvsim models the cluster-local AIC <-> AIV flag (FFTS mode 2); the chip-wide (0) and AIV-group (1)
            // modes order other cores, so they are refused, never run as mode 2.
            if (const ExprPtr& m = arg(call, "ffts_mode");
                m && m->kind != ExprKind::NoneLit && const_int(m).value_or(-1) != 2)
                raise(codes::kUnsupported, m->loc,
                      fmt::format("{}: ffts_mode other than 2 (the cluster's AIC <-> AIV flag) is not modelled",
                                  op_label(call)),
                      "omit ffts_mode: cvsim's flags are the cluster-local AIC <-> AIV ones");
            return Type::none();
        }
        case O::CacheInvalid:
            if (const ExprPtr& t = arg(call, "tensor"); t && t->type.kind != TypeKind::Tensor)
                raise(codes::kType, t->loc,
                      fmt::format("pl.system.cacheinvalid: expects a tensor, got {}", type_str(t->type)));
            return Type::none();
        case O::PrefetchMakeContext:
            return Type::opaque("pl.PrefetchAsyncContext");
        case O::PrefetchSession:
            if (const ExprPtr& x = arg(call, "ctx");
                x->type.kind != TypeKind::Opaque || x->type.name != "pl.PrefetchAsyncContext")
                raise(codes::kType, x->loc,
                      fmt::format("pl.prefetch.session: ctx must be a pl.PrefetchAsyncContext "
                                  "(pl.prefetch.make_context()), got {}",
                                  type_str(x->type)));
            return Type::opaque("pl.AsyncSession");
        case O::PrefetchAsync: {
            const ExprPtr& src = arg(call, "src");
            if (src->type.kind != TypeKind::Tensor)
                raise(codes::kType, src->loc,
                      fmt::format("pl.prefetch.async_prefetch: src must be a GM tensor, got {}", type_str(src->type)));
            for (size_t d = 0; d + 1 < src->type.shape.size(); ++d)
                if (src->type.shape[d] != 1)
                    raise(codes::kType, src->loc,
                          fmt::format("pl.prefetch.async_prefetch: src must be a flat contiguous 1-D GM region (every "
                                      "dimension but the last 1), got {}",
                                      type_str(src->type)));
            if (const ExprPtr& x = arg(call, "ctx");
                x->type.kind != TypeKind::Opaque || x->type.name != "pl.PrefetchAsyncContext")
                raise(codes::kType, x->loc,
                      fmt::format("pl.prefetch.async_prefetch: ctx must be a pl.PrefetchAsyncContext, got {}",
                                  type_str(x->type)));
            return Type::opaque("pl.AsyncEvent");
        }
        case O::PrefetchWait:
            if (const ExprPtr& x = arg(call, "event");
                x->type.kind != TypeKind::Opaque || x->type.name != "pl.AsyncEvent")
                raise(
                    codes::kType, x->loc,
                    fmt::format("pl.prefetch.wait: event must be a pl.AsyncEvent (pl.prefetch.async_prefetch), got {}",
                                type_str(x->type)));
            if (const ExprPtr& x = arg(call, "session");
                x->type.kind != TypeKind::Opaque || x->type.name != "pl.AsyncSession")
                raise(codes::kType, x->loc,
                      fmt::format("pl.prefetch.wait: session must be a pl.AsyncSession (pl.prefetch.session), got {}",
                                  type_str(x->type)));
            return Type::scalar(DType::BOOL);
        case O::SetFfts: {
            const ExprPtr& w = arg(call, "workspace");
            if (w->type.kind != TypeKind::Tensor && w->type.kind != TypeKind::Scalar)
                raise(codes::kType, w->loc,
                      fmt::format("pl.system.set_ffts: expects a workspace tensor or address, got {}",
                                  type_str(w->type)));
            return Type::none();
        }
        case O::Fence:
            return Type::none();
        case O::Sort32:
        case O::MrgSort1:
        case O::MrgSort2:
        case O::Gather:
        case O::GatherMask:
        case O::Scatter:
        case O::ScatterMask:
        case O::RowArgmax:
        case O::RowArgmin:
        case O::ColArgmax:
        case O::ColArgmin:
        case O::GatherCompareDst:
        case O::GatherCompareCdst:
            return sort_op_type(call);
        default:
            break;
    }
    return Type::none();
}
}  // namespace

}  // namespace cvsim::ir
