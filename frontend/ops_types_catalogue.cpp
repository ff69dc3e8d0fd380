// Type rules of the vector catalogue added for issue 12 (PyPTO's tile_ops.py / src/ir/op/tile_ops rules):
// reductions, broadcasts, tile-scalar and bitwise ops, ternaries, predicates, fills and transforms.
#include <fmt/format.h>

#include <optional>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"

namespace cvsim::ir {

namespace {

std::string label(const Expr& c) {
    return "pl." + c.op->name();
}

const ExprPtr& nth(const Expr& c, size_t i) {
    static const ExprPtr kNull;
    return i < c.args.size() ? c.args[i] : kNull;
}

const SourceLoc& loc_of(const Expr& c, const ExprPtr& a) {
    return a ? a->loc : c.loc;
}

// Argument `i` (a parameter name) must be a UB tile.
const Type& vec_tile(const Expr& c, size_t i) {
    const ExprPtr& a = nth(c, i);
    const std::string& n = c.op->params[i].name;
    if (!a || a->type.kind != TypeKind::Tile)
        raise(codes::kType, loc_of(c, a),
              fmt::format("{}: argument '{}' must be a tile, got {}", label(c), n, a ? type_str(a->type) : "nothing"));
    if (a->type.mem != Mem::Vec)
        raise(codes::kType, a->loc,
              fmt::format("{}: argument '{}' must be in pl.Mem.Vec, got {}", label(c), n, type_str(a->type)));
    if (a->type.shape.size() != 2)
        raise(codes::kType, a->loc,
              fmt::format("{}: argument '{}' must be a 2-D tile, got {}", label(c), n, type_str(a->type)));
    return a->type;
}

const ExprPtr& scalar_arg(const Expr& c, size_t i, bool integer = false) {
    const ExprPtr& a = nth(c, i);
    const std::string& n = c.op->params[i].name;
    if (!a || a->type.kind != TypeKind::Scalar)
        raise(codes::kType, loc_of(c, a),
              fmt::format("{}: '{}' must be a scalar, got {}", label(c), n, a ? type_str(a->type) : "nothing"));
    if (integer && !dtype_is_int(a->type.dtype))
        raise(codes::kType, a->loc,
              fmt::format("{}: '{}' must be an integer scalar, got {}", label(c), n, type_str(a->type)));
    return a;
}

void same_shape(const Expr& c, size_t i, size_t j) {
    const Type& a = nth(c, i)->type;
    const Type& b = nth(c, j)->type;
    if (a.shape != b.shape)
        raise(codes::kType, nth(c, j)->loc,
              fmt::format("{}: '{}' is {} but '{}' is {} (cvsim needs equal shapes)", label(c), c.op->params[j].name,
                          shape_str(b.shape), c.op->params[i].name, shape_str(a.shape)));
}

void same_dtype(const Expr& c, size_t i, size_t j) {
    const Type& a = nth(c, i)->type;
    const Type& b = nth(c, j)->type;
    if (a.dtype != b.dtype)
        raise(codes::kType, nth(c, j)->loc,
              fmt::format("{}: operand dtypes differ: {} vs {}", label(c), dtype_name(a.dtype), dtype_name(b.dtype)),
              "insert pl.tile.cast on one operand");
}

void int_dtype(const Expr& c, size_t i) {
    const Type& a = nth(c, i)->type;
    if (!dtype_is_int(a.dtype))
        raise(codes::kType, nth(c, i)->loc,
              fmt::format("{}: needs an integer tile, got {}", label(c), dtype_name(a.dtype)));
}

Type like(const Type& t) {
    Type r = Type::tile(t.shape, t.dtype, Mem::Vec);
    r.valid = t.valid;
    r.valid_dynamic = t.valid_dynamic;
    r.view = t.view;
    return r;
}

std::vector<int64_t> const_shape(const Expr& c, const char* name) {
    const ExprPtr& a = arg(c, name);
    auto v = const_int_list(a);
    if (!v)
        raise(codes::kType, loc_of(c, a), fmt::format("{}: '{}' must be a list of constant integers", label(c), name));
    if (v->size() != 2)
        raise(codes::kType, a->loc, fmt::format("{}: '{}' must be 2-D, got {}", label(c), name, shape_str(*v)));
    for (int64_t d : *v)
        if (d <= 0)
            raise(codes::kType, a->loc,
                  fmt::format("{}: '{}' dimensions must be positive, got {}", label(c), name, shape_str(*v)));
    return *v;
}

DType dtype_kw(const Expr& c, const char* name, DType dflt) {
    const ExprPtr& a = arg(c, name);
    if (!a) return dflt;
    if (a->kind != ExprKind::DTypeLit)
        raise(codes::kType, a->loc, fmt::format("{}: '{}' must be a pl dtype", label(c), name));
    return a->dtype;
}

void bool_kw(const Expr& c, const char* name) {
    const ExprPtr& a = arg(c, name);
    if (a && a->kind != ExprKind::Bool && !(a->kind == ExprKind::Int && (a->ival == 0 || a->ival == 1)))
        raise(codes::kType, a->loc, fmt::format("{}: '{}' must be True or False", label(c), name));
}

void pad_kw(const Expr& c) {
    const ExprPtr& a = arg(c, "pad_value");
    if (!a || const_number(a)) return;
    bool ok = a->kind == ExprKind::Enum &&
              (a->sval.ends_with("zero") || a->sval.ends_with("max") || a->sval.ends_with("min"));
    if (!ok)
        raise(codes::kType, a->loc,
              fmt::format("{}: pad_value must be pl.PadValue.zero, .max, .min or a number, got {}", label(c),
                          a->kind == ExprKind::Enum ? a->sval : type_str(a->type)),
              "pl.PadValue.null is not a fill value");
}

// Integer list of `rank` entries, each an integer scalar (may be run-time).
void index_list(const Expr& c, const char* name, size_t rank) {
    const ExprPtr& a = arg(c, name);
    if (!a || (a->kind != ExprKind::List && a->kind != ExprKind::Tuple))
        raise(codes::kType, loc_of(c, a),
              fmt::format("{}: '{}' must be a list of {} integer indices", label(c), name, rank));
    if (a->args.size() != rank)
        raise(codes::kType, a->loc,
              fmt::format("{}: '{}' has {} entries, the tile has rank {}", label(c), name, a->args.size(), rank));
    for (const auto& e : a->args)
        if (e->type.kind != TypeKind::Scalar || !dtype_is_int(e->type.dtype))
            raise(codes::kType, e->loc,
                  fmt::format("{}: indices must be integer scalars, got {}", label(c), type_str(e->type)));
}

// A constant index list entry outside [0, n): E-OOB at that entry.
void index_inside(const Expr& c, const char* name, const std::vector<int64_t>& extent,
                  const std::vector<int64_t>& span) {
    auto v = const_int_list(arg(c, name));
    if (!v) return;
    for (size_t d = 0; d < v->size() && d < extent.size(); ++d) {
        int64_t s = d < span.size() ? span[d] : 1;
        if ((*v)[d] < 0 || (*v)[d] + s > extent[d])
            raise(codes::kOob, arg(c, name)->args[d]->loc,
                  fmt::format("{}: {} {} leaves the tile of shape {} (dimension {})", label(c), name, shape_str(*v),
                              shape_str(extent), d));
    }
}

int64_t mask_cols(int64_t n) {
    const int64_t bytes = (n + 7) / 8;
    return (bytes + 31) / 32 * 32;  // PyPTO's packed predicate: ceil(N/8) bytes rounded up to 32
}

}  // namespace

std::optional<Type> infer_catalogue_type(const Expr& c) {
    using O = OpCode;
    switch (c.op->code) {
        case O::RowMin:
        case O::RowProd: {
            Type r = like(vec_tile(c, 0));
            vec_tile(c, 1);
            r.shape[1] = 1;
            if (!r.valid.empty()) r.valid[1] = 1;
            return r;
        }
        case O::ColSum:
        case O::ColMax:
        case O::ColMin:
        case O::ColProd: {
            Type r = like(vec_tile(c, 0));
            if (nth(c, 1)) vec_tile(c, 1);
            r.shape[0] = 1;
            if (!r.valid.empty()) r.valid[0] = 1;
            return r;
        }
        case O::RowExpand:
        case O::RowExpandDiv:
        case O::RowExpandMax:
        case O::RowExpandMin:
        case O::RowExpandExpdif:
        case O::ColExpand:
        case O::ColExpandMul:
        case O::ColExpandDiv:
        case O::ColExpandSub:
        case O::ColExpandAdd:
        case O::ColExpandMax:
        case O::ColExpandMin:
        case O::ColExpandExpdif: {
            const Type& t = vec_tile(c, 0);
            const Type& v = vec_tile(c, 1);
            const bool row = c.op->code <= O::RowExpandExpdif;
            std::vector<int64_t> want = row ? std::vector<int64_t>{t.shape[0], 1} : std::vector<int64_t>{1, t.shape[1]};
            if (v.shape != want)
                raise(codes::kType, nth(c, 1)->loc,
                      fmt::format("{}: {} vector must be {}, got {}", label(c), row ? "row" : "column", shape_str(want),
                                  shape_str(v.shape)));
            same_dtype(c, 0, 1);
            if ((c.op->code == O::RowExpandExpdif || c.op->code == O::ColExpandExpdif) && !dtype_is_float(t.dtype))
                raise(codes::kType, nth(c, 0)->loc,
                      fmt::format("{}: needs a float tile, got {}", label(c), dtype_name(t.dtype)));
            return like(t);
        }
        case O::Expands: {
            Type r = like(vec_tile(c, 0));
            scalar_arg(c, 1);
            return r;
        }
        case O::Maximums:
        case O::Minimums:
        case O::Fmods:
        case O::Lrelu: {
            Type r = like(vec_tile(c, 0));
            scalar_arg(c, 1);
            return r;
        }
        case O::Rems: {
            Type r = like(vec_tile(c, 0));
            scalar_arg(c, 1);
            vec_tile(c, 2);
            return r;
        }
        case O::Ands:
        case O::Ors:
        case O::Shls:
        case O::Shrs:
        case O::Xors: {
            Type r = like(vec_tile(c, 0));
            int_dtype(c, 0);
            scalar_arg(c, 1, true);
            if (c.op->code == O::Xors) vec_tile(c, 2);
            return r;
        }
        case O::Rem:
        case O::Fmod:
        case O::And:
        case O::Or:
        case O::Xor:
        case O::Shl:
        case O::Shr:
        case O::Prelu: {
            Type r = like(vec_tile(c, 0));
            vec_tile(c, 1);
            same_shape(c, 0, 1);
            same_dtype(c, 0, 1);
            if (c.op->code == O::Rem || c.op->code == O::Xor || c.op->code == O::Prelu) vec_tile(c, 2);
            if (c.op->code >= O::And && c.op->code <= O::Shrs) int_dtype(c, 0);
            return r;
        }
        case O::Sin:
        case O::Cos:
        case O::Not: {
            Type r = like(vec_tile(c, 0));
            if (c.op->code == O::Not)
                int_dtype(c, 0);
            else if (r.dtype != DType::FP32)
                raise(codes::kType, nth(c, 0)->loc,
                      fmt::format("{}: FP32 only (PyPTO), got {}", label(c), dtype_name(r.dtype)));
            return r;
        }
        case O::Addc:
        case O::Subc: {
            Type r = like(vec_tile(c, 0));
            for (size_t i : {1u, 2u}) {
                vec_tile(c, i);
                same_shape(c, 0, i);
                same_dtype(c, 0, i);
            }
            return r;
        }
        case O::Addsc:
        case O::Subsc: {
            Type r = like(vec_tile(c, 0));
            scalar_arg(c, 1);
            vec_tile(c, 2);
            same_shape(c, 0, 2);
            same_dtype(c, 0, 2);
            return r;
        }
        case O::Cmp:
        case O::Cmps: {
            const Type& a = vec_tile(c, 0);
            if (c.op->code == O::Cmp) {
                vec_tile(c, 1);
                same_shape(c, 0, 1);
                same_dtype(c, 0, 1);
            } else {
                scalar_arg(c, 1);
            }
            if (const ExprPtr& m = arg(c, "cmp_type")) {
                auto v = const_int(m);
                if (!v || *v < 0 || *v > 5)
                    raise(codes::kType, m->loc,
                          fmt::format("{}: cmp_type must be a constant 0..5 (EQ, NE, LT, LE, GT, GE)", label(c)));
            }
            return Type::tile({a.shape[0], mask_cols(a.shape[1])}, DType::UINT8, Mem::Vec);
        }
        case O::Sel:
        case O::Sels: {
            const Type& m = vec_tile(c, 0);
            Type r = like(vec_tile(c, 1));
            vec_tile(c, 2);
            if (c.op->code == O::Sel) {
                same_shape(c, 1, 2);
                same_dtype(c, 1, 2);
                vec_tile(c, 3);
            } else {
                scalar_arg(c, 3);
            }
            if (!dtype_is_int(m.dtype))
                raise(codes::kType, nth(c, 0)->loc,
                      fmt::format("{}: the mask must be an integer (packed predicate) tile, got {}", label(c),
                                  dtype_name(m.dtype)));
            const int64_t bits = static_cast<int64_t>(dtype_bytes(m.dtype) * 8);
            if (m.shape[0] != r.shape[0] || m.shape[1] * bits < r.shape[1])
                raise(codes::kType, nth(c, 0)->loc,
                      fmt::format("{}: mask {} does not cover {} ({} bits per row needed)", label(c), type_str(m),
                                  shape_str(r.shape), r.shape[1]));
            return r;
        }
        case O::Fillpad:
        case O::FillpadInplace: {
            Type r = like(vec_tile(c, 0));
            pad_kw(c);
            r.valid.clear();  // everything is valid after the fill
            return r;
        }
        case O::FillpadExpand: {
            const Type& t = vec_tile(c, 0);
            auto shape = const_shape(c, "shape");
            for (size_t i = 0; i < 2; ++i)
                if (shape[i] < t.shape[i])
                    raise(codes::kType, arg(c, "shape")->loc,
                          fmt::format("{}: destination dimension {} ({}) must be >= the source's ({})", label(c), i,
                                      shape[i], t.shape[i]));
            pad_kw(c);
            Type r = Type::tile(shape, t.dtype, Mem::Vec);
            return r;
        }
        case O::Ci: {
            scalar_arg(c, 0, true);
            auto shape = const_shape(c, "shape");
            DType d = dtype_kw(c, "dtype", DType::INT32);
            if (d != DType::INT16 && d != DType::INT32 && d != DType::UINT16 && d != DType::UINT32)
                raise(codes::kType, arg(c, "dtype")->loc,
                      fmt::format("{}: dtype must be INT16, INT32, UINT16 or UINT32, got {}", label(c), dtype_name(d)));
            bool_kw(c, "descending");
            return Type::tile(shape, d, Mem::Vec);
        }
        case O::Tri: {
            scalar_arg(c, 0, true);
            auto shape = const_shape(c, "shape");
            DType d = dtype_kw(c, "dtype", DType::INT32);
            bool_kw(c, "upper");
            Type r = Type::tile(shape, d, Mem::Vec);
            if (arg(c, "valid_shape")) {
                auto vs = const_shape(c, "valid_shape");
                if (vs[0] > shape[0] || vs[1] > shape[1])
                    raise(
                        codes::kType, arg(c, "valid_shape")->loc,
                        fmt::format("{}: valid_shape {} exceeds shape {}", label(c), shape_str(vs), shape_str(shape)));
            }
            return r;
        }
        case O::Concat: {
            const Type& a = vec_tile(c, 0);
            const Type& b = vec_tile(c, 1);
            same_dtype(c, 0, 1);
            if (a.shape[0] != b.shape[0])
                raise(codes::kType, nth(c, 1)->loc,
                      fmt::format("{}: row counts must match, got {} vs {}", label(c), a.shape[0], b.shape[0]));
            return Type::tile({a.shape[0], a.shape[1] + b.shape[1]}, a.dtype, Mem::Vec);
        }
        case O::Extract: {
            const ExprPtr& s = nth(c, 0);
            if (!s || s->type.kind != TypeKind::Tile || s->type.shape.size() != 2)
                raise(codes::kType, loc_of(c, s),
                      fmt::format("{}: 'src' must be a 2-D tile, got {}", label(c), s ? type_str(s->type) : "nothing"));
            scalar_arg(c, 1, true);
            scalar_arg(c, 2, true);
            auto shape = const_shape(c, "shape");
            for (size_t i = 0; i < 2; ++i)
                if (shape[i] > s->type.shape[i])
                    raise(codes::kType, arg(c, "shape")->loc,
                          fmt::format("{}: shape[{}]={} exceeds src {} {}", label(c), i, shape[i],
                                      i == 0 ? "rows" : "cols", s->type.shape[i]));
            const ExprPtr& tm = arg(c, "target_memory");
            if (!tm || tm->kind != ExprKind::Enum || tm->enum_kind != EnumKind::Mem)
                raise(codes::kType, loc_of(c, tm), fmt::format("{}: target_memory must be a pl.Mem member", label(c)));
            Mem src = s->type.mem, dst = static_cast<Mem>(tm->ival);
            bool ok =
                (src == Mem::Mat && (dst == Mem::Left || dst == Mem::Right || dst == Mem::Mat)) ||
                (src == Mem::Vec && dst == Mem::Vec) ||
                (src == Mem::Acc && dst == Mem::Mat);  // cube -> vector goes through pl.move (the expander's boundary)
            if (!ok)
                raise(codes::kType, tm->loc,
                      fmt::format("{}: cannot extract from pl.Mem.{} into pl.Mem.{}", label(c), mem_name(src),
                                  mem_name(dst)),
                      "Mat -> Left/Right/Mat, Vec -> Vec, Acc -> Mat");
            auto r0 = const_int(nth(c, 1)), c0 = const_int(nth(c, 2));
            if (r0 && c0 &&
                (*r0 < 0 || *c0 < 0 || *r0 + shape[0] > s->type.shape[0] || *c0 + shape[1] > s->type.shape[1]))
                raise(codes::kOob, c.loc,
                      fmt::format("{}: window {} at ({}, {}) leaves src of shape {}", label(c), shape_str(shape), *r0,
                                  *c0, shape_str(s->type.shape)));
            return Type::tile(shape, s->type.dtype, dst);
        }
        case O::Read: {
            const Type& t = vec_tile(c, 0);
            index_list(c, "indices", 2);
            index_inside(c, "indices", t.shape, {});
            return Type::scalar(t.dtype);
        }
        case O::Write: {
            Type r = like(vec_tile(c, 0));
            index_list(c, "indices", 2);
            index_inside(c, "indices", r.shape, {});
            scalar_arg(c, 2);
            return r;
        }
        case O::Assemble: {
            // Into UB (a vector copy), or into L1 (Mat): from L0C (the FIXPIPE insert, with the store's dtype
            // conversion) or from L1 (gather_row's rows, already DMA'd in place).
            const ExprPtr& tg = nth(c, 0);
            if (tg && tg->type.kind == TypeKind::Tile && tg->type.mem == Mem::Mat) {
                const ExprPtr& sa = nth(c, 1);
                if (!sa || sa->type.kind != TypeKind::Tile || (sa->type.mem != Mem::Mat && sa->type.mem != Mem::Acc))
                    raise(codes::kType, loc_of(c, sa),
                          fmt::format(
                              "{}: into an L1 (pl.Mem.Mat) tile the source must be in pl.Mem.Mat or pl.Mem.Acc, got {}",
                              label(c), sa ? type_str(sa->type) : "nothing"));
                const Type &t = tg->type, &s = sa->type;
                if (t.shape.size() != 2 || s.shape.size() != 2)
                    raise(codes::kType, tg->loc, fmt::format("{}: tiles must be 2-D", label(c)));
                const bool conv = s.mem == Mem::Acc && dtype_is_float(s.dtype) && dtype_is_float(t.dtype);
                if (s.dtype != t.dtype && !conv) same_dtype(c, 0, 1);
                index_list(c, "offset", 2);
                if (!s.valid_dynamic) index_inside(c, "offset", t.shape, s.valid.empty() ? s.shape : s.valid);
                Type r = t;
                return r;
            }
            Type r = like(vec_tile(c, 0));
            const Type& s = vec_tile(c, 1);
            same_dtype(c, 0, 1);
            index_list(c, "offset", 2);
            if (!s.valid_dynamic) index_inside(c, "offset", r.shape, s.valid.empty() ? s.shape : s.valid);
            return r;
        }
        default:
            return std::nullopt;
    }
}

}  // namespace cvsim::ir
