// A second random kernel generator, for the verdict oracle's properties: small mixed InCore kernels whose
// interesting part is GM synchronisation. Values are not kept in range (only verdicts are compared). Covers:
// loops (1-3 trips, with a carried accumulator), sibling branch arms, C2V/V2C tile moves, GM round trips in
// both directions through scratch tensors of 2*M rows per block with fixed or loop-moving row windows, tensor
// views (pl.slice) with moving bases, hand-written flags (right, wrong pipe, wait after the load, wrong id),
// misleading hand-written orderings that order nothing and never deadlock (misleading_sync: a set on a pipe
// not covering the store's, the wait after the load, mismatched ids, a flag or transport in the opposite
// direction, a hand-written pop after the load; both directions),
// fence + soft syncall barriers (with or without the fence), split modes, several blocks with per-block
// windows (or a forgotten block offset), atomic accumulation into one output across blocks.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

namespace cvsim::test {

struct OracleGenOptions {
    int min_steps = 2, max_steps = 8, max_depth = 2;
    bool loops = true, branches = true;
    bool boundary = true;      // C2V / V2C tile moves
    bool boundary_v2c = true;  // V2C tile moves (false: only C2V ones)
    bool gm_v2c = true, gm_c2v = true;
    int scratch = 2;                // scratch tensors per direction
    bool moving_windows = false;    // row windows that depend on the loop variable
    bool views = false;             // loads / stores through pl.slice views (bases moving with the loop)
    bool hand_sync = false;         // sync_set / sync_wait pairs placed right
    bool wrong_sync = false;        // ... and wrong (another pipe, the wait after the load, another id)
    bool barriers = false;          // fence + syncall(mix, soft); with wrong_sync also without the fence
    int max_blocks = 1;             // blocks drawn from [1, max_blocks]; windows per block
    bool block_collide = false;     // some stores forget the block offset (cross-block races)
    bool atomics = false;           // the output accumulated with atomic=ADD by every block
    std::vector<int> splits = {0};  // function split mode: 0 none, 1 UP_DOWN, 2 LEFT_RIGHT
    // The dependencies the expander promises to order: each V2C scratch has one store statement, and a scratch
    // is loaded only after a store at the same or an enclosing level (so no straight-line write-after-read).
    bool single_store = false;
    bool tile_views = false;  // a popped C2V tile also read through a pl.slice view of it (a5: in place)
    bool live_loads = false;  // every V2C GM load feeds a cube store to `cout` (so dead-code removal keeps it)
    bool rows_vary = true;    // windows at row 0 or M (false: row 0 of the block only)
    bool gm_waw = false;      // the vector lane also stores into a cube-stored scratch (cross-lane WAW)
    bool hand_rings = false;  // hand-written tpush/tpop/tfree pairs of both directions on ring ids 0 and 1
                              // (with wrong_sync: sometimes a pop on the other id, which deadlocks)
    // Scratches sw<i> (InOut FP32) the vector lane reads and writes and the cube then overwrites: V2C
    // write-after-read / write-after-write only (no vector access after the tensor's first cube store, and
    // none in a loop around a cube store), so the V2C policies must order all of it under --c2v upstream.
    bool v2c_first = false;
    // A store, then hand-written synchronisation that looks like it orders the store before a load of the same
    // window right after it but orders nothing (and never deadlocks): a set on a pipe that does not cover the
    // store's, the wait after the load, mismatched event ids, a flag or a transport in the opposite direction,
    // a hand-written pop placed after the load. Both directions (C2V only with gm_c2v). The policies must not
    // take any of them as "already ordered".
    bool misleading_sync = false;
};

struct OracleKernel {
    std::string text;
    int blocks = 1;
    int split = 0;
    bool wrong_sync = false;  // a deliberately wrong flag pair or barrier was placed
    int misleading = 0;       // misleading_sync steps placed
};

class OracleKernelBuilder {
  public:
    using Pick = std::function<int(int, int)>;
    OracleKernelBuilder(OracleGenOptions o, Pick p) : m_o(std::move(o)), m_pick(std::move(p)) {}

    OracleKernel build() {
        m_k.blocks = pick(1, std::max(1, m_o.max_blocks));
        m_k.split = m_o.splits[static_cast<size_t>(pick(0, static_cast<int>(m_o.splits.size()) - 1))];
        m_m = 16 * pick(1, 2);
        m_kk = 16 * pick(1, 2);
        std::string M = std::to_string(m_m), K = std::to_string(m_kk);
        m_sh = "[" + M + ", " + K + "]";
        if (m_k.blocks > 1) line(2, "bi = pl.tile.get_block_idx()");
        line(2, "vin = pl.load(a, [0, 0], " + m_sh + ")");
        line(2, "a_l = pl.load(a, [0, 0], " + m_sh + ", target_memory=pl.MemorySpace.Mat)");
        line(2, "lhs0 = pl.move(a_l, target_memory=pl.MemorySpace.Left)");
        line(2, "b_l = pl.load(b, [0, 0], [" + K + ", " + K + "], target_memory=pl.MemorySpace.Mat)");
        line(2, "rhs0 = pl.move(b_l, target_memory=pl.MemorySpace.Right)");
        line(2, "acc0 = pl.matmul(lhs0, rhs0)");
        m_vec = {"vin"};
        m_left = {"lhs0"};
        m_acc = {"acc0"};
        int steps = pick(m_o.min_steps, m_o.max_steps);
        for (int i = 0; i < steps; ++i) step(2, 0, "");
        std::string outrow = m_k.blocks > 1 ? "bi * " + M : "0";
        std::string atomic;
        if (m_o.atomics && m_k.blocks > 1 && pick(0, 1)) {
            outrow = "0";
            atomic = ", atomic=pl.AtomicType.Add";
        }
        if (pick(0, 1)) {
            line(2, "out = pl.store(" + any(m_acc) + ", [" + outrow + ", 0], out" + atomic + ")");
        } else {
            std::string w = fresh("w");
            line(2, w + " = pl.cast(" + any(m_vec) + ", pl.FP32)");
            line(2, "out = pl.store(" + w + ", [" + outrow + ", 0], out" + atomic + ")");
        }
        line(2, "return out");
        int rows = m_k.blocks * 2 * m_m;
        std::string outsh0 = "[" + std::to_string(m_k.blocks * m_m) + ", " + K + "]";
        std::string R = std::to_string(rows);
        std::string params =
            "        a: pl.Tensor[" + m_sh + ", pl.FP16],\n        b: pl.Tensor[[" + K + ", " + K + "], pl.FP16],\n";
        for (int i = 0; i < m_o.scratch; ++i) {
            params += "        sv" + std::to_string(i) + ": pl.Out[pl.Tensor[[" + R + ", " + K + "], pl.FP16]],\n";
            params += "        sc" + std::to_string(i) + ": pl.Out[pl.Tensor[[" + R + ", " + K + "], pl.FP32]],\n";
        }
        if (m_o.live_loads) params += "        cout: pl.Out[pl.Tensor[" + outsh0 + ", pl.FP32]],\n";
        if (m_o.v2c_first)
            for (int i = 0; i < m_o.scratch; ++i)
                params +=
                    "        sw" + std::to_string(i) + ": pl.InOut[pl.Tensor[[" + R + ", " + K + "], pl.FP32]],\n";
        if (m_o.tile_views) params += "        vout: pl.Out[pl.Tensor[[" + R + ", " + K + "], pl.FP16]],\n";
        std::string outsh = "[" + std::to_string(m_k.blocks * m_m) + ", " + K + "]";
        params += "        out: pl.Out[pl.Tensor[" + outsh + ", pl.FP32]],\n";
        std::string attrs;
        if (m_k.split == 1) attrs = ", attrs={\"split\": pl.SplitMode.UP_DOWN}";
        if (m_k.split == 2) attrs = ", attrs={\"split\": pl.SplitMode.LEFT_RIGHT}";
        m_k.text =
            "import pypto.language as pl\n\n\n@pl.program\nclass Generated:\n    "
            "@pl.function(type=pl.FunctionType.InCore" +
            attrs + ")\n    def kernel(\n        self,\n" + params + "    ) -> pl.Tensor[" + outsh + ", pl.FP32]:\n" +
            m_body;
        return m_k;
    }

  private:
    OracleGenOptions m_o;
    Pick m_pick;
    OracleKernel m_k;
    int m_m = 16, m_kk = 16;
    std::string m_sh, m_body;
    std::vector<std::string> m_vec, m_left, m_acc;
    std::vector<std::string> m_loops;  // enclosing loop variables
    int m_next = 0;
    int m_event = 0;
    std::vector<int> m_stored;       // V2C scratches stored at this or an enclosing level (single_store)
    std::vector<int> m_ever_stored;  // V2C scratches some store statement wrote (single_store)
    struct Sw {
        bool closed = false;             // the cube stored it: the vector lane no longer touches it
        std::vector<std::string> loops;  // loops around some vector access of it
        std::string row;                 // a row window of a vector access (no loop variable in it)
        bool touched = false;            // some vector access of it
    };
    std::vector<Sw> m_sw;  // v2c_first scratches

    // v2c_first: a vector access to sw<i>, or the cube's store into one the vector lane touched where no
    // enclosing loop holds a vector access of it (after which only the cube stores it).
    void v2c_first_step(int indent) {
        if (m_sw.empty()) m_sw.resize(static_cast<size_t>(m_o.scratch));
        auto cube_ok = [&](const Sw& st) {
            return std::none_of(m_loops.begin(), m_loops.end(), [&](const std::string& l) {
                return std::find(st.loops.begin(), st.loops.end(), l) != st.loops.end();
            });
        };
        std::vector<int> cube, vec;  // candidates for a cube store / a vector access
        for (int i = 0; i < m_o.scratch; ++i) {
            const Sw& st = m_sw[static_cast<size_t>(i)];
            if (st.touched && cube_ok(st)) cube.push_back(i);
            if (!st.closed) vec.push_back(i);
        }
        int c = pick(0, 2);
        if (vec.empty() && cube.empty()) {
            std::string v = fresh("v");
            line(indent, v + " = pl.add(" + any(m_vec) + ", " + any(m_vec) + ")");
            m_vec.push_back(v);
            return;
        }
        if ((c == 2 && !cube.empty()) || vec.empty()) {
            int i = cube[static_cast<size_t>(pick(0, static_cast<int>(cube.size()) - 1))];
            Sw& st = m_sw[static_cast<size_t>(i)];
            std::string t = "sw" + std::to_string(i);
            std::string r = !st.row.empty() && pick(0, 1) ? st.row : row();  // often the rows the vector touched
            line(indent, t + " = pl.store(" + any(m_acc) + ", [" + r + ", 0], " + t + ")");
            st.closed = true;
            return;
        }
        int i = vec[static_cast<size_t>(pick(0, static_cast<int>(vec.size()) - 1))];
        Sw& st = m_sw[static_cast<size_t>(i)];
        std::string t = "sw" + std::to_string(i);
        st.touched = true;
        st.loops.insert(st.loops.end(), m_loops.begin(), m_loops.end());
        std::string r = row();
        if (r.find('%') == std::string::npos) st.row = r;
        if (c == 0) {
            std::string g = fresh("g"), v = fresh("v");
            line(indent, g + " = pl.load(" + t + ", [" + r + ", 0], " + m_sh + ")");
            line(indent, v + " = pl.cast(" + g + ", pl.FP16)");
            m_vec.push_back(v);
            if (pick(0, 1))
                line(indent, t + " = pl.store(" + g + ", [" + row() + ", 0], " + t + ")");  // keeps the load live
        } else {
            std::string w = fresh("w");
            line(indent, w + " = pl.cast(" + any(m_vec) + ", pl.FP32)");
            line(indent, t + " = pl.store(" + w + ", [" + r + ", 0], " + t + ")");
        }
    }

    int pick(int lo, int hi) { return lo >= hi ? lo : m_pick(lo, hi); }
    std::string any(const std::vector<std::string>& p) {
        return p[static_cast<size_t>(pick(0, static_cast<int>(p.size()) - 1))];
    }
    std::string fresh(const std::string& b) { return b + std::to_string(m_next++); }
    void line(int indent, const std::string& s) {
        m_body += std::string(static_cast<size_t>(indent) * 4, ' ') + s + "\n";
    }

    // A row offset inside this block's 2*M rows: 0, M, or moving with an enclosing loop.
    std::string row() {
        std::string M = std::to_string(m_m);
        std::string r;
        int c = m_o.rows_vary ? pick(0, m_o.moving_windows && !m_loops.empty() ? 2 : 1) : 0;
        if (c == 0)
            r = "0";
        else if (c == 1)
            r = M;
        else
            r = "(" + any(m_loops) + " % 2) * " + M;
        if (m_k.blocks > 1 && !(m_o.block_collide && pick(0, 3) == 0))
            r = "bi * " + std::to_string(2 * m_m) + " + " + r;
        return r;
    }
    std::string scratch(const char* kind) { return kind + std::to_string(pick(0, m_o.scratch - 1)); }

    void sync_pair(int indent) {
        // V2C flag: the AIV sets after its stores, the AIC waits before its loads.
        int e = m_event++ % 8;
        int variant = m_o.wrong_sync ? pick(0, 5) : 0;
        std::string set_pipe = variant == 1 ? "pl.PipeType.V" : "pl.PipeType.MTE3";
        int wait_id = variant == 3 ? (e + 1) % 8 + 8 : e;
        if (variant != 0 && variant < 4) m_k.wrong_sync = true;
        line(indent, "pl.system.sync_set(" + std::to_string(e) + ", pipe=" + set_pipe + ", core_type=\"aiv\")");
        if (variant == 2) {  // the wait after the next load: emit that load first
            load_v2c(indent);
        }
        line(indent, "pl.system.sync_wait(" + std::to_string(wait_id) + ", pipe=pl.PipeType.MTE2, core_type=\"aic\")");
    }

    // A hand-written transport: push, pop (same id, or with wrong_sync sometimes the other one), a use, the free.
    void hand_ring(int indent) {
        int id = pick(0, 1);
        int pop_id = id;
        if (m_o.wrong_sync && pick(0, 5) == 0) {
            pop_id = 1 - id;
            m_k.wrong_sync = true;
        }
        auto ida = [](int i) { return i ? std::string(", id=1") : std::string(); };
        std::string t = fresh("hr"), M = std::to_string(m_m), K = std::to_string(m_kk);
        if (pick(0, 1)) {  // C2V
            line(indent, "pl.tpush_to_aiv(" + any(m_acc) + ", split=0" + ida(id) + ")");
            line(indent, t + ": pl.Tile[[" + M + ", " + K +
                             "], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0" + ida(pop_id) + ")");
            std::string v = fresh("v");
            line(indent, v + " = pl.cast(" + t + ", pl.FP16)");
            line(indent, "pl.tfree_to_aic(" + t + ida(pop_id) + ")");
            m_vec.push_back(v);
        } else {  // V2C
            line(indent, "pl.tpush_to_aic(" + any(m_vec) + ", split=0" + ida(id) + ")");
            line(indent, t + ": pl.Tile[[" + M + ", " + K +
                             "], pl.FP16, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0" + ida(pop_id) + ")");
            std::string l = fresh("lhs");
            line(indent, l + " = pl.move(" + t + ", target_memory=pl.MemorySpace.Left)");
            line(indent, "pl.tfree_to_aiv(" + t + ida(pop_id) + ")");
            m_left.push_back(l);
        }
    }

    // A store and a load of the same window with a misleading_sync ordering between them (see the option).
    void misleading(int indent) {
        std::string M = std::to_string(m_m), K = std::to_string(m_kk);
        bool v2c = !m_o.gm_c2v || pick(0, 1);
        std::string t;
        if (v2c) {
            if (m_o.single_store) {
                std::vector<int> free;
                for (int i = 0; i < m_o.scratch; ++i)
                    if (std::find(m_ever_stored.begin(), m_ever_stored.end(), i) == m_ever_stored.end())
                        free.push_back(i);
                if (free.empty()) {
                    std::string v = fresh("v");
                    line(indent, v + " = pl.add(" + any(m_vec) + ", " + any(m_vec) + ")");
                    m_vec.push_back(v);
                    return;
                }
                int i = free[static_cast<size_t>(pick(0, static_cast<int>(free.size()) - 1))];
                m_ever_stored.push_back(i);
                m_stored.push_back(i);
                t = "sv" + std::to_string(i);
            } else {
                t = scratch("sv");
            }
        } else {
            t = scratch("sc");
        }
        ++m_k.misleading;
        std::string r = row();
        // An AIC flag reaches one AIV only on a5: the variants with an AIC set an AIV waits for need one AIV lane.
        int variant = pick(0, 5);
        bool aic_set = v2c ? variant == 3 : variant <= 2;
        if (aic_set && m_k.split != 0) variant = 4;
        const char* prod = v2c ? "aiv" : "aic";
        const char* cons = v2c ? "aic" : "aiv";
        std::string prod_pipe = v2c ? "pl.PipeType.MTE3" : "pl.PipeType.FIX";  // the store's pipe
        std::string wrong_pipe = v2c ? "pl.PipeType.V" : "pl.PipeType.M";
        auto set = [&](int ev, const std::string& pipe, const char* core) {
            line(indent,
                 "pl.system.sync_set(" + std::to_string(ev) + ", pipe=" + pipe + ", core_type=\"" + core + "\")");
        };
        auto wait = [&](int ev, const std::string& pipe, const char* core) {
            line(indent,
                 "pl.system.sync_wait(" + std::to_string(ev) + ", pipe=" + pipe + ", core_type=\"" + core + "\")");
        };
        int e = 8 + m_event++ % 4, e2 = 12 + m_event % 4;  // apart from sync_pair's ids 0-7
        auto store = [&] {
            if (v2c) {
                line(indent, t + " = pl.store(" + any(m_vec) + ", [" + r + ", 0], " + t + ")");
            } else {
                line(indent, t + " = pl.store(" + any(m_acc) + ", [" + r + ", 0], " + t + ")");
            }
        };
        auto load = [&] {
            std::string g = fresh("g");
            if (v2c) {
                std::string l = fresh("lhs");
                line(indent,
                     g + " = pl.load(" + t + ", [" + r + ", 0], " + m_sh + ", target_memory=pl.MemorySpace.Mat)");
                line(indent, l + " = pl.move(" + g + ", target_memory=pl.MemorySpace.Left)");
                m_left.push_back(l);
                if (m_o.live_loads) {
                    std::string z = fresh("cz");
                    line(indent, z + " = pl.matmul(" + l + ", rhs0)");
                    line(indent, "cout = pl.store(" + z + ", [" + std::string(m_k.blocks > 1 ? "bi * " + M : "0") +
                                     ", 0], cout)");
                }
            } else {
                std::string v = fresh("v");
                line(indent, g + " = pl.load(" + t + ", [" + r + ", 0], " + m_sh + ")");
                line(indent, v + " = pl.cast(" + g + ", pl.FP16)");
                m_vec.push_back(v);
            }
        };
        // A hand-written transport of direction `to_aic` (V2C) or C2V; `between` runs between push and pop.
        auto transport = [&](bool to_aic, const std::function<void()>& between) {
            std::string h = fresh("hr");
            if (to_aic) {
                line(indent, "pl.tpush_to_aic(" + any(m_vec) + ", split=0)");
                between();
                line(indent,
                     h + ": pl.Tile[[" + M + ", " + K + "], pl.FP16, pl.MemorySpace.Mat] = pl.tpop_from_aiv(split=0)");
                std::string l = fresh("lhs");
                line(indent, l + " = pl.move(" + h + ", target_memory=pl.MemorySpace.Left)");
                line(indent, "pl.tfree_to_aiv(" + h + ")");
                m_left.push_back(l);
            } else {
                line(indent, "pl.tpush_to_aiv(" + any(m_acc) + ", split=0)");
                between();
                line(indent,
                     h + ": pl.Tile[[" + M + ", " + K + "], pl.FP32, pl.MemorySpace.Vec] = pl.tpop_from_aic(split=0)");
                std::string v = fresh("v");
                line(indent, v + " = pl.cast(" + h + ", pl.FP16)");
                line(indent, "pl.tfree_to_aic(" + h + ")");
                m_vec.push_back(v);
            }
        };
        switch (variant) {
            case 0:  // the producer's set on a pipe that does not cover the store's
                store();
                set(e, wrong_pipe, prod);
                wait(e, "pl.PipeType.MTE2", cons);
                load();
                return;
            case 1:  // the consumer's wait after the load
                store();
                set(e, prod_pipe, prod);
                load();
                wait(e, "pl.PipeType.MTE2", cons);
                return;
            case 2:  // mismatched ids: the wait before the load takes a set from before the store
                set(e2, prod_pipe, prod);
                store();
                set(e, prod_pipe, prod);
                wait(e2, "pl.PipeType.MTE2", cons);
                load();
                wait(e, "pl.PipeType.MTE2", cons);
                return;
            case 3:  // a flag in the opposite direction (consumer sets, producer waits), on every pipe
                store();
                set(e, "pl.PipeType.ALL", cons);
                wait(e, "pl.PipeType.ALL", prod);
                load();
                return;
            case 4:  // a transport in the opposite direction
                store();
                transport(!v2c, [] {});
                load();
                return;
            default:  // a transport of the right direction whose pop comes after the load
                store();
                transport(v2c, load);
                return;
        }
    }

    void load_v2c(int indent) {
        if (m_o.single_store && m_stored.empty()) {  // nothing to read yet: a vector op instead
            std::string v = fresh("v");
            line(indent, v + " = pl.add(" + any(m_vec) + ", " + any(m_vec) + ")");
            m_vec.push_back(v);
            return;
        }
        std::string t =
            m_o.single_store
                ? "sv" + std::to_string(m_stored[static_cast<size_t>(pick(0, static_cast<int>(m_stored.size()) - 1))])
                : scratch("sv");
        std::string g = fresh("g"), l = fresh("lhs");
        std::string src = t, r = row();
        if (m_o.views && pick(0, 1)) {
            src = fresh("vw");
            line(indent, src + " = pl.slice(" + t + ", " + m_sh + ", [" + r + ", 0])");
            r = "0";
        }
        line(indent, g + " = pl.load(" + src + ", [" + r + ", 0], " + m_sh + ", target_memory=pl.MemorySpace.Mat)");
        line(indent, l + " = pl.move(" + g + ", target_memory=pl.MemorySpace.Left)");
        m_left.push_back(l);
        if (m_o.live_loads) {
            std::string z = fresh("cz");
            line(indent, z + " = pl.matmul(" + l + ", rhs0)");
            line(indent, "cout = pl.store(" + z + ", [" +
                             std::string(m_k.blocks > 1 ? "bi * " + std::to_string(m_m) : "0") + ", 0], cout)");
        }
    }

    void step(int indent, int depth, const std::string& loop_var) {
        enum { Vec, Mm, C2V, V2C, StV, LdV, StC, LdC, Loop, LoopAcc, Branch, Sync, Barrier, Ring, Mislead, kN };
        int k = pick(0, kN - (m_o.misleading_sync ? 1 : 2));  // without the option, the choices of before
        if (k == Ring && !m_o.hand_rings) k = Vec;
        if ((k == C2V || k == V2C) && !m_o.boundary) k = Vec;
        if (k == V2C && !m_o.boundary_v2c) k = C2V;
        if ((k == StV || k == LdV) && !m_o.gm_v2c) k = Mm;
        if ((k == StC || k == LdC) && !m_o.gm_c2v) k = Vec;
        if ((k == Loop || k == LoopAcc) && (!m_o.loops || depth >= m_o.max_depth)) k = StV;
        if (k == Branch && (!m_o.branches || loop_var.empty() || depth >= m_o.max_depth)) k = LdV;
        if (k == Sync && !m_o.hand_sync) k = StV;
        if (k == Barrier && !m_o.barriers) k = LdV;
        if ((k == StV || k == LdV) && !m_o.gm_v2c) k = Vec;
        if (m_o.v2c_first && (k == StV || k == LdV || k == Vec) && pick(0, 1) == 0) return v2c_first_step(indent);
        switch (k) {
            case Vec: {
                std::string v = fresh("v");
                line(indent, v + " = pl.add(" + any(m_vec) + ", " + any(m_vec) + ")");
                m_vec.push_back(v);
                return;
            }
            case Mm: {
                std::string c = fresh("acc");
                line(indent, c + " = pl.matmul(" + any(m_left) + ", rhs0)");
                m_acc.push_back(c);
                return;
            }
            case C2V: {
                std::string s = fresh("s"), v = fresh("v");
                line(indent, s + " = pl.move(" + any(m_acc) + ", target_memory=pl.MemorySpace.Vec)");
                if (m_o.tile_views && m_k.split == 0 && pick(0, 1)) {
                    std::string sl = fresh("tv"), v2 = fresh("v");
                    line(indent, sl + " = pl.slice(" + s + ", " + m_sh + ", [0, 0])");
                    line(indent, v + " = pl.cast(" + s + ", pl.FP16)");
                    line(indent, v2 + " = pl.cast(" + sl + ", pl.FP16)");
                    line(indent, "vout = pl.store(" + v2 + ", [" + row() + ", 0], vout)");  // keeps the view read live
                    m_vec.push_back(v2);
                } else {
                    line(indent, v + " = pl.cast(" + s + ", pl.FP16)");
                }
                m_vec.push_back(v);
                return;
            }
            case V2C: {
                std::string mm = fresh("m"), l = fresh("lhs");
                line(indent, mm + " = pl.move(" + any(m_vec) + ", target_memory=pl.MemorySpace.Mat)");
                line(indent, l + " = pl.move(" + mm + ", target_memory=pl.MemorySpace.Left)");
                m_left.push_back(l);
                return;
            }
            case StV: {
                std::string t = scratch("sv");
                if (m_o.single_store) {
                    std::vector<int> free;
                    for (int i = 0; i < m_o.scratch; ++i)
                        if (std::find(m_ever_stored.begin(), m_ever_stored.end(), i) == m_ever_stored.end())
                            free.push_back(i);
                    if (free.empty()) {
                        load_v2c(indent);
                        return;
                    }
                    int i = free[static_cast<size_t>(pick(0, static_cast<int>(free.size()) - 1))];
                    m_ever_stored.push_back(i);
                    m_stored.push_back(i);
                    t = "sv" + std::to_string(i);
                }
                std::string r = row(), v = any(m_vec);
                if (m_o.views && pick(0, 1)) {
                    std::string vw = fresh("vw"), res = fresh("vs");
                    line(indent, vw + " = pl.slice(" + t + ", " + m_sh + ", [" + r + ", 0])");
                    line(indent, res + " = pl.store(" + v + ", [0, 0], " + vw + ")");
                } else {
                    line(indent, t + " = pl.store(" + v + ", [" + r + ", 0], " + t + ")");
                }
                return;
            }
            case LdV:
                load_v2c(indent);
                return;
            case StC: {
                std::string t = scratch("sc");
                if (m_o.gm_waw && pick(0, 2) == 0) {  // the vector lane writes a cube scratch
                    std::string w = fresh("w");
                    line(indent, w + " = pl.cast(" + any(m_vec) + ", pl.FP32)");
                    line(indent, t + " = pl.store(" + w + ", [" + row() + ", 0], " + t + ")");
                    return;
                }
                line(indent, t + " = pl.store(" + any(m_acc) + ", [" + row() + ", 0], " + t + ")");
                return;
            }
            case LdC: {
                std::string t = scratch("sc"), g = fresh("g"), v = fresh("v");
                line(indent, g + " = pl.load(" + t + ", [" + row() + ", 0], " + m_sh + ")");
                line(indent, v + " = pl.cast(" + g + ", pl.FP16)");
                m_vec.push_back(v);
                return;
            }
            case Sync:
                sync_pair(indent);
                return;
            case Ring:
                hand_ring(indent);
                return;
            case Mislead:
                misleading(indent);
                return;
            case Barrier: {
                bool fence = !(m_o.wrong_sync && pick(0, 2) == 0);
                if (!fence) m_k.wrong_sync = true;
                if (fence) line(indent, "pl.system.fence()");
                line(indent, "pl.system.syncall(core_type=\"mix\", mode=\"soft\")");
                return;
            }
            case Loop:
            case Branch: {
                auto saved_v = m_vec, saved_l = m_left, saved_a = m_acc;
                auto saved_s = m_stored;
                if (k == Loop) {
                    std::string i = fresh("i");
                    line(indent, "for " + i + " in pl.range(" + std::to_string(pick(1, 3)) + "):");
                    m_loops.push_back(i);
                    body(indent + 1, depth + 1, i);
                    m_loops.pop_back();
                } else {
                    line(indent, "if " + loop_var + (pick(0, 1) ? " == 0:" : " > 0:"));
                    body(indent + 1, depth + 1, loop_var);
                    if (pick(0, 1)) {
                        m_vec = saved_v, m_left = saved_l, m_acc = saved_a;
                        m_stored = saved_s;
                        line(indent, "else:");
                        body(indent + 1, depth + 1, loop_var);
                    }
                }
                m_vec = saved_v, m_left = saved_l, m_acc = saved_a;
                m_stored = saved_s;
                return;
            }
            case LoopAcc: {
                std::string i = fresh("i"), c = fresh("c"), nx = fresh("acc"), res = fresh("acc"), init = fresh("acc");
                line(indent, init + " = pl.matmul(" + any(m_left) + ", rhs0)");
                auto saved_v = m_vec, saved_l = m_left, saved_a = m_acc;
                auto saved_s = m_stored;
                line(indent, "for " + i + ", (" + c + ",) in pl.range(" + std::to_string(pick(1, 3)) +
                                 ", init_values=(" + init + ",)):");
                m_loops.push_back(i);
                m_acc.push_back(c);
                body(indent + 1, depth + 1, i);
                line(indent + 1, nx + " = pl.matmul_acc(" + c + ", " + any(m_left) + ", rhs0)");
                line(indent + 1, res + " = pl.yield_(" + nx + ")");
                m_loops.pop_back();
                m_vec = saved_v, m_left = saved_l, m_acc = saved_a;
                m_stored = saved_s;
                m_acc.push_back(res);
                return;
            }
            default:
                return;
        }
    }

    void body(int indent, int depth, const std::string& lv) {
        int n = pick(1, 3);
        for (int i = 0; i < n; ++i) step(indent, depth, lv);
    }
};

inline rc::Gen<OracleKernel> gen_oracle_kernel(OracleGenOptions o) {
    return rc::gen::exec([o] {
        OracleKernelBuilder b(o, [](int lo, int hi) { return *rc::gen::inRange(lo, hi + 1); });
        return b.build();
    });
}

inline OracleKernel seeded_oracle_kernel(uint64_t seed, OracleGenOptions o) {
    OracleKernelBuilder b(std::move(o), [s = seed * 0x2545F4914F6CDD1DULL + 1](int lo, int hi) mutable {
        uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        z ^= z >> 31;
        return lo + static_cast<int>(z % static_cast<uint64_t>(hi - lo + 1));
    });
    return b.build();
}

}  // namespace cvsim::test
