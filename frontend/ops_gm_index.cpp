// pl.tile.mgather / pl.tile.mscatter: GM accesses whose elements a UB index tile picks at run time (PyPTO:
// python/pypto/language/op/tile_ops.py, src/ir/op/tile_ops/memory.cpp; pto-isa MGATHER / MSCATTER). Registry
// rows and PyPTO's type rules; the addressing both executors share is rt::indexed_window / rt::pick_index.
//
// Modelled: the Vec (UB) forms. mgather coalesce row (dst row r = table row idx[r]) and elem (dst[i, j] =
// table.flat[idx[i, j]]), gather_oob undefined / clamp / wrap / zero; mscatter element-wise (PyPTO emits the
// elem form: output.flat[idx[i, j]] = src[i, j], the last write in row-major order wins, as pto-isa's a2a3
// kernel and a5's Conflict::Last). And mgather's Mat (L1) form (pto-isa MGATHER GM -> L1, run by the cube core):
// the index is a GM INT32 tensor the cube's scalar reads, row mode DMAs each picked row into the NZ tile, elem
// mode writes the picked elements into a GM scratch in NZ order (zeroed first) and DMAs the scratch into L1.
#include <fmt/format.h>

#include <algorithm>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops_more.h"

namespace cvsim::ir {

namespace {

std::string label(const Expr& c) {
    return "pl." + c.op->name();
}

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
        fail(c, a,
             fmt::format("{}: {} must be one of {} (or 0..{}), got '{}'", label(c), name, all, names.size() - 1,
                         a->sval));
    }
    fail(c, a, fmt::format("{}: {} must be a string or an integer constant", label(c), name));
}

const Type& vec_tile(const Expr& c, const char* name) {
    const ExprPtr& a = arg(c, name);
    if (!a || a->type.kind != TypeKind::Tile)
        fail(
            c, a,
            fmt::format("{}: argument '{}' must be a tile, got {}", label(c), name, a ? type_str(a->type) : "nothing"));
    if (a->type.mem != Mem::Vec)
        fail(c, a, fmt::format("{}: argument '{}' must be in pl.Mem.Vec, got {}", label(c), name, type_str(a->type)));
    if (a->type.shape.size() != 2)
        fail(c, a, fmt::format("{}: argument '{}' must be a 2-D tile, got {}", label(c), name, type_str(a->type)));
    const Layout l = a->type.layout();
    if (l != Layout::ND)
        fail(c, a,
             fmt::format("{}: argument '{}' must be a row_major (ND) tile, got a {} tile", label(c), name,
                         layout_name(l)));
    return a->type;
}

const Type& tensor_of(const Expr& c, const char* name) {
    const ExprPtr& a = arg(c, name);
    if (!a || a->type.kind != TypeKind::Tensor)
        fail(c, a,
             fmt::format("{}: argument '{}' must be a GM tensor, got {}", label(c), name,
                         a ? type_str(a->type) : "nothing"));
    if (a->type.shape.empty()) fail(c, a, fmt::format("{}: '{}' needs at least one dimension", label(c), name));
    return a->type;
}

Type mgather_mat_type(const Expr& c);

// The table dtypes PyPTO's DeduceTileMgatherType accepts (both forms).
void check_mgather_mem_dtype(const Expr& c, const Type& mem) {
    static const auto ok = {DType::INT8, DType::UINT8, DType::INT16, DType::UINT16,    DType::INT32,   DType::UINT32,
                            DType::FP16, DType::BF16,  DType::FP32,  DType::FP8E4M3FN, DType::FP8E5M2, DType::HF8};
    if (std::find(ok.begin(), ok.end(), mem.dtype) == ok.end())
        fail(c, arg(c, "mem"),
             fmt::format(
                 "{}: requires mem dtype in {{I8, U8, I16, U16, I32, U32, FP16, BF16, FP32, FP8E4M3FN, FP8E5M2, HF8}}, "
                 "but got {}",
                 label(c), dtype_name(mem.dtype)));
}

Type mgather_type(const Expr& c) {
    if (const ExprPtr& tm = arg(c, "target_memory");
        tm && !(tm->kind == ExprKind::Enum && tm->enum_kind == EnumKind::Mem))
        fail(c, tm, fmt::format("{}: target_memory must be pl.Mem.Vec or pl.Mem.Mat", label(c)));
    else if (tm && static_cast<Mem>(tm->ival) != Mem::Vec) {
        if (static_cast<Mem>(tm->ival) != Mem::Mat)
            fail(c, tm,
                 fmt::format("{}: target_memory must be pl.Mem.Vec or pl.Mem.Mat, got pl.Mem.{}", label(c), tm->sval));
        return mgather_mat_type(c);
    }
    if (arg(c, "scratch") || arg(c, "valid_shape"))
        fail(c, arg(c, "scratch") ? arg(c, "scratch") : arg(c, "valid_shape"),
             fmt::format("{}: scratch and valid_shape belong to the Mat (L1) form; the Vec form derives its region "
                         "from the index tile",
                         label(c)));
    const Type& mem = tensor_of(c, "mem");
    check_mgather_mem_dtype(c, mem);
    const Type& idx = vec_tile(c, "idx");
    if (idx.dtype != DType::INT32)
        fail(c, arg(c, "idx"),
             fmt::format("{}: requires idx dtype to be INT32, but got {}", label(c), dtype_name(idx.dtype)));
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
                 fmt::format("{}: row mode requires mem rank >= 2 so rows have an element dimension, but got rank {}",
                             label(c), mem.shape.size()));
        const bool row_vector = idx.shape[0] == 1, column_vector = idx.shape[1] == 1;
        if (!row_vector && !column_vector)
            fail(c, arg(c, "idx"),
                 fmt::format("{}: row mode requires a [1, R] or [R, 1] idx shape, but got {}", label(c),
                             shape_str(idx.shape)));
        const size_t rd = row_vector ? 1 : 0;
        shape = {idx.shape[rd], mem.shape.back()};
        valid = {iv[rd], mem.shape.back()};
    }
    Type r = Type::tile(shape, mem.dtype, Mem::Vec);
    if (valid != shape) r.valid = valid;
    return r;
}

Type mgather_mat_type(const Expr& c) {
    // PyPTO's DeduceTileMgatherType, Mat branch (src/ir/op/tile_ops/memory.cpp).
    const Type& mem = tensor_of(c, "mem");
    check_mgather_mem_dtype(c, mem);
    const Type& idx = tensor_of(c, "idx");
    if (idx.dtype != DType::INT32)
        fail(c, arg(c, "idx"),
             fmt::format("{}: requires Mat idx dtype to be INT32, but got {}", label(c), dtype_name(idx.dtype)));
    if (idx.shape.size() != 2)
        fail(c, arg(c, "idx"),
             fmt::format("{}: requires a 2D Mat idx tensor, but got rank {}", label(c), idx.shape.size()));
    mode_attr(c, "gather_oob", {"undefined", "clamp", "wrap", "zero"}, 0);
    const bool elem = mode_attr(c, "coalesce", {"row", "elem"}, 0) == 1;
    const ExprPtr& scratch = arg(c, "scratch");
    std::vector<int64_t> shape;
    if (elem) {
        if (!scratch || scratch->kind == ExprKind::NoneLit)
            fail(c, nullptr, fmt::format("{}: Mat elem mode requires a GM scratch tensor (scratch=)", label(c)));
        const Type& st = tensor_of(c, "scratch");
        const ExprPtr& m = arg(c, "mem");
        const ExprPtr& ix = arg(c, "idx");
        if (scratch->kind == ExprKind::Var && ((m->kind == ExprKind::Var && m->var == scratch->var) ||
                                               (ix->kind == ExprKind::Var && ix->var == scratch->var)))
            fail(c, scratch,
                 fmt::format("{}: Mat elem scratch must not alias mem or idx; use a distinct GM tensor", label(c)));
        if (st.dtype != mem.dtype)
            fail(c, scratch,
                 fmt::format("{}: Mat elem scratch dtype must match mem dtype ({}), got {}", label(c),
                             dtype_name(mem.dtype), dtype_name(st.dtype)));
        shape = idx.shape;
        int64_t need = shape[0] * shape[1], have = 1;
        for (int64_t d : st.shape) have *= d;
        if (have < need)
            fail(c, scratch,
                 fmt::format("{}: Mat elem scratch requires at least {} elements, but got {}", label(c), need, have));
    } else {
        if (scratch && scratch->kind != ExprKind::NoneLit)
            fail(c, scratch,
                 fmt::format("{}: Mat row mode accepts only an optional valid_shape (scratch belongs to elem mode)",
                             label(c)));
        if (mem.shape.size() < 2)
            fail(c, arg(c, "mem"),
                 fmt::format("{}: Mat row mode requires mem rank >= 2, but got rank {}", label(c), mem.shape.size()));
        if (idx.shape[0] != 1)
            fail(c, arg(c, "idx"),
                 fmt::format("{}: Mat row mode requires a [1, R] GM idx tensor, but got {}", label(c),
                             shape_str(idx.shape)));
        shape = {idx.shape[1], mem.shape.back()};
    }
    const int64_t c0 = 32 / std::max<int64_t>(1, static_cast<int64_t>(dtype_bytes(mem.dtype)));
    if (shape[0] % 16 != 0)
        fail(c, nullptr, fmt::format("{}: Mat output rows must be a multiple of 16, got {}", label(c), shape[0]));
    if (shape[1] % c0 != 0)
        fail(c, nullptr, fmt::format("{}: Mat output cols must be a multiple of {}, got {}", label(c), c0, shape[1]));
    Type r = Type::tile(shape, mem.dtype, Mem::Mat);
    if (const ExprPtr& vs = arg(c, "valid_shape"); vs && vs->kind != ExprKind::NoneLit) {
        auto v = const_int_list(vs);
        if (!v) fail(c, vs, fmt::format("{}: Mat valid_shape must be a list of compile-time constants", label(c)));
        if (v->size() != 2)
            fail(c, vs, fmt::format("{}: Mat valid_shape must have rank 2, but got {}", label(c), v->size()));
        for (size_t d = 0; d < 2; ++d)
            if ((*v)[d] <= 0 || (*v)[d] > shape[d])
                fail(c, vs,
                     fmt::format("{}: requires 0 < Mat valid_shape[{}] <= output_shape[{}], but got {} and {}",
                                 label(c), d, d, (*v)[d], shape[d]));
        if (*v != shape) r.valid = *v;
    }
    return r;
}

Type mscatter_type(const Expr& c) {
    const Type& src = vec_tile(c, "src");
    if (src.dtype != DType::FP16 && src.dtype != DType::FP32 && src.dtype != DType::INT16 && src.dtype != DType::INT32)
        fail(c, arg(c, "src"),
             fmt::format("{}: requires src dtype to be FP16, FP32, INT16, or INT32, but got {}", label(c),
                         dtype_name(src.dtype)));
    const Type& idx = vec_tile(c, "idx");
    if (idx.dtype != DType::INT32)
        fail(c, arg(c, "idx"),
             fmt::format("{}: requires idx dtype to be INT32, but got {}", label(c), dtype_name(idx.dtype)));
    if (idx.shape != src.shape)
        fail(c, arg(c, "idx"),
             fmt::format("{}: requires idx shape to match src shape {}, but got {}", label(c), shape_str(src.shape),
                         shape_str(idx.shape)));
    const Type& out = tensor_of(c, "output_tensor");
    if (out.dtype != src.dtype)
        fail(c, arg(c, "output_tensor"),
             fmt::format("{}: requires output_tensor dtype ({}) to match src dtype ({})", label(c),
                         dtype_name(out.dtype), dtype_name(src.dtype)));
    return out;
}

}  // namespace

int mgather_coalesce(const Expr& c) {
    return mode_attr(c, "coalesce", {"row", "elem"}, 0);
}
int mgather_oob(const Expr& c) {
    return mode_attr(c, "gather_oob", {"undefined", "clamp", "wrap", "zero"}, 0);
}

void add_gm_index_ops(std::vector<OpDef>& ops) {
    auto def = [&](OpCode code, const char* n, std::vector<ParamSpec> params, Pipe pipe, Effect effect,
                   const char* doc) {
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
    // mgather's side follows its result: the Mat form runs on the cube core (pto-isa's GM -> L1 path).
    const auto kw = [](const char* n) { return ParamSpec{n, false, false, false}; };
    def(OpCode::Mgather, "mgather",
        {req("mem"), req("idx"), ParamSpec{"coalesce", false, true, false}, kw("gather_oob"), kw("target_memory"),
         kw("scratch"), kw("valid_shape")},
        Pipe::Mte2, Effect::GmLoad,
        "GM -> UB by a UB INT32 index tile: row mode dst[r, :] = mem row idx[r]; elem mode dst[i, j] = mem.flat[idx[i, "
        "j]]; "
        "gather_oob undefined (E-OOB) / clamp / wrap / zero. target_memory=Mat (on the cube): GM INT32 idx tensor, an "
        "NZ L1 tile of "
        "valid_shape; row mode dst[r, :vc] = mem row idx.flat[r]; elem mode dst[r, c] = mem.flat[idx[r, c]] staged "
        "through GM "
        "scratch (all Rows x Cols elements written, NZ order, zeros where nothing is gathered)");
    ops.back().side_rule = SideRule::ResultMem;
    def(OpCode::Mscatter, "mscatter", {req("src"), req("idx"), req("output_tensor")}, Pipe::Mte3, Effect::GmStore,
        "UB -> GM by a UB INT32 index tile of src's shape: output.flat[idx[i, j]] = src[i, j] (row-major order, the "
        "last write wins; "
        "an index outside the tensor is E-OOB)");
}

std::optional<Type> gm_index_type(const Expr& c) {
    switch (c.op->code) {
        case OpCode::Mgather:
            return mgather_type(c);
        case OpCode::Mscatter:
            return mscatter_type(c);
        default:
            return std::nullopt;
    }
}

}  // namespace cvsim::ir
