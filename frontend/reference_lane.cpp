// The reference interpreter's Lane: scalar and tile values, statements, loops, GM windows and new tiles.
#include "frontend/reference_internal.h"

namespace cvsim::ref::detail {

void Lane::bind(const std::vector<rt::ArgBinding>& args) {
    for (size_t i = 0; i < m_fn->params.size() && i < args.size(); ++i) {
        const auto& a = args[i];
        const Var& v = *m_fn->params[i].var;
        if (a.kind == rt::ArgBinding::Kind::Tensor) {
            const auto& t = m_m.gm.tensors[a.tensor];
            m_env[v.id].v = a.view_shape.empty()
                                ? TView{a.tensor, std::vector<int64_t>(t.shape.size(), 0), t.shape, {}}
                                : TView{a.tensor, a.view_off, a.view_shape, a.view_reshape};  // an aliasing argument
        } else {
            m_env[v.id].v = a.scalar;
        }
    }
}

void Lane::run() {
    exec_block(m_fn->body);
    if (m_m.lockstep) {
        m_m.done.at(static_cast<size_t>(m_task)) = 1;
        m_m.coop.progress();
    }
}

Scalar Lane::scalar(const ExprPtr& e) {
    return rt::eval_scalar(*e, [&](const Var& v) -> Scalar {
        if (auto* s = std::get_if<Scalar>(&m_env[v.id].v)) return *s;
        fail(codes::kInternal, e->loc, fmt::format("'{}' has no scalar value", v.name));
    });
}

TileP Lane::tile(const ExprPtr& e) {
    if (e->kind != ExprKind::Var) fail(codes::kInternal, e->loc, "tile operand is not a variable");
    auto* t = std::get_if<TileP>(&m_env[e->var->id].v);
    if (!t || !*t)
        fail(codes::kUnwritten, e->loc, fmt::format("tile '{}' is used before it has a value", e->var->name));
    return *t;
}

TView Lane::view(const ExprPtr& e) {
    if (e->kind != ExprKind::Var) fail(codes::kInternal, e->loc, "tensor operand is not a variable");
    auto* t = std::get_if<TView>(&m_env[e->var->id].v);
    if (!t) fail(codes::kInternal, e->loc, fmt::format("'{}' has no tensor value", e->var->name));
    return *t;
}

Value Lane::eval(const ExprPtr& e) {
    switch (e->kind) {
        case ExprKind::Var:
            return m_env[e->var->id];
        case ExprKind::Call:
            return call(*e);
        case ExprKind::FuncCall:
            fail(codes::kUnsupported, e->loc, "calls between kernel functions inside a lane are not supported");
        case ExprKind::Index: {
            Value t = eval(e->args[0]);
            auto* tp = std::get_if<std::shared_ptr<Tuple>>(&t.v);
            if (!tp) fail(codes::kInternal, e->loc, "index of a non-tuple");
            return (**tp)[e->ival];
        }
        case ExprKind::List:
        case ExprKind::Tuple: {
            auto tup = std::make_shared<Tuple>();
            for (auto& a : e->args) tup->push_back(eval(a));
            return Value{tup};
        }
        default:
            return Value{scalar(e)};
    }
}

void Lane::count(const SourceLoc& loc) {
    if (++m_m.statements > m_m.max_statements)
        fail(codes::kTimeout, loc, fmt::format("the reference run exceeded {} statements", m_m.max_statements));
    if (++m_m.work > m_m.max_work && m_m.max_work > 0)
        fail(codes::kTimeout, loc,
             fmt::format("the reference run exceeded the work bound of {} (statements and tile elements)",
                         m_m.max_work));
    if ((m_m.statements & 4095) == 0 && m_m.max_wall_seconds > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_m.wall_start).count() > m_m.max_wall_seconds)
        fail(codes::kTimeout, loc,
             fmt::format("the reference run exceeded the wall-time bound of {} s", m_m.max_wall_seconds));
}

void Lane::exec_block(const Block& b) {
    m_pos.push_back(0);
    for (size_t i = 0; i < b.size(); ++i) {
        if (m_returned) break;
        m_pos.back() = static_cast<int64_t>(i);
        exec(*b[i]);
    }
    m_pos.pop_back();
}

void Lane::assign(const std::vector<VarPtr>& targets, const Value& v) {
    if (targets.size() == 1) {
        m_env[targets[0]->id] = v;
        return;
    }
    auto* tp = std::get_if<std::shared_ptr<Tuple>>(&v.v);
    if (!tp) return;
    for (size_t i = 0; i < targets.size() && i < (*tp)->size(); ++i) m_env[targets[i]->id] = (**tp)[i];
}

void Lane::exec(const Stmt& s) {
    count(s.loc);
    switch (s.kind) {
        case StmtKind::Assign: {
            Value v = eval(s.value);
            annotated_valid(*s.value, v);
            assign(s.targets, v);
            return;
        }
        case StmtKind::Eval:
            eval(s.value);
            return;
        case StmtKind::Return:
            m_returned = true;
            return;
        case StmtKind::Pass:
            return;
        case StmtKind::Yield: {
            // Loop-carried values / branch results: the enclosing statement copies them.
            m_yield.clear();
            for (auto& v : s.values) m_yield.push_back(eval(v));
            return;
        }
        case StmtKind::If: {
            bool c = rt::truthy(scalar(s.value));
            m_yield.clear();
            exec_block(c ? s.body : s.orelse);
            if (!s.targets.empty() && m_yield.size() == s.targets.size())
                for (size_t i = 0; i < s.targets.size(); ++i) m_env[s.targets[i]->id] = m_yield[i];
            return;
        }
        case StmtKind::For:
            exec_for(s);
            return;
    }
}

// A result's type may carry its valid region (a printed program annotates `pl.TileView(valid_shape=..)`):
// it bounds the tile as the simulator's tile does; an explicit valid_shape= argument wins, as there.
void Lane::annotated_valid(const Expr& value, Value& v) {
    if (value.kind != ExprKind::Call || value.type.kind != TypeKind::Tile || value.type.valid.empty()) return;
    if (arg(value, "valid_shape")) return;
    auto* t = std::get_if<TileP>(&v.v);
    if (!t || !*t) return;  // the call made this tile: adjusting it in place touches no other value
    const auto& vs = value.type.valid;
    (*t)->vr = vs.size() >= 2 ? vs[vs.size() - 2] : 1;
    (*t)->vc = vs.back();
}

void Lane::exec_for(const Stmt& s) {
    int64_t start = s.start ? scalar(s.start).as_int() : 0;
    int64_t stop = scalar(s.stop).as_int();
    int64_t step = s.step ? scalar(s.step).as_int() : 1;
    if (step == 0) fail(codes::kType, s.loc, "loop step is zero");
    for (size_t i = 0; i < s.iter_args.size(); ++i) m_env[s.iter_args[i]->id] = eval(s.init_values[i]);
    int saved_lane = m_region_lane;
    SplitMode saved_mode = m_region_mode;
    m_pos.push_back(-1);
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
        ++m_pos.back();  // the iteration ordinal
        count(s.loc);
        m_env[s.loop_var->id].v = Scalar::of_int(i);
        if (s.loop_kind == LoopKind::SplitAiv) {
            m_region_lane = static_cast<int>(i);
            m_region_mode = s.split_mode;
        }
        m_yield.clear();
        exec_block(s.body);
        if (m_returned) break;
        if (!s.iter_args.empty() && m_yield.size() == s.iter_args.size())
            for (size_t k = 0; k < s.iter_args.size(); ++k) m_env[s.iter_args[k]->id] = m_yield[k];
    }
    m_pos.pop_back();
    m_region_lane = saved_lane;
    m_region_mode = saved_mode;
    for (size_t k = 0; k < s.targets.size() && k < s.iter_args.size(); ++k)
        m_env[s.targets[k]->id] = m_env[s.iter_args[k]->id];
}

// The view is its whole tensor (no slice offset, no pl.tensor.view reshape).
bool Lane::whole_tensor(const TView& v) const {
    bool whole = v.reshape.empty() && v.shape == m_m.gm.tensors[v.id].shape;
    for (int64_t o : v.off) whole &= o == 0;
    return whole;
}

// partition: a store's `shapes` window, which may run past a tensor dimension when its rows are one box of
// the whole tensor (rt::partition_window).
rt::Window Lane::window(const TView& v, const ExprPtr& offsets, const std::vector<int64_t>& extents,
                        const SourceLoc& loc, bool partition) {
    rt::Window w;
    w.tensor = v.id;
    size_t rank = v.shape.size();
    std::vector<int64_t> ext = extents;
    if (ext.size() < rank) ext.insert(ext.begin(), rank - ext.size(), 1);
    while (ext.size() > rank && ext.front() == 1) ext.erase(ext.begin());  // a 1-D tile's row (as the lane executor)
    if (ext.size() != rank || !offsets || offsets->args.size() != rank)
        fail(codes::kOob, loc, "window rank does not match the tensor");
    if (partition && whole_tensor(v)) {
        std::vector<int64_t> off;
        bool inside = true;
        for (size_t d = 0; d < rank; ++d) {
            off.push_back(scalar(offsets->args[d]).as_int());
            inside &= rt::window_inside(off[d], ext[d], v.shape[d]);
        }
        if (!inside)
            if (auto p = rt::partition_window(v.id, m_m.gm.tensors[v.id].shape, off, ext)) {
                if (auto err = rt::check_window(m_m.gm.tensors[v.id], *p))
                    fail(codes::kOob, loc, *err);  // a 4-bit byte split
                return *p;
            }
    }
    w.extents = ext;
    for (size_t d = 0; d < rank; ++d) {
        int64_t o = scalar(offsets->args[d]).as_int();
        if (!rt::window_inside(o, ext[d], v.shape[d]))
            fail(codes::kOob, loc,
                 fmt::format("window offset {} + extent {} is outside dimension {} (size {}) of tensor {}", o, ext[d],
                             d, v.shape[d], m_m.gm.tensors[v.id].name));
        w.offsets.push_back(rt::sat_add(v.off[d], o));
    }
    if (!v.reshape.empty()) {
        const auto& t = m_m.gm.tensors[v.id];
        auto r = rt::reshape_window(v.reshape, w, t.shape);
        if (!r)
            fail(codes::kUnsupported, loc,
                 fmt::format("window {} of a pl.tensor.view {} is not one box of tensor {} of shape {}",
                             rt::window_str(w), shape_str(v.reshape), t.name, shape_str(t.shape)));
        w = *r;
    }
    if (auto err = rt::check_window(m_m.gm.tensors[v.id], w)) fail(codes::kOob, loc, *err);
    return w;
}

std::vector<int64_t> Lane::ints(const ExprPtr& list) {
    std::vector<int64_t> out;
    for (auto& a : list->args) out.push_back(scalar(a).as_int());
    return out;
}

TileP Lane::make_tile(TileData d, Mem mem, int64_t vr, int64_t vc) {
    auto t = std::make_shared<RTile>();
    t->vr = vr < 0 ? d.m.rows() : vr;
    t->vc = vc < 0 ? d.m.cols() : vc;
    m_m.work += static_cast<uint64_t>(d.m.size());  // checked at the next statement (count())
    t->d = std::move(d);
    t->mem = mem;
    return t;
}

}  // namespace cvsim::ref::detail
