// The sort / gather / scatter / index ops (pto-isa TSORT32, TMRGSORT, TGATHER, TSCATTER, TROWARGMAX/MIN,
// TCOLARGMAX/MIN): registry rows and the numerics (core/datapath_sort, shared by the reference interpreter and the
// simulator). Their type rules: ops_sort_types.cpp.
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

}  // namespace cvsim::ir
