// The host walk of an Orchestration function, expressions: reading --input data, kernel launches, calls between
// functions, host ops (pl.tensor.*, pl.array.*, scalar ops) and evaluation (host_eval_internal.h).
#include "frontend/host_eval_internal.h"

namespace cvsim::host_walk {

std::optional<rt::Scalar> Walker::read_input(const std::string& param, const Type& type,
                                             const std::vector<int64_t>& idx, DType dt, const SourceLoc& loc,
                                             std::string& why) {
    auto f = m_in.files.find(param);
    auto flat_index = [&]() -> std::optional<int64_t> {
        if (idx.size() != type.shape.size()) return std::nullopt;
        int64_t flat = 0;
        for (size_t d = 0; d < idx.size(); ++d) {
            if (idx[d] < 0 || idx[d] >= type.shape[d]) return std::nullopt;
            flat = flat * type.shape[d] + idx[d];
        }
        return flat;
    };
    auto value_of = [&](double x) {
        return dtype_is_int(dt) ? rt::Scalar::of_int(rt::Scalar::float_to_int(x), dt) : rt::Scalar::of_float(x, dt);
    };
    if (f == m_in.files.end()) {
        if (auto io = m_in.iotas.find(param); io != m_in.iotas.end())
            if (auto flat = flat_index()) return value_of(static_cast<double>(io->second + *flat));
        // --input T=VALUE fills the tensor (sim/session.cpp does the same for the kernel's GM).
        if (auto fill = m_in.scalars.find(param); fill != m_in.scalars.end()) {
            const double x = fill->second.is_float() ? fill->second.f : static_cast<double>(fill->second.i);
            return dtype_is_int(dt) ? rt::Scalar::of_int(rt::Scalar::float_to_int(x), dt) : rt::Scalar::of_float(x, dt);
        }
    }
    if (f == m_in.files.end() && m_in.sample) {
        // Sampled data: in bounds of the parameter's shape, every element is the sample (ascending: the
        // sample plus the element's flat index).
        if (auto flat = flat_index()) {
            note_sampled("data of " + param);
            return value_of(static_cast<double>(*m_in.sample + (m_in.sample_iota ? *flat : 0)));
        }
    }
    if (f == m_in.files.end()) {
        why = fmt::format(
            "it is read from the data of '{}' ({}: pl.tensor.read); give that data with --input {}=FILE.npy", param,
            where(loc), param);
        return std::nullopt;
    }
    TensorBufferCache& c = m_files[param];
    if (!c.tried) {
        c.tried = true;
        c.t.name = param;
        c.t.dtype = type.dtype;
        c.t.shape = type.shape;
        try {
            rt::read_npy(c.t, f->second);
            c.ok = true;
        } catch (const std::exception& e) {
            c.error = e.what();
        }
    }
    if (!c.ok) {
        why = fmt::format("--input {}={} could not be read: {}", param, f->second, c.error);
        return std::nullopt;
    }
    if (idx.size() != c.t.shape.size()) {
        why = fmt::format("pl.tensor.read of '{}' ({}) has {} indices for a rank-{} tensor", param, where(loc),
                          idx.size(), c.t.shape.size());
        return std::nullopt;
    }
    int64_t flat = 0;
    for (size_t d = 0; d < idx.size(); ++d) {
        if (idx[d] < 0 || idx[d] >= c.t.shape[d])
            raise(codes::kOob, loc,
                  fmt::format("pl.tensor.read of '{}' at index {} of dimension {} (extent {}): outside the tensor "
                              "--input {} gives",
                              param, idx[d], d, c.t.shape[d], param));
        flat = flat * c.t.shape[d] + idx[d];
    }
    const double x = decode_element(c.t.dtype, c.t.bytes.data() + static_cast<size_t>(flat) * dtype_bytes(c.t.dtype));
    return dtype_is_int(dt) ? rt::Scalar::of_int(rt::Scalar::float_to_int(x), dt) : rt::Scalar::of_float(x, dt);
}

void Walker::launch(const Function& callee, const std::vector<ExprPtr>& args, const Expr& call, Frame& fr, int depth) {
    LaunchBinding b;
    b.loc = call.loc;
    for (size_t i = 0; i < callee.params.size(); ++i) {
        const Var& pv = *callee.params[i].var;
        if (pv.type.kind == TypeKind::Tensor && m_spmd_blocks != 0 && b.unknown.empty() && i < args.size() &&
            may_write_param(callee, i)) {
            // In a pl.spmd body a written tensor argument that is a window at an offset the walk does not know
            // (the block index's) is each block's own window: not checked with one binding for all blocks (it
            // gave a race between blocks writing disjoint slices). A read-only one cannot race there.
            HVal v = eval(args[i], fr, depth);
            if (v.kind == HVal::Kind::Tensor && !v.why.empty()) {
                b.unknown = pv.name;
                b.why = v.why;
            }
        }
        if (pv.type.kind != TypeKind::Scalar) continue;
        HVal v = i < args.size() ? eval(args[i], fr, depth) : HVal::unknown("it is not passed");
        if (v.known()) {
            b.scalars.emplace_back(pv.name, scalar_text(as_dtype(v.s, pv.type.dtype)));
        } else if (cannot_matter(callee, i)) {
            // Any value gives the same run (docs/DECISIONS.md, "Scalars that cannot matter"): 0.
            b.scalars.emplace_back(pv.name, scalar_text(as_dtype(rt::Scalar::of_int(0), pv.type.dtype)));
            b.dead.emplace_back(pv.name, v.why.empty() ? "the host walk does not evaluate it" : v.why);
        } else if (b.unknown.empty()) {
            b.unknown = pv.name;
            b.why = v.why.empty() ? "the host walk does not evaluate it" : v.why;
        }
    }
    if (const Expr* d = call.attrs.get(); d && d->kind == ExprKind::Dict)
        for (size_t i = 0; i < d->args.size() && i < d->args2.size(); ++i)
            if (d->args[i] && d->args[i]->sval == "core_num") {
                HVal n = eval(d->args2[i], fr, depth);
                if (n.known() && n.s.as_int() >= 1 && n.s.as_int() <= 4096) {
                    b.blocks = static_cast<int>(n.s.as_int());
                } else if (n.known() && b.unknown.empty()) {
                    // Never checked with another width: fewer blocks would hide the others' races.
                    b.unknown = "core_num";
                    b.why = fmt::format("core_num is {} at this launch ({}), and cvsim launches 1 to 4096 blocks",
                                        n.s.as_int(), where(call.loc));
                }
            }
    if (b.blocks == 0 && m_spmd_blocks > 0) b.blocks = m_spmd_blocks;  // launched inside `pl.spmd(N)`
    if (b.blocks == 0 && m_spmd_blocks < 0 && b.unknown.empty()) {
        b.unknown = "pl.spmd";  // the launch width, not a parameter: check says the kernel is not checked
        b.why = m_spmd_why;
    }
    HostKernelLaunches* k = nullptr;
    for (auto& e : m_out.kernels)
        if (e.name == callee.name) k = &e;
    if (!k) {
        m_out.kernels.push_back(HostKernelLaunches{callee.name, {}, 0});
        k = &m_out.kernels.back();
    }
    ++k->launches;
    // Distinct bindings by a key of what LaunchBinding::operator== compares (a set, not a scan of every earlier
    // one: a model's walk launches a kernel tens of thousands of times).
    std::string key = b.unknown + '\x1e' + std::to_string(b.blocks);
    for (const auto& [n, v] : b.scalars) key += '\x1e' + n + '\x1f' + v;
    if (!m_seen[k->name].insert(std::move(key)).second) return;
    k->distinct.push_back(std::move(b));
}

HVal Walker::call_function(const Expr& e, const std::string& name, const std::vector<ExprPtr>& args, Frame& fr,
                           int depth) {
    auto callee = m_p.find(name);
    if (!callee) return HVal::unknown(fmt::format("'{}' is not a function of the program", name));
    if (callee->type == FuncType::Orchestration && !callee->is_unread() && depth < 8) {
        Frame inner;
        for (size_t i = 0; i < callee->params.size(); ++i) {
            HVal v = i < args.size() ? eval(args[i], fr, depth) : HVal::unknown("not passed");
            if (v.kind == HVal::Kind::Tensor) v.param.clear();  // only the entry's own tensors have --input data
            inner[callee->params[i].var.get()] = v;
        }
        std::vector<HVal> ret;
        bool returned = false;
        std::vector<HVal> y;
        exec_block(callee->body, inner, depth + 1, ret, returned, y);
        if (ret.size() == 1) return ret[0];
        return HVal::unknown(fmt::format("the result of '{}'", name));
    }
    launch(*callee, args, e, fr, depth);
    HVal t;
    t.kind = HVal::Kind::Tensor;  // a kernel's result: a tensor (or a tuple of them)
    return t;
}

std::optional<int64_t> Walker::known_int(const ExprPtr& e, Frame& fr, int depth, std::string& why) {
    HVal v = eval(e, fr, depth);
    if (!v.known()) {
        why = v.why;
        return std::nullopt;
    }
    return v.s.as_int();
}

HVal Walker::host_op(const Expr& e, Frame& fr, int depth) {
    const std::string& n = e.sval;
    auto operand = [&](size_t i) -> ExprPtr { return i < e.args.size() ? e.args[i] : nullptr; };
    if (n == "pl.submit" || n == "pl.spmd_submit") {
        for (size_t i = 0; i < e.args.size(); ++i)
            if (e.args[i] && e.args[i]->kind == ExprKind::FuncCall && e.args[i]->ival == kFuncRef) {
                std::vector<ExprPtr> rest(e.args.begin() + static_cast<std::ptrdiff_t>(i) + 1, e.args.end());
                call_function(e, e.args[i]->sval, rest, fr, depth);
                break;
            }
        return HVal::unknown(fmt::format("a task id ({})", where(e.loc)));
    }
    if (n == "pl.tensor.dim") {
        ExprPtr t = operand(0), ax = operand(1);
        std::string why;
        auto a = known_int(ax, fr, depth, why);
        if (t && a && t->type.kind == TypeKind::Tensor) {
            int64_t rank = static_cast<int64_t>(t->type.shape.size());
            int64_t d = *a < 0 ? *a + rank : *a;
            if (d >= 0 && d < rank) {
                const int64_t extent = t->type.shape[static_cast<size_t>(d)];
                std::vector<std::string> same;
                for (const auto& [dn, dv] : m_in.defaulted_dims)
                    if (dv == extent) same.push_back(dn);
                if (!same.empty() && !m_in.sample)
                    return HVal::unknown(fmt::format(
                        "pl.tensor.dim ({}) may be the dynamic dim {} {} {}; bind it with --dim NAME=VALUE or an "
                        "--input .npy",
                        where(e.loc), fmt::join(same, " / "), kMadeUpSizeWhy, extent));
                return HVal::scalar(rt::Scalar::of_int(extent, e.type.dtype));
            }
        }
        return HVal::unknown(fmt::format("pl.tensor.dim ({}) of an axis the walk does not know", where(e.loc)));
    }
    if (n == "pl.array.create") {
        std::string why;
        auto len = known_int(operand(0), fr, depth, why);
        if (!len || *len < 0 || *len > 65536)
            return HVal::unknown(fmt::format("an array of unknown length ({})", where(e.loc)));
        HVal a;
        a.kind = HVal::Kind::Array;
        a.arr.assign(static_cast<size_t>(*len),
                     HVal::unknown(fmt::format("an element of the array created at {} that no update_element wrote",
                                               where(e.loc))));
        return a;
    }
    if (n == "pl.array.update_element" || n == "pl.array.get_element") {
        HVal a = eval(operand(0), fr, depth);
        std::string why;
        auto i = known_int(operand(1), fr, depth, why);
        if (a.kind != HVal::Kind::Array || !i || *i < 0 || *i >= static_cast<int64_t>(a.arr.size())) {
            if (n == "pl.array.get_element")
                return HVal::unknown(fmt::format("an array element the walk does not know ({})", where(e.loc)));
            // An update at an unknown index makes every element unknown.
            if (a.kind == HVal::Kind::Array)
                for (auto& x : a.arr)
                    x = HVal::unknown(
                        fmt::format("the array was updated at an index the walk does not know ({})", where(e.loc)));
            return a;
        }
        if (n == "pl.array.get_element") return a.arr[static_cast<size_t>(*i)];
        HVal v = eval(operand(2), fr, depth);
        a.arr[static_cast<size_t>(*i)] = v.kind == HVal::Kind::Scalar ? v : HVal::unknown(v.why);
        return a;
    }
    if (n == "pl.tensor.read") {
        ExprPtr t = operand(0), ix = operand(1);
        HVal tv = eval(t, fr, depth);
        std::vector<int64_t> idx;
        std::string why;
        if (ix && (ix->kind == ExprKind::List || ix->kind == ExprKind::Tuple))
            for (const auto& x : ix->args) {
                auto v = known_int(x, fr, depth, why);
                if (!v)
                    return HVal::unknown(
                        fmt::format("pl.tensor.read ({}) at an index the walk does not know: {}", where(e.loc), why));
                idx.push_back(*v);
            }
        else
            return HVal::unknown(
                fmt::format("pl.tensor.read ({}) with indices the walk does not evaluate", where(e.loc)));
        if (tv.kind != HVal::Kind::Tensor || tv.param.empty() || !t)
            return HVal::unknown(fmt::format(
                "it is read from GM ({}: pl.tensor.read of a tensor that is no parameter of the entry), which the "
                "host walk does not model",
                where(e.loc)));
        auto s = read_input(tv.param, t->type, idx, e.type.dtype, e.loc, why);
        return s ? HVal::scalar(*s) : HVal::unknown(why);
    }
    // Other host ops (slice, view, create, assemble, reshape, write, task_dummy, ...): no scalar value; a
    // tensor-valued one is a view the walk does not track (its data is no --input's).
    HVal t;
    if (e.type.kind == TypeKind::Tensor) {
        t.kind = HVal::Kind::Tensor;
        // A window of a tensor at offsets the walk does not know (in a pl.spmd body: computed from the block
        // index) may differ per block, which one launch binding cannot express: launch() refuses it there.
        // The reason rides on the tensor value (its `why`), through further slices, views and reshapes.
        if (n == "pl.tensor.slice" || n == "pl.tensor.view" || n == "pl.tensor.reshape") {
            HVal src = eval(operand(0), fr, depth);
            if (src.kind == HVal::Kind::Tensor) t.why = src.why;
            ExprPtr off = n == "pl.tensor.reshape" ? nullptr : operand(2);
            if (!off && n != "pl.tensor.reshape" && e.attrs && e.attrs->kind == ExprKind::Dict)
                for (size_t i = 0; i < e.attrs->args.size() && i < e.attrs->args2.size(); ++i)
                    if (e.attrs->args[i] && (e.attrs->args[i]->sval == "offset" || e.attrs->args[i]->sval == "offsets"))
                        off = e.attrs->args2[i];
            if (t.why.empty() && off && (off->kind == ExprKind::List || off->kind == ExprKind::Tuple))
                for (const auto& x : off->args) {
                    std::string why;
                    if (!known_int(x, fr, depth, why)) {
                        t.why = fmt::format("it is a window ({}: {}) at an offset the host walk does not know: {}",
                                            where(e.loc), n, why.empty() ? "not evaluated" : why);
                        break;
                    }
                }
        }
        return t;
    }
    return HVal::unknown(fmt::format("the value of {} ({}), which the host walk does not evaluate", n, where(e.loc)));
}

HVal Walker::eval(const ExprPtr& ep, Frame& fr, int depth) {
    if (!ep) return HVal::unknown("no value");
    const Expr& e = *ep;
    switch (e.kind) {
        case ExprKind::Int:
            return HVal::scalar(rt::Scalar::of_int(e.ival, DType::INDEX));
        case ExprKind::Bool:
            return HVal::scalar(rt::Scalar::of_int(e.ival, DType::BOOL));
        case ExprKind::Float:
            return HVal::scalar(rt::Scalar::of_float(e.fval, DType::FP32));
        case ExprKind::Const:
            return HVal::scalar(dtype_is_float(e.dtype) ? rt::Scalar::of_float(e.fval, e.dtype)
                                                        : rt::Scalar::of_int(static_cast<int64_t>(e.fval), e.dtype));
        case ExprKind::Var: {
            auto it = fr.find(e.var.get());
            if (it != fr.end()) return it->second;
            return HVal::unknown(fmt::format("'{}' has no value the host walk knows", e.var->name));
        }
        case ExprKind::FuncCall:
            if (is_host_op_call(e)) return host_op(e, fr, depth);
            return call_function(e, e.sval, e.args, fr, depth);
        case ExprKind::Unary:
        case ExprKind::Binary:
        case ExprKind::Compare:
        case ExprKind::BoolOp: {
            static const std::vector<std::string> unary = {"not", "cast", "abs", "-", "+"};
            static const std::vector<std::string> binary = {"+", "-", "*", "/", "//", "%", "<<", ">>", "min", "max"};
            const auto& ok = e.kind == ExprKind::Unary ? unary : binary;
            if ((e.kind == ExprKind::Unary || e.kind == ExprKind::Binary) &&
                std::find(ok.begin(), ok.end(), e.sval) == ok.end())
                return HVal::unknown(
                    fmt::format("the operator '{}' ({}), which the host walk does not evaluate", e.sval, where(e.loc)));
            // Operands first (each may be unknown); then the runtime's own scalar arithmetic on constants.
            std::vector<ExprPtr> lits;
            for (const auto& a : e.args) {
                HVal v = eval(a, fr, depth);
                if (!v.known())
                    return v.kind == HVal::Kind::Unknown
                               ? v
                               : HVal::unknown(fmt::format("a non-scalar operand ({})", where(e.loc)));
                lits.push_back(literal(v.s));
            }
            Expr copy = e;
            copy.args = lits;
            return HVal::scalar(rt::eval_scalar(copy, [](const Var&) { return rt::Scalar::of_int(0); }));
        }
        case ExprKind::List:
        case ExprKind::Tuple:
            return HVal::unknown(fmt::format("a list ({})", where(e.loc)));
        default:
            return HVal::unknown(fmt::format("an expression the host walk does not evaluate ({})", where(e.loc)));
    }
}

}  // namespace cvsim::host_walk
