// Lane executor: walks a lane program on the scalar unit and issues instructions to the pipes.
//
// Scalars, loops and branches are evaluated here at issue time (they never depend on tile data). Each op
// call becomes one instruction with its same-core dependencies computed in issue order: through tile
// storage (RAW/WAR/WAW on the same TileBuf) and through overlapping GM windows of this core. Cross-core
// handshakes are split the way the hardware does them: a tpush waits for its free slot on the producer's
// data pipe; a tpop's ready-wait blocks the scalar unit (everything after it is issued after the acquire),
// then on a2a3 the slot is copied to the landing buffer on MTE2; tfree, fence and syncall run on the
// scalar unit after waiting for the instructions they cover. On an a2a3 lane-1 replay only handshakes
// run, with no data.
#include "sim/lane_executor.h"

#include <fmt/format.h>

#include <algorithm>

#include "frontend/codes.h"
#include "frontend/ops.h"
#include "core/layout.h"
#include "sim/payload.h"

namespace cvsim::sim {

using namespace ir;
using rt::Scalar;

void RunState::add_finding(Finding f) {
    if (f.key.empty()) f.key = f.code + ":" + f.loc.str() + ":" + f.message;
    if (!finding_keys.insert(f.key).second) return;
    findings.push_back(std::move(f));
}

void RunState::emit(const Event& e) {
    for (EventSink* s : cfg->sinks) s->on_event(e);
}

namespace {
// Variable tables of finished runners, emptied, kept for the next schedule's runners (a schedule would
// otherwise allocate and free one large table per core).
std::vector<std::vector<LValue>>& env_pool() {
    thread_local std::vector<std::vector<LValue>> pool;
    return pool;
}
}  // namespace

CoreRunner::CoreRunner(RunState& st, int cluster, CoreId core, const rt::LaneProgram& prog, bool replay, int lane, int aiv_lanes)
    : m_st(st), m_cluster(cluster), m_core_id(core), m_prog(prog), m_replay(replay), m_lane(lane), m_aiv_lanes(aiv_lanes) {
    m_core = st.machine->cluster(cluster).cores[static_cast<int>(core)].get();
    m_core_index = cluster * kCoresPerCluster + static_cast<int>(core);
    if (!env_pool().empty()) {
        m_env = std::move(env_pool().back());
        env_pool().pop_back();
    }
    m_env.resize(prog.fn->vars.size());
    for (size_t i = 0; i < prog.fn->params.size() && i < prog.args.size(); ++i) {
        const auto& a = prog.args[i];
        const Var& v = *prog.fn->params[i].var;
        if (a.kind == rt::ArgBinding::Kind::Tensor) {
            const auto& t = st.tensors->tensors[a.tensor];
            m_env[v.id].v = TView{a.tensor, std::vector<int64_t>(t.shape.size(), 0), t.shape, {}};
        } else {
            m_env[v.id].v = a.scalar;
        }
    }
}

CoreRunner::~CoreRunner() {
    m_env.clear();
    if (env_pool().size() < 64) env_pool().push_back(std::move(m_env));
}

void CoreRunner::await_dispatch(int after, int chip) {
    Machine& m = *m_st.machine;
    if (m.blocks_done() >= after) return;
    m_scalar_wait = fmt::format("block {} not dispatched: the chip's {} clusters are busy (a launch of {} blocks runs in waves; it starts "
                                "once {} block(s) finished)",
                                m_cluster, chip, m_st.blocks, after);
    m_core->set_blocked(StallCause::Barrier, m_scalar_wait);
    while (m.blocks_done() < after) m_core->wait_event(m.dispatch_event());
    m_core->clear_blocked();
    m_scalar_wait.clear();
}

void CoreRunner::run() {
    m_returned = false;
    exec_block(m_prog.fn->body);
}

std::vector<std::string> CoreRunner::blocked() const {
    std::vector<std::string> out;
    if (!m_scalar_wait.empty()) out.push_back(m_scalar_wait);
    for (int p = 0; p < kNumPipes; ++p)
        if (!m_pipe_wait[p].empty()) out.push_back(m_pipe_wait[p]);
    if (out.empty())
        for (auto& w : m_core->pipe_waits()) out.push_back(w);
    return out;
}

// ---------------------------------------------------------------- walking

Scalar CoreRunner::scalar(const ExprPtr& e) {
    return rt::eval_scalar(*e, [&](const Var& v) -> Scalar {
        if (auto* s = std::get_if<Scalar>(&m_env[v.id].v)) return *s;
        return Scalar::of_int(0);
    });
}

TileRef CoreRunner::tile(const ExprPtr& e) {
    if (e && e->kind == ExprKind::Var)
        if (auto* t = std::get_if<TileRef>(&m_env[e->var->id].v)) return *t;
    return nullptr;
}

TView CoreRunner::view(const ExprPtr& e) {
    if (e && e->kind == ExprKind::Var)
        if (auto* t = std::get_if<TView>(&m_env[e->var->id].v)) return *t;
    return {};
}

void CoreRunner::exec_block(const Block& b) {
    for (const auto& s : b) {
        if (m_returned) return;
        exec(*s);
    }
}

void CoreRunner::assign(const std::vector<VarPtr>& targets, const LValue& v) {
    if (targets.size() == 1) {
        m_env[targets[0]->id] = v;
        return;
    }
    if (auto* tp = std::get_if<std::shared_ptr<LTuple>>(&v.v))
        for (size_t i = 0; i < targets.size() && i < (*tp)->size(); ++i) m_env[targets[i]->id] = (**tp)[i];
}

LValue CoreRunner::eval(const ExprPtr& e, const Stmt& s) {
    switch (e->kind) {
        case ExprKind::Var: return m_env[e->var->id];
        case ExprKind::Call: return issue_call(s, *e);
        case ExprKind::Index: {
            LValue t = eval(e->args[0], s);
            if (auto* tp = std::get_if<std::shared_ptr<LTuple>>(&t.v)) return (**tp)[e->ival];
            return {};
        }
        case ExprKind::List: case ExprKind::Tuple: {
            auto tup = std::make_shared<LTuple>();
            for (auto& a : e->args) tup->push_back(eval(a, s));
            return LValue{tup};
        }
        case ExprKind::FuncCall: return {};
        default: return LValue{scalar(e)};
    }
}

void CoreRunner::exec(const Stmt& s) {
    m_core->advance_statement();
    switch (s.kind) {
        case StmtKind::Assign: assign(s.targets, eval(s.value, s)); return;
        case StmtKind::Eval: eval(s.value, s); return;
        case StmtKind::Return: m_returned = true; return;
        case StmtKind::Pass: return;
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
        case StmtKind::For: exec_for(s); return;
    }
}

void CoreRunner::exec_for(const Stmt& s) {
    int64_t start = s.start ? scalar(s.start).as_int() : 0;
    int64_t stop = scalar(s.stop).as_int();
    int64_t step = s.step ? scalar(s.step).as_int() : 1;
    if (step == 0) return;
    for (size_t i = 0; i < s.iter_args.size(); ++i) m_env[s.iter_args[i]->id] = eval(s.init_values[i], s);
    uint64_t key = (uint64_t(s.loc.line) << 20) | s.loc.col;
    m_loops.push_back({key, -1});
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
        m_core->advance_statement();
        ++m_loops.back().second;  // the iteration ordinal (not i: a negative step runs the larger i first)
        m_env[s.loop_var->id].v = Scalar::of_int(i);
        m_yield.clear();
        exec_block(s.body);
        if (m_returned) break;
        if (!s.iter_args.empty() && m_yield.size() == s.iter_args.size())
            for (size_t k = 0; k < s.iter_args.size(); ++k) m_env[s.iter_args[k]->id] = m_yield[k];
    }
    m_loops.pop_back();
    for (size_t k = 0; k < s.targets.size() && k < s.iter_args.size(); ++k) m_env[s.targets[k]->id] = m_env[s.iter_args[k]->id];
}

// ---------------------------------------------------------------- instruction construction

std::unique_ptr<Instr> CoreRunner::make(Pipe pipe, const Stmt& s, const Expr* call) {
    auto in = std::make_unique<SimInstr>();
    in->pipe = pipe;
    in->stmt = &s;
    in->call = call;
    return in;
}

void CoreRunner::dep_read(Instr& in, const TileRef& t) {
    if (!t) return;
    if (t->writer >= 0) in.deps.push_back(static_cast<uint32_t>(t->writer));
    t->readers.push_back(m_core->issued());  // the seq this instruction will get
    // A view's readers read the viewed storage too: the tfree of a popped tile waits for readers of its views.
    for (TileBuf* v = t->view_src.get(); v; v = v->view_src.get()) v->readers.push_back(m_core->issued());
}

void CoreRunner::dep_write(Instr& in, const TileRef& t) {
    if (!t) return;
    if (t->writer >= 0) in.deps.push_back(static_cast<uint32_t>(t->writer));
    for (uint32_t r : t->readers)
        if (r != m_core->issued()) in.deps.push_back(r);
    t->readers.clear();
    t->writer = m_core->issued();
}

void CoreRunner::dep_gm(Instr& in, uint32_t tensor, const rt::Window& w, bool write, bool atomic) {
    uint32_t seq = m_core->issued();
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
    pl(in).gm.push_back(std::move(a));
}

TileRef CoreRunner::new_tile(const Type& t) {
    auto b = std::make_shared<TileBuf>();
    b->dtype = t.dtype;
    b->mem = t.mem;
    b->layout = t.layout();
    b->acc = t.mem == Mem::Acc;
    b->rows = t.rows();
    b->cols = t.cols();
    b->vr = t.valid.empty() ? b->rows : (t.valid.size() >= 2 ? t.valid[t.valid.size() - 2] : 1);
    b->vc = t.valid.empty() ? b->cols : t.valid.back();
    b->replay = m_replay;
    if (!m_replay) b->bytes.assign(physical_bytes(b->layout, b->dtype, b->acc, b->rows, b->cols), 0);
    return b;
}

std::optional<rt::Window> CoreRunner::window(const TView& v, const ExprPtr& offsets, const std::vector<int64_t>& extents, const Stmt& s,
                                             bool partition) {
    rt::Window w;
    w.tensor = v.tensor;
    size_t rank = v.shape.size();
    std::vector<int64_t> ext = extents;
    if (ext.size() < rank) ext.insert(ext.begin(), rank - ext.size(), 1);
    // A 1-D tile is held as one row: its leading extent 1 has no tensor dimension (a store into a 1-D tensor).
    while (ext.size() > rank && ext.front() == 1) ext.erase(ext.begin());
    if (!offsets || offsets->args.size() != rank || ext.size() != rank) {
        runtime_finding(codes::kOob, s, "window rank does not match the tensor");
        return std::nullopt;
    }
    // A store's `shapes` partition that runs past a dimension of its whole tensor: its rows as one box of the
    // tensor when they are (rt::partition_window, as the reference interpreter).
    if (const auto& tb = m_st.tensors->tensors[v.tensor]; partition && v.reshape.empty() && v.shape == tb.shape &&
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
                    runtime_finding(codes::kOob, s, fmt::format("{} {}", core_name(m_core_id), *err));
                    return std::nullopt;
                }
                return *p;
            }
    }
    w.extents = ext;
    for (size_t d = 0; d < rank; ++d) {
        int64_t o = scalar(offsets->args[d]).as_int();
        if (!rt::window_inside(o, ext[d], v.shape[d])) {
            const auto& t = m_st.tensors->tensors[v.tensor];
            std::string win;
            for (size_t k = 0; k < rank; ++k) win += fmt::format("{}{}:{}", k ? ", " : "", k == d ? o : scalar(offsets->args[k]).as_int(), rt::sat_add(k == d ? o : scalar(offsets->args[k]).as_int(), ext[k]));
            runtime_finding(codes::kOob, s, fmt::format("{} window [{}] is outside tensor {} of shape {} (dimension {})",
                                                    core_name(m_core_id), win, t.name, shape_str(v.shape), d));
            return std::nullopt;
        }
        w.offsets.push_back(rt::sat_add(v.off[d], o));
    }
    if (!v.reshape.empty()) {
        auto r = rt::reshape_window(v.reshape, w, m_st.tensors->tensors[v.tensor].shape);
        if (!r) {
            runtime_finding(codes::kUnsupported, s, fmt::format("{} window {} of a pl.tensor.view {} is not one box of tensor {} of shape {}", core_name(m_core_id),
                                                            rt::window_str(w), shape_str(v.reshape), m_st.tensors->tensors[v.tensor].name,
                                                            shape_str(m_st.tensors->tensors[v.tensor].shape)));
            return std::nullopt;
        }
        w = *r;
    }
    // A view's own offset plus this one must still lie in the tensor (overflow-checked): E-OOB, never a
    // write outside the tensor's bytes.
    if (auto err = rt::check_window(m_st.tensors->tensors[v.tensor], w)) {
        runtime_finding(codes::kOob, s, fmt::format("{} {}", core_name(m_core_id), *err));
        return std::nullopt;
    }
    // An empty window (inside the tensor) moves nothing: no instruction is issued for it.
    for (int64_t e : w.extents)
        if (e == 0) return std::nullopt;
    return w;
}

OrderKeyPtr CoreRunner::order_key(const Stmt& s) {
    auto k = std::make_shared<OrderKey>();
    k->loops = m_loops;
    k->stmt = (uint64_t(s.loc.line) << 20) | s.loc.col;
    k->origin = m_prog.fn->origin;
    return k;
}

void CoreRunner::runtime_finding(const std::string& code, const Stmt& s, const std::string& msg) {
    Finding f;
    f.code = code;
    f.message = fmt::format("{}: {}", s.loc.short_str(), msg);
    f.loc = s.loc;
    f.cycle = m_core->now();
    f.key = code + ":" + s.loc.str();
    m_st.add_finding(std::move(f));
}

CrossCorePipe* CoreRunner::ring_for(const Expr& c, int dir, const Stmt& s) {
    int64_t id = arg(c, "id") ? scalar(arg(c, "id")).as_int() : 0;
    CrossCorePipe& r = m_st.machine->ring(m_cluster, dir, id);
    if (!r.configured()) {
        m_scalar_wait = fmt::format("{} at {} waits for the {} pipe to be initialised (no *_initialize_pipe ran)",
                                    c.op->name(), s.loc.short_str(), dir == 0 ? "C2V" : "V2C");
        while (!r.configured()) m_core->wait_event(r.changed());
        m_scalar_wait.clear();
    }
    return &r;
}

static ir::Pipe pipe_of(PipeType p) {
    switch (p) {
        case PipeType::S: case PipeType::ALL: return ir::Pipe::Scalar;
        case PipeType::V: return ir::Pipe::Vector;
        case PipeType::M: return ir::Pipe::Cube;
        case PipeType::MTE1: return ir::Pipe::Mte1;
        case PipeType::MTE2: return ir::Pipe::Mte2;
        case PipeType::MTE3: return ir::Pipe::Mte3;
        case PipeType::FIX: return ir::Pipe::Fixp;
    }
    return ir::Pipe::Scalar;
}

LValue CoreRunner::issue_call(const Stmt& s, const Expr& c) {
    using O = OpCode;
    const O code = c.op->code;
    auto result_tile = [&](const Type& t) { return new_tile(t); };

    // A replay lane runs handshakes only: data ops produce placeholders and cost nothing.
    bool handshake = is_cross_core(code) || code == O::Syncall || code == O::SyncSet || code == O::SyncWait ||
                     code == O::Fence || code == O::ReserveBuffer || code == O::ImportPeerBuffer ||
                     code == O::GetBlockIdx || code == O::GetBlockNum || code == O::GetSubblockIdx || code == O::Read ||
                     code == O::TensorRead || code == O::TensorView;
    if (m_replay && !handshake) {
        if (c.type.kind == TypeKind::Tile) return LValue{result_tile(c.type)};
        if (c.type.kind == TypeKind::Tensor) return LValue{view(arg(c, "output_tensor"))};
        return {};
    }

    switch (code) {
        case O::GetBlockIdx: return LValue{Scalar::of_int(m_cluster)};
        case O::GetBlockNum: return LValue{Scalar::of_int(m_st.blocks)};
        case O::GetSubblockIdx: return LValue{Scalar::of_int(m_lane)};
        case O::Read: {
            // The scalar unit reads UB: it waits until the tile's writer completed, then decodes the element.
            TileRef t = tile(arg(c, "tile"));
            if (t->writer >= 0) m_core->wait_instrs({static_cast<uint32_t>(t->writer)}, StallCause::Dependency);
            // a5: a popped tile (or a view of it) is its ring slot. The read is issued as one of the slot's
            // readers (the checker sees it, a tfree waits for it) and reads the slot's current contents.
            if (m_st.cfg->hw.target == Target::A5 && !m_replay && slot_root(t.get())) {
                auto in = make(Pipe::Scalar, s, &c);
                in->in[0] = t;
                dep_read(*in, t);
                TileRef out = new_tile(Type::tile({1, 1}, t->dtype, Mem::Vec));
                dep_write(*in, out);
                in->out = out;
                const uint32_t seq = m_core->issued();
                m_core->issue(std::move(in));
                m_core->wait_instrs({seq}, StallCause::Dependency);
            }
            std::vector<int64_t> idx;
            for (auto& a : arg(c, "indices")->args) idx.push_back(scalar(a).as_int());
            int64_t r = idx.size() >= 2 ? idx[idx.size() - 2] : 0, col = idx.empty() ? 0 : idx.back();
            double v = 0;
            if (r < 0 || col < 0 || r >= t->rows || col >= t->cols) runtime_finding(codes::kOob, s, "pl.tile.read: index outside the tile");
            else if (!t->bytes.empty()) v = decode(t->bytes.data(), t->bytes.size(), t->dtype, t->layout, t->acc, t->rows, t->cols)(r, col);
            return LValue{dtype_is_int(t->dtype) ? Scalar::of_int(static_cast<int64_t>(v), t->dtype) : Scalar::of_float(v, t->dtype)};
        }
        case O::TensorRead: {
            // One GM element through MTE2 into a scratch [1, 1] tile; the scalar unit waits for it (a replay
            // lane reads too: its control flow and addresses may depend on the value).
            TView v = view(arg(c, "tensor"));
            const DType dt = c.type.dtype;
            auto zero = [&] { return LValue{dtype_is_int(dt) ? Scalar::of_int(0, dt) : Scalar::of_float(0, dt)}; };
            auto w = window(v, arg(c, "indices"), std::vector<int64_t>(v.shape.size(), 1), s);
            if (!w) return zero();
            TileRef out = new_tile(Type::tile({1, 1}, m_st.tensors->tensors[v.tensor].dtype, Mem::Vec));
            auto in = make(Pipe::Mte2, s, &c);
            dep_gm(*in, v.tensor, *w, false);
            pl(*in).order = order_key(s);
            dep_write(*in, out);
            in->out = out;
            const uint32_t seq = m_core->issued();
            m_core->issue(std::move(in));
            m_core->wait_instrs({seq}, StallCause::Dependency);
            if (out->bytes.empty()) return zero();
            double x = decode(out->bytes.data(), out->bytes.size(), out->dtype, out->layout, false, 1, 1)(0, 0);
            return LValue{dtype_is_int(dt) ? Scalar::of_int(static_cast<int64_t>(x), dt) : Scalar::of_float(x, dt)};
        }
        case O::TensorWrite: {
            // One GM element from a scratch [1, 1] tile the scalar unit fills, through MTE3 (not waited for).
            TView v = view(arg(c, "tensor"));
            auto w = window(v, arg(c, "indices"), std::vector<int64_t>(v.shape.size(), 1), s);
            if (!w) return {};
            const DType dt = m_st.tensors->tensors[v.tensor].dtype;
            TileRef src = new_tile(Type::tile({1, 1}, dt, Mem::Vec));
            if (!src->bytes.empty()) {
                std::vector<uint8_t> b(src->bytes.size(), 0);
                encode_element(dt, round_to(dt, scalar(arg(c, "value")).as_double()), b.data());
                src->bytes = std::move(b);
            }
            auto in = make(Pipe::Mte3, s, &c);
            in->in[0] = src;
            dep_gm(*in, v.tensor, *w, true);
            pl(*in).order = order_key(s);
            m_core->issue(std::move(in));
            return {};
        }
        case O::TensorView: {
            // A reshape of the whole tensor (or of such a view): accesses are mapped back in window().
            TView v = view(arg(c, "tensor"));
            const auto& t = m_st.tensors->tensors[v.tensor];
            bool whole = true;
            for (int64_t o : v.off) whole &= o == 0;
            whole &= v.shape == (v.reshape.empty() ? t.shape : v.reshape);
            if (!whole) {
                runtime_finding(codes::kUnsupported, s, "pl.tensor.view of a part of a tensor (a slice) is not modelled by cvsim");
                return LValue{v};
            }
            v.shape = c.type.shape;
            v.off.assign(v.shape.size(), 0);
            v.reshape = v.shape == t.shape ? std::vector<int64_t>{} : v.shape;
            return LValue{v};
        }
        case O::ReserveBuffer: case O::ImportPeerBuffer: return LValue{Scalar::of_int(0, DType::INT32)};
        case O::SetFfts: case O::CacheInvalid: return {};
        case O::PrefetchMakeContext: case O::PrefetchAsync: case O::PrefetchSession: return {};
        case O::PrefetchWait: return LValue{rt::Scalar::of_int(1, DType::BOOL)};
        case O::Create: return LValue{result_tile(c.type)};
        case O::Load: {
            TView v = view(arg(c, "tensor"));
            std::vector<int64_t> ext;
            for (auto& a : arg(c, "shapes")->args) ext.push_back(scalar(a).as_int());
            TileRef out = result_tile(c.type);
            if (auto& vs = arg(c, "valid_shape")) {
                std::vector<int64_t> vv;
                for (auto& a : vs->args) vv.push_back(scalar(a).as_int());
                // The tile's region is the valid window's rows (the product of all but the last extent, as
                // PyPTO merges an N-D valid_shape) by its last extent.
                out->vr = rt::valid_rows(vv);
                out->vc = vv.empty() ? 1 : vv.back();
                if (auto err = rt::valid_shape_error(vv, ext)) {
                    runtime_finding(codes::kOob, s, fmt::format("{} {}", core_name(m_core_id), *err));
                    out->vr = std::clamp<int64_t>(out->vr, 0, out->rows);
                    out->vc = std::clamp<int64_t>(out->vc, 0, out->cols);
                }
                // Only the valid region is read from GM (pl.tile.load).
                if (vs->args.size() == ext.size())
                    for (size_t d = 0; d < ext.size(); ++d) ext[d] = std::min(ext[d], scalar(vs->args[d]).as_int());
            }
            auto w = window(v, arg(c, "offsets"), ext, s);
            if (!w) return LValue{out};
            auto in = make(Pipe::Mte2, s, &c);
            dep_gm(*in, v.tensor, *w, false);
            pl(*in).order = order_key(s);
            dep_write(*in, out);
            in->out = out;
            m_core->issue(std::move(in));
            return LValue{out};
        }
        case O::Store: {
            TileRef src = tile(arg(c, "tile"));
            TView v = view(arg(c, "output_tensor"));
            std::vector<int64_t> ext = {src ? src->vr : 1, src ? src->vc : 1};
            if (auto& sh = arg(c, "shapes")) {
                ext.clear();
                for (auto& a : sh->args) ext.push_back(scalar(a).as_int());
            }
            if (src && arg(c, "shapes")) {
                // The window covers the tile's rows in row-major order: more rows or columns than the tile has
                // would store bytes the tile does not hold.
                const int64_t wr = rt::valid_rows(ext), wc = ext.empty() ? 1 : ext.back();
                if (wr > src->rows || wc > src->cols) {
                    runtime_finding(codes::kOob, s, fmt::format("{} pl.tile.store: window {} is larger than the tile [{}, {}]", core_name(m_core_id),
                                                            shape_str(ext), src->rows, src->cols));
                    return LValue{v};
                }
            }
            auto w = window(v, arg(c, "offsets"), ext, s, arg(c, "shapes") != nullptr);
            if (!w || !src) return LValue{v};
            auto in = make(src->mem == Mem::Acc ? Pipe::Fixp : Pipe::Mte3, s, &c);
            dep_read(*in, src);
            in->in[0] = src;
            dep_gm(*in, v.tensor, *w, true, is_atomic_add_store(c));
            pl(*in).order = order_key(s);
            m_core->issue(std::move(in));
            return LValue{v};
        }
        case O::Mgather: case O::Mscatter: {
            if (code == O::Mgather && c.type.mem == Mem::Mat) return issue_mgather_mat(s, c);  // exec_mgather_mat.cpp
            // GM elements an index tile picks (pl.tile.mgather / mscatter): the addresses are data, so the
            // same-core GM ordering takes the whole view; begin() replaces it by the transfers the index values
            // name (what the checker sees). in.ints carries the view: rank, offsets, shape, reshape rank, reshape.
            const bool gather = code == O::Mgather;
            TView v = view(arg(c, gather ? "mem" : "output_tensor"));
            TileRef idx = tile(arg(c, "idx"));
            TileRef src = gather ? nullptr : tile(arg(c, "src"));
            TileRef out = gather ? result_tile(c.type) : nullptr;
            if (out) {
                // The run-time valid region follows the index tile's (PyPTO's type rule).
                const bool row = mgather_coalesce(c) == 0;
                const bool row_vector = arg(c, "idx")->type.shape[0] == 1;
                out->vr = std::min(out->rows, row ? (row_vector ? idx->vc : idx->vr) : idx->vr);
                out->vc = row ? out->cols : std::min(out->cols, idx->vc);
            }
            rt::Window whole;
            whole.tensor = v.tensor;
            const auto& tshape = m_st.tensors->tensors[v.tensor].shape;
            whole.offsets = v.reshape.empty() ? v.off : std::vector<int64_t>(tshape.size(), 0);
            whole.extents = v.reshape.empty() ? v.shape : tshape;
            bool empty = false;
            for (int64_t e : whole.extents) empty |= e <= 0;
            if (empty || !idx || (!gather && !src)) return gather ? LValue{out} : LValue{v};
            auto in = make(gather ? Pipe::Mte2 : Pipe::Mte3, s, &c);
            in->in[0] = idx;
            in->in[1] = src;
            dep_read(*in, idx);
            if (src) dep_read(*in, src);
            dep_gm(*in, v.tensor, whole, !gather);
            pl(*in).order = order_key(s);
            in->ints.push_back(static_cast<int64_t>(v.shape.size()));
            in->ints.insert(in->ints.end(), v.off.begin(), v.off.end());
            in->ints.insert(in->ints.end(), v.shape.begin(), v.shape.end());
            in->ints.push_back(static_cast<int64_t>(v.reshape.size()));
            in->ints.insert(in->ints.end(), v.reshape.begin(), v.reshape.end());
            if (out) {
                dep_write(*in, out);
                in->out = out;
            }
            m_core->issue(std::move(in));
            return gather ? LValue{out} : LValue{v};
        }
        case O::Slice: {
            const ExprPtr& x = arg(c, "tile");
            std::vector<int64_t> shape, off;
            for (auto& a : arg(c, "shape")->args) shape.push_back(scalar(a).as_int());
            for (auto& a : arg(c, "offset")->args) off.push_back(scalar(a).as_int());
            if (x->type.kind == TypeKind::Tensor) {
                TView v = view(x);
                for (size_t d = 0; d < off.size() && d < v.off.size(); ++d) v.off[d] = rt::sat_add(v.off[d], off[d]);
                v.shape = shape;
                return LValue{v};
            }
            [[fallthrough]];
        }
        default: break;
    }

    // Cross-core and synchronisation ops.
    switch (code) {
        case O::AicInitializePipe: case O::AivInitializePipe: {
            int dir_mask = static_cast<int>(scalar(arg(c, "dir_mask")).as_int());
            int64_t slot_size = scalar(arg(c, "slot_size")).as_int();
            const auto& sync = m_st.cfg->hw.sync;
            int64_t slot_num = arg(c, "slot_num") ? scalar(arg(c, "slot_num")).as_int()
                                                  : static_cast<int64_t>(dir_mask == 3 ? sync.slot_num_both : sync.slot_num_one_dir);
            int64_t id = arg(c, "id") ? scalar(arg(c, "id")).as_int() : 0;
            for (int dir = 0; dir < 2; ++dir) {
                if (!(dir_mask & (1 << dir))) continue;
                CrossCorePipe& r = m_st.machine->ring(m_cluster, dir, id);
                if (!r.configured()) {
                    bool c2v = dir == 0;
                    r.configure(c2v, static_cast<int>(slot_num), slot_size, c2v ? 1 : m_aiv_lanes, c2v ? m_aiv_lanes : 1);
                } else if (r.slot_num() != slot_num || r.slot_size() != slot_size) {
                    runtime_finding(codes::kPipeSetup, s, fmt::format("the {} ring is initialised with {} slots of {} bytes here but {} slots of {} bytes by the peer",
                                                                  dir == 0 ? "C2V" : "V2C", slot_num, slot_size, r.slot_num(), r.slot_size()));
                }
            }
            auto in = make(Pipe::Scalar, s, &c);
            pl(*in).kind = PayloadKind::Scalar;
            m_core->issue(std::move(in));
            return {};
        }
        case O::TpushToAiv: case O::TpushToAic: {
            int dir = code == O::TpushToAiv ? 0 : 1;
            CrossCorePipe* r = ring_for(c, dir, s);
            TileRef src = tile(arg(c, "tile"));
            auto in = make(dir == 0 ? Pipe::Fixp : Pipe::Mte3, s, &c);
            Payload& p = pl(*in);
            p.ring = r;
            p.ring_dir = dir;
            p.split = static_cast<int>(scalar(arg(c, "split")).as_int());
            if (src && !m_replay) dep_read(*in, src);
            in->in[0] = src;
            m_core->issue(std::move(in));
            return {};
        }
        case O::TpopFromAic: case O::TpopFromAiv: {
            int dir = code == O::TpopFromAic ? 0 : 1;
            CrossCorePipe* r = ring_for(c, dir, s);
            TileRef out = result_tile(c.type);
            auto wait = make(Pipe::Scalar, s, &c);
            Payload& p = pl(*wait);
            p.kind = PayloadKind::PopWait;
            p.ring = r;
            p.ring_dir = dir;
            p.split = arg(c, "split") ? static_cast<int>(scalar(arg(c, "split")).as_int()) : 0;
            p.type = c.type;
            wait->out = out;
            PipeInstr* w = m_core->issue(std::move(wait));
            out->ring = dir;
            out->slot = pl(*w).slot;
            out->lane = dir == 0 ? m_lane : 0;
            out->ring_id = arg(c, "id") ? scalar(arg(c, "id")).as_int() : 0;
            if (m_replay) return LValue{out};
            if (m_st.cfg->hw.target == Target::A5 && out->slot >= 0) {
                // a5: the tile is the slot's bytes from now on (refreshed from the slot when a push reused it).
                out->slot_bound = true;
                out->slot_gen = static_cast<int64_t>(r->ring().slot(out->slot).generation);
                out->slot_writes = r->slot(out->slot).writes;
            }
            if (dir == 0 && (p.split == 3 || p.split == 4)) {
                // Odd split: the static type is lane 0's larger part; lane 1's smaller one is a run-time valid region.
                const Matrix& part = values(pl(*w).xfer);
                if (p.split == 3) out->vr = std::min<int64_t>(out->vr, part.rows());
                else out->vc = std::min<int64_t>(out->vc, part.cols());
            }
            if (m_st.cfg->hw.target == Target::A2A3) {
                auto copy = make(Pipe::Mte2, s, &c);
                Payload& cp = pl(*copy);
                cp.kind = PayloadKind::PopCopy;
                cp.ring = r;
                cp.ring_dir = dir;
                cp.slot = pl(*w).slot;
                cp.xfer = std::move(pl(*w).xfer);
                cp.xfer_dtype = pl(*w).xfer_dtype;
                cp.data_clean = pl(*w).data_clean;
                cp.type = c.type;
                cp.acquires = {};
                copy->deps.push_back(w->seq);
                dep_write(*copy, out);
                copy->out = out;
                m_core->issue(std::move(copy));
            } else {
                out->writer = w->seq;
            }
            return LValue{out};
        }
        case O::TfreeToAic: case O::TfreeToAiv: {
            TileRef t = tile(arg(c, "tile"));
            // a5: freeing a view of a popped tile frees the slot it is (the popped tile's).
            while (t && t->ring < 0 && t->view_src) t = t->view_src;
            auto in = make(Pipe::Scalar, s, &c);
            Payload& p = pl(*in);
            p.kind = PayloadKind::Tfree;
            int dir = code == O::TfreeToAic ? 0 : 1;
            p.ring = &m_st.machine->ring(m_cluster, dir, arg(c, "id") ? scalar(arg(c, "id")).as_int() : 0);
            p.ring_dir = dir;
            if (t) {
                // The slot is released only after every reader of the popped tile completed.
                if (t->writer >= 0) in->deps.push_back(static_cast<uint32_t>(t->writer));
                for (uint32_t r : t->readers) in->deps.push_back(r);
            }
            in->in[0] = t;
            m_core->issue(std::move(in));
            return {};
        }
        case O::Syncall: {
            // Two scalar instructions: the arrival (after draining the core) releases, the departure acquires.
            std::string ct = const_str(arg(c, "core_type")).value_or("mix");
            bool hard = const_str(arg(c, "mode")).value_or("hard") == "hard";
            auto arrive = make(Pipe::Scalar, s, &c);
            Payload& pa = pl(*arrive);
            pa.kind = PayloadKind::SyncArrive;
            pa.drain = true;
            pa.group = ct;
            pa.hard = hard;
            for (uint32_t i = 0; i < m_core->issued(); ++i) arrive->deps.push_back(i);
            PipeInstr* a = m_core->issue(std::move(arrive));
            auto depart = make(Pipe::Scalar, s, &c);
            Payload& pd = pl(*depart);
            pd.kind = PayloadKind::SyncDepart;
            pd.group = ct;
            pd.hard = hard;
            pd.ring_id = static_cast<int64_t>(pl(*a).event_id);  // the episode the arrival joined
            m_core->issue(std::move(depart));
            return {};
        }
        case O::Fence: {
            auto in = make(Pipe::Scalar, s, &c);
            Payload& p = pl(*in);
            p.kind = PayloadKind::Fence;
            p.drain = true;
            p.fence = true;
            for (uint32_t i = 0; i < m_core->issued(); ++i) in->deps.push_back(i);
            m_core->issue(std::move(in));
            return {};
        }
        case O::SyncSet: case O::SyncWait: {
            PipeType pt = PipeType::S;
            if (auto& pa = arg(c, "pipe"); pa && pa->kind == ExprKind::Enum) pt = static_cast<PipeType>(pa->ival);
            ir::Pipe pipe = pipe_of(pt);
            if (!m_core->has_pipe(pipe)) pipe = ir::Pipe::Scalar;
            auto in = make(pipe, s, &c);
            Payload& p = pl(*in);
            p.event_id = scalar(arg(c, "event_id")).as_int();
            if (pt == PipeType::ALL) {
                p.drain = true;
                for (uint32_t i = 0; i < m_core->issued(); ++i) in->deps.push_back(i);
            }
            m_core->issue(std::move(in));
            return {};
        }
        default: break;
    }

    // Compute and movement ops: inputs read, a fresh (or in-place) output written.
    Pipe pipe = call_pipe(c);
    if (!m_core->has_pipe(pipe)) pipe = m_core_id == CoreId::Aic ? Pipe::Mte1 : Pipe::Vector;
    if (code == O::Slice || code == O::Reshape || code == O::SetValidShape || code == O::TransposeView) {
        const ExprPtr& x = arg(c, "tile");
        pipe = x->type.mem == Mem::Vec ? Pipe::Vector : x->type.mem == Mem::Acc ? Pipe::Fixp : Pipe::Mte1;
        if (!m_core->has_pipe(pipe)) pipe = m_core_id == CoreId::Aic ? Pipe::Mte1 : Pipe::Vector;
    }
    auto in = make(pipe, s, &c);
    int k = 0;
    for (size_t i = 0; i < c.args.size() && k < static_cast<int>(std::size(in->in)); ++i) {
        const ExprPtr& a = c.args[i];
        if (a && a->type.kind == TypeKind::Tile) {
            TileRef t = tile(a);
            in->in[k++] = t;
        }
    }
    TileRef out;
    if (code == O::MatmulAcc || code == O::GemvAcc) {
        out = tile(arg(c, "acc"));  // the result reuses the accumulator's storage
        for (int j = 1; j < 3; ++j) dep_read(*in, in->in[j]);
        dep_write(*in, out);
    } else {
        for (int j = 0; j < k; ++j) dep_read(*in, in->in[j]);
        out = result_tile(c.type);
        dep_write(*in, out);
        // A run-time valid region (a load's valid_shape, lane 1's part of an odd split) carries through moves
        // and shape-preserving vector ops, as in the reference interpreter.
        const TileRef& x = in->in[0];
        // The result's static valid region (empty, or the operand's own, e.g. lane 0's part of a split boundary
        // tile) is then bounded by the operand's run-time one.
        bool shaping = c.op->valid != ValidRule::Inherit;  // the registry's valid-region rule (slice, reshape, fillpad, ...)
        const ExprPtr& x0 = c.args.empty() ? nullptr : c.args[0];
        bool inherits = c.type.valid.empty() || (x0 && x0->type.kind == TypeKind::Tile && x0->type.valid == c.type.valid);
        if (k > 0 && x && !shaping && (code == O::Move || c.type.mem == Mem::Vec) && inherits && x->rows == out->rows &&
            x->cols == out->cols) {
            out->vr = std::min(out->vr, x->vr);
            out->vc = std::min(out->vc, x->vc);
        }
    }
    for (const ExprPtr* sv : value_operands(c)) in->numbers.push_back(scalar(*sv).as_double());
    if (!in->numbers.empty()) in->number = in->numbers[0];
    if (code == O::SetValidShape) {
        out->vr = scalar(arg(c, "rows")).as_int();
        out->vc = scalar(arg(c, "cols")).as_int();
        // A run-time region outside the tile names memory the tile does not have (as a load's valid_shape).
        if (out->vr < 0 || out->vc < 0 || out->vr > out->rows || out->vc > out->cols) {
            runtime_finding(codes::kOob, s, fmt::format("{} pl.tile.set_validshape: valid shape [{}, {}] is outside the tile [{}, {}]", core_name(m_core_id),
                                                    out->vr, out->vc, out->rows, out->cols));
            out->vr = std::clamp<int64_t>(out->vr, 0, out->rows);
            out->vc = std::clamp<int64_t>(out->vc, 0, out->cols);
        }
    }
    if (c.op->int_list_param)  // slice offsets, reshape shape, write indices, assemble offset
        for (auto& a : arg(c, c.op->int_list_param)->args) in->ints.push_back(scalar(a).as_int());
    if ((code == O::Slice || code == O::Reshape || code == O::SetValidShape || code == O::TransposeView || code == O::ReinterpretView) && in->in[0])
        if (slot_root(in->in[0].get())) {
            // a5: a view of slot memory is slot memory too (rewritten with it, read as it).
            out->view_src = in->in[0];
            out->view_code = code;
            out->view_ints = in->ints;
        }
    in->out = out;
    m_core->issue(std::move(in));
    return LValue{out};
}

}  // namespace cvsim::sim
