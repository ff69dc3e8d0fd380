// Sema helpers: type annotations, enums and attrs (constant folding: sema_consts.cpp).
#include "frontend/sema_types.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "frontend/codes.h"
#include "frontend/diag.h"

namespace cvsim {

using namespace ir;

ExprPtr lower_enum_ref(const ast::Expr& e) {
    std::string d = e.dotted();
    if (d.rfind("pl.", 0) != 0) return nullptr;
    std::string rest = d.substr(3);
    auto r = std::make_shared<Expr>();
    r->loc = e.loc;
    if (auto dt = dtype_from_name(rest)) {
        r->kind = ExprKind::DTypeLit;
        r->dtype = *dt;
        r->type = Type::none();
        return r;
    }
    // HF4 (PyPTO's 4-bit HiSilicon float): its encoding is published nowhere PyPTO or pto-isa points to, and
    // PyPTO's in-core codegen rejects it on every backend; INT4 / UINT4 / FP4 are modelled (models/dtype_sub_byte.cpp).
    if (rest == "HF4")
        raise(codes::kUnsupported, e.loc,
              "dtype pl.HF4 is not supported by cvsim: the 4-bit HiSilicon float's encoding is not published (PyPTO's "
              "in-core "
              "codegen rejects HF4 on every backend), so no reference can define its values",
              "docs/DECISIONS.md (Dtypes)", static_cast<uint32_t>(d.size()));
    if (rest == "AUTO") {
        ExprPtr a = make_int(-1, e.loc);
        a->sval = "pl.AUTO";  // printed back as pl.AUTO
        return a;
    }
    // pl.tile.MaskPattern.P0101 ... P1111 (gather_mask / scatter_mask): the selector's integer 1..7, printed back
    // as written.
    for (const char* prefix : {"tile.MaskPattern.", "MaskPattern."})
        if (rest.rfind(prefix, 0) == 0) {
            static const char* n[] = {"P0101", "P1010", "P0001", "P0010", "P0100", "P1000", "P1111"};
            for (int i = 0; i < 7; ++i)
                if (rest.substr(std::string_view(prefix).size()) == n[i]) {
                    ExprPtr m = make_int(i + 1, e.loc);
                    m->sval = d;
                    return m;
                }
            raise(codes::kType, e.loc,
                  fmt::format("'{}' is not a member of pl.tile.MaskPattern (members: P0101, P1010, P0001, P0010, "
                              "P0100, P1000, P1111)",
                              rest.substr(std::string_view(prefix).size())),
                  "", static_cast<uint32_t>(d.size()));
        }
    auto dot = rest.find('.');
    if (dot == std::string::npos) return nullptr;
    std::string kind = rest.substr(0, dot), member = rest.substr(dot + 1);
    r->kind = ExprKind::Enum;
    r->sval = member;
    r->type = Type::none();
    auto bad = [&](const char* what, const std::string& members) -> ExprPtr {
        raise(codes::kType, e.loc,
              fmt::format("'{}' is not a member of pl.{} ", member, what) + "(members: " + members + ")", "",
              static_cast<uint32_t>(d.size()));
    };
    if (kind == "Mem" || kind == "MemorySpace") {
        auto m = mem_from_name(member);
        if (!m) bad(kind.c_str(), "DDR, Vec, Mat, Left, Right, Acc, Bias");
        r->enum_kind = EnumKind::Mem;
        r->ival = static_cast<int64_t>(*m);
        return r;
    }
    if (kind == "SplitMode") {
        static const char* n[] = {"NONE", "UP_DOWN", "LEFT_RIGHT"};
        for (int i = 0; i < 3; ++i)
            if (member == n[i]) {
                r->enum_kind = EnumKind::SplitMode;
                r->ival = i;
                return r;
            }
        bad("SplitMode", "NONE, UP_DOWN, LEFT_RIGHT");
    }
    if (kind == "TileLayout") {
        auto l = tile_layout_from_name(member);
        if (!l) bad("TileLayout", "none_box, row_major, col_major");
        r->enum_kind = EnumKind::TileLayout;
        r->ival = static_cast<int64_t>(*l);
        return r;
    }
    if (kind == "PipeType") {
        static const std::pair<const char*, PipeType> n[] = {
            {"S", PipeType::S},       {"SCALAR", PipeType::S}, {"V", PipeType::V},       {"VECTOR", PipeType::V},
            {"M", PipeType::M},       {"CUBE", PipeType::M},   {"MTE1", PipeType::MTE1}, {"MTE2", PipeType::MTE2},
            {"MTE3", PipeType::MTE3}, {"FIX", PipeType::FIX},  {"FIXP", PipeType::FIX},  {"ALL", PipeType::ALL}};
        for (auto& [nm, p] : n)
            if (member == nm) {
                r->enum_kind = EnumKind::PipeType;
                r->ival = static_cast<int64_t>(p);
                r->sval = std::string(pipe_type_name(p));
                return r;
            }
        bad("PipeType", "S, V, M, MTE1, MTE2, MTE3, FIX, ALL");
    }
    if (kind == "FunctionType") {
        for (int i = 0; i <= static_cast<int>(FuncType::Spmd); ++i)
            if (member == func_type_name(static_cast<FuncType>(i))) {
                r->enum_kind = EnumKind::FuncType;
                r->ival = i;
                return r;
            }
        bad("FunctionType", "InCore, AIC, AIV, Group, Orchestration, Spmd, Opaque");
    }
    if (kind == "AtomicType") {
        // PyPTO's members: None_ (plain store, 0) and Add (1). Atomic modes the hardware has beyond those are
        // not modelled: rejected, never treated as a plain store.
        r->enum_kind = EnumKind::AtomicType;
        if (member == "None_") {
            r->ival = 0;
            return r;
        }
        if (member == "Add") {
            r->ival = 1;
            return r;
        }
        if (member == "Max" || member == "Min" || member == "Sub" || member == "Mul")
            raise(codes::kUnsupported, e.loc,
                  fmt::format("atomic mode pl.AtomicType.{} is not modelled (cvsim models None_ and Add)", member), "",
                  static_cast<uint32_t>(d.size()));
        bad("AtomicType", "None_, Add");
    }
    if (kind == "PadValue") {  // fillpad* pad_value= (kept as its printed spelling)
        if (member != "null" && member != "zero" && member != "max" && member != "min")
            bad("PadValue", "null, zero, max, min");
        r->enum_kind = EnumKind::Other;
        r->sval = "PadValue." + member;
        return r;
    }
    if (kind == "Level") {
        r->enum_kind = EnumKind::Level;
        return r;
    }
    if (kind == "Role") {
        r->enum_kind = EnumKind::Role;
        return r;
    }
    return nullptr;
}

ExprPtr lower_attr_value(const ConstTable& consts, const ast::Expr& e) {
    if (auto en = lower_enum_ref(e)) return en;
    // Other enum members PyPTO prints in attrs (pl.PadValue.zero, pl.TensorLayout.ND, pl.adir.X, ...): attribute
    // values are recorded and printed back, never interpreted, so they are kept verbatim.
    if (std::string d = e.dotted(); d.rfind("pl.", 0) == 0 && std::count(d.begin(), d.end(), '.') == 2) {
        auto r = std::make_shared<Expr>();
        r->kind = ExprKind::Enum;
        r->enum_kind = EnumKind::Other;
        r->sval = d.substr(3);
        r->loc = e.loc;
        r->type = Type::none();
        return r;
    }
    if (auto c = fold_const(consts, e)) return const_to_expr(*c, e.loc);
    if (e.kind == ast::ExprKind::List || e.kind == ast::ExprKind::Tuple) {
        auto r = std::make_shared<Expr>();
        r->kind = e.kind == ast::ExprKind::List ? ExprKind::List : ExprKind::Tuple;
        r->loc = e.loc;
        for (auto& a : e.args) r->args.push_back(lower_attr_value(consts, *a));
        return r;
    }
    if (e.kind == ast::ExprKind::None) {
        auto r = std::make_shared<Expr>();
        r->kind = ExprKind::NoneLit;
        r->loc = e.loc;
        return r;
    }
    raise(codes::kType, e.loc, "attribute values must be constants or pl enum members");
}

std::vector<Attr> lower_attrs(const ConstTable& consts, const ast::Expr& dict) {
    std::vector<Attr> out;
    for (size_t i = 0; i < dict.args.size(); ++i) {
        if (dict.args[i]->kind != ast::ExprKind::Str)
            raise(codes::kType, dict.args[i]->loc, "attribute keys must be strings");
        Attr a;
        a.key = dict.args[i]->str_value;
        a.value = lower_attr_value(consts, *dict.values[i]);
        if (a.key == "split" && (a.value->kind != ExprKind::Enum || a.value->enum_kind != EnumKind::SplitMode))
            raise(codes::kType, dict.values[i]->loc, "attr 'split' must be a pl.SplitMode member");
        if (a.key == "slot_num" && (a.value->kind != ExprKind::Int || a.value->ival < 1 || a.value->ival > 64))
            raise(codes::kType, dict.values[i]->loc, "attr 'slot_num' must be an integer in 1..64");
        if ((a.key == "split_aiv" || a.key == "dual_aiv_dispatch") && a.value->kind != ExprKind::Bool)
            raise(codes::kType, dict.values[i]->loc, fmt::format("attr '{}' must be True or False", a.key));
        for (auto& prev : out)
            if (prev.key == a.key)
                raise(codes::kType, dict.args[i]->loc, fmt::format("attribute '{}' given twice", a.key));
        out.push_back(std::move(a));
    }
    return out;
}

namespace {

// The first unbound dynamic symbol a dimension expression names (`N`, `N * 2`), nullptr when none.
const ast::Expr* dynamic_name_in(const ConstTable& consts, const ast::Expr& d) {
    if (d.kind == ast::ExprKind::Name) return consts.dynamic.count(d.name) ? &d : nullptr;
    if (d.kind != ast::ExprKind::BinOp && d.kind != ast::ExprKind::UnaryOp) return nullptr;
    for (auto& c : d.children)
        if (const ast::Expr* r = c ? dynamic_name_in(consts, *c) : nullptr) return r;
    return nullptr;
}

std::vector<int64_t> lower_shape(const ConstTable& consts, const ast::Expr& e) {
    if (e.kind != ast::ExprKind::List && e.kind != ast::ExprKind::Tuple)
        raise(codes::kType, e.loc, "a shape must be a list of dimensions, e.g. [16, 128]");
    if (e.args.empty()) raise(codes::kType, e.loc, "a shape needs at least one dimension");
    std::vector<int64_t> shape;
    for (auto& d : e.args) {
        if (auto sym = dynamic_name_in(consts, *d))
            raise(codes::kUnsupported, sym->loc, fmt::format("dynamic dimension '{}' is not bound", sym->name),
                  fmt::format("bind it with --dim {}=VALUE", sym->name), static_cast<uint32_t>(sym->name.size()));
        auto c = fold_const(consts, *d, nullptr, true);
        if (!c || !const_is_int(*c)) {
            if (d->kind == ast::ExprKind::Name && !c)
                raise(codes::kName, d->loc, fmt::format("name '{}' is not defined", d->name));
            raise(codes::kType, d->loc, "a dimension must be a constant integer");
        }
        int64_t v = const_as_int(*c);
        if (v <= 0 || v > (int64_t(1) << 31))
            raise(codes::kType, d->loc, fmt::format("dimension {} is out of range (1..2^31)", v));
        shape.push_back(v);
    }
    int64_t n = 1;
    for (auto v : shape)
        if (__builtin_mul_overflow(n, v, &n) || n > (int64_t(1) << 40))
            raise(codes::kType, e.loc, "shape has too many elements");
    return shape;
}

DType lower_dtype(const ast::Expr& e) {
    ExprPtr d = lower_enum_ref(e);
    if (!d || d->kind != ExprKind::DTypeLit)
        raise(codes::kType, e.loc,
              fmt::format("expected a dtype (pl.FP32, pl.FP16, pl.BF16, pl.INT8, ...), got '{}'",
                          e.dotted().empty() ? "this expression" : e.dotted()));
    return d->dtype;
}

void lower_tileview(const ConstTable& consts, const ast::Expr& e, Type& t) {
    t.view.written = true;
    if (!e.args.empty()) raise(codes::kType, e.args[0]->loc, "pl.TileView takes keyword arguments only");
    for (auto& kw : e.keywords) {
        if (kw.name == "valid_shape") {
            // A run-time valid shape in a type (PyPTO prints the valid_shape=[rows, cols] of a tpop or load whose
            // region is a scalar): the static type keeps the full shape; the region itself comes from the op that
            // produces the tile at run time (docs/DECISIONS.md, Frontend).
            // A dimension that folds only through a dynamic symbol cvsim gave its default is not a constant either
            // (PyPTO may print a local scalar's name also as a module pl.dynamic: pypto-lib's `proj_rows`).
            std::function<bool(const ast::Expr&)> defaulted = [&](const ast::Expr& x) {
                if (x.kind == ast::ExprKind::Name)
                    return std::find(consts.defaulted.begin(), consts.defaulted.end(), x.name) !=
                           consts.defaulted.end();
                for (auto& c : x.children)
                    if (c && defaulted(*c)) return true;
                for (auto& a : x.args)
                    if (a && defaulted(*a)) return true;
                return false;
            };
            bool dynamic = false;
            if (kw.value->kind == ast::ExprKind::List || kw.value->kind == ast::ExprKind::Tuple)
                for (auto& d : kw.value->args) dynamic |= !fold_const(consts, *d).has_value() || defaulted(*d);
            if (dynamic) {
                t.valid.clear();
                t.valid_dynamic = true;
                continue;
            }
            t.valid = lower_shape(consts, *kw.value);
            t.valid_dynamic = false;
        } else if (kw.name == "blayout" || kw.name == "slayout") {
            ExprPtr l = lower_enum_ref(*kw.value);
            if (!l || l->kind != ExprKind::Enum || l->enum_kind != EnumKind::TileLayout)
                raise(codes::kType, kw.value->loc, fmt::format("{} must be a pl.TileLayout member", kw.name));
            (kw.name == "blayout" ? t.view.blayout : t.view.slayout) = static_cast<TileLayout>(l->ival);
        } else if (kw.name == "fractal") {
            auto c = fold_const(consts, *kw.value);
            if (!c || !const_is_int(*c)) raise(codes::kType, kw.value->loc, "fractal must be a constant integer");
            t.view.fractal = const_as_int(*c);
        } else if (kw.name == "pad" || kw.name == "stride" || kw.name == "start_offset" || kw.name == "compact") {
            // Accepted and ignored: they do not change the data cvsim models.
        } else {
            raise(codes::kType, kw.loc, fmt::format("pl.TileView() got an unexpected keyword argument '{}'", kw.name),
                  "its keywords are: valid_shape, blayout, slayout, fractal, pad, stride, start_offset, compact");
        }
    }
}

}  // namespace

Type lower_type(const ConstTable& consts, const ast::Expr& e, const Function* fn) {
    (void)fn;
    // Handle types of PyPTO's distributed programs (docs/DECISIONS.md, "Distributed functions"): read and
    // printed back, never computed with; a function using one is not simulated.
    if (e.kind == ast::ExprKind::Attribute) {
        std::string bare = e.dotted();
        if (bare == "pld.CommCtxType" || bare == "pld.WindowBufferType" || bare == "pl.Ptr") return Type::opaque(bare);
        // PyPTO prints pl.UnknownType for a value whose type it did not deduce (pld.system.notify's result).
        if (bare == "pl.UnknownType") return Type::opaque(bare);
        // The async-prefetch handles (pl.prefetch.*): values the prefetch ops pass along, nothing else reads them.
        if (bare == "pl.PrefetchAsyncContext" || bare == "pl.AsyncEvent" || bare == "pl.AsyncSession")
            return Type::opaque(bare);
    }
    if (e.kind != ast::ExprKind::Subscript)
        raise(codes::kType, e.loc,
              fmt::format("expected a type (pl.Tensor[...], pl.Tile[...], pl.Scalar[...]), got '{}'",
                          e.dotted().empty() ? "this expression" : e.dotted()));
    std::string head = e.children[0]->dotted();
    if (head == "pl.Tensor") {
        if (e.args.size() < 2) raise(codes::kType, e.loc, "pl.Tensor takes [shape, dtype]");
        Type t = Type::tensor(lower_shape(consts, *e.args[0]), lower_dtype(*e.args[1]));
        if (is_sub_byte(t.dtype) && !t.shape.empty() && t.shape.back() > 0 && t.shape.back() % 2 != 0)
            raise(codes::kType, e.args[0]->loc,
                  fmt::format("a {} tensor's last dimension must be even (two 4-bit elements per byte), got {}",
                              dtype_name(t.dtype), shape_str(t.shape)));
        return t;  // further extras (tensor layouts) are accepted and ignored
    }
    if (head == "pl.Tile") {
        if (e.args.size() < 2) raise(codes::kType, e.loc, "pl.Tile takes [shape, dtype, memory, view]");
        Type t = Type::tile(lower_shape(consts, *e.args[0]), lower_dtype(*e.args[1]), Mem::Vec);
        bool mem_given = false;
        for (size_t i = 2; i < e.args.size(); ++i) {
            const ast::Expr& x = *e.args[i];
            if (x.kind == ast::ExprKind::Call && x.children[0]->dotted() == "pl.TileView") {
                lower_tileview(consts, x, t);
                continue;
            }
            // pl.MemRef("base", offset, size[, slots=N])[slot]: PyPTO's buffer placement. cvsim places buffers
            // itself, so the placement is accepted and not kept (docs/DECISIONS.md).
            const ast::Expr* m_ref = x.kind == ast::ExprKind::Subscript ? x.children[0].get() : &x;
            if (m_ref->kind == ast::ExprKind::Call && m_ref->children[0]->dotted() == "pl.MemRef") continue;
            ExprPtr m = lower_enum_ref(x);
            if (m && m->kind == ExprKind::Enum && m->enum_kind == EnumKind::Mem) {
                t.mem = static_cast<Mem>(m->ival);
                mem_given = true;
                continue;
            }
            raise(codes::kType, x.loc, "a pl.Tile extra must be a memory space (pl.Mem.X) or a pl.TileView(...)");
        }
        (void)mem_given;
        if (!t.valid.empty()) {
            if (t.valid.size() != t.shape.size())
                raise(codes::kType, e.loc, "valid_shape rank differs from the tile's");
            for (size_t i = 0; i < t.valid.size(); ++i)
                if (t.valid[i] > t.shape[i]) raise(codes::kType, e.loc, "valid_shape exceeds the tile shape");
            if (t.valid == t.shape) t.valid.clear();
        }
        if ((t.view.blayout || t.view.slayout) && !layout_from_view(t.view.blayout.value_or(TileLayout::row_major),
                                                                    t.view.slayout.value_or(TileLayout::none_box)))
            raise(codes::kType, e.loc, "blayout/slayout do not name a layout (ND, DN, NZ or ZN)");
        if (t.shape.size() > 2) {
            // A rank-N tile (a reshape's result that is only reshaped again): the merged 2-D tile of the same
            // row-major elements, its written shape kept (Type::nd_shape). A valid region of it is not modelled.
            if (!t.valid.empty() || t.valid_dynamic)
                raise(codes::kUnsupported, e.loc, "a valid_shape on a tile of rank above 2 is not supported");
            t.nd_shape = t.shape;
            int64_t lead = 1;
            for (size_t i = 0; i + 1 < t.shape.size(); ++i) lead *= t.shape[i];
            t.shape = {lead, t.nd_shape.back()};
        }
        return t;
    }
    if (head == "pl.Array") {  // pl.Array[N, dtype] of an Orchestration function: read as a 1-D tensor
        if (e.args.size() != 2) raise(codes::kType, e.loc, "pl.Array takes [extent, dtype]");
        auto c = fold_const(consts, *e.args[0]);
        if (!c || !const_is_int(*c)) {
            if (e.args[0]->kind == ast::ExprKind::List)
                return Type::tensor(lower_shape(consts, *e.args[0]), lower_dtype(*e.args[1]));
            raise(codes::kType, e.args[0]->loc, "an array extent must be a constant integer");
        }
        return Type::tensor({const_as_int(*c)}, lower_dtype(*e.args[1]));
    }
    if (head == "pl.Scalar") {
        if (e.args.size() != 1) raise(codes::kType, e.loc, "pl.Scalar takes [dtype]");
        Type t = Type::scalar(lower_dtype(*e.args[0]));
        if (is_sub_byte(t.dtype))
            raise(codes::kUnsupported, e.loc,
                  fmt::format("pl.Scalar[pl.{}]: cvsim models 4-bit dtypes as packed tensor and tile data only",
                              dtype_name(t.dtype)));
        return t;
    }
    if (head == "tuple" || head == "pl.Tuple") {
        std::vector<Type> elems;
        for (auto& a : e.args) {
            if (a->kind == ast::ExprKind::Tuple && a->args.empty()) continue;  // pl.Tuple[()]
            elems.push_back(lower_type(consts, *a, fn));
        }
        return Type::tuple(elems);
    }
    if (head == "pl.Out" || head == "pl.InOut")
        raise(codes::kType, e.loc, fmt::format("{} is only allowed on a parameter", head));
    if (head == "pld.DistributedTensor") {
        // [shape, dtype, extras...]: a tensor view, a MemRef or the "window_buffer=NAME" marker of a fully
        // resolved dump are accepted and dropped, as for pl.Tensor.
        if (e.args.size() < 2) raise(codes::kType, e.loc, "pld.DistributedTensor takes [shape, dtype]");
        Type t = Type::tensor(lower_shape(consts, *e.args[0]), lower_dtype(*e.args[1]));
        t.distributed = true;
        return t;
    }
    if (head.rfind("pld.", 0) == 0)
        raise(codes::kUnsupported, e.children[0]->loc,
              fmt::format(
                  "distributed type '{}' is not supported: cvsim reads pld.DistributedTensor, pld.CommCtxType and "
                  "pld.WindowBufferType only",
                  head),
              "", static_cast<uint32_t>(head.size()));
    raise(codes::kType, e.loc, fmt::format("unknown type '{}'", head.empty() ? "?" : head));
}

Type lower_param_type(const ConstTable& consts, const ast::Expr& e, ParamDir& dir) {
    dir = ParamDir::In;
    if (e.kind == ast::ExprKind::Subscript) {
        std::string head = e.children[0]->dotted();
        if (head == "pl.Out" || head == "pl.InOut") {
            if (e.args.size() != 1) raise(codes::kType, e.loc, fmt::format("{} takes one type", head));
            dir = head == "pl.Out" ? ParamDir::Out : ParamDir::InOut;
            Type t = lower_type(consts, *e.args[0], nullptr);
            if (t.kind != TypeKind::Tensor) raise(codes::kType, e.loc, fmt::format("{} needs a tensor type", head));
            return t;
        }
    }
    return lower_type(consts, e, nullptr);
}

bool same_slot_type(const Type& a, const Type& b) {
    if (a.kind != b.kind) return false;
    switch (a.kind) {
        case TypeKind::Scalar:
            return a.dtype == b.dtype || (dtype_is_int(a.dtype) && dtype_is_int(b.dtype));
        case TypeKind::Tensor:
            return a.dtype == b.dtype && a.shape == b.shape;
        case TypeKind::Tile:
            return a.dtype == b.dtype && a.shape == b.shape && a.mem == b.mem;
        case TypeKind::Tuple:
            if (a.elems.size() != b.elems.size()) return false;
            for (size_t i = 0; i < a.elems.size(); ++i)
                if (!same_slot_type(a.elems[i], b.elems[i])) return false;
            return true;
        default:
            return true;
    }
}

size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

}  // namespace cvsim
