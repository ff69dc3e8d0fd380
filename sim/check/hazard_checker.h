// Happens-before hazard checker over GM windows (SPEC 6): RAW / WAR / WAW races between cores.
//
// Vector clocks have one component per (core, pipe) plus one "fence" component per core. An instruction's
// clock at its start joins: the clock of the scalar instruction issued before it (program order through
// the scalar unit, which performs every acquire), its same-core dependencies, the previous instruction of
// its own pipe (pipes complete in order) and the tokens it acquired (a ready flag from a tpush, a free
// from a tfree, a sync_set, every arrival of a syncall). Its clock at the end adds its own epoch. So a
// write is covered by a release only when the core's own ordering puts the write's completion before the
// release. With a visibility delay, a write is ordered before another core's access only through a fence
// of its core that follows it -- for the writes the simulator delays (write_visibility_delay, sim/event.h):
// ring slot writes are ordered by the ring's flags alone. Two accesses of different cores to overlapping bytes, at
// least one a write, with neither ordered before the other, are a race (two atomic adds are not: they commute; an
// atomic add against a plain read or write is); each (kind, tensor, access pair) is reported once.
//
// Shadow state is FastTrack-style: per tensor, one cell per GM window accessed, holding the last write
// as an epoch (clock component + value, O(1) to compare with an instruction's start clock) and the reads
// as one epoch while a single (core, pipe) reads the window since the last covering write; only when a
// second (core, pipe) reads it ("shared reads") is the read epoch inflated to a read vector clock (one
// epoch per reading component), which a covering write ordered after those reads deflates again. A write that races
// with the cell's write keeps the older write as well (rare), so a later access still reports against both. A write
// supersedes the accesses of cells it covers that are ordered before it (or of its own core); a read supersedes covered
// reads of its own (core, pipe).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/runtime.h"
#include "sim/event.h"
#include "sim/verdict.h"

namespace cvsim::sim {

class HazardChecker : public EventSink {
  public:
    // `tensors` gives names and shapes for reports; `visibility_delay` > 0 switches on the fence rule.
    HazardChecker(int clusters, const rt::TensorStore* tensors, uint64_t visibility_delay);
    // Forgets everything (a fresh checker for the next schedule, keeping its storage).
    void reset(uint64_t visibility_delay);
    int clusters() const { return m_ncomp / (kCoresPerCluster * kComps); }

    void on_event(const Event& e) override;
    bool wants_detail() const override { return false; }
    const std::vector<Finding>& findings() const { return m_findings; }
    uint64_t accesses_checked() const { return m_checked; }
    // Read epochs inflated to read vector clocks so far (a window read unordered by two (core, pipe)s).
    uint64_t read_inflations() const { return m_inflations; }
    // Cells currently holding an inflated read vector clock.
    size_t shared_read_cells() const;
    // Bytes held for completed instructions' and released tokens' clocks (the storage that grew with
    // instructions x clusters before clocks were compressed).
    size_t clock_bytes() const;
    // Remote-part snapshots made this schedule.
    uint32_t snapshots() const { return m_nsnaps; }

  private:
    using VC = std::vector<uint32_t>;
    static constexpr int kComps = 8;  // 7 pipes + fence, per core

    // One access as an epoch plus what a report needs (the window is the cell's).
    struct Access {
        uint64_t id = 0;  // global order of arrival (reports for one access follow it)
        int core = 0;     // global core index (cluster * 3 + core)
        ir::Pipe pipe = ir::Pipe::Scalar;
        uint32_t comp = 0;        // clock component of (core, pipe)
        uint32_t epoch = 0;       // its epoch there (pipe_seq + 1)
        uint32_t fence_next = 0;  // the first fence epoch of its core that covers it
        bool write = false;
        bool atomic = false;    // an atomic add (a write that commutes with other atomic adds)
        bool delayed = false;   // a write other cores see only after the visibility delay (fence rule)
        bool ring = false;      // ring slot traffic (reported as such)
        int64_t ring_gen = -1;  // its slot generation (names a ring race: the older generation first)
        SourceLoc loc;
        uint64_t cycle = 0;
        OrderKeyPtr order;
    };
    // Shadow state of one GM window of one tensor.
    struct Cell {
        rt::Window w;
        std::vector<Access> writes;  // the last write's epoch; more than one only while writes race
        bool has_read = false;       // `read` holds the read epoch (a single reading component)
        Access read;
        std::vector<Access> read_vc;  // inflated read vector clock: one epoch per reading (core, pipe)
        bool empty() const { return writes.empty() && !has_read && read_vc.empty(); }
    };

    struct CoreState;
    int comp(int core, ir::Pipe p) const { return core * kComps + static_cast<int>(p); }
    int fence_comp(int core) const { return core * kComps + 7; }

    // Stored clocks are compressed (memory grows with the instructions, not with instructions x clusters): a
    // clock of a core of cluster X is its cluster's chunk (kChunk components, kept inline) plus a snapshot of
    // the other clusters' components (X's chunk zero in it), shared by every clock with the same remote part.
    // Snapshot 0 is all zeros (a cluster no other cluster's token reached); 1, 2, ... are rows of m_snaps.
    static constexpr int kChunk = kCoresPerCluster * kComps;
    struct ClockRef {
        int cluster = 0;
        uint32_t snap = 0;
        const uint32_t* chunk = nullptr;
    };
    const uint32_t* snap_row(uint32_t s) const { return m_snaps.data() + static_cast<size_t>(s - 1) * width(); }
    size_t width() const { return static_cast<size_t>(m_ncomp); }
    // m_start := zeros, for an instruction of `cluster` (only the chunks written since the last clear are zeroed).
    void clear_start(int cluster);
    // Joins a stored clock into m_start (tracking whether the remote part is still one known snapshot).
    void join_ref(const ClockRef& r);
    // The snapshot of m_start's remote part for a core of `core`'s cluster (an existing one when it matches).
    uint32_t snapshot_of_start(CoreState& cs, int cluster);
    bool end_ref(const CoreState& cs, int cluster, uint32_t seq, ClockRef& r) const;
    void join_seq(const CoreState& cs, int cluster, uint32_t seq) {
        ClockRef r;
        if (end_ref(cs, cluster, seq, r)) join_end(r, cs.own_end[seq]);
    }
    bool ordered_before(const Access& first, const VC& second_start) const;
    void check(Access a, const rt::Window& w, const VC& start);
    void add_read(Cell& cell, Access a);
    // `unpublished`: the earlier access is a write the later one is ordered after only through a release
    // with no fence between (ordered on completion, not once visible: the visibility delay breaks it).
    void report(const Access& earlier, const rt::Window& ew, const Access& later, const rt::Window& lw,
                bool unpublished);
    std::string tensor_label(uint32_t tensor, const rt::Window& w) const;

    int m_ncomp;                       // clock width
    const rt::TensorStore* m_tensors;  // names and shapes
    uint64_t m_vis_delay;              // > 0: writes need a fence to be covered
    struct CoreState {
        std::vector<uint32_t> chunk_end;        // its cluster's chunk of the clock at the end: [seq * kChunk]
        std::vector<uint32_t> snap_end;         // the snapshot of the rest of that clock
        std::vector<uint8_t> has_end;           // instruction `seq` completed
        std::vector<uint64_t> own_end;          // its own component << 32 | its epoch there
        std::array<int64_t, 7> last_on_pipe{};  // seq of each pipe's last completed instruction (-1: none)
        uint32_t last_snap = 0;                 // the snapshot it made or matched last
        uint32_t fences = 0;                    // fences completed
    };
    std::vector<CoreState> m_cores;
    std::vector<uint32_t> m_snaps;  // snapshot s >= 1 at [(s - 1) * width, s * width)
    uint32_t m_nsnaps = 0;          // snapshots made this schedule (the rows past it keep their storage)
    // Released sync tokens -> clock of the release. The simulator numbers tokens 1, 2, ... per schedule: those
    // below kDenseTokens have a row of m_token_chunk (m_token_set says which), any other an entry of the map.
    static constexpr uint64_t kDenseTokens = uint64_t{1} << 20;
    struct TokenClock {
        int cluster = 0;
        uint32_t snap = 0;
        std::array<uint32_t, kChunk> chunk{};
    };
    std::vector<uint32_t> m_token_chunk;
    std::vector<uint32_t> m_token_snap;
    std::vector<int32_t> m_token_cluster;
    std::vector<uint8_t> m_token_set;
    std::vector<uint64_t> m_token_own;  // the releaser's component << 32 | its epoch
    std::unordered_map<uint64_t, TokenClock> m_tokens;
    bool token_clock(uint64_t t, uint64_t& own, ClockRef& r) const;
    void set_token_clock(uint64_t t, int cluster, uint32_t snap, const uint32_t* chunk, uint64_t own);
    // Joins a completed instruction's end clock into m_start unless m_start already covers it: a clock whose
    // component c holds e or more includes the end clock of the instruction with epoch e on c (clocks grow only
    // by joins, and each instruction's start joins the previous one of its pipe), so the join would change nothing.
    void join_end(const ClockRef& r, uint64_t own) {
        if (m_start[static_cast<size_t>(own >> 32)] >= static_cast<uint32_t>(own)) return;
        join_ref(r);
    }
    // A window's first dimension, [lo, hi) (hi saturating, as rt::windows_overlap forms it), and its rank: the part
    // of rt::windows_overlap / rt::window_covers a check tests first, from a small array beside the cells instead
    // of each cell's window vectors (a launch of many blocks storing one row each has thousands of cells, and the
    // scan over them, not the clocks, was most of a check: decode_csa's merge_norm_spmd).
    struct Axis0 {
        int64_t lo = 0, hi = 0;
        size_t rank = 0;
        static Axis0 of(const rt::Window& w) {
            if (w.offsets.empty() || w.extents.size() != w.offsets.size())  // nothing to tell from the first dimension
                return {INT64_MIN, INT64_MAX, w.offsets.size()};
            return {w.offsets[0], rt::sat_add(w.offsets[0], w.extents[0]), w.offsets.size()};
        }
        // False only where rt::windows_overlap(a, b) is false: same rank, disjoint in the first dimension.
        static bool may_overlap(const Axis0& a, const Axis0& b) {
            return a.rank != b.rank || a.rank == 0 || !(a.hi <= b.lo || b.hi <= a.lo);
        }
        // False only where rt::window_covers(big, small) is false: another rank, or the first dimension not inside.
        static bool may_cover(const Axis0& big, const Axis0& small) {
            return big.rank == small.rank && (big.rank == 0 || (small.lo >= big.lo && small.hi <= big.hi));
        }
    };
    // The cells of one tensor: [0, n) are live; the rest keep their storage for the next schedule's cells.
    // axis0[i] is store[i]'s window's Axis0.
    struct Cells {
        std::vector<Cell> store;
        std::vector<Axis0> axis0;
        size_t n = 0;
        Cell* begin() { return store.data(); }
        Cell* end() { return store.data() + n; }
        const Cell* begin() const { return store.data(); }
        const Cell* end() const { return store.data() + n; }
        Cell& add(const rt::Window& w) {
            if (n == store.size()) {
                store.emplace_back();
                axis0.emplace_back();
            }
            axis0[n] = Axis0::of(w);
            Cell& c = store[n++];
            c.w.tensor = w.tensor;
            c.w.offsets.assign(w.offsets.begin(), w.offsets.end());
            c.w.extents.assign(w.extents.begin(), w.extents.end());
            c.writes.clear();
            c.has_read = false;
            c.read = Access{};
            c.read_vc.clear();
            return c;
        }
        // Drops the empty cells, keeping the order of the others (their storage moves to the tail).
        void drop_empty() {
            size_t k = 0;
            for (size_t i = 0; i < n; ++i)
                if (!store[i].empty()) {
                    if (i != k) {
                        std::swap(store[k], store[i]);
                        std::swap(axis0[k], axis0[i]);
                    }
                    ++k;
                }
            n = k;
        }
    };
    std::vector<Cells> m_shadow;  // per tensor: one cell per window
    std::vector<Finding> m_findings;
    std::set<std::string> m_reported;  // (kind, tensor, pair) already reported
    uint64_t m_checked = 0;
    uint64_t m_next_id = 0;
    uint64_t m_inflations = 0;
    VC m_start;  // scratch: the current instruction's start clock
    // What m_start holds besides zeros: the chunks written (all of it after a snapshot's join), and whether its
    // remote part is known to be snapshot m_start_snap (only its own cluster's stored clocks joined since the clear).
    std::vector<int> m_dirty;
    std::vector<uint8_t> m_is_dirty;
    bool m_all_dirty = false;
    int m_start_cluster = 0;
    uint32_t m_start_snap = 0;
    bool m_start_mixed = false;
    struct Race {
        const Access* a;
        const rt::Window* w;
        bool unpublished;
    };
    std::vector<Race> m_races;  // scratch: racing accesses of one check
};

}  // namespace cvsim::sim
