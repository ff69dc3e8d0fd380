// Registry rows, type rules and numerics of part_add/part_mul/part_max/part_min, reinterpret_view, gatherb,
// scatter_update and get_block_num (PyPTO: python/pypto/language/op/tile_ops.py, src/ir/op/tile_ops/
// elementwise.cpp, transform.cpp, gather.cpp; pto-isa: TPARTADD/TPARTMUL/TPARTMAX/TPARTMIN, TGATHERB).
#include "frontend/ops_more.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "frontend/codes.h"
#include "frontend/diag.h"

namespace cvsim::ir {

namespace {

// ---- numerics ----

const TileData& tile_at(const OpOperands& o, size_t i) {
    if (i >= o.tiles.size()) throw std::invalid_argument(o.op->name() + ": missing tile operand");
    return o.tiles[i];
}

std::pair<int64_t, int64_t> valid_at(const OpOperands& o, size_t i) {
    if (i < o.valid.size()) return o.valid[i];
    const TileData& t = tile_at(o, i);
    return {t.m.rows(), t.m.cols()};
}

// The physical layout of tile argument `i` of the call (ND without a call: direct numerics tests).
Layout arg_layout(const OpOperands& o, size_t i) {
    if (!o.call) return Layout::ND;
    size_t k = 0;
    for (const auto& a : o.call->args)
        if (a && a->type.kind == TypeKind::Tile && k++ == i) return a->type.layout();
    return Layout::ND;
}

// TPARTADD & co.: over the result, both operands valid at (i, j) -> src0 (op) src1; only one valid -> that
// one; neither -> 0 (the ISA leaves it undefined; a2a3 asserts one operand covers dst).
TileData n_part(const OpOperands& o) {
    const TileData& a = tile_at(o, 0);
    const TileData& b = tile_at(o, 1);
    const TileData both = binary(static_cast<BinaryOp>(o.op->variant), a, b);
    auto [ar, ac] = valid_at(o, 0);
    auto [br, bc] = valid_at(o, 1);
    TileData r{a.dtype, Matrix::Zero(a.m.rows(), a.m.cols())};
    for (int64_t i = 0; i < r.m.rows(); ++i)
        for (int64_t j = 0; j < r.m.cols(); ++j) {
            const bool va = i < ar && j < ac, vb = i < br && j < bc;
            r.m(i, j) = va && vb ? both.m(i, j) : va ? a.m(i, j) : vb ? b.m(i, j) : 0.0;
        }
    return r;
}

// The same bytes (the source's physical ND or DN layout) read as out_dtype with the result's shape.
TileData n_reinterpret(const OpOperands& o) {
    const TileData& x = tile_at(o, 0);
    const Layout l = arg_layout(o, 0);
    const std::vector<uint8_t> bytes = encode(x.m, x.dtype, l, false);
    return TileData{o.out_dtype, decode(bytes.data(), bytes.size(), o.out_dtype, l, false, o.out_rows, o.out_cols)};
}

// TGATHERB: output row r, 32-byte block k = the 32 source bytes from byte offset offset[r, k] of src's
// physical tile (bytes past its end read 0), read as out_dtype.
TileData n_gatherb(const OpOperands& o) {
    const TileData& src = tile_at(o, 0);
    const TileData& off = tile_at(o, 1);
    const std::vector<uint8_t> sb = encode(src.m, src.dtype, arg_layout(o, 0), false);
    const int64_t R = o.out_rows, C = o.out_cols, eb = static_cast<int64_t>(dtype_bytes(o.out_dtype));
    std::vector<uint8_t> ob(static_cast<size_t>(R * C * eb), 0);
    for (int64_t r = 0; r < R && r < off.m.rows(); ++r)
        for (int64_t k = 0; k < off.m.cols() && (k + 1) * 32 <= C * eb; ++k) {
            const uint64_t base = static_cast<uint64_t>(off.m(r, k));  // UINT32 values
            uint8_t* dst = ob.data() + static_cast<size_t>(r * C * eb + k * 32);
            for (uint64_t b = 0; b < 32; ++b)
                if (base + b < sb.size()) dst[b] = sb[static_cast<size_t>(base + b)];
        }
    return TileData{o.out_dtype, decode(ob.data(), ob.size(), o.out_dtype, Layout::ND, false, R, C)};
}

// scatter_update (dim=-2): row index[i, j] of input = row i * s + j of src ([b, s] index, [b * s, d] src), in
// row-major order of the index (a repeated row keeps the last write; a row outside input is dropped).
TileData n_scatter_update(const OpOperands& o) {
    TileData r = tile_at(o, 0);
    const TileData& idx = tile_at(o, 1);
    const TileData& src = tile_at(o, 2);
    const int64_t s = idx.m.cols();
    for (int64_t i = 0; i < idx.m.rows(); ++i)
        for (int64_t j = 0; j < s; ++j) {
            const double v = idx.m(i, j);
            const int64_t row = i * s + j;
            if (v < 0 || v >= static_cast<double>(r.m.rows()) || row >= src.m.rows()) continue;
            const int64_t dst = static_cast<int64_t>(v);
            for (int64_t c = 0; c < r.m.cols() && c < src.m.cols(); ++c) r.m(dst, c) = round_to(r.dtype, src.m(row, c));
        }
    return r;
}

// ---- type rules ----

std::string label(const Expr& c) {
    return "pl." + c.op->name();
}

[[noreturn]] void fail(const Expr& c, const ExprPtr& at, const std::string& msg, const char* code = codes::kType) {
    raise(code, at ? at->loc : c.loc, msg);
}

const Type& tile_of(const Expr& c, const char* name, bool vec = true) {
    const ExprPtr& a = arg(c, name);
    if (!a || a->type.kind != TypeKind::Tile)
        fail(
            c, a,
            fmt::format("{}: argument '{}' must be a tile, got {}", label(c), name, a ? type_str(a->type) : "nothing"));
    if (vec && a->type.mem != Mem::Vec)
        fail(c, a, fmt::format("{}: argument '{}' must be in pl.Mem.Vec, got {}", label(c), name, type_str(a->type)));
    if (a->type.shape.size() != 2)
        fail(c, a, fmt::format("{}: argument '{}' must be a 2-D tile, got {}", label(c), name, type_str(a->type)));
    return a->type;
}

void dtype_one_of(const Expr& c, const char* name, DType t, std::initializer_list<DType> ok, const char* what) {
    if (std::find(ok.begin(), ok.end(), t) == ok.end())
        fail(c, arg(c, name),
             fmt::format("{}: requires {} dtype to be {}, but got {}", label(c), name, what, dtype_name(t)));
}

std::vector<int64_t> valid_or_shape(const Type& t) {
    return t.valid.empty() ? t.shape : t.valid;
}

Type part_type(const Expr& c) {
    const Type& a = tile_of(c, "src0");
    const Type& b = tile_of(c, "src1");
    const auto ok = {DType::INT8,   DType::UINT8, DType::INT16, DType::UINT16, DType::INT32,
                     DType::UINT32, DType::FP16,  DType::FP32,  DType::BF16};
    dtype_one_of(c, "src0", a.dtype, ok, "an 8/16/32-bit integer or FP16/BF16/FP32");
    if (b.dtype != a.dtype)
        fail(c, arg(c, "src1"),
             fmt::format("{}: requires src0 and src1 to have the same dtype, got {} and {}", label(c),
                         dtype_name(a.dtype), dtype_name(b.dtype)));
    if (b.shape != a.shape)
        fail(c, arg(c, "src1"),
             fmt::format("{}: 'src1' is {} but 'src0' is {} (cvsim needs equal shapes)", label(c), shape_str(b.shape),
                         shape_str(a.shape)));
    Type r = Type::tile(a.shape, a.dtype, Mem::Vec);
    r.view = a.view;
    auto va = valid_or_shape(a), vb = valid_or_shape(b);
    std::vector<int64_t> u = {std::max(va[0], vb[0]), std::max(va[1], vb[1])};
    if (u != r.shape) r.valid = u;
    return r;
}

bool reinterpretable(DType t) {
    switch (t) {
        case DType::INT8:
        case DType::UINT8:
        case DType::INT16:
        case DType::UINT16:
        case DType::INT32:
        case DType::UINT32:
        case DType::FP16:
        case DType::BF16:
        case DType::FP32:
            return true;
        default:
            return false;
    }
}

Type reinterpret_type(const Expr& c) {
    const Type& x = tile_of(c, "data", false);
    const ExprPtr& d = arg(c, "dtype");
    if (d->kind != ExprKind::DTypeLit) fail(c, d, fmt::format("{}: 'dtype' must be a pl dtype", label(c)));
    const DType to = d->dtype;
    const Layout l = x.layout();
    if (l != Layout::ND && l != Layout::DN)
        fail(c, arg(c, "data"),
             fmt::format(
                 "{}: only supports flat tiles with slayout=none_box (row_major or col_major blayout); got a {} tile",
                 label(c), layout_name(l)));
    for (auto [t, what] : {std::pair{x.dtype, "source"}, std::pair{to, "target"}})
        if (!reinterpretable(t)) {
            const bool wide = t == DType::INT64 || t == DType::UINT64;
            fail(c, what[0] == 's' ? arg(c, "data") : d,
                 fmt::format(
                     "{}: {} dtype {} is not supported{}", label(c), what, dtype_name(t),
                     wide ? " by cvsim: tile values are doubles, so 64-bit bit patterns beyond 2^53 would not survive"
                          : " (INT8/16/32, UINT8/16/32, FP16, BF16, FP32)"),
                 wide ? codes::kUnsupported : codes::kType);
        }
    if (to == x.dtype)
        fail(c, d, fmt::format("{}: target dtype must differ from the source dtype {}", label(c), dtype_name(x.dtype)));
    const int64_t sb = static_cast<int64_t>(dtype_bytes(x.dtype)), db = static_cast<int64_t>(dtype_bytes(to));
    const size_t axis = l == Layout::DN ? 0 : 1;  // the physically contiguous axis
    auto scale = [&](int64_t e, const ExprPtr& at, const char* what) {
        if ((e * sb) % db != 0)
            fail(c, at,
                 fmt::format("{}: {} dimension {} ({}) is not divisible by {} for the wider target dtype", label(c),
                             what, axis, e, db / sb));
        return e * sb / db;
    };
    std::vector<int64_t> shape = x.shape, valid = x.valid;
    if (const ExprPtr& s = arg(c, "shape")) {
        auto v = const_int_list(s);
        if (!v || v->size() != 2 || (*v)[0] <= 0 || (*v)[1] <= 0)
            fail(c, s, fmt::format("{}: 'shape' must be a 2-D list of positive constant integers", label(c)));
        if ((*v)[0] * (*v)[1] * db != x.shape[0] * x.shape[1] * sb)
            fail(c, s,
                 fmt::format("{}: shape {} of {} is {} bytes, the source {} is {} bytes", label(c), shape_str(*v),
                             dtype_name(to), (*v)[0] * (*v)[1] * db, type_str(x), x.shape[0] * x.shape[1] * sb));
        if (!x.valid.empty())
            fail(c, s,
                 fmt::format("{}: shape= of a partly valid source ({}) is not supported by cvsim: the valid region has "
                             "no byte-equivalent "
                             "in a new shape",
                             label(c), shape_str(x.valid)),
                 codes::kUnsupported);
        shape = *v;
    } else {
        shape[axis] = scale(shape[axis], arg(c, "data"), "source");
        if (!valid.empty()) valid[axis] = scale(valid[axis], arg(c, "data"), "valid_shape");
    }
    Type r = Type::tile(shape, to, x.mem);
    r.view = x.view;
    if (!valid.empty() && valid != shape) r.valid = valid;
    return r;
}

Type gatherb_type(const Expr& c) {
    const Type& s = tile_of(c, "src");
    const auto ok = {DType::INT8,   DType::UINT8, DType::INT16, DType::UINT16, DType::INT32,
                     DType::UINT32, DType::FP16,  DType::BF16,  DType::FP32};
    const char* what = "an 8/16/32-bit int/uint or FP16/BF16/FP32";
    dtype_one_of(c, "src", s.dtype, ok, what);
    DType out = s.dtype;
    if (const ExprPtr& od = arg(c, "output_dtype")) {
        if (od->kind != ExprKind::DTypeLit) fail(c, od, fmt::format("{}: output_dtype must be a pl dtype", label(c)));
        out = od->dtype;
        dtype_one_of(c, "output_dtype", out, ok, what);
    }
    const Type& off = tile_of(c, "offset");
    if (off.dtype != DType::UINT32)
        fail(c, arg(c, "offset"),
             fmt::format("{}: requires offset dtype to be UINT32, but got {}", label(c), dtype_name(off.dtype)));
    if (off.shape[1] % 8 != 0)
        fail(c, arg(c, "offset"),
             fmt::format("{}: requires offset columns to be a positive multiple of 8 (32-byte UINT32 row), but got {}",
                         label(c), off.shape[1]));
    const int64_t per = 32 / static_cast<int64_t>(dtype_bytes(out));
    Type r = Type::tile({off.shape[0], off.shape[1] * per}, out, Mem::Vec);
    if (!off.valid.empty()) {
        std::vector<int64_t> v = {off.valid[0], off.valid[1] * per};
        if (v != r.shape) r.valid = v;
    }
    return r;
}

Type scatter_update_type(const Expr& c) {
    const Type& in = tile_of(c, "input");
    const ExprPtr& ia = arg(c, "index");
    if (ia && ia->type.kind != TypeKind::Tile)
        fail(c, ia,
             fmt::format("{}: 'index' must be a tile, got {}; cvsim reads the printed form scatter_update(input, "
                         "index, src, dim=-2)",
                         label(c), type_str(ia->type)));
    const Type& idx = tile_of(c, "index");
    const Type& src = tile_of(c, "src");
    if (!dtype_is_int(idx.dtype) || idx.dtype == DType::BOOL)
        fail(c, ia, fmt::format("{}: index dtype must be integer, got {}", label(c), dtype_name(idx.dtype)));
    if (src.dtype != in.dtype)
        fail(c, arg(c, "src"),
             fmt::format("{}: src dtype ({}) must match input dtype ({})", label(c), dtype_name(src.dtype),
                         dtype_name(in.dtype)));
    if (src.shape[1] != in.shape[1])
        fail(c, arg(c, "src"),
             fmt::format("{}: src rows have {} columns, input rows {}", label(c), src.shape[1], in.shape[1]));
    if (src.shape[0] != idx.shape[0] * idx.shape[1])
        fail(c, arg(c, "src"),
             fmt::format("{}: src must be [b * s, d] = [{}, {}] for index {}, got {}", label(c),
                         idx.shape[0] * idx.shape[1], in.shape[1], shape_str(idx.shape), shape_str(src.shape)));
    if (const ExprPtr& d = arg(c, "dim")) {
        auto v = const_int(d);
        if (!v && d->kind == ExprKind::Unary && d->sval == "-" && !d->args.empty())
            if (auto w = const_int(d->args[0])) v = -*w;
        if (!v || *v != -2) fail(c, d, fmt::format("{}: only dim=-2 is currently supported", label(c)));
    }
    Type r = Type::tile(in.shape, in.dtype, Mem::Vec);
    r.view = in.view;
    return r;
}

}  // namespace

void add_more_ops(std::vector<OpDef>& ops) {
    auto add = [&](OpCode code, const char* n, std::vector<ParamSpec> p, Effect e, NumericsFn fn, int variant,
                   ValidRule valid, OpCost cost, const char* doc) {
        OpDef d;
        d.code = code;
        d.ns = "tile";
        d.short_name = n;
        d.params = std::move(p);
        d.qname = std::string("tile.") + n;
        d.side = Side::Vector;
        d.pipe = Pipe::Vector;
        d.effect = e;
        d.numerics = fn;
        d.variant = variant;
        d.valid = valid;
        d.cost = cost;
        d.doc = doc;
        ops.push_back(std::move(d));
    };
    const auto req = [](const char* n) { return ParamSpec{n, true, true, false}; };
    const auto opt = [](const char* n) { return ParamSpec{n, false, false, false}; };
    using O = OpCode;
    using V = ValidRule;
    const char* names[] = {"part_add", "part_mul", "part_max", "part_min"};
    const BinaryOp bops[] = {BinaryOp::Add, BinaryOp::Mul, BinaryOp::Maximum, BinaryOp::Minimum};
    const char* docs[] = {"src0 + src1 where both are valid, else the one valid operand (TPARTADD; neither: 0)",
                          "src0 * src1 where both are valid, else the one valid operand (TPARTMUL; neither: 0)",
                          "max(src0, src1) where both are valid, else the one valid operand (TPARTMAX; neither: 0)",
                          "min(src0, src1) where both are valid, else the one valid operand (TPARTMIN; neither: 0)"};
    for (int i = 0; i < 4; ++i)
        add(static_cast<O>(static_cast<int>(O::PartAdd) + i), names[i], {req("src0"), req("src1")}, Effect::Compute,
            n_part, static_cast<int>(bops[i]), V::Full, OpCost::VecBinary, docs[i]);
    add(O::ReinterpretView, "reinterpret_view", {req("data"), req("dtype"), opt("shape")}, Effect::View, n_reinterpret,
        0, V::Full, OpCost::None,
        "the same bytes (ND or DN tile) read as another dtype; the contiguous axis scales by the byte ratio, or "
        "shape=");
    ops.back().side = Side::Shared;
    ops.back().side_rule = SideRule::TileMem;
    ops.back().pipe = Pipe::Scalar;
    add(O::Gatherb, "gatherb", {req("src"), req("offset"), opt("output_dtype")}, Effect::Compute, n_gatherb, 0, V::Full,
        OpCost::VecGather,
        "row r, block k of 32 bytes = src's bytes from byte offset offset[r, k] (UINT32), read as output_dtype");
    add(O::ScatterUpdate, "scatter_update", {req("input"), req("index"), req("src"), opt("dim")}, Effect::Compute,
        n_scatter_update, 0, V::Inherit, OpCost::VecGather,
        "row index[i, j] of input = row i * s + j of src (dim=-2; last write wins; rows outside input dropped)");
    OpDef bn;
    bn.code = O::GetBlockNum;
    bn.ns = "tile";
    bn.short_name = "get_block_num";
    bn.qname = "tile.get_block_num";
    bn.side = Side::Shared;
    bn.pipe = Pipe::Scalar;
    bn.effect = Effect::Scalar;
    bn.valid = V::Full;
    bn.cost = OpCost::Scalar;
    bn.doc = "the launch's block count (INDEX)";
    ops.push_back(std::move(bn));
}

std::optional<Type> more_op_type(const Expr& c) {
    using O = OpCode;
    switch (c.op->code) {
        case O::PartAdd:
        case O::PartMul:
        case O::PartMax:
        case O::PartMin:
            return part_type(c);
        case O::ReinterpretView:
            return reinterpret_type(c);
        case O::Gatherb:
            return gatherb_type(c);
        case O::ScatterUpdate:
            return scatter_update_type(c);
        case O::GetBlockNum:
            return Type::scalar(DType::INDEX);
        default:
            return std::nullopt;
    }
}

}  // namespace cvsim::ir
