// Type rules of the op catalogue (OPS.md): operand checks with expected vs actual types (E-TYPE), constant
// windows outside their tensor (E-OOB), and the result type of every op.
#include <fmt/format.h>

#include <optional>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/ops_more.h"
#include "frontend/ops_sort.h"
#include "frontend/ops_types_internal.h"
#include "frontend/runtime.h"

namespace cvsim::ir {

namespace typing {

[[noreturn]] void type_error(const Expr& call, const std::string& msg, const std::string& hint) {
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

// A constant boolean keyword (True / False / None, or 0 / 1 as the printer may write it); absent is false.
bool const_flag(const Expr& call, const char* name) {
    const ExprPtr& a = arg(call, name);
    if (!a || a->kind == ExprKind::NoneLit) return false;
    if (a->kind != ExprKind::Bool && !(a->kind == ExprKind::Int && (a->ival == 0 || a->ival == 1)))
        raise(codes::kType, a->loc, fmt::format("{}: {} must be True or False", op_label(call), name));
    return a->ival != 0;
}

std::string var_label(const ExprPtr& e) {
    return e && e->kind == ExprKind::Var ? "'" + e->var->name + "'" : "operand";
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

}  // namespace typing

namespace {

using namespace typing;

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
    if (auto t = typing::sync_op_type(call, region_split)) return *t;
    if (auto t = typing::compute_op_type(call)) return *t;
    if (auto t = typing::tensor_op_type(call)) return *t;
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
