// The sort / gather / scatter / index ops (pto-isa TSORT32, TMRGSORT, TGATHER, TSCATTER, TROWARGMAX/MIN,
// TCOLARGMAX/MIN): registry rows, PyPTO's type rules (src/ir/op/tile_ops/sort.cpp, gather.cpp, scatter.cpp,
// reduction.cpp) with the ISA's static constraints, and the numerics (models/datapath_sort, shared by the reference
// interpreter and the simulator).
#include "frontend/ops_sort.h"

#include <fmt/format.h>

#include "core/datapath_sort.h"
#include "frontend/codes.h"
#include "frontend/diag.h"

namespace cvsim::ir {

namespace {

// ---- numerics ----

const TileData& tile_at(const OpOperands& o, size_t i) {
    if (i >= o.tiles.size()) throw std::invalid_argument(o.op->name() + ": missing tile operand");
    return o.tiles[i];
}

int64_t call_int(const OpOperands& o, const char* name, int64_t dflt) {
    if (!o.call) return dflt;
    auto v = const_int(arg(*o.call, name));
    return v ? *v : dflt;
}

TileData n_sort32(const OpOperands& o) {
    return sort32(tile_at(o, 0), tile_at(o, 1));
}
TileData n_mrgsort1(const OpOperands& o) {
    if (o.scalars.empty()) throw std::invalid_argument("mrgsort: missing block_len");
    return mrgsort1(tile_at(o, 0), static_cast<int64_t>(o.scalars[0]));
}
// The call's tile arguments are the 2..4 lists then tmp (the last one); tmp only gives the output shape.
size_t mrgsort2_lists(const Expr& call) {
    size_t n = 0;
    for (const auto& a : call.args)
        if (a && a->type.kind == TypeKind::Tile) ++n;
    return n - 1;
}
TileData n_mrgsort2(const OpOperands& o) {
    const size_t n = o.call ? mrgsort2_lists(*o.call) : o.tiles.size() - 1;
    std::vector<const TileData*> lists;
    for (size_t i = 0; i < n; ++i) lists.push_back(&tile_at(o, i));
    return mrgsort2(lists, o.out_cols, call_int(o, "exhausted", 0) != 0);
}
TileData n_gather(const OpOperands& o) {
    return gather(tile_at(o, 0), tile_at(o, 1));
}
TileData n_gather_mask(const OpOperands& o) {
    return gather_mask(tile_at(o, 0), static_cast<int>(call_int(o, "mask_pattern", 0)), o.out_dtype);
}
TileData n_scatter(const OpOperands& o) {
    return scatter(tile_at(o, 0), tile_at(o, 1), tile_at(o, 2));
}
TileData n_scatter_mask(const OpOperands& o) {
    return scatter_mask(tile_at(o, 0), tile_at(o, 1), static_cast<int>(call_int(o, "mask_pattern", 0)));
}
TileData n_arg(const OpOperands& o) {
    const TileData& x = tile_at(o, 0);
    switch (o.op->variant) {
        case 0:
            return row_argmax(x);
        case 1:
            return row_argmin(x);
        case 2:
            return col_argmax(x);
        default:
            return col_argmin(x);
    }
}

// gather_compare's mode: "eq"/"gt" (the DSL) or PyPTO's resolved integer 0/4 (printed IR); the type rule has
// refused the other four.
GatherCmp gather_cmp_mode(const Expr& call) {
    const ExprPtr& m = arg(call, "cmp_mode");
    if (!m) return GatherCmp::EQ;
    if (auto s = const_str(m)) return *s == "gt" ? GatherCmp::GT : GatherCmp::EQ;
    return const_int(m).value_or(0) == 4 ? GatherCmp::GT : GatherCmp::EQ;
}
// The operands both gather_compare ops and the overflow check read: src, its valid region, kvalue rounded to
// src's dtype, the mode.
struct GatherCompareArgs {
    const TileData& src;
    int64_t vr, vc;
    double k;
    GatherCmp mode;
};
GatherCompareArgs gather_compare_args(const OpOperands& o) {
    const TileData& s = tile_at(o, 0);
    if (o.scalars.empty()) throw std::invalid_argument("gather_compare: missing kvalue");
    if (!o.call) throw std::invalid_argument("gather_compare: no call");
    auto [vr, vc] = o.valid.empty() ? std::pair<int64_t, int64_t>{s.m.rows(), s.m.cols()} : o.valid[0];
    if (vr < 0) vr = s.m.rows();
    if (vc < 0) vc = s.m.cols();
    return {s, vr, vc, round_to(s.dtype, o.scalars[0]), gather_cmp_mode(*o.call)};
}
TileData n_gather_compare(const OpOperands& o) {
    const GatherCompareArgs a = gather_compare_args(o);
    if (o.op->code == OpCode::GatherCompareDst)
        return gather_compare_dst(a.src, a.vr, a.vc, a.k, a.mode, call_int(o, "offset", 0), o.out_cols);
    return gather_compare_cdst(a.src, a.vr, a.vc, a.k, a.mode, o.out_dtype);
}

}  // namespace

std::optional<std::string> assemble_outside_error(const OpOperands& o) {
    if (!o.op || o.op->code != OpCode::Assemble || o.tiles.size() < 2) return std::nullopt;
    const int64_t r = o.ints.size() >= 2 ? o.ints[o.ints.size() - 2] : 0, c = o.ints.empty() ? 0 : o.ints.back();
    const TileData &t = o.tiles[0], &s = o.tiles[1];
    int64_t vr = s.m.rows(), vc = s.m.cols();
    if (o.valid.size() >= 2) vr = std::min(vr, o.valid[1].first), vc = std::min(vc, o.valid[1].second);
    if (vr <= 0 || vc <= 0) return std::nullopt;  // nothing is written
    if (r >= 0 && c >= 0 && r <= t.m.rows() - vr && c <= t.m.cols() - vc) return std::nullopt;
    return fmt::format(
        "pl.tile.assemble: the source's region [{}, {}] at offset [{}, {}] leaves the target of shape [{}, {}]", vr, vc,
        r, c, t.m.rows(), t.m.cols());
}

std::optional<std::string> write_outside_error(const OpOperands& o) {
    if (!o.op || o.op->code != OpCode::Write || o.tiles.empty()) return std::nullopt;
    int64_t r = 0, c = 0;
    if (o.ints.size() == 1)
        c = o.ints[0];
    else if (o.ints.size() >= 2)
        r = o.ints[o.ints.size() - 2], c = o.ints.back();
    const TileData& t = o.tiles[0];
    if (r >= 0 && c >= 0 && r < t.m.rows() && c < t.m.cols()) return std::nullopt;
    return fmt::format("pl.tile.write: index [{}, {}] is outside the tile of shape [{}, {}]", r, c, t.m.rows(),
                       t.m.cols());
}

std::optional<std::string> gather_compare_overflow_error(const OpOperands& o) {
    if (!o.op || (o.op->code != OpCode::GatherCompareDst && o.op->code != OpCode::GatherCompareCdst) || !o.call ||
        o.tiles.empty() || o.scalars.empty())
        return std::nullopt;
    const GatherCompareArgs a = gather_compare_args(o);
    const int64_t out_cols = call_int(o, "out_cols", o.out_cols);
    auto over = gather_compare_overflow(a.src, a.vr, a.vc, a.k, a.mode, out_cols);
    if (!over) return std::nullopt;
    return fmt::format(
        "pl.tile.gather_compare: row {} of src has {} matches but out_cols is {}: the hardware writes the indices past "
        "the row of dst (into the next row, or past the tile)",
        over->first, over->second, out_cols);
}

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

void add_sort_ops(std::vector<OpDef>& ops) {
    auto add = [&](OpCode c, const char* n, std::vector<ParamSpec> p, NumericsFn fn, int variant, ValidRule valid,
                   OpCost cost, const char* doc) {
        OpDef d;
        d.code = c;
        d.ns = "tile";
        d.short_name = n;
        d.params = std::move(p);
        d.qname = std::string("tile.") + n;
        d.side = Side::Vector;
        d.pipe = Pipe::Vector;
        d.effect = Effect::Compute;
        d.numerics = fn;
        d.variant = variant;
        d.valid = valid;
        d.cost = cost;
        d.doc = doc;
        ops.push_back(std::move(d));
    };
    auto req = [](const char* n) { return ParamSpec{n, true, true, false}; };
    auto opt = [](const char* n) { return ParamSpec{n, false, true, false}; };
    auto kw = [](const char* n) { return ParamSpec{n, false, false, false}; };
    using O = OpCode;
    using V = ValidRule;
    add(O::Sort32, "sort32", {req("src"), req("idx")}, n_sort32, 0, V::Full, OpCost::VecSort,
        "sort each 32-column block descending into [value, index] FP32 tuples ([R, C] -> [R, 2C]; ties: smaller index "
        "first)");
    add(O::MrgSort1, "mrgsort_format1", {req("src"), ParamSpec{"block_len", true, false, true}}, n_mrgsort1, 0, V::Full,
        OpCost::VecMerge,
        "pl.tile.mrgsort(src, block_len=): merge each group of 4 sorted runs of block_len columns (descending tuples)");
    add(O::MrgSort2, "mrgsort_format2",
        {req("src0"), req("src1"), opt("tmp_or_src2"), opt("tmp_or_src3"), opt("tmp"), kw("exhausted")}, n_mrgsort2, 0,
        V::Full, OpCost::VecMerge,
        "pl.tile.mrgsort(src0, src1[, src2[, src3]], tmp=): merge 2-4 sorted tuple lists into tmp's shape; exhausted= "
        "stops at the first used-up list");
    add(O::Gather, "gather", {req("src"), req("indices"), req("tmp")}, n_gather, 0, V::Full, OpCost::VecGather,
        "dst[i, j] = src.flat[indices[i, j]] (an index outside src gives 0)");
    add(O::GatherMask, "gather_mask", {req("src"), req("mask_pattern"), kw("output_dtype")}, n_gather_mask, 0, V::Full,
        OpCost::VecUnary,
        "each row's columns selected by mask_pattern (P0101 ... P1111), compacted; output_dtype reinterprets the bits");
    add(O::Scatter, "scatter", {req("dst"), req("src"), req("indexes")}, n_scatter, 0, V::Inherit, OpCost::VecGather,
        "dst.flat[indexes[i, j]] = src[i, j] (row-major; the last write wins; outside dst: dropped)");
    add(O::ScatterMask, "scatter_mask", {req("dst"), req("src"), req("mask_pattern")}, n_scatter_mask, 0, V::Inherit,
        OpCost::VecUnary, "row r of src into the columns of dst row r that mask_pattern selects");
    // pl.tile.gather_compare returns (dst, cdst); sema lowers it to these two ops on the same operands (one TGATHER
    // on the hardware: dst carries its cost, cdst one issue slot for the per-row count stores).
    const std::vector<ParamSpec> gc = {
        req("src"),   ParamSpec{"kvalue", true, true, true},     req("tmp"),       kw("cmp_mode"),
        kw("offset"), ParamSpec{"out_cols", true, false, false}, kw("count_dtype")};
    add(O::GatherCompareDst, "gather_compare_dst", gc, n_gather_compare, 0, V::Full, OpCost::VecGather,
        "result 0 of pl.tile.gather_compare: [R, out_cols] INT32, row r = offset + the columns c of src row r with "
        "src[r, c] == kvalue "
        "(cmp_mode eq) or > kvalue (gt), ascending, then 0; more than out_cols matches in a row is E-OOB");
    add(O::GatherCompareCdst, "gather_compare_cdst", gc, n_gather_compare, 1, V::Full, OpCost::Scalar,
        "result 1 of pl.tile.gather_compare: [1, R] of count_dtype (INT32 default, UINT32), the match count of each "
        "src row");
    const char* arg_names[] = {"row_argmax", "row_argmin", "col_argmax", "col_argmin"};
    const char* arg_docs[] = {"[R, C] -> [R, 1] INT32: column of each row's first maximum",
                              "[R, C] -> [R, 1] INT32: column of each row's first minimum",
                              "[R, C] -> [1, C] INT32: row of each column's first maximum",
                              "[R, C] -> [1, C] INT32: row of each column's first minimum"};
    for (int i = 0; i < 4; ++i)
        add(static_cast<O>(static_cast<int>(O::RowArgmax) + i), arg_names[i], {req("tile"), req("tmp_tile")}, n_arg, i,
            i < 2 ? V::RowReduce : V::ColReduce, OpCost::VecReduce, arg_docs[i]);
}

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
