// The reference interpreter's machine (GM, rings, flags, barriers) and its Lane, the walk of one lane or block
// over logical tiles; private to reference*.cpp (the interface is reference.h).
#pragma once

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
#include "frontend/reference.h"

namespace cvsim::ref::detail {

using namespace ir;
using rt::Scalar;

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

[[noreturn]] inline void fail(const std::string& code, const SourceLoc& loc, const std::string& msg) {
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
    uint64_t work = 0;  // statements plus the elements of tiles computed, loaded and stored
    uint64_t max_work = 0;
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

inline int64_t half_extent(int64_t n, int split, int lane) {
    // split 1/2: even halves; 3/4: lane 0 one larger.
    if (split == 3 || split == 4) return lane == 0 ? (n + 1) / 2 : n / 2;
    return n / 2;
}

inline bool split_rows(int split) {
    return split == 1 || split == 3;
}

class Lane {
  public:
    Lane(Machine& m, std::shared_ptr<Function> fn, Role role, int block, int lane, int task)
        : m_m(m), m_fn(std::move(fn)), m_role(role), m_block(block), m_lane(lane), m_task(task) {
        m_env.resize(m_fn->vars.size());
    }

    void bind(const std::vector<rt::ArgBinding>& args);

    const std::vector<int64_t>* position() const { return &m_pos; }  // empty: not started (earliest)

    void run();

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

    std::vector<Value> m_yield;  // values of the last pl.yield_

    // ---- Values, statements, loops, windows and tiles (reference_lane.cpp) ----
    Scalar scalar(const ExprPtr& e);
    TileP tile(const ExprPtr& e);
    TView view(const ExprPtr& e);
    Value eval(const ExprPtr& e);
    void count(const SourceLoc& loc);
    void exec_block(const Block& b);
    void assign(const std::vector<VarPtr>& targets, const Value& v);
    void exec(const Stmt& s);
    static void annotated_valid(const Expr& value, Value& v);
    void exec_for(const Stmt& s);
    bool whole_tensor(const TView& v) const;
    rt::Window window(const TView& v, const ExprPtr& offsets, const std::vector<int64_t>& extents, const SourceLoc& loc,
                      bool partition = false);
    std::vector<int64_t> ints(const ExprPtr& list);
    TileP make_tile(TileData d, Mem mem, int64_t vr = -1, int64_t vc = -1);

    // ---- GM loads, stores, gathers and scatters (reference_gm.cpp) ----
    void gm_turn();
    Value load(const Expr& c);
    Value store(const Expr& c);
    Value mgather(const Expr& c);
    Value mgather_mat(const Expr& c);
    Value mscatter(const Expr& c);

    // ---- Rings, lane splits and barriers (reference_sync.cpp) ----
    int shard_split(const Expr& c);
    static TileData part(const TileData& full, int split, int lane);
    Ring& ring(int dir, const Expr& c);
    void push(const Expr& c, int dir);
    Value pop(const Expr& c, int dir, const Type& type);
    void annotated_region(const Expr& c, RTile& t);
    void tfree(const Expr& c);
    void barrier(const std::string& group, const SourceLoc& loc);

    // ---- Ops: the call dispatch and the compute ops (reference_ops.cpp) ----
    Value call(const Expr& c);
    Value compute(const Expr& c);
};

}  // namespace cvsim::ref::detail
