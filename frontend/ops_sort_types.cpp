// Type rules of the sort / gather / scatter / index ops: PyPTO's (src/ir/op/tile_ops/sort.cpp, gather.cpp,
// scatter.cpp, reduction.cpp) with the ISA's static constraints (registry rows and numerics: ops_sort.cpp).
#include "frontend/ops_sort.h"

#include <fmt/format.h>

#include "core/datapath_sort.h"
#include "frontend/codes.h"
#include "frontend/diag.h"

namespace cvsim::ir {

namespace {

// ---- type rules ----

// gather_compare's two result ops speak as the op the user wrote.
std::string label(const Expr& call) {
    if (call.op->code == OpCode::GatherCompareDst || call.op->code == OpCode::GatherCompareCdst)
        return "pl.tile.gather_compare";
    return "pl." + call.op->name();
}

[[noreturn]] void fail(const Expr& call, const ExprPtr& at, const std::string& msg, const char* code = codes::kType) {
    raise(code, at ? at->loc : call.loc, msg);
}

const Type& vec_tile(const Expr& call, const char* name) {
    const ExprPtr& a = arg(call, name);
    if (!a || a->type.kind != TypeKind::Tile)
        fail(call, a,
             fmt::format("{}: argument '{}' must be a tile, got {}", label(call), name,
                         a ? type_str(a->type) : "nothing"));
    if (a->type.mem != Mem::Vec)
        fail(call, a,
             fmt::format("{}: argument '{}' must be in pl.Mem.Vec, got {}", label(call), name, type_str(a->type)));
    if (a->type.shape.size() != 2)
        fail(call, a,
             fmt::format("{}: argument '{}' must be a 2-D tile, got {}", label(call), name, type_str(a->type)));
    return a->type;
}

void dtype_in(const Expr& call, const char* name, DType t, std::initializer_list<DType> ok, const char* what) {
    for (DType d : ok)
        if (d == t) return;
    fail(call, arg(call, name),
         fmt::format("{}: requires {} dtype to be {}, but got {}", label(call), name, what, dtype_name(t)));
}

int64_t const_or_fail(const Expr& call, const char* name, const char* what) {
    auto v = const_int(arg(call, name));
    if (!v) fail(call, arg(call, name), fmt::format("{}: '{}' must be {}", label(call), name, what));
    return *v;
}

Type vec_result(std::vector<int64_t> shape, DType d, std::vector<int64_t> valid = {}) {
    Type r = Type::tile(std::move(shape), d, Mem::Vec);
    if (!valid.empty() && valid != r.shape) r.valid = std::move(valid);
    return r;
}

void sortable(const Expr& call, const char* name, DType t) {
    dtype_in(call, name, t, {DType::FP16, DType::FP32}, "FP16 or FP32");
}

void one_row(const Expr& call, const char* name, const Type& t) {
    if (t.shape[0] != 1)
        fail(call, arg(call, name),
             fmt::format("{}: '{}' must have 1 row (TMRGSORT works on [1, N] tiles), got {}", label(call), name,
                         type_str(t)));
}

}  // namespace

Type sort_op_type(const Expr& call) {
    using O = OpCode;
    const std::string op = label(call);
    switch (call.op->code) {
        case O::Sort32: {
            const Type& s = vec_tile(call, "src");
            sortable(call, "src", s.dtype);
            if (s.dtype == DType::FP16)
                fail(call, arg(call, "src"),
                     fmt::format("{}: FP16 is not supported: PyPTO types the result [R, 2C] but TSORT32 writes 8-byte "
                                 "tuples (4C halves), so the tile would overflow; sort FP32",
                                 op),
                     codes::kUnsupported);
            const Type& i = vec_tile(call, "idx");
            dtype_in(call, "idx", i.dtype, {DType::UINT32, DType::INT32}, "UINT32 (TSORT32 index)");
            if (i.shape[1] != s.shape[1] || (i.shape[0] != s.shape[0] && i.shape[0] != 1))
                fail(call, arg(call, "idx"),
                     fmt::format("{}: idx must be [{}, {}] or [1, {}], got {}", op, s.shape[0], s.shape[1], s.shape[1],
                                 type_str(i)));
            std::vector<int64_t> valid;
            if (!s.valid.empty()) valid = {s.valid[0], 2 * s.valid[1]};
            return vec_result({s.shape[0], 2 * s.shape[1]}, s.dtype, valid);
        }
        case O::MrgSort1: {
            const Type& s = vec_tile(call, "src");
            sortable(call, "src", s.dtype);
            one_row(call, "src", s);
            const ExprPtr& bl = arg(call, "block_len");
            if (bl->type.kind != TypeKind::Scalar || !dtype_is_int(bl->type.dtype))
                fail(call, bl,
                     fmt::format("{}: requires block_len to be an integer scalar, got {}", op, type_str(bl->type)));
            if (auto v = const_int(bl)) {
                if (*v <= 0 || *v % 64 != 0)
                    fail(call, bl,
                         fmt::format("{}: requires block_len to be a positive multiple of 64, but got {}", op, *v));
                if (s.shape[1] % (4 * *v) != 0)
                    fail(call, bl,
                         fmt::format("{}: the source's {} columns must be a multiple of 4 * block_len = {} (TMRGSORT "
                                     "merges 4 runs)",
                                     op, s.shape[1], 4 * *v));
            }
            return vec_result(s.shape, s.dtype);
        }
        case O::MrgSort2: {
            std::vector<const char*> tiles;
            for (const char* n : {"src0", "src1", "tmp_or_src2", "tmp_or_src3", "tmp"})
                if (arg(call, n)) tiles.push_back(n);
            if (tiles.size() < 3)
                fail(call, nullptr,
                     fmt::format("{}: requires 3-5 arguments (2-4 sorted lists + tmp), but got {}; use mrgsort(src0, "
                                 "src1[, src2], tmp=<tile>)",
                                 op, tiles.size()));
            const char* tmp_name = tiles.back();
            tiles.pop_back();
            const Type& s0 = vec_tile(call, "src0");
            sortable(call, "src0", s0.dtype);
            for (const char* n : tiles) {
                const Type& t = vec_tile(call, n);
                if (t.dtype != s0.dtype)
                    fail(
                        call, arg(call, n),
                        fmt::format(
                            "{}: requires all src tiles to have matching dtype, but argument '{}' has {} (expected {})",
                            op, n, dtype_name(t.dtype), dtype_name(s0.dtype)));
                one_row(call, n, t);
            }
            const Type& tmp = vec_tile(call, tmp_name);
            one_row(call, tmp_name, tmp);
            if (const ExprPtr& ex = arg(call, "exhausted"); ex && ex->kind != ExprKind::Bool && !const_int(ex))
                fail(call, ex, fmt::format("{}: exhausted must be True or False", op));
            return vec_result(tmp.shape, s0.dtype);
        }
        case O::Gather: {
            const Type& s = vec_tile(call, "src");
            dtype_in(call, "src", s.dtype, {DType::FP16, DType::FP32, DType::INT16, DType::INT32},
                     "FP16, FP32, INT16, or INT32");
            const Type& i = vec_tile(call, "indices");
            const bool src16 = s.dtype == DType::FP16 || s.dtype == DType::INT16;
            if (!(i.dtype == DType::INT32 || (i.dtype == DType::INT16 && src16)))
                fail(call, arg(call, "indices"),
                     fmt::format("{}: requires indices dtype INT32 (any src), or INT16 with a 16-bit src (FP16/INT16); "
                                 "got indices {} with src {}",
                                 op, dtype_name(i.dtype), dtype_name(s.dtype)));
            vec_tile(call, "tmp");
            return vec_result(i.shape, s.dtype, i.valid);
        }
        case O::GatherMask: {
            const Type& s = vec_tile(call, "src");
            dtype_in(call, "src", s.dtype, {DType::FP16, DType::FP32, DType::INT16, DType::INT32},
                     "FP16, FP32, INT16, or INT32");
            const int64_t p = const_or_fail(call, "mask_pattern", "a constant 1..7 (pl.tile.MaskPattern member)");
            if (p < 1 || p > 7)
                fail(call, arg(call, "mask_pattern"),
                     fmt::format("{}: requires mask_pattern in range [1, 7], but got {}", op, p));
            const int64_t div = mask_pattern_stride(static_cast<int>(p));
            if (s.shape[1] % div != 0)
                fail(call, arg(call, "src"),
                     fmt::format("{} with mask_pattern={} requires src columns divisible by {}, got {}", op, p, div,
                                 s.shape[1]));
            DType out = s.dtype;
            if (const ExprPtr& od = arg(call, "output_dtype")) {
                if (od->kind != ExprKind::DTypeLit)
                    fail(call, od, fmt::format("{}: output_dtype must be a pl dtype", op));
                if (dtype_bytes(od->dtype) != dtype_bytes(s.dtype))
                    fail(call, od,
                         fmt::format("{}: output_dtype must have the same bit width as src dtype ({} = {} bits), but "
                                     "got {} = {} bits",
                                     op, dtype_name(s.dtype), 8 * dtype_bytes(s.dtype), dtype_name(od->dtype),
                                     8 * dtype_bytes(od->dtype)));
                out = od->dtype;
            }
            return vec_result({s.shape[0], s.shape[1] / div}, out);
        }
        case O::Scatter:
        case O::ScatterMask: {
            const Type& d = vec_tile(call, "dst");
            const Type& s = vec_tile(call, "src");
            const auto elem = {DType::FP16, DType::FP32, DType::BF16, DType::INT8, DType::INT16, DType::INT32};
            dtype_in(call, "dst", d.dtype, elem, "FP16/FP32/BF16/INT8/INT16/INT32");
            dtype_in(call, "src", s.dtype, elem, "FP16/FP32/BF16/INT8/INT16/INT32");
            if (d.dtype != s.dtype)
                fail(call, arg(call, "src"),
                     fmt::format("{}: requires dst and src to have the same dtype, got {} and {}", op,
                                 dtype_name(d.dtype), dtype_name(s.dtype)));
            if (call.op->code == O::Scatter) {
                const Type& i = vec_tile(call, "indexes");
                const DType want = dtype_bytes(d.dtype) == 4 ? DType::INT32 : DType::INT16;
                if (i.dtype != want)
                    fail(call, arg(call, "indexes"),
                         fmt::format("{}: with dst dtype {} requires indexes of {} (the element width of dst), got {}",
                                     op, dtype_name(d.dtype), dtype_name(want), dtype_name(i.dtype)));
                if (i.shape != s.shape)
                    fail(call, arg(call, "indexes"),
                         fmt::format("{}: indexes must have src's shape {}, got {}", op, shape_str(s.shape),
                                     shape_str(i.shape)));
            } else {
                const int64_t p = const_or_fail(call, "mask_pattern", "a constant 1..7 (pl.tile.MaskPattern member)");
                if (p < 1 || p > 7)
                    fail(call, arg(call, "mask_pattern"),
                         fmt::format("{}: requires mask_pattern in range [1, 7], but got {}", op, p));
                const int64_t stride = mask_pattern_stride(static_cast<int>(p));
                if (s.shape[0] != d.shape[0] || d.shape[1] != s.shape[1] * stride)
                    fail(call, arg(call, "src"),
                         fmt::format("{}: with mask_pattern={} requires dst [{}, {}] for src {}, got {}", op, p,
                                     s.shape[0], s.shape[1] * stride, shape_str(s.shape), shape_str(d.shape)));
            }
            Type r = d;
            return r;
        }
        case O::GatherCompareDst:
        case O::GatherCompareCdst: {
            // PyPTO's DeduceTileGatherCompareType (src/ir/op/tile_ops/gather.cpp) plus pto-isa TGATHER's static
            // constraint that the compare form has only the EQ and GT modes.
            const std::string gc = "pl.tile.gather_compare";
            const Type& s = vec_tile(call, "src");
            dtype_in(call, "src", s.dtype, {DType::FP16, DType::FP32, DType::INT16, DType::INT32},
                     "FP16, FP32, INT16, or INT32");
            const ExprPtr& k = arg(call, "kvalue");
            if (k->type.kind != TypeKind::Scalar)
                fail(call, k, fmt::format("{}: requires kvalue to be a scalar, but got {}", gc, type_str(k->type)));
            // A literal takes src's dtype (rounded to it); a typed scalar must have it (PyPTO's check).
            const bool literal = k->kind == ExprKind::Int || k->kind == ExprKind::Float;
            if (!literal && k->type.dtype != s.dtype)
                fail(call, k,
                     fmt::format("{}: requires kvalue dtype equal to src dtype {}, but got {}", gc, dtype_name(s.dtype),
                                 dtype_name(k->type.dtype)));
            if (const ExprPtr& t = arg(call, "tmp"); !t || t->type.kind != TypeKind::Tile)
                fail(call, t,
                     fmt::format("{}: requires tmp to be a tile, but got {}", gc, t ? type_str(t->type) : "nothing"));
            int64_t mode = 0;
            if (const ExprPtr& m = arg(call, "cmp_mode")) {
                static const char* names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
                if (auto str = const_str(m)) {
                    mode = -1;
                    for (int i = 0; i < 6; ++i)
                        if (*str == names[i]) mode = i;
                    if (mode < 0)
                        fail(call, m,
                             fmt::format("{}: invalid cmp_mode '{}': expected one of eq, ne, lt, le, gt, ge or int 0-5",
                                         gc, *str));
                } else if (auto v = const_int(m)) {
                    mode = *v;
                    if (mode < 0 || mode > 5)
                        fail(call, m,
                             fmt::format("{}: requires cmp_mode in [0, 5] (eq/ne/lt/le/gt/ge), but got {}", gc, mode));
                } else {
                    fail(call, m, fmt::format("{}: cmp_mode must be a constant ('eq', 'gt', ... or 0-5)", gc));
                }
                if (mode != 0 && mode != 4)
                    fail(call, m,
                         fmt::format(
                             "{}: cmp_mode '{}' is not supported: pto-isa's TGATHER compare form has only EQ and GT",
                             gc, names[mode]),
                         codes::kUnsupported);
            }
            if (const ExprPtr& off = arg(call, "offset"); off && !const_int(off))
                fail(call, off, fmt::format("{}: offset must be a constant integer", gc));
            const int64_t oc = const_or_fail(call, "out_cols", "a constant positive integer");
            if (oc <= 0)
                fail(call, arg(call, "out_cols"), fmt::format("{}: requires out_cols > 0, but got {}", gc, oc));
            DType cd = DType::INT32;
            if (const ExprPtr& d = arg(call, "count_dtype")) {
                if (d->kind != ExprKind::DTypeLit)
                    fail(call, d, fmt::format("{}: count_dtype must be pl.INT32 or pl.UINT32", gc));
                cd = d->dtype;
                if (cd != DType::INT32 && cd != DType::UINT32)
                    fail(call, d,
                         fmt::format("{}: requires count_dtype to be INT32 or UINT32, but got {}", gc, dtype_name(cd)));
            }
            if (call.op->code == O::GatherCompareDst) return vec_result({s.shape[0], oc}, DType::INT32);
            return vec_result({1, s.shape[0]}, cd);
        }
        case O::RowArgmax:
        case O::RowArgmin:
        case O::ColArgmax:
        case O::ColArgmin: {
            const Type& x = vec_tile(call, "tile");
            dtype_in(call, "tile", x.dtype,
                     {DType::FP16, DType::BF16, DType::FP32, DType::INT16, DType::UINT16, DType::INT32, DType::UINT32},
                     "a 2- or 4-byte number (FP16/BF16/FP32/INT16/UINT16/INT32/UINT32)");
            const Type& t = vec_tile(call, "tmp_tile");
            if (t.shape != x.shape || t.dtype != x.dtype)
                fail(call, arg(call, "tmp_tile"),
                     fmt::format("{}: tmp_tile must have exactly the same shape and dtype as tile ({}), got {}", op,
                                 type_str(x), type_str(t)));
            const bool row = call.op->code == O::RowArgmax || call.op->code == O::RowArgmin;
            std::vector<int64_t> valid;
            if (!x.valid.empty())
                valid = row ? std::vector<int64_t>{x.valid[0], 1} : std::vector<int64_t>{1, x.valid[1]};
            return vec_result(row ? std::vector<int64_t>{x.shape[0], 1} : std::vector<int64_t>{1, x.shape[1]},
                              DType::INT32, valid);
        }
        default:
            break;
    }
    return Type::none();
}

}  // namespace cvsim::ir
