// Sema, host statements of an Orchestration function: PyPTO's orchestration ops on GM tensors
// (pl.tensor.slice/view/assemble/read/write/reshape/dim/..., pl.array.*), task submission (pl.submit,
// pl.spmd_submit, pl.system.task_dummy). cvsim reads them, types them and prints them back; it does not
// execute them (docs/DECISIONS.md, "Orchestration host statements"): `check` takes the kernels such a
// function launches one at a time.
#include "frontend/sema.h"

#include <fmt/format.h>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/sema_lower.h"

namespace cvsim::sema {

using namespace ir;

namespace {

bool starts_with(const std::string& s, const char* p) {
    return s.rfind(p, 0) == 0;
}

bool is_host_name(const std::string& n) {
    return starts_with(n, "pl.tensor.") || starts_with(n, "pl.array.") || n == "pl.system.task_dummy" ||
           n == "pl.system.task_invalid" || n == "pl.submit" || n == "pl.spmd_submit";
}

// The shape of a host op's `shape` argument when every extent is a constant.
std::optional<std::vector<int64_t>> const_shape(const ExprPtr& e) {
    if (!e || (e->kind != ExprKind::List && e->kind != ExprKind::Tuple)) return std::nullopt;
    std::vector<int64_t> s;
    for (const auto& d : e->args) {
        if (!d || d->kind != ExprKind::Int || d->ival < 1) return std::nullopt;
        s.push_back(d->ival);
    }
    return s;
}

// A host-level orchestrator (`@pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)`, no type=: the
// per-rank dispatcher of PyPTO's distributed programs) runs host statements like an Orchestration function.
bool is_host_orchestrator(const Function& f) {
    if (f.type != FuncType::Opaque) return false;
    for (size_t i = 0; i < f.deco_extra_keys.size() && i < f.deco_extra.size(); ++i)
        if (f.deco_extra_keys[i] == "level" && f.deco_extra[i] && f.deco_extra[i]->sval == "HOST") return true;
    return false;
}

}  // namespace

bool FunctionLowering::runs_host_ops() const {
    return m_fn.type == FuncType::Orchestration || is_host_orchestrator(m_fn);
}

ExprPtr FunctionLowering::lower_host_op(const ast::Expr& e, const std::string& name, const Type* ann) {
    const bool dist = starts_with(name, "pld.");
    if (!is_host_name(name) && !dist) return nullptr;
    if (dist) return lower_host_call(e, name, ann);
    // pl.tensor.create in the catalogue's form (shape, dtype) stays an op: the launch plan reads it.
    bool catalogued = !lookup_ops(name.substr(3)).empty();
    // pl.tensor.read: a kernel's scalar GM read is a catalogue op; the Orchestration's stays a host statement.
    // So are a kernel's pl.tensor.write (a scalar GM write) and pl.tensor.view (a reshape of a GM tensor).
    if (name == "pl.tensor.read" || name == "pl.tensor.write" || name == "pl.tensor.view")
        catalogued =
            m_fn.type != FuncType::Orchestration && !is_host_orchestrator(m_fn) && m_fn.distributed.what.empty();
    if (catalogued) {
        bool extra_kw = false;
        for (const auto& kw : e.keywords) extra_kw |= kw.name != "dtype" && kw.name != "shape";
        if (!extra_kw) return nullptr;
    }
    // A kernel's pl.tensor.dim(t, axis): cvsim's tensor shapes are static (dynamic dimensions are bound
    // before the kernel runs), so it is that extent, a constant.
    if (name == "pl.tensor.dim" && m_fn.type != FuncType::Orchestration && e.args.size() == 2 && e.keywords.empty() &&
        e.args[1]->kind == ast::ExprKind::Int) {
        ExprPtr t = lower_expr(*e.args[0], false, nullptr);
        const auto rank = static_cast<int64_t>(t->type.shape.size());
        int64_t ax = e.args[1]->int_value < 0 ? e.args[1]->int_value + rank : e.args[1]->int_value;
        if (t->type.kind == TypeKind::Tensor && ax >= 0 && ax < rank)
            return make_int(t->type.shape[static_cast<size_t>(ax)], e.loc);
    }
    const ast::Expr& callee = *e.children[0];
    const auto span = static_cast<uint32_t>(name.size());
    // A distributed function is read and printed, never run: its host and tensor-level ops are kept as written.
    if (m_fn.type != FuncType::Orchestration && !is_host_orchestrator(m_fn) && m_fn.distributed.what.empty()) {
        if (starts_with(name, "pl.tensor."))
            raise(codes::kUnsupported, callee.loc,
                  fmt::format(
                      "tensor-level op '{}' in an {} function is lowered to tile ops by PyPTO's ConvertTensorToTileOps "
                      "pass, which cvsim does not re-implement",
                      name, func_type_name(m_fn.type)),
                  "give cvsim the program PyPTO prints at the ExpandMixedKernel boundary (orchestration tensor ops "
                  "belong "
                  "in an Orchestration function)",
                  span);
        // PyPTO allows pl.array.* in a kernel: an on-core scalar array (PTOAS pto.declare_local_array on the scalar
        // unit's stack, uninitialised, each update_element writing the one buffer in place whatever SSA name it
        // is given). cvsim's kernels have no such value: refused, naming it, rather than run as something else.
        if (starts_with(name, "pl.array."))
            raise(codes::kUnsupported, callee.loc,
                  fmt::format("'{}' in an {} function: PyPTO's on-core scalar array (PTOAS pto.declare_local_array, "
                              "updated in place) is "
                              "not modelled by cvsim in kernels (only in an Orchestration function)",
                              name, func_type_name(m_fn.type)),
                  "keep the values in scalars (or a tile: pl.tile.write / pl.tile.read)", span);
        raise(codes::kUnsupported, callee.loc,
              fmt::format("'{}' is a host (orchestration) op; a {} function cannot run it", name,
                          func_type_name(m_fn.type)),
              "", span);
    }
    return lower_host_call(e, name, ann);
}

// The FuncCall of a host statement or a distributed (pld.*) op: arguments, keywords, result type.
ExprPtr FunctionLowering::lower_host_call(const ast::Expr& e, const std::string& name, const Type* ann) {
    // A pl.K.M member cvsim does not know (pl.TensorLayout.ND, pl.PadValue.zero) is kept verbatim, as in attrs.
    auto host_value = [&](const ast::Expr& x) {
        if (x.kind == ast::ExprKind::Attribute && x.dotted().rfind("pl.", 0) == 0 && !lower_enum_ref(x))
            return lower_attr_value(m_ctx.consts, x);
        return lower_expr(x, false, nullptr);
    };
    auto r = std::make_shared<Expr>();
    r->kind = ExprKind::FuncCall;
    r->loc = e.loc;
    r->sval = name;
    for (const auto& a : e.args) {
        const ast::Expr& x = *a;
        // pl.submit(self.kernel, ...): a reference to the kernel it launches (printed back as self.NAME).
        if (x.kind == ast::ExprKind::Attribute && x.children[0]->kind == ast::ExprKind::Name &&
            x.children[0]->name == "self") {
            if (!m_ctx.by_name.count(x.name))
                raise(codes::kName, x.loc, fmt::format("the program has no function '{}'", x.name));
            auto ref = std::make_shared<Expr>();
            ref->kind = ExprKind::FuncCall;
            ref->loc = x.loc;
            ref->sval = x.name;
            ref->ival = kFuncRef;
            ref->type = Type::none();
            r->args.push_back(ref);
            continue;
        }
        r->args.push_back(host_value(x));
    }
    if ((name == "pl.submit" || name == "pl.spmd_submit") && (r->args.empty() || r->args[0]->ival != kFuncRef))
        raise(codes::kType, e.loc, fmt::format("{} takes the kernel to launch first (self.NAME)", name));
    // Keywords in order, as a dict of names to values (printed back as name=value).
    if (!e.keywords.empty()) {
        auto d = std::make_shared<Expr>();
        d->kind = ExprKind::Dict;
        d->loc = e.loc;
        for (const auto& kw : e.keywords) {
            auto k = std::make_shared<Expr>();
            k->kind = ExprKind::Str;
            k->loc = kw.loc;
            k->sval = kw.name;
            d->args.push_back(k);
            d->args2.push_back(kw.name == "attrs" && kw.value->kind == ast::ExprKind::Dict ? lower_dict(*kw.value)
                                                                                           : host_value(*kw.value));
        }
        r->attrs = d;
    }
    auto kwarg = [&](const char* key) -> ExprPtr {
        if (!r->attrs) return nullptr;
        for (size_t i = 0; i < r->attrs->args.size(); ++i)
            if (r->attrs->args[i]->sval == key) return r->attrs->args2[i];
        return nullptr;
    };
    auto operand = [&](size_t i, const char* key) -> ExprPtr { return i < r->args.size() ? r->args[i] : kwarg(key); };
    // The result type: the annotation when written (the printed form always has one), else the op's rule.
    Type t = Type::unknown();
    const size_t ns = name.find('.') + 1;  // after "pl." / "pld."
    std::string op = name.substr(name.find('.', ns) == std::string::npos ? ns : name.find('.', ns) + 1);
    if (starts_with(name, "pld.")) {
        // PyPTO's distributed ops (docs/en/dev/distributed_ops.md): the side-effect ops (put, get, remote_store,
        // notify, wait, ...) have no value; the collectives return their window tensor; the rest need the
        // annotation the printer always writes.
        ExprPtr a = operand(0, "src");
        if (op == "get_comm_ctx")
            t = Type::opaque("pld.CommCtxType");
        else if (starts_with(name, "pld.tensor.") && op != "window" && op != "alloc_window_buffer" && a &&
                 a->type.kind == TypeKind::Tensor && a->type.distributed)
            t = a->type;
        else if (!ann)
            t = Type::none();
    } else if (name == "pl.submit" || name == "pl.spmd_submit" || op == "task_dummy" || op == "task_invalid") {
        t = Type::scalar(DType::TASK_ID);
    } else if (starts_with(name, "pl.array.")) {
        ExprPtr a = operand(0, "array");
        if (op == "create") {
            ExprPtr n = operand(0, "extent"), dt = operand(1, "dtype");
            if (n && n->kind == ExprKind::Int && n->ival > 0 && dt && dt->kind == ExprKind::DTypeLit)
                t = Type::tensor({n->ival}, dt->dtype);
        } else if (op == "get_element" && a) {
            t = Type::scalar(a->type.dtype);
        } else if (a) {
            t = a->type;
        }
    } else {
        ExprPtr a = operand(0, "tensor");
        if (op == "dim")
            t = Type::scalar(DType::INDEX);
        else if (op == "read" && a)
            t = Type::scalar(a->type.dtype);
        else if (op == "create") {
            ExprPtr dt = operand(1, "dtype");
            auto s = const_shape(operand(0, "shape"));
            if (s && dt && dt->kind == ExprKind::DTypeLit) t = Type::tensor(*s, dt->dtype);
        } else if (op == "slice" || op == "view" || op == "reshape") {
            auto s = const_shape(operand(1, "shape"));
            // pl.tensor.view(..., dtype=D) reads the same bytes as D (the shape is in D's elements).
            ExprPtr dt = op == "view" ? kwarg("dtype") : nullptr;
            if (s && a) t = Type::tensor(*s, dt && dt->kind == ExprKind::DTypeLit ? dt->dtype : a->type.dtype);
            // A constant slice (or offset view) outside its tensor: E-OOB here, as a kernel's constant window is
            // (a launch given it would otherwise run on a parameter tensor of its own, never out of bounds).
            ExprPtr o = op == "reshape" ? nullptr : operand(2, "offset");
            if (s && a && a->type.kind == TypeKind::Tensor && t.dtype == a->type.dtype && o &&
                (o->kind == ExprKind::List || o->kind == ExprKind::Tuple) && o->args.size() == s->size() &&
                a->type.shape.size() == s->size())
                for (size_t k = 0; k < s->size(); ++k) {
                    const ExprPtr& d = o->args[k];
                    const int64_t dim = a->type.shape[k];
                    if (!d || d->kind != ExprKind::Int || dim < 1) continue;
                    if (d->ival < 0 || d->ival > dim - (*s)[k])
                        raise(codes::kOob, e.loc,
                              fmt::format("{}: window of shape {} at offset {} is outside '{}' of shape {} (dimension "
                                          "{})",
                                          name, shape_str(*s), d->ival, a->kind == ExprKind::Var ? a->var->name : "?",
                                          shape_str(a->type.shape), k),
                              "offset + shape must stay within the tensor");
                }
        } else if (a && a->type.kind == TypeKind::Tensor) {
            t = a->type;  // assemble / write / fillpad / set_validshape / no_dep / dump_tag: the first tensor
        }
    }
    if (ann) t = *ann;
    if (t.kind == TypeKind::Unknown)
        raise(codes::kType, e.loc, fmt::format("cannot infer the type of '{}' here", name),
              "annotate the target (x: pl.Tensor[[...], pl.FP32] = ...)");
    r->type = t;
    return r;
}

}  // namespace cvsim::sema
