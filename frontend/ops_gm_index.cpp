// pl.tile.mgather / pl.tile.mscatter: GM accesses whose elements a UB index tile picks at run time (PyPTO:
// python/pypto/language/op/tile_ops.py, src/ir/op/tile_ops/memory.cpp; pto-isa MGATHER / MSCATTER). Registry
// rows and PyPTO's type rules; the addressing both executors share is rt::indexed_window / rt::pick_index.
//
// Modelled: the Vec (UB) forms. mgather coalesce row (dst row r = table row idx[r]) and elem (dst[i, j] =
// table.flat[idx[i, j]]), gather_oob undefined / clamp / wrap / zero; mscatter element-wise (PyPTO emits the
// elem form: output.flat[idx[i, j]] = src[i, j], the last write in row-major order wins, as pto-isa's a2a3
// kernel and a5's Conflict::Last). mgather's Mat (L1) forms, fed by a GM index tensor and a GM scratch, are
// E-UNSUPPORTED.
#include <fmt/format.h>

#include <algorithm>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops_more.h"

namespace cvsim::ir {

namespace {

std::string label(const Expr& c) { return "pl." + c.op->name(); }

[[noreturn]] void fail(const Expr& c, const ExprPtr& at, const std::string& msg, const char* code = codes::kType) {
    raise(code, at ? at->loc : c.loc, msg);
}

// An integer attribute or one of its spellings (PyPTO accepts both; the printer writes the integer).
int mode_attr(const Expr& c, const char* name, std::initializer_list<const char*> names, int dflt) {
    const ExprPtr& a = arg(c, name);
    if (!a || a->kind == ExprKind::NoneLit) return dflt;
    if (a->kind == ExprKind::Int) {
        if (a->ival < 0 || a->ival >= static_cast<int64_t>(names.size()))
            fail(c, a, fmt::format("{}: {} must be in 0..{}, got {}", label(c), name, names.size() - 1, a->ival));
        return static_cast<int>(a->ival);
    }
    if (a->kind == ExprKind::Str) {
        int k = 0;
        std::string all;
        for (const char* n : names) {
            if (a->sval == n) return k;
            all += fmt::format("{}'{}'", k ? ", " : "", n);
            ++k;
        }
        fail(c, a, fmt::format("{}: {} must be one of {} (or 0..{}), got '{}'", label(c), name, all, names.size() - 1, a->sval));
    }
    fail(c, a, fmt::format("{}: {} must be a string or an integer constant", label(c), name));
}

const Type& vec_tile(const Expr& c, const char* name) {
    const ExprPtr& a = arg(c, name);
    if (!a || a->type.kind != TypeKind::Tile)
        fail(c, a, fmt::format("{}: argument '{}' must be a tile, got {}", label(c), name, a ? type_str(a->type) : "nothing"));
    if (a->type.mem != Mem::Vec) fail(c, a, fmt::format("{}: argument '{}' must be in pl.Mem.Vec, got {}", label(c), name, type_str(a->type)));
    if (a->type.shape.size() != 2) fail(c, a, fmt::format("{}: argument '{}' must be a 2-D tile, got {}", label(c), name, type_str(a->type)));
    const Layout l = a->type.layout();
    if (l != Layout::ND) fail(c, a, fmt::format("{}: argument '{}' must be a row_major (ND) tile, got a {} tile", label(c), name, layout_name(l)));
    return a->type;
}

const Type& tensor_of(const Expr& c, const char* name) {
    const ExprPtr& a = arg(c, name);
    if (!a || a->type.kind != TypeKind::Tensor)
        fail(c, a, fmt::format("{}: argument '{}' must be a GM tensor, got {}", label(c), name, a ? type_str(a->type) : "nothing"));
    if (a->type.shape.empty()) fail(c, a, fmt::format("{}: '{}' needs at least one dimension", label(c), name));
    return a->type;
}

Type mgather_type(const Expr& c) {
    // Mat (L1) output: a GM index tensor (and, elem mode, a GM scratch) feed the cube's NZ gather.
    if (const ExprPtr& tm = arg(c, "target_memory"); tm && tm->kind == ExprKind::Enum && tm->enum_kind == EnumKind::Mem &&
                                                      tm->sval != "Vec")
        fail(c, tm,
             fmt::format("{}: target_memory=pl.Mem.{} (the GM -> L1 gather through a GM index tensor and scratch) is not modelled by "
                         "cvsim; the Vec form (a UB index tile) is",
                         label(c), tm->sval),
             codes::kUnsupported);
    if (arg(c, "scratch") || arg(c, "valid_shape"))
        fail(c, arg(c, "scratch") ? arg(c, "scratch") : arg(c, "valid_shape"),
             fmt::format("{}: scratch and valid_shape belong to the Mat (L1) form; the Vec form derives its region from the index tile", label(c)));
    const Type& mem = tensor_of(c, "mem");
    static const auto ok = {DType::INT8, DType::UINT8, DType::INT16, DType::UINT16, DType::INT32, DType::UINT32, DType::FP16,
                            DType::BF16, DType::FP32, DType::FP8E4M3FN, DType::FP8E5M2, DType::HF8};
    if (std::find(ok.begin(), ok.end(), mem.dtype) == ok.end())
        fail(c, arg(c, "mem"), fmt::format("{}: requires mem dtype in {{I8, U8, I16, U16, I32, U32, FP16, BF16, FP32, FP8E4M3FN, FP8E5M2, HF8}}, "
                                           "but got {}", label(c), dtype_name(mem.dtype)));
    const Type& idx = vec_tile(c, "idx");
    if (idx.dtype != DType::INT32)
        fail(c, arg(c, "idx"), fmt::format("{}: requires idx dtype to be INT32, but got {}", label(c), dtype_name(idx.dtype)));
    mode_attr(c, "gather_oob", {"undefined", "clamp", "wrap", "zero"}, 0);
    const bool elem = mode_attr(c, "coalesce", {"row", "elem"}, 0) == 1;
    std::vector<int64_t> shape, valid;
    const std::vector<int64_t> iv = idx.valid.empty() ? idx.shape : idx.valid;
    if (elem) {
        shape = idx.shape;
        valid = iv;
    } else {
        if (mem.shape.size() < 2)
            fail(c, arg(c, "mem"),
                 fmt::format("{}: row mode requires mem rank >= 2 so rows have an element dimension, but got rank {}", label(c), mem.shape.size()));
        const bool row_vector = idx.shape[0] == 1, column_vector = idx.shape[1] == 1;
        if (!row_vector && !column_vector)
            fail(c, arg(c, "idx"), fmt::format("{}: row mode requires a [1, R] or [R, 1] idx shape, but got {}", label(c), shape_str(idx.shape)));
        const size_t rd = row_vector ? 1 : 0;
        shape = {idx.shape[rd], mem.shape.back()};
        valid = {iv[rd], mem.shape.back()};
    }
    Type r = Type::tile(shape, mem.dtype, Mem::Vec);
    if (valid != shape) r.valid = valid;
    return r;
}

Type mscatter_type(const Expr& c) {
    const Type& src = vec_tile(c, "src");
    if (src.dtype != DType::FP16 && src.dtype != DType::FP32 && src.dtype != DType::INT16 && src.dtype != DType::INT32)
        fail(c, arg(c, "src"), fmt::format("{}: requires src dtype to be FP16, FP32, INT16, or INT32, but got {}", label(c), dtype_name(src.dtype)));
    const Type& idx = vec_tile(c, "idx");
    if (idx.dtype != DType::INT32)
        fail(c, arg(c, "idx"), fmt::format("{}: requires idx dtype to be INT32, but got {}", label(c), dtype_name(idx.dtype)));
    if (idx.shape != src.shape)
        fail(c, arg(c, "idx"), fmt::format("{}: requires idx shape to match src shape {}, but got {}", label(c), shape_str(src.shape), shape_str(idx.shape)));
    const Type& out = tensor_of(c, "output_tensor");
    if (out.dtype != src.dtype)
        fail(c, arg(c, "output_tensor"),
             fmt::format("{}: requires output_tensor dtype ({}) to match src dtype ({})", label(c), dtype_name(out.dtype), dtype_name(src.dtype)));
    return out;
}

}  // namespace

int mgather_coalesce(const Expr& c) { return mode_attr(c, "coalesce", {"row", "elem"}, 0); }
int mgather_oob(const Expr& c) { return mode_attr(c, "gather_oob", {"undefined", "clamp", "wrap", "zero"}, 0); }

void add_gm_index_ops(std::vector<OpDef>& ops) {
    auto def = [&](OpCode code, const char* n, std::vector<ParamSpec> params, Pipe pipe, Effect effect, const char* doc) {
        OpDef d;
        d.code = code;
        d.ns = "tile";
        d.short_name = n;
        d.qname = std::string("tile.") + n;
        d.params = std::move(params);
        d.side = Side::Vector;
        d.side_rule = SideRule::Fixed;
        d.pipe = pipe;
        d.pipe_rule = PipeRule::Fixed;
        d.effect = effect;
        d.valid = ValidRule::Full;
        d.cost = OpCost::GmIndexed;
        d.doc = doc;
        ops.push_back(std::move(d));
    };
    const auto req = [](const char* n) { return ParamSpec{n, true, true, false}; };
    const auto kw = [](const char* n) { return ParamSpec{n, false, false, false}; };
    def(OpCode::Mgather, "mgather",
        {req("mem"), req("idx"), ParamSpec{"coalesce", false, true, false}, kw("gather_oob"), kw("target_memory"), kw("scratch"), kw("valid_shape")},
        Pipe::Mte2, Effect::GmLoad,
        "GM -> UB by a UB INT32 index tile: row mode dst[r, :] = mem row idx[r]; elem mode dst[i, j] = mem.flat[idx[i, j]]; "
        "gather_oob undefined (E-OOB) / clamp / wrap / zero (the Mat form is E-UNSUPPORTED)");
    def(OpCode::Mscatter, "mscatter", {req("src"), req("idx"), req("output_tensor")}, Pipe::Mte3, Effect::GmStore,
        "UB -> GM by a UB INT32 index tile of src's shape: output.flat[idx[i, j]] = src[i, j] (row-major order, the last write wins; "
        "an index outside the tensor is E-OOB)");
}

std::optional<Type> gm_index_type(const Expr& c) {
    switch (c.op->code) {
        case OpCode::Mgather: return mgather_type(c);
        case OpCode::Mscatter: return mscatter_type(c);
        default: return std::nullopt;
    }
}

}  // namespace cvsim::ir
