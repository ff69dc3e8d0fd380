// Reference interpreter: walks IR on logical tiles; lanes of an expanded program run cooperatively with
// rings carrying logical tiles; a mixed program runs sequentially (one task per cluster).
#include "frontend/reference.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <tuple>
#include <variant>

#include "core/datapath.h"
#include "frontend/codes.h"
#include "frontend/coop.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/ops_sort.h"

namespace cvsim::ref {

using namespace ir;
using rt::Scalar;

namespace {

struct RTile {
    TileData d;      // logical values (physical shape)
    int64_t vr = 0;  // valid rows
    int64_t vc = 0;  // valid cols
    Mem mem = Mem::Vec;
    bool popped = false;                // the result of a tpop
    std::shared_ptr<RTile> popped_src;  // a view (slice, reshape, ...) of a popped tile: that tile (its tfree's)
};
using TileP = std::shared_ptr<RTile>;

struct TView {
    uint32_t id = 0;               // GM tensor
    std::vector<int64_t> off;      // view origin in the tensor
    std::vector<int64_t> shape;    // view shape
    std::vector<int64_t> reshape;  // pl.tensor.view: off/shape are in this row-major shape of the tensor
};

struct Value;
using Tuple = std::vector<Value>;
struct Value {
    std::variant<std::monostate, Scalar, TView, TileP, std::shared_ptr<Tuple>> v;
};

[[noreturn]] void fail(const std::string& code, const SourceLoc& loc, const std::string& msg) {
    throw rt::RuntimeError{code, msg, loc};
}

// Rings and flags shared by the lanes of one cluster.
struct RingEntry {
    std::vector<TileP> parts;  // per producer lane (V2C) or [0] (C2V)
    std::vector<bool> pushed;  // per producer lane
    std::vector<bool> popped;  // per consumer lane
    int split = 0;
};
struct Ring {
    bool c2v = true;
    std::deque<RingEntry> entries;
    std::vector<size_t> prod_idx;  // per producer lane: index of the next entry it writes (relative to base)
    std::vector<size_t> cons_idx;  // per consumer lane
    size_t base = 0;               // absolute index of entries.front()
};

struct Machine {
    rt::TensorStore gm;
    CoopScheduler coop;
    std::map<std::tuple<int, int, int64_t>, Ring> rings;     // (block, dir 0=C2V 1=V2C, id)
    std::map<std::tuple<int, int64_t, int>, int64_t> flags;  // (block, event id, receiver lane index) -> count
    int aiv_lanes = 1;                                       // real AIV lanes per cluster
    int blocks = 1;                                          // the launch's block count (get_block_num)
    // Barrier: arrivals per episode and group.
    std::map<std::string, std::pair<int64_t, int64_t>> barrier;  // group -> (generation, arrived)
    std::map<std::string, int> barrier_size;
    uint64_t statements = 0;
    uint64_t max_statements = 0;
    // Float atomic adds per tensor and element: nonzero terms summed (initial value included) and the sum
    // of their magnitudes, for the order tolerance (see finish()).
    struct AtomicTerms {
        std::vector<uint32_t> n;
        std::vector<double> abs;
    };
    std::map<uint32_t, AtomicTerms> atomic_terms;
    double max_wall_seconds = 0;
    // The blocks of an original (unexpanded) launch run in lockstep: each GM access waits until no other
    // block is earlier in program order (see interpret()). Per task: its position (nullptr: not a block), done.
    bool lockstep = false;
    std::vector<const std::vector<int64_t>*> pos;
    std::vector<char> done;
    std::chrono::steady_clock::time_point wall_start = std::chrono::steady_clock::now();
};

enum class Role { Mixed, Aic, Aiv };

int64_t half_extent(int64_t n, int split, int lane) {
    // split 1/2: even halves; 3/4: lane 0 one larger.
    if (split == 3 || split == 4) return lane == 0 ? (n + 1) / 2 : n / 2;
    return n / 2;
}

bool split_rows(int split) {
    return split == 1 || split == 3;
}

class Lane {
  public:
    Lane(Machine& m, std::shared_ptr<Function> fn, Role role, int block, int lane, int task)
        : m_m(m), m_fn(std::move(fn)), m_role(role), m_block(block), m_lane(lane), m_task(task) {
        m_env.resize(m_fn->vars.size());
    }

    void bind(const std::vector<rt::ArgBinding>& args) {
        for (size_t i = 0; i < m_fn->params.size() && i < args.size(); ++i) {
            const auto& a = args[i];
            const Var& v = *m_fn->params[i].var;
            if (a.kind == rt::ArgBinding::Kind::Tensor) {
                const auto& t = m_m.gm.tensors[a.tensor];
                m_env[v.id].v =
                    a.view_shape.empty()
                        ? TView{a.tensor, std::vector<int64_t>(t.shape.size(), 0), t.shape, {}}
                        : TView{a.tensor, a.view_off, a.view_shape, a.view_reshape};  // an aliasing argument
            } else {
                m_env[v.id].v = a.scalar;
            }
        }
    }

    const std::vector<int64_t>* position() const { return &m_pos; }  // empty: not started (earliest)

    void run() {
        exec_block(m_fn->body);
        if (m_m.lockstep) {
            m_m.done.at(static_cast<size_t>(m_task)) = 1;
            m_m.coop.progress();
        }
    }

  private:
    Machine& m_m;
    std::shared_ptr<Function> m_fn;
    Role m_role;
    int m_block;
    int m_lane;  // AIV lane (0/1), 0 otherwise
    int m_task;  // coop task id
    // Program position: the statement index in each enclosing block and the iteration ordinal of each
    // enclosing loop, outermost first (compared lexicographically by the lockstep of an original launch).
    std::vector<int64_t> m_pos;
    std::vector<Value> m_env;            // per variable id
    std::vector<const RTile*> m_popped;  // popped tiles not yet freed
    // split_aiv region (mixed mode): lane currently interpreted and its mode, -1 outside
    int m_region_lane = -1;
    SplitMode m_region_mode = SplitMode::NONE;
    std::map<const Expr*, TileData> m_gather_parts;  // aic_gather in a region: lane 0's half until lane 1's joins it
    bool m_returned = false;

    Scalar scalar(const ExprPtr& e) {
        return rt::eval_scalar(*e, [&](const Var& v) -> Scalar {
            if (auto* s = std::get_if<Scalar>(&m_env[v.id].v)) return *s;
            fail(codes::kInternal, e->loc, fmt::format("'{}' has no scalar value", v.name));
        });
    }

    TileP tile(const ExprPtr& e) {
        if (e->kind != ExprKind::Var) fail(codes::kInternal, e->loc, "tile operand is not a variable");
        auto* t = std::get_if<TileP>(&m_env[e->var->id].v);
        if (!t || !*t)
            fail(codes::kUnwritten, e->loc, fmt::format("tile '{}' is used before it has a value", e->var->name));
        return *t;
    }

    TView view(const ExprPtr& e) {
        if (e->kind != ExprKind::Var) fail(codes::kInternal, e->loc, "tensor operand is not a variable");
        auto* t = std::get_if<TView>(&m_env[e->var->id].v);
        if (!t) fail(codes::kInternal, e->loc, fmt::format("'{}' has no tensor value", e->var->name));
        return *t;
    }

    Value eval(const ExprPtr& e) {
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

    void count(const SourceLoc& loc) {
        if (++m_m.statements > m_m.max_statements)
            fail(codes::kTimeout, loc, fmt::format("the reference run exceeded {} statements", m_m.max_statements));
        if ((m_m.statements & 4095) == 0 && m_m.max_wall_seconds > 0 &&
            std::chrono::duration<double>(std::chrono::steady_clock::now() - m_m.wall_start).count() >
                m_m.max_wall_seconds)
            fail(codes::kTimeout, loc,
                 fmt::format("the reference run exceeded the wall-time bound of {} s", m_m.max_wall_seconds));
    }

    void exec_block(const Block& b) {
        m_pos.push_back(0);
        for (size_t i = 0; i < b.size(); ++i) {
            if (m_returned) break;
            m_pos.back() = static_cast<int64_t>(i);
            exec(*b[i]);
        }
        m_pos.pop_back();
    }

    void assign(const std::vector<VarPtr>& targets, const Value& v) {
        if (targets.size() == 1) {
            m_env[targets[0]->id] = v;
            return;
        }
        auto* tp = std::get_if<std::shared_ptr<Tuple>>(&v.v);
        if (!tp) return;
        for (size_t i = 0; i < targets.size() && i < (*tp)->size(); ++i) m_env[targets[i]->id] = (**tp)[i];
    }

    void exec(const Stmt& s) {
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

    std::vector<Value> m_yield;  // values of the last pl.yield_

    // A result's type may carry its valid region (a printed program annotates `pl.TileView(valid_shape=..)`):
    // it bounds the tile as the simulator's tile does; an explicit valid_shape= argument wins, as there.
    static void annotated_valid(const Expr& value, Value& v) {
        if (value.kind != ExprKind::Call || value.type.kind != TypeKind::Tile || value.type.valid.empty()) return;
        if (arg(value, "valid_shape")) return;
        auto* t = std::get_if<TileP>(&v.v);
        if (!t || !*t) return;  // the call made this tile: adjusting it in place touches no other value
        const auto& vs = value.type.valid;
        (*t)->vr = vs.size() >= 2 ? vs[vs.size() - 2] : 1;
        (*t)->vc = vs.back();
    }

    void exec_for(const Stmt& s) {
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
    bool whole_tensor(const TView& v) const {
        bool whole = v.reshape.empty() && v.shape == m_m.gm.tensors[v.id].shape;
        for (int64_t o : v.off) whole &= o == 0;
        return whole;
    }

    // partition: a store's `shapes` window, which may run past a tensor dimension when its rows are one box of
    // the whole tensor (rt::partition_window).
    rt::Window window(const TView& v, const ExprPtr& offsets, const std::vector<int64_t>& extents, const SourceLoc& loc,
                      bool partition = false) {
        rt::Window w;
        w.tensor = v.id;
        size_t rank = v.shape.size();
        std::vector<int64_t> ext = extents;
        if (ext.size() < rank) ext.insert(ext.begin(), rank - ext.size(), 1);
        while (ext.size() > rank && ext.front() == 1)
            ext.erase(ext.begin());  // a 1-D tile's row (as the lane executor)
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
                     fmt::format("window offset {} + extent {} is outside dimension {} (size {}) of tensor {}", o,
                                 ext[d], d, v.shape[d], m_m.gm.tensors[v.id].name));
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

    std::vector<int64_t> ints(const ExprPtr& list) {
        std::vector<int64_t> out;
        for (auto& a : list->args) out.push_back(scalar(a).as_int());
        return out;
    }

    TileP make_tile(TileData d, Mem mem, int64_t vr = -1, int64_t vc = -1) {
        auto t = std::make_shared<RTile>();
        t->vr = vr < 0 ? d.m.rows() : vr;
        t->vc = vc < 0 ? d.m.cols() : vc;
        t->d = std::move(d);
        t->mem = mem;
        return t;
    }

    // Before a GM access of an original multi-block launch: every block earlier in program order (statement
    // positions and loop iterations; on a tie the lower block) goes first. Ordering by the rank of the access
    // instead misordered blocks where a branch on the block index skips accesses (false E-MISMATCH).
    void gm_turn() {
        if (!m_m.lockstep) return;
        m_m.coop.progress();  // this block moved: a block waiting for it may go on
        m_m.coop.wait_until(m_task, [&] {
            for (size_t t = 0; t < m_m.pos.size(); ++t) {
                if (static_cast<int>(t) == m_task || m_m.done[t] || !m_m.pos[t]) continue;
                const auto& o = *m_m.pos[t];
                if (o < m_pos || (o == m_pos && static_cast<int>(t) < m_task)) return false;
            }
            return true;
        });
    }

    Value load(const Expr& c) {
        gm_turn();
        TView v = view(arg(c, "tensor"));
        std::vector<int64_t> ext = ints(arg(c, "shapes"));
        int64_t R = 1;  // rows: the product of all extents but the last (as a window's)
        for (size_t d = 0; d + 1 < ext.size(); ++d) R *= ext[d];
        const int64_t C = ext.empty() ? 1 : ext.back();
        int64_t vr = R, vc = C;
        if (auto& vs = arg(c, "valid_shape")) {
            auto vv = ints(vs);
            vr = rt::valid_rows(vv);  // the valid window's rows, as PyPTO merges an N-D valid_shape
            vc = vv.empty() ? 1 : vv.back();
            // A run-time valid region larger than the tile (or negative) names memory the tile does not have.
            if (auto err = rt::valid_shape_error(vv, ext)) fail(codes::kOob, c.loc, *err);
            // Only the valid region is read from GM (pl.tile.load).
            if (vv.size() == ext.size())
                for (size_t d = 0; d < ext.size(); ++d) ext[d] = std::min(ext[d], vv[d]);
        }
        rt::Window w = window(v, arg(c, "offsets"), ext, c.loc);
        const auto& t = m_m.gm.tensors[v.id];
        TileData d{t.dtype, Matrix::Zero(R, C)};
        vr = std::min(vr, w.rows());
        vc = std::min(vc, w.cols());
        for (int64_t r = 0; r < std::min(R, vr); ++r) {
            int64_t base = rt::window_row_start(t, w, r);
            for (int64_t col = 0; col < std::min(C, vc); ++col) d.m(r, col) = rt::tensor_element(t, base + col);
        }
        return Value{make_tile(std::move(d), c.type.mem, vr, vc)};
    }

    Value store(const Expr& c) {
        gm_turn();
        TileP src = tile(arg(c, "tile"));
        TView v = view(arg(c, "output_tensor"));
        std::vector<int64_t> ext = {src->vr, src->vc};
        if (auto& sh = arg(c, "shapes")) {
            ext = ints(sh);  // an N-D window over the tile's rows (as the lane executor)
            if (rt::valid_rows(ext) > src->d.m.rows() || (ext.empty() ? 1 : ext.back()) > src->d.m.cols())
                fail(codes::kOob, c.loc,
                     fmt::format("pl.tile.store: window {} is larger than the tile [{}, {}]", shape_str(ext),
                                 src->d.m.rows(), src->d.m.cols()));
        }
        rt::Window w = window(v, arg(c, "offsets"), ext, c.loc, arg(c, "shapes") != nullptr);
        auto& t = m_m.gm.tensors[v.id];
        const size_t eb = dtype_bytes(t.dtype);
        if (t.written.size() != static_cast<size_t>(t.numel())) t.written.assign(static_cast<size_t>(t.numel()), 0);
        const bool atomic = is_atomic_add_store(c);
        auto ti = m_m.atomic_terms.find(v.id);
        if (atomic && dtype_is_float(t.dtype) && ti == m_m.atomic_terms.end()) {
            ti = m_m.atomic_terms.emplace(v.id, Machine::AtomicTerms{}).first;
            ti->second.n.assign(static_cast<size_t>(t.numel()), 0);
            ti->second.abs.assign(static_cast<size_t>(t.numel()), 0);
        }
        Machine::AtomicTerms* terms = ti == m_m.atomic_terms.end() ? nullptr : &ti->second;
        uint8_t addend[8];
        for (int64_t r = 0; r < w.rows(); ++r) {
            int64_t base = rt::window_row_start(t, w, r);
            for (int64_t col = 0; col < w.cols(); ++col) {
                const size_t k = static_cast<size_t>(base + col);
                if (is_sub_byte(t.dtype)) {  // packed (atomic add takes no 4-bit dtype: sema)
                    put_element(t.dtype, src->d.m(r, col), t.bytes.data(), base + col);
                    t.written[k] = 1;
                    continue;
                }
                uint8_t* dst = t.bytes.data() + k * eb;
                if (!atomic) {
                    encode_element(t.dtype, round_to(t.dtype, src->d.m(r, col)), dst);
                    if (terms) terms->n[k] = 0, terms->abs[k] = 0;  // a plain store starts a new sum
                } else {
                    // Read-modify-write in the tensor's dtype; an Out element no store wrote yet counts as 0.
                    const bool zero = t.dir == ParamDir::Out && !t.written[k];
                    encode_element(t.dtype, round_to(t.dtype, src->d.m(r, col)), addend);
                    if (terms) {
                        double old = zero ? 0.0 : decode_element(t.dtype, dst), add = decode_element(t.dtype, addend);
                        if (terms->n[k] == 0 && old != 0) ++terms->n[k], terms->abs[k] += std::fabs(old);
                        if (add != 0) ++terms->n[k], terms->abs[k] += std::fabs(add);
                    }
                    atomic_add_element(t.dtype, dst, addend, zero);
                }
                t.written[k] = 1;
            }
        }
        return Value{v};
    }

    // pl.tile.mgather (Vec form): row r of the result = table row idx[r] (row mode), or element (i, j) =
    // table.flat[idx[i, j]] (elem mode); a zero-mode out-of-range index gives 0, an undefined-mode one is E-OOB.
    Value mgather(const Expr& c) {
        if (c.type.mem == Mem::Mat) return mgather_mat(c);
        gm_turn();
        TView v = view(arg(c, "mem"));
        TileP idx = tile(arg(c, "idx"));
        const auto& t = m_m.gm.tensors[v.id];
        const bool row = mgather_coalesce(c) == 0;
        const int oob = mgather_oob(c);
        const int64_t cap = rt::indexed_capacity(v.shape, row);
        if (!row && !rt::box_contiguous(v.shape, v.reshape.empty() ? t.shape : v.reshape))
            fail(codes::kUnsupported, c.loc,
                 fmt::format("pl.tile.mgather in elem mode on a view of {} that is not contiguous: pto-isa indexes the "
                             "view's memory linearly from its first element, which cvsim does not model (gather from "
                             "the whole tensor "
                             "or a contiguous slice and offset the indices)",
                             t.name));
        TileData d{t.dtype, Matrix::Zero(c.type.rows(), c.type.cols())};
        auto read = [&](int64_t k, double raw) -> std::optional<int64_t> {
            rt::IndexPick p = rt::pick_index(raw, cap, oob);
            if (p.oob)
                fail(codes::kOob, c.loc,
                     fmt::format("pl.tile.mgather: index {} is outside the {} {} of tensor {} (gather_oob undefined)",
                                 static_cast<int64_t>(raw), cap, row ? "rows" : "elements", t.name));
            if (p.zero) return std::nullopt;
            auto w = rt::indexed_window(v.id, v.off, v.shape, v.reshape, t.shape, p.index, row);
            if (!w || rt::check_window(t, *w))
                fail(codes::kUnsupported, c.loc,
                     fmt::format("pl.tile.mgather: transfer {} of a pl.tensor.view is not one box of tensor {}", k,
                                 t.name));
            return rt::window_row_start(t, *w, 0);
        };
        int64_t vr = 0, vc = 0;
        if (row) {
            const bool row_vector = arg(c, "idx")->type.shape[0] == 1;
            vr = std::min<int64_t>(row_vector ? idx->vc : idx->vr, d.m.rows());
            vc = d.m.cols();
            for (int64_t r = 0; r < vr; ++r)
                if (auto base = read(r, row_vector ? idx->d.m(0, r) : idx->d.m(r, 0)))
                    for (int64_t col = 0; col < vc; ++col) d.m(r, col) = rt::tensor_element(t, *base + col);
        } else {
            vr = std::min<int64_t>(idx->vr, d.m.rows());
            vc = std::min<int64_t>(idx->vc, d.m.cols());
            for (int64_t i = 0; i < vr; ++i)
                for (int64_t j = 0; j < vc; ++j)
                    if (auto k = read(i * vc + j, idx->d.m(i, j))) d.m(i, j) = rt::tensor_element(t, *k);
        }
        return Value{make_tile(std::move(d), Mem::Vec, vr, vc)};
    }

    // pl.tile.mgather's Mat form (pto-isa MGatherGm2L1RowImpl / MGatherGm2L1ElemImpl, a2a3 and a5 alike): the cube's
    // scalar reads the GM index tensor; row mode copies valid_cols elements of table row idx.flat[r] into row r of
    // the NZ tile for each valid row r; elem mode writes table.flat[idx[r, c]] of each valid (r, c) into the GM
    // scratch at its NZ offset (the whole Rows x Cols scratch zeroed first) and copies the scratch into L1. Elements
    // nothing wrote are 0 (row mode: the hardware leaves them as they were; zero mode pre-zeroes the tile).
    Value mgather_mat(const Expr& c) {
        gm_turn();
        TView v = view(arg(c, "mem")), iv = view(arg(c, "idx"));
        const auto& t = m_m.gm.tensors[v.id];
        const auto& it = m_m.gm.tensors[iv.id];
        const bool row = mgather_coalesce(c) == 0;
        const int oob = mgather_oob(c);
        const int64_t rows = c.type.rows(), cols = c.type.cols();
        const int64_t vr = c.type.valid.empty() ? rows : c.type.valid[0],
                      vc = c.type.valid.empty() ? cols : c.type.valid[1];
        auto lead = [](std::vector<int64_t> x) {
            if (!x.empty()) x.pop_back();
            return x;
        };
        const std::vector<int64_t>& vbase = v.reshape.empty() ? t.shape : v.reshape;
        if (row ? !rt::box_contiguous(lead(v.shape), lead(vbase)) : !rt::box_contiguous(v.shape, vbase))
            fail(
                codes::kUnsupported, c.loc,
                fmt::format("pl.tile.mgather (Mat) on a view of {} that is not contiguous: pto-isa addresses the table "
                            "linearly from its first element, which cvsim does not model",
                            t.name));
        if (!rt::box_contiguous(iv.shape, iv.reshape.empty() ? it.shape : iv.reshape))
            fail(codes::kUnsupported, c.loc,
                 fmt::format("pl.tile.mgather (Mat): the index tensor view of {} is not contiguous (pto-isa reads it "
                             "linearly)",
                             it.name));
        const int64_t cap = rt::indexed_capacity(v.shape, row);
        auto element = [&](const TView& x, const rt::TensorBuffer& xt, int64_t k) {
            auto w = rt::indexed_window(x.id, x.off, x.shape, x.reshape, xt.shape, k, false);
            if (!w || rt::check_window(xt, *w))
                fail(codes::kUnsupported, c.loc,
                     fmt::format("pl.tile.mgather: element {} of a pl.tensor.view is not one box of tensor {}", k,
                                 xt.name));
            return rt::window_row_start(xt, *w, 0);
        };
        auto pick = [&](double raw) -> std::optional<int64_t> {
            rt::IndexPick p = rt::pick_index(raw, cap, oob);
            if (p.oob)
                fail(codes::kOob, c.loc,
                     fmt::format("pl.tile.mgather: index {} is outside the {} {} of tensor {} (gather_oob undefined)",
                                 static_cast<int64_t>(raw), cap, row ? "rows" : "elements", t.name));
            if (p.zero) return std::nullopt;
            return p.index;
        };
        const int64_t idx_cols = iv.shape.back();
        TileData d{t.dtype, Matrix::Zero(rows, cols)};
        for (int64_t r = 0; r < vr; ++r)
            for (int64_t col = 0; col < (row ? 1 : vc); ++col) {
                const double raw = rt::tensor_element(it, element(iv, it, row ? r : r * idx_cols + col));
                auto k = pick(raw);
                if (!k) continue;
                if (row) {
                    auto w = rt::indexed_window(v.id, v.off, v.shape, v.reshape, t.shape, *k, true);
                    if (!w || rt::check_window(t, *w))
                        fail(codes::kUnsupported, c.loc,
                             fmt::format("pl.tile.mgather: row {} of a pl.tensor.view is not one box of tensor {}", *k,
                                         t.name));
                    const int64_t base = rt::window_row_start(t, *w, 0);
                    for (int64_t j = 0; j < vc; ++j) d.m(r, j) = rt::tensor_element(t, base + j);
                } else {
                    d.m(r, col) = rt::tensor_element(t, element(v, t, *k));
                }
            }
        if (!row) {
            // The scratch: Rows x Cols elements from its first, NZ order, zero where nothing was gathered.
            TView sv = view(arg(c, "scratch"));
            auto& st = m_m.gm.tensors[sv.id];
            if (!rt::box_contiguous(sv.shape, sv.reshape.empty() ? st.shape : sv.reshape))
                fail(codes::kUnsupported, c.loc,
                     fmt::format("pl.tile.mgather (Mat): the scratch view of {} is not contiguous", st.name));
            auto w = rt::view_range_window(sv.id, sv.off, sv.shape, sv.reshape, st.shape, 0, rows * cols);
            if (!w || rt::check_window(st, *w))
                fail(codes::kUnsupported, c.loc,
                     fmt::format("pl.tile.mgather (Mat): the scratch's first {} elements are not one box of tensor {}",
                                 rows * cols, st.name));
            if (st.written.size() != static_cast<size_t>(st.numel()))
                st.written.assign(static_cast<size_t>(st.numel()), 0);
            const int64_t c0 = 32 / static_cast<int64_t>(dtype_bytes(t.dtype));
            std::vector<double> lin(static_cast<size_t>(rows * cols), 0.0);
            for (int64_t r = 0; r < rows; ++r)
                for (int64_t col = 0; col < cols; ++col)
                    lin[static_cast<size_t>(rt::nz_offset(r, col, rows, c0))] = d.m(r, col);
            for (int64_t r = 0, i = 0; r < w->rows(); ++r) {
                const int64_t base = rt::window_row_start(st, *w, r);
                for (int64_t j = 0; j < w->cols(); ++j, ++i) {
                    put_element(st.dtype, round_to(st.dtype, lin[static_cast<size_t>(i)]), st.bytes.data(), base + j);
                    st.written[static_cast<size_t>(base + j)] = 1;
                }
            }
        }
        return Value{make_tile(std::move(d), Mem::Mat, vr, vc)};
    }

    // pl.tile.mscatter: output.flat[idx[i, j]] = src[i, j] over src's valid region in row-major order (the last
    // write wins); an index outside the tensor is E-OOB.
    Value mscatter(const Expr& c) {
        gm_turn();
        TileP src = tile(arg(c, "src"));
        TileP idx = tile(arg(c, "idx"));
        TView v = view(arg(c, "output_tensor"));
        auto& t = m_m.gm.tensors[v.id];
        if (t.written.size() != static_cast<size_t>(t.numel())) t.written.assign(static_cast<size_t>(t.numel()), 0);
        const int64_t cap = rt::indexed_capacity(v.shape, false);
        if (!rt::box_contiguous(v.shape, v.reshape.empty() ? t.shape : v.reshape))
            fail(codes::kUnsupported, c.loc,
                 fmt::format("pl.tile.mscatter into a view of {} that is not contiguous: pto-isa indexes the view's "
                             "memory linearly from its first element, which cvsim does not model (scatter into the "
                             "whole tensor or a "
                             "contiguous slice and offset the indices)",
                             t.name));
        const size_t eb = dtype_bytes(t.dtype);
        for (int64_t i = 0; i < src->vr; ++i)
            for (int64_t j = 0; j < src->vc; ++j) {
                const double raw = i < idx->d.m.rows() && j < idx->d.m.cols() ? idx->d.m(i, j) : 0.0;
                rt::IndexPick p = rt::pick_index(raw, cap, 0);
                auto w =
                    p.oob ? std::nullopt : rt::indexed_window(v.id, v.off, v.shape, v.reshape, t.shape, p.index, false);
                if (p.oob || !w || rt::check_window(t, *w))
                    fail(codes::kOob, c.loc,
                         fmt::format("pl.tile.mscatter: index {} at ({}, {}) is outside the {} elements of tensor {}",
                                     static_cast<int64_t>(raw), i, j, cap, t.name));
                const auto k = static_cast<size_t>(rt::window_row_start(t, *w, 0));
                encode_element(t.dtype, round_to(t.dtype, src->d.m(i, j)), t.bytes.data() + k * eb);
                t.written[k] = 1;
            }
        return Value{v};
    }

    // Split code of an aiv_shard / aic_gather: an explicit split= (in a region only the odd variant of its
    // mode passes sema), else the enclosing region's mode.
    int shard_split(const Expr& c) {
        if (arg(c, "split")) return static_cast<int>(scalar(arg(c, "split")).as_int());
        return m_region_lane >= 0 ? static_cast<int>(m_region_mode) : 0;
    }

    static TileData part(const TileData& full, int split, int lane) {
        if (split == 0) return full;
        bool rows = split_rows(split);
        int64_t n = rows ? full.m.rows() : full.m.cols();
        int64_t e0 = half_extent(n, split, 0);
        int64_t e = half_extent(n, split, lane);
        int64_t off = lane == 0 ? 0 : e0;
        TileData d{full.dtype, rows ? Matrix(full.m.middleRows(off, e)) : Matrix(full.m.middleCols(off, e))};
        return d;
    }

    Ring& ring(int dir, const Expr& c) {
        int64_t id = arg(c, "id") ? scalar(arg(c, "id")).as_int() : 0;
        auto key = std::make_tuple(m_block, dir, id);
        auto it = m_m.rings.find(key);
        if (it == m_m.rings.end()) {
            Ring r;
            r.c2v = dir == 0;
            r.prod_idx.assign(dir == 0 ? 1 : m_m.aiv_lanes, 0);
            r.cons_idx.assign(dir == 0 ? m_m.aiv_lanes : 1, 0);
            it = m_m.rings.emplace(key, std::move(r)).first;
        }
        return it->second;
    }

    void push(const Expr& c, int dir) {
        TileP src = tile(arg(c, "tile"));
        int split = static_cast<int>(scalar(arg(c, "split")).as_int());
        Ring& r = ring(dir, c);
        int lane = dir == 0 ? 0 : m_lane;
        size_t idx = r.prod_idx[lane] - r.base;
        while (r.entries.size() <= idx) {
            RingEntry e;
            e.parts.assign(r.prod_idx.size(), nullptr);
            e.pushed.assign(r.prod_idx.size(), false);
            e.popped.assign(r.cons_idx.size(), false);
            r.entries.push_back(std::move(e));
        }
        RingEntry& e = r.entries[idx];
        TileData d = src->d;
        // Only the valid region travels.
        d.m = Matrix(d.m.topLeftCorner(src->vr, src->vc));
        e.parts[lane] = make_tile(std::move(d), Mem::Vec);
        e.pushed[lane] = true;
        e.split = split;
        ++r.prod_idx[lane];
        m_m.coop.progress();
    }

    Value pop(const Expr& c, int dir, const Type& type) {
        Ring& r = ring(dir, c);
        int lane = dir == 0 ? m_lane : 0;
        auto ready = [&] {
            size_t idx = r.cons_idx[lane] - r.base;
            if (idx >= r.entries.size()) return false;
            for (bool p : r.entries[idx].pushed)
                if (!p) return false;
            return true;
        };
        m_m.coop.wait_until(m_task, ready);
        RingEntry& e = r.entries[r.cons_idx[lane] - r.base];
        TileData d;
        if (dir == 0) {
            d = part(e.parts[0]->d, e.split, m_lane);
        } else if (e.split == 0) {
            d = e.parts.back()->d;  // both lanes wrote the same slot: the last one landed
        } else {
            bool rows = split_rows(e.split);
            const Matrix& a = e.parts[0]->d.m;
            const Matrix& b = e.parts.size() > 1 ? e.parts[1]->d.m : Matrix();
            Matrix m(rows ? a.rows() + b.rows() : a.rows(), rows ? a.cols() : a.cols() + b.cols());
            if (rows) {
                m.topRows(a.rows()) = a;
                if (b.size()) m.bottomRows(b.rows()) = b;
            } else {
                m.leftCols(a.cols()) = a;
                if (b.size()) m.rightCols(b.cols()) = b;
            }
            d = TileData{e.parts[0]->d.dtype, m};
        }
        e.popped[lane] = true;
        ++r.cons_idx[lane];
        while (!r.entries.empty()) {
            bool all = true;
            for (bool p : r.entries.front().popped) all &= p;
            if (!all) break;
            r.entries.pop_front();
            ++r.base;
        }
        m_m.coop.progress();
        // The popped tile has the annotated shape; data outside what was pushed is zero.
        int64_t R = type.rows(), C = type.cols();
        TileData out{type.dtype, Matrix::Zero(R, C)};
        int64_t rr = std::min<int64_t>(R, d.m.rows()), cc = std::min<int64_t>(C, d.m.cols());
        for (int64_t i = 0; i < rr; ++i)
            for (int64_t j = 0; j < cc; ++j) out.m(i, j) = round_to(type.dtype, d.m(i, j));
        TileP t = make_tile(std::move(out), type.mem);
        annotated_region(c, *t);
        t->popped = true;
        m_popped.push_back(t.get());
        return Value{t};
    }

    // A tpop's annotated run-time valid region (Expr::args2), clamped to the tile, as the simulator's.
    void annotated_region(const Expr& c, RTile& t) {
        if (c.args2.empty()) return;
        std::vector<int64_t> vv;
        for (const auto& a : c.args2) vv.push_back(scalar(a).as_int());
        std::tie(t.vr, t.vc) = rt::clamped_region(vv, t.d.m.rows(), t.d.m.cols());
    }

    void tfree(const Expr& c) {
        TileP t = tile(arg(c, "tile"));
        // A tfree of a view frees the popped tile's slot (docs/DECISIONS.md, "a5 slot memory").
        if (t && !t->popped && t->popped_src) t = t->popped_src;
        for (auto it = m_popped.begin(); it != m_popped.end(); ++it)
            if (*it == t.get()) {
                m_popped.erase(it);
                return;
            }
        fail(
            codes::kPipeFree, c.loc,
            fmt::format("tfree of '{}', a tile that was not popped (or was freed already)", arg(c, "tile")->var->name));
    }

    void barrier(const std::string& group, const SourceLoc& loc) {
        (void)loc;
        auto& [gen, arrived] = m_m.barrier[group];
        int64_t my_gen = gen;
        ++arrived;
        m_m.coop.progress();
        if (arrived == m_m.barrier_size[group]) {
            arrived = 0;
            ++gen;
            m_m.coop.progress();
            return;
        }
        m_m.coop.wait_until(m_task, [&] { return m_m.barrier[group].first != my_gen; });
    }

    Value call(const Expr& c) {
        using O = OpCode;
        const O code = c.op->code;
        switch (code) {
            case O::Load:
                return load(c);
            case O::TensorWrite: {
                gm_turn();
                TView v = view(arg(c, "tensor"));
                rt::Window w = window(v, arg(c, "indices"), std::vector<int64_t>(v.shape.size(), 1), c.loc);
                auto& t = m_m.gm.tensors[v.id];
                if (t.written.size() != static_cast<size_t>(t.numel()))
                    t.written.assign(static_cast<size_t>(t.numel()), 0);
                const auto k = static_cast<size_t>(rt::window_row_start(t, w, 0));
                encode_element(t.dtype, round_to(t.dtype, scalar(arg(c, "value")).as_double()),
                               t.bytes.data() + k * dtype_bytes(t.dtype));
                t.written[k] = 1;
                return Value{};
            }
            case O::TensorView: {
                TView v = view(arg(c, "tensor"));
                const auto& t = m_m.gm.tensors[v.id];
                bool whole = v.shape == (v.reshape.empty() ? t.shape : v.reshape);
                for (int64_t o : v.off) whole &= o == 0;
                if (!whole)
                    fail(codes::kUnsupported, c.loc,
                         "pl.tensor.view of a part of a tensor (a slice) is not modelled by cvsim");
                v.shape = c.type.shape;
                v.off.assign(v.shape.size(), 0);
                v.reshape = v.shape == t.shape ? std::vector<int64_t>{} : v.shape;
                return Value{v};
            }
            case O::TensorRead: {
                gm_turn();
                TView v = view(arg(c, "tensor"));
                rt::Window w = window(v, arg(c, "indices"), std::vector<int64_t>(v.shape.size(), 1), c.loc);
                const auto& t = m_m.gm.tensors[v.id];
                double x = rt::tensor_element(t, rt::window_row_start(t, w, 0));
                const DType dt = c.type.dtype;
                return Value{dtype_is_int(dt) ? Scalar::of_int(static_cast<int64_t>(x), dt) : Scalar::of_float(x, dt)};
            }
            case O::Store:
                return store(c);
            case O::Mgather:
                return mgather(c);
            case O::Mscatter:
                return mscatter(c);
            case O::Slice:
                if (arg(c, "tile")->type.kind == TypeKind::Tensor) {
                    TView v = view(arg(c, "tile"));
                    auto off = ints(arg(c, "offset"));
                    for (size_t d = 0; d < off.size() && d < v.off.size(); ++d)
                        v.off[d] = rt::sat_add(v.off[d], off[d]);
                    v.shape = ints(arg(c, "shape"));
                    return Value{v};
                }
                break;
            case O::TensorCreate:
                fail(codes::kUnsupported, c.loc, "pl.tensor.create inside a kernel is not supported");
            case O::GetBlockIdx:
                return Value{Scalar::of_int(m_block)};
            case O::GetBlockNum:
                return Value{Scalar::of_int(m_m.blocks)};
            case O::GetSubblockIdx:
                return Value{Scalar::of_int(m_region_lane >= 0 ? m_region_lane : m_lane)};
            case O::Read: {
                TileP t = tile(arg(c, "tile"));
                auto idx = ints(arg(c, "indices"));
                int64_t r = idx.size() >= 2 ? idx[idx.size() - 2] : 0, col = idx.empty() ? 0 : idx.back();
                if (r < 0 || col < 0 || r >= t->d.m.rows() || col >= t->d.m.cols())
                    fail(codes::kOob, c.loc, "pl.tile.read: index outside the tile");
                double v = t->d.m(r, col);
                return Value{dtype_is_int(t->d.dtype) ? Scalar::of_int(static_cast<int64_t>(v), t->d.dtype)
                                                      : Scalar::of_float(v, t->d.dtype)};
            }
            case O::TpushToAiv:
                push(c, 0);
                return {};
            case O::TpushToAic:
                push(c, 1);
                return {};
            case O::TpopFromAic:
                return pop(c, 0, c.type);
            case O::TpopFromAiv:
                return pop(c, 1, c.type);
            case O::TfreeToAic:
            case O::TfreeToAiv:
                tfree(c);
                return {};
            case O::ReserveBuffer:
            case O::ImportPeerBuffer:
                return Value{Scalar::of_int(0, DType::INT32)};
            case O::AicInitializePipe:
            case O::AivInitializePipe:
                return {};
            case O::AivShard: {
                TileP s = tile(arg(c, "tile"));
                int split = shard_split(c);
                return Value{make_tile(part(s->d, split, std::max(0, m_region_lane)), Mem::Vec)};
            }
            case O::AicGather: {
                TileP s = tile(arg(c, "tile"));
                int split = m_region_lane >= 0 ? shard_split(c) : 0;
                if (split == 0) return Value{make_tile(s->d, Mem::Mat, s->vr, s->vc)};
                // In a split_aiv region the lanes run one after the other: lane 0's half waits for lane 1's.
                TileData mine{s->d.dtype, Matrix(s->d.m.topLeftCorner(s->vr, s->vc))};
                if (m_region_lane == 0) {
                    m_gather_parts[&c] = mine;
                    return Value{make_tile(mine, Mem::Mat)};
                }
                TileData first = std::move(m_gather_parts[&c]);
                m_gather_parts.erase(&c);
                bool rows = split_rows(split);
                const Matrix& a = first.m;
                const Matrix& b = mine.m;
                Matrix m = Matrix::Zero(rows ? a.rows() + b.rows() : std::max(a.rows(), b.rows()),
                                        rows ? std::max(a.cols(), b.cols()) : a.cols() + b.cols());
                m.topLeftCorner(a.rows(), a.cols()) = a;
                if (rows)
                    m.bottomLeftCorner(b.rows(), b.cols()) = b;
                else
                    m.topRightCorner(b.rows(), b.cols()) = b;
                return Value{make_tile(TileData{first.dtype, m}, Mem::Mat)};
            }
            case O::Syncall: {
                auto ct = const_str(arg(c, "core_type")).value_or("mix");
                std::string group = ct;
                if (m_role == Role::Mixed) group = "mixed";
                barrier(group, c.loc);
                return {};
            }
            case O::SyncSet:
            case O::SyncWait: {
                int64_t id = scalar(arg(c, "event_id")).as_int();
                if (m_role == Role::Mixed) return {};
                if (code == O::SyncSet) {
                    if (m_role == Role::Aic)
                        for (int l = 0; l < m_m.aiv_lanes; ++l) ++m_m.flags[{m_block, id, 1 + l}];
                    else
                        ++m_m.flags[{m_block, id, 0}];
                    m_m.coop.progress();
                } else {
                    int need = m_role == Role::Aic ? m_m.aiv_lanes : 1;
                    int idx = m_role == Role::Aic ? 0 : 1 + m_lane;
                    auto key = std::make_tuple(m_block, id, idx);
                    m_m.coop.wait_until(m_task, [&] { return m_m.flags[key] >= need; });
                    m_m.flags[key] -= need;
                    m_m.coop.progress();
                }
                return {};
            }
            case O::SetFfts:
            case O::Fence:
            case O::CacheInvalid:
                return {};
            case O::PrefetchMakeContext:
            case O::PrefetchAsync:
            case O::PrefetchSession:
                return {};
            case O::PrefetchWait:
                return Value{rt::Scalar::of_int(1, DType::BOOL)};
            default:
                break;
        }
        if (c.op->effect == Effect::Compute || c.op->effect == Effect::View) return compute(c);
        return {};
    }

    // Compute and view ops: the registry's numerics (shared with the simulator's datapath) on the operands.
    Value compute(const Expr& c) {
        const OpDef& d = *c.op;
        OpOperands o;
        o.op = &d;
        o.call = &c;
        std::vector<TileP> tiles;
        for (const auto& a : c.args)
            if (a && a->type.kind == TypeKind::Tile) {
                tiles.push_back(tile(a));
                o.tiles.push_back(tiles.back()->d);
                o.valid.emplace_back(tiles.back()->vr, tiles.back()->vc);
            }
        for (const ExprPtr* e : value_operands(c)) o.scalars.push_back(scalar(*e).as_double());
        if (d.int_list_param) o.ints = ints(arg(c, d.int_list_param));
        o.out_dtype = c.type.dtype;
        o.out_rows = c.type.rows();
        o.out_cols = c.type.cols();
        if (c.op->code == OpCode::Slice) {
            const TileP& s = tiles.at(0);
            int64_t r0 = o.ints.size() >= 2 ? o.ints[o.ints.size() - 2] : 0, c0 = o.ints.empty() ? 0 : o.ints.back();
            if (!rt::range_inside(r0, o.out_rows, s->d.m.rows()) || !rt::range_inside(c0, o.out_cols, s->d.m.cols()))
                fail(codes::kOob, c.loc, "tile slice is outside the tile");
        }
        if (auto err = gather_compare_overflow_error(o)) fail(codes::kOob, c.loc, *err);
        if (auto err = assemble_outside_error(o)) fail(codes::kOob, c.loc, *err);
        if (auto err = write_outside_error(o)) fail(codes::kOob, c.loc, *err);
        TileData res;
        try {
            res = eval_numerics(o);
        } catch (const std::invalid_argument& e) {
            fail(codes::kInternal, c.loc, e.what());
        }
        int64_t vr = -1, vc = -1;
        const RTile* x = tiles.empty() ? nullptr : tiles[0].get();
        switch (d.valid) {
            case ValidRule::Inherit:  // a shape-preserving op keeps its operand's valid region (as the lane executor
                                      // does)
                if (x && x->d.m.rows() == o.out_rows && x->d.m.cols() == o.out_cols) vr = x->vr, vc = x->vc;
                break;
            case ValidRule::Full:
                if (c.type.valid.size() >= 2) vr = c.type.valid[c.type.valid.size() - 2], vc = c.type.valid.back();
                break;
            case ValidRule::Swap:
                if (x) vr = x->vc, vc = x->vr;
                break;
            case ValidRule::RowReduce:
                if (x) vr = x->vr, vc = 1;
                break;
            case ValidRule::ColReduce:
                break;  // the static [1, N] (as the lane executor)
            case ValidRule::Scalars:
                vr = static_cast<int64_t>(o.scalars.at(0)), vc = static_cast<int64_t>(o.scalars.at(1));
                if (vr < 0 || vc < 0 || vr > res.m.rows() || vc > res.m.cols())
                    fail(codes::kOob, c.loc,
                         fmt::format("pl.tile.set_validshape: valid shape [{}, {}] is outside the tile [{}, {}]", vr,
                                     vc, res.m.rows(), res.m.cols()));
                break;
        }
        // matmul_acc / gemv_acc write into the accumulator's storage and keep its valid region (pto-isa's
        // TMATMUL_ACC computes the operands' [m, n] into it and leaves the tile's valid region as it was), as the
        // lane executor's result is the accumulator's tile: a printed result type without a TileView (full) does
        // not widen it (pypto-lib's hc_head: an accumulator of valid [16, 4] stored as [16, 16] was E-UNWRITTEN).
        if ((c.op->code == OpCode::MatmulAcc || c.op->code == OpCode::GemvAcc) && x && x->d.m.rows() == o.out_rows &&
            x->d.m.cols() == o.out_cols)
            vr = x->vr, vc = x->vc;
        TileP out = make_tile(std::move(res), c.type.mem, vr, vc);
        if (d.effect == Effect::View && x) out->popped_src = x->popped ? tiles[0] : x->popped_src;
        return Value{out};
    }
};

Result finish(Machine& m, bool ok) {
    Result r;
    r.statements = m.statements;
    if (!ok) r.error = rt::RuntimeError{codes::kDeadlock, "the reference run deadlocked: every lane is blocked", {}};
    // Float atomic adds from several cores land in an order the schedule decides. Two nonzero terms give the
    // same rounded sum in either order; k > 2 terms in two orders differ by at most 2 * gamma(k-1) * sum|x|
    // (gamma(n) = n*u / (1 - n*u), u the dtype's unit roundoff): that is the comparison's tolerance there.
    for (auto& [id, terms] : m.atomic_terms) {
        auto& t = m.gm.tensors[id];
        const double u = unit_roundoff(t.dtype);
        t.atomic_tol.assign(terms.n.size(), 0);
        for (size_t k = 0; k < terms.n.size(); ++k) {
            if (terms.n[k] <= 2) continue;
            const double nu = static_cast<double>(terms.n[k] - 1) * u;
            t.atomic_tol[k] = nu < 1 ? 2 * nu / (1 - nu) * terms.abs[k] : std::numeric_limits<double>::infinity();
        }
    }
    r.gm = std::move(m.gm);
    return r;
}

Result run_tasks(Machine& m, std::vector<std::unique_ptr<Lane>>& lanes) {
    std::vector<std::function<void(int)>> tasks;
    for (auto& l : lanes) tasks.push_back([&l](int) { l->run(); });
    try {
        bool ok = m.coop.run(std::move(tasks));
        return finish(m, ok);
    } catch (const rt::RuntimeError& e) {
        Result r = finish(m, true);
        r.error = e;
        return r;
    }
}

}  // namespace

Result interpret_lanes(const rt::LaunchPlan& plan, const rt::TensorStore& initial, const Options& opt) {
    Machine m;
    m.gm = initial;
    m.max_statements = opt.max_statements;
    m.max_wall_seconds = opt.max_wall_seconds;
    m.aiv_lanes = plan.aiv_split ? 2 : 1;
    m.blocks = plan.blocks;
    std::vector<std::unique_ptr<Lane>> lanes;
    int task = 0;
    int aic_n = 0, aiv_n = 0;
    for (int b = 0; b < plan.blocks; ++b) {
        if (plan.aic) {
            lanes.push_back(std::make_unique<Lane>(m, plan.aic->fn, Role::Aic, b, 0, task++));
            lanes.back()->bind(plan.aic->args);
            ++aic_n;
        }
        if (plan.aiv)
            for (int l = 0; l < m.aiv_lanes; ++l) {
                lanes.push_back(std::make_unique<Lane>(m, plan.aiv->fn, Role::Aiv, b, l, task++));
                lanes.back()->bind(plan.aiv->args);
                ++aiv_n;
            }
    }
    m.barrier_size["mix"] = aic_n + aiv_n;
    m.barrier_size["aic_only"] = aic_n;
    m.barrier_size["aiv_only"] = aiv_n;
    return run_tasks(m, lanes);
}

Result interpret(const rt::LaunchPlan& plan, const rt::TensorStore& initial, const Options& opt) {
    // A mixed function already in per-lane form (attr split_aiv: PyPTO's LowerAutoVectorSplit output, its
    // vector statements read get_subblock_idx and each lane does its own part) has no sequential meaning
    // with one lane: it runs as its expanded lanes, both AIV lanes included.
    const Attr* per_lane = plan.mixed ? plan.mixed->attr("split_aiv") : nullptr;
    if (!plan.mixed || (per_lane && per_lane->value && per_lane->value->ival != 0))
        return interpret_lanes(plan, initial, opt);
    Machine m;
    m.gm = initial;
    m.max_statements = opt.max_statements;
    m.max_wall_seconds = opt.max_wall_seconds;
    m.blocks = plan.blocks;
    std::vector<std::unique_ptr<Lane>> lanes;
    for (int b = 0; b < plan.blocks; ++b) {
        lanes.push_back(std::make_unique<Lane>(m, plan.mixed, Role::Mixed, b, 0, b));
        lanes.back()->bind(plan.mixed_prog ? plan.mixed_prog->args : plan.entry_args);
    }
    m.barrier_size["mixed"] = plan.blocks;
    // SPMD reading of the original program: its blocks advance in lockstep, the k-th GM access of every
    // block before any block's (k+1)-th, so a block reading another block's band sees it written when the
    // writes come first in program order (which a barrier the policy inserts makes true on the machine);
    // a block-by-block run would read the band unwritten. Race-free programs give the same outputs in
    // either order (docs/DECISIONS.md).
    m.lockstep = plan.blocks > 1;
    for (auto& l : lanes) m.pos.push_back(l->position());
    m.done.assign(lanes.size(), 0);
    return run_tasks(m, lanes);
}

}  // namespace cvsim::ref
