// Lane walker: walks a lane program and builds its instructions (see lane_walker.h).
//
// Scalars, loops and branches are evaluated at issue time (they never depend on tile data). Each op call
// becomes one instruction with its same-core dependencies computed in issue order: through tile storage
// (RAW/WAR/WAW on the same TileBuf) and through overlapping GM windows of this core. Cross-core handshakes
// are split the way the hardware does them: a tpush waits for its free slot on the producer's data pipe; a
// tpop's ready-wait blocks the scalar unit (everything after it is issued after the acquire), then on a2a3
// the slot is copied to the landing buffer on MTE2; tfree, fence and syncall run on the scalar unit after
// waiting for the instructions they cover. On an a2a3 lane-1 replay only handshakes run, with no data.
#include "sim/lane_walker.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/layout.h"
#include "frontend/codes.h"
#include "frontend/ops.h"

namespace cvsim::sim {

using namespace ir;
using rt::Scalar;

namespace {
// Variable tables of finished runners, emptied, kept for the next schedule's runners (a schedule would
// otherwise allocate and free one large table per core).
std::vector<std::vector<LValue>>& env_pool() {
    thread_local std::vector<std::vector<LValue>> pool;
    return pool;
}
}  // namespace

LaneWalker::LaneWalker(const WalkContext& cx, const rt::LaneProgram& prog, LaneSink& sink)
    : m_cx(cx), m_prog(prog), m_sink(sink) {
    if (!env_pool().empty()) {
        m_env = std::move(env_pool().back());
        env_pool().pop_back();
    }
    m_env.resize(prog.fn->vars.size());
    for (size_t i = 0; i < prog.fn->params.size() && i < prog.args.size(); ++i) {
        const auto& a = prog.args[i];
        const Var& v = *prog.fn->params[i].var;
        if (a.kind == rt::ArgBinding::Kind::Tensor) {
            const auto& t = m_cx.tensors->tensors[a.tensor];
            m_env[v.id].v = a.view_shape.empty()
                                ? TView{a.tensor, std::vector<int64_t>(t.shape.size(), 0), t.shape, {}}
                                : TView{a.tensor, a.view_off, a.view_shape, a.view_reshape};  // an aliasing argument
        } else {
            m_env[v.id].v = a.scalar;
        }
    }
}

namespace {
// Marks every variable `e` reads, except a tfree's operand (freeing a popped tile does not read its data).
void mark_read(const ExprPtr& e, std::vector<bool>& read) {
    if (!e) return;
    if (e->kind == ExprKind::Var) {
        if (e->var && e->var->id < read.size()) read[e->var->id] = true;
        return;
    }
    if (e->kind == ExprKind::Call && e->op && (e->op->code == OpCode::TfreeToAic || e->op->code == OpCode::TfreeToAiv))
        return;
    for (const auto& a : e->args) mark_read(a, read);
    for (const auto& a : e->args2) mark_read(a, read);
    mark_read(e->attrs, read);
}
void mark_read(const Block& b, std::vector<bool>& read) {
    for (const auto& s : b) {
        mark_read(s->value, read);
        for (const auto& v : s->values) mark_read(v, read);
        for (const auto& v : s->init_values) mark_read(v, read);
        for (const auto& v : s->loop_extra) mark_read(v, read);
        mark_read(s->start, read);
        mark_read(s->stop, read);
        mark_read(s->step, read);
        mark_read(s->body, read);
        mark_read(s->orelse, read);
    }
}
}  // namespace

bool LaneWalker::pop_unread(const Stmt& s) {
    const Function& fn = *m_prog.fn;
    if (s.kind != StmtKind::Assign || s.targets.size() != 1) return false;
    const VarPtr& t = s.targets[0];
    // Only a variable of this lane's own function (a statement of another function has other ids).
    if (!t || t->id >= fn.vars.size() || fn.vars[t->id] != t) return false;
    if (!m_var_read_done) {
        m_var_read.assign(fn.vars.size(), false);
        mark_read(fn.body, m_var_read);
        m_var_read_done = true;
    }
    return !m_var_read[t->id];
}

LaneWalker::~LaneWalker() {
    m_env.clear();
    if (env_pool().size() < 64) env_pool().push_back(std::move(m_env));
}

void LaneWalker::run() {
    m_returned = false;
    exec_block(m_prog.fn->body);
}

// ---------------------------------------------------------------- walking

Scalar LaneWalker::scalar(const ExprPtr& e) {
    return rt::eval_scalar(*e, [&](const Var& v) -> Scalar {
        if (auto* s = std::get_if<Scalar>(&m_env[v.id].v)) return *s;
        return Scalar::of_int(0);
    });
}

TileRef LaneWalker::tile(const ExprPtr& e) {
    if (e && e->kind == ExprKind::Var)
        if (auto* t = std::get_if<TileRef>(&m_env[e->var->id].v)) return *t;
    return nullptr;
}

TView LaneWalker::view(const ExprPtr& e) {
    if (e && e->kind == ExprKind::Var)
        if (auto* t = std::get_if<TView>(&m_env[e->var->id].v)) return *t;
    return {};
}

void LaneWalker::exec_block(const Block& b) {
    for (const auto& s : b) {
        if (m_returned) return;
        exec(*s);
    }
}

void LaneWalker::assign(const std::vector<VarPtr>& targets, const LValue& v) {
    if (targets.size() == 1) {
        m_env[targets[0]->id] = v;
        return;
    }
    if (auto* tp = std::get_if<std::shared_ptr<LTuple>>(&v.v))
        for (size_t i = 0; i < targets.size() && i < (*tp)->size(); ++i) m_env[targets[i]->id] = (**tp)[i];
}

LValue LaneWalker::eval(const ExprPtr& e, const Stmt& s) {
    switch (e->kind) {
        case ExprKind::Var:
            return m_env[e->var->id];
        case ExprKind::Call:
            return issue_call(s, *e);
        case ExprKind::Index: {
            LValue t = eval(e->args[0], s);
            if (auto* tp = std::get_if<std::shared_ptr<LTuple>>(&t.v)) return (**tp)[e->ival];
            return {};
        }
        case ExprKind::List:
        case ExprKind::Tuple: {
            auto tup = std::make_shared<LTuple>();
            for (auto& a : e->args) tup->push_back(eval(a, s));
            return LValue{tup};
        }
        case ExprKind::FuncCall:
            return {};
        default:
            return LValue{scalar(e)};
    }
}

void LaneWalker::exec(const Stmt& s) {
    m_sink.statement();
    switch (s.kind) {
        case StmtKind::Assign:
            assign(s.targets, eval(s.value, s));
            return;
        case StmtKind::Eval:
            eval(s.value, s);
            return;
        case StmtKind::Return:
            m_returned = true;
            return;
        case StmtKind::Pass:
            return;
        case StmtKind::Yield:
            m_yield.clear();
            for (auto& v : s.values) m_yield.push_back(eval(v, s));
            return;
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

void LaneWalker::exec_for(const Stmt& s) {
    int64_t start = s.start ? scalar(s.start).as_int() : 0;
    int64_t stop = scalar(s.stop).as_int();
    int64_t step = s.step ? scalar(s.step).as_int() : 1;
    if (step == 0) {  // an endless loop on the device (Python's range raises): never a silent skip
        m_sink.finding(codes::kUnsupported, s,
                       "the loop's step is 0 at run time: the loop never ends on the device (cvsim does not run it)");
        return;
    }
    for (size_t i = 0; i < s.iter_args.size(); ++i) m_env[s.iter_args[i]->id] = eval(s.init_values[i], s);
    uint64_t key = (uint64_t(s.loc.line) << 20) | s.loc.col;
    m_loops.push_back({key, -1});
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
        m_sink.statement();
        ++m_loops.back().second;  // the iteration ordinal (not i: a negative step runs the larger i first)
        m_env[s.loop_var->id].v = Scalar::of_int(i);
        m_yield.clear();
        exec_block(s.body);
        if (m_returned) break;
        if (!s.iter_args.empty() && m_yield.size() == s.iter_args.size())
            for (size_t k = 0; k < s.iter_args.size(); ++k) m_env[s.iter_args[k]->id] = m_yield[k];
    }
    m_loops.pop_back();
    for (size_t k = 0; k < s.targets.size() && k < s.iter_args.size(); ++k)
        m_env[s.targets[k]->id] = m_env[s.iter_args[k]->id];
}

// ---------------------------------------------------------------- instruction construction

std::unique_ptr<SimInstr> LaneWalker::make(Pipe pipe, const Stmt& s, const Expr* call) {
    auto in = std::make_unique<SimInstr>();
    in->pipe = pipe;
    in->stmt = &s;
    in->call = call;
    return in;
}

void LaneWalker::dep_read(Instr& in, const TileRef& t) {
    if (!t) return;
    if (t->writer >= 0) in.deps.push_back(static_cast<uint32_t>(t->writer));
    t->readers.push_back(m_sink.issued());  // the seq this instruction will get
    // A view's readers read the viewed storage too: the tfree of a popped tile waits for readers of its views.
    for (TileBuf* v = t->view_src.get(); v; v = v->view_src.get()) v->readers.push_back(m_sink.issued());
}

void LaneWalker::dep_write(Instr& in, const TileRef& t) {
    if (!t) return;
    if (t->writer >= 0) in.deps.push_back(static_cast<uint32_t>(t->writer));
    for (uint32_t r : t->readers)
        if (r != m_sink.issued()) in.deps.push_back(r);
    t->readers.clear();
    t->writer = m_sink.issued();
}

void LaneWalker::dep_gm(SimInstr& in, uint32_t tensor, const rt::Window& w, bool write, bool atomic) {
    uint32_t seq = m_sink.issued();
    for (const auto& r : m_gm_recs)
        if (r.tensor == tensor && (write || r.write) && rt::windows_overlap(r.w, w)) in.deps.push_back(r.seq);
    // Drop the records this access makes redundant, so the list stays as long as the distinct windows in
    // use, not the instructions issued. A write: every record it covers (it depends on them, so ordering
    // through it stays transitive). A read: the reads it covers on its own pipe (pipes complete in order,
    // so a later access that waits for this read has waited for them too, and the checker's clock of this
    // read includes theirs through its pipe).
    std::erase_if(m_gm_recs, [&](const GmRec& r) {
        return r.tensor == tensor && (write || (!r.write && r.pipe == in.pipe)) && rt::window_covers(w, r.w);
    });
    m_gm_recs.push_back({tensor, w, write, seq, in.pipe});
    GmAccess a;
    a.tensor = tensor;
    a.window = w;
    a.write = write;
    a.atomic = atomic;
    in.p.gm.push_back(std::move(a));
    in.p.gm_static = static_cast<uint32_t>(in.p.gm.size());
}

TileRef LaneWalker::new_tile(const Type& t) {
    auto b = std::make_shared<TileBuf>();
    b->dtype = t.dtype;
    b->mem = t.mem;
    b->layout = t.layout();
    b->acc = t.mem == Mem::Acc;
    b->rows = t.rows();
    b->cols = t.cols();
    b->vr = t.valid.empty() ? b->rows : (t.valid.size() >= 2 ? t.valid[t.valid.size() - 2] : 1);
    b->vc = t.valid.empty() ? b->cols : t.valid.back();
    b->replay = m_cx.replay;
    if (!m_cx.replay) b->bytes.assign(physical_bytes(b->layout, b->dtype, b->acc, b->rows, b->cols), 0);
    return b;
}

std::optional<rt::Window> LaneWalker::window(const TView& v, const ExprPtr& offsets,
                                             const std::vector<int64_t>& extents, const Stmt& s, bool partition) {
    rt::Window w;
    w.tensor = v.tensor;
    size_t rank = v.shape.size();
    std::vector<int64_t> ext = extents;
    if (ext.size() < rank) ext.insert(ext.begin(), rank - ext.size(), 1);
    // A 1-D tile is held as one row: its leading extent 1 has no tensor dimension (a store into a 1-D tensor).
    while (ext.size() > rank && ext.front() == 1) ext.erase(ext.begin());
    if (!offsets || offsets->args.size() != rank || ext.size() != rank) {
        m_sink.finding(codes::kOob, s, "window rank does not match the tensor");
        return std::nullopt;
    }
    // A store's `shapes` partition that runs past a dimension of its whole tensor: its rows as one box of the
    // tensor when they are (rt::partition_window, as the reference interpreter).
    if (const auto& tb = m_cx.tensors->tensors[v.tensor];
        partition && v.reshape.empty() && v.shape == tb.shape &&
        std::all_of(v.off.begin(), v.off.end(), [](int64_t o) { return o == 0; })) {
        std::vector<int64_t> off;
        bool inside = true;
        for (size_t d = 0; d < rank; ++d) {
            off.push_back(scalar(offsets->args[d]).as_int());
            inside &= rt::window_inside(off[d], ext[d], v.shape[d]);
        }
        if (!inside)
            if (auto p = rt::partition_window(v.tensor, tb.shape, off, ext)) {
                if (auto err = rt::check_window(tb, *p)) {  // a 4-bit byte split
                    m_sink.finding(codes::kOob, s, fmt::format("{} {}", core_name(m_cx.core), *err));
                    return std::nullopt;
                }
                return *p;
            }
    }
    w.extents = ext;
    for (size_t d = 0; d < rank; ++d) {
        int64_t o = scalar(offsets->args[d]).as_int();
        if (!rt::window_inside(o, ext[d], v.shape[d])) {
            const auto& t = m_cx.tensors->tensors[v.tensor];
            std::string win;
            for (size_t k = 0; k < rank; ++k)
                win += fmt::format("{}{}:{}", k ? ", " : "", k == d ? o : scalar(offsets->args[k]).as_int(),
                                   rt::sat_add(k == d ? o : scalar(offsets->args[k]).as_int(), ext[k]));
            m_sink.finding(codes::kOob, s,
                           fmt::format("{} window [{}] is outside tensor {} of shape {} (dimension {})",
                                       core_name(m_cx.core), win, t.name, shape_str(v.shape), d));
            return std::nullopt;
        }
        w.offsets.push_back(rt::sat_add(v.off[d], o));
    }
    if (!v.reshape.empty()) {
        auto r = rt::reshape_window(v.reshape, w, m_cx.tensors->tensors[v.tensor].shape);
        if (!r) {
            m_sink.finding(
                codes::kUnsupported, s,
                fmt::format("{} window {} of a pl.tensor.view {} is not one box of tensor {} of shape {}",
                            core_name(m_cx.core), rt::window_str(w), shape_str(v.reshape),
                            m_cx.tensors->tensors[v.tensor].name, shape_str(m_cx.tensors->tensors[v.tensor].shape)));
            return std::nullopt;
        }
        w = *r;
    }
    // A view's own offset plus this one must still lie in the tensor (overflow-checked): E-OOB, never a
    // write outside the tensor's bytes.
    if (auto err = rt::check_window(m_cx.tensors->tensors[v.tensor], w)) {
        m_sink.finding(codes::kOob, s, fmt::format("{} {}", core_name(m_cx.core), *err));
        return std::nullopt;
    }
    // An empty window (inside the tensor) moves nothing: no instruction is issued for it.
    for (int64_t e : w.extents)
        if (e == 0) return std::nullopt;
    return w;
}

OrderKeyPtr LaneWalker::order_key(const Stmt& s) {
    auto k = std::make_shared<OrderKey>();
    k->loops = m_loops;
    k->stmt = (uint64_t(s.loc.line) << 20) | s.loc.col;
    k->origin = m_prog.fn->origin;
    return k;
}

CrossCorePipe* LaneWalker::ring_for(const Expr& c, int dir, const Stmt& s) {
    int64_t id = arg(c, "id") ? scalar(arg(c, "id")).as_int() : 0;
    CrossCorePipe& r = m_cx.machine->ring(m_cx.cluster, dir, id);
    m_sink.await_ring(r, c, s, dir);
    return &r;
}

}  // namespace cvsim::sim
