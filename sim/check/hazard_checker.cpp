// Happens-before hazard checker (see the header for the rules and the FastTrack-style shadow state).
#include "sim/check/hazard_checker.h"

#include <fmt/format.h>

#include <algorithm>

#include "frontend/codes.h"

namespace cvsim::sim {

HazardChecker::HazardChecker(int clusters, const rt::TensorStore* tensors, uint64_t visibility_delay)
    : m_ncomp(clusters * kCoresPerCluster * kComps), m_tensors(tensors), m_vis_delay(visibility_delay) {
    reset(visibility_delay);
}

void HazardChecker::reset(uint64_t visibility_delay) {
    m_vis_delay = visibility_delay;
    // Emptied in place: a checker reused by the next schedule keeps its storage.
    m_cores.resize(static_cast<size_t>(m_ncomp / kComps));
    for (auto& c : m_cores) {
        std::fill(c.has_end.begin(), c.has_end.end(), uint8_t{0});  // the clock rows stay allocated
        c.last_on_pipe.fill(-1);
        c.last_snap = 0;
        c.fences = 0;
    }
    m_nsnaps = 0;
    m_start.assign(width(), 0);
    m_is_dirty.assign(static_cast<size_t>(m_ncomp / kChunk), 0);
    m_dirty.clear();
    m_all_dirty = false;
    m_tokens.clear();
    std::fill(m_token_set.begin(), m_token_set.end(), uint8_t{0});
    for (auto& cells : m_shadow) cells.n = 0;
    m_findings.clear();
    m_reported.clear();
    m_checked = 0;
    m_next_id = 0;
    m_inflations = 0;
}

size_t HazardChecker::shared_read_cells() const {
    size_t n = 0;
    for (const auto& cells : m_shadow)
        for (const auto& c : cells) n += !c.read_vc.empty();
    return n;
}

size_t HazardChecker::clock_bytes() const {
    size_t n = m_snaps.capacity() * sizeof(uint32_t) + m_token_chunk.capacity() * sizeof(uint32_t) +
               m_token_snap.capacity() * sizeof(uint32_t) + m_token_cluster.capacity() * sizeof(int32_t) +
               m_token_set.capacity() + m_token_own.capacity() * sizeof(uint64_t) +
               m_tokens.size() * sizeof(TokenClock);
    for (const CoreState& c : m_cores)
        n += c.chunk_end.capacity() * sizeof(uint32_t) + c.snap_end.capacity() * sizeof(uint32_t) +
             c.has_end.capacity() + c.own_end.capacity() * sizeof(uint64_t);
    return n;
}

bool HazardChecker::token_clock(uint64_t t, uint64_t& own, ClockRef& r) const {
    if (t < m_token_set.size()) {
        if (!m_token_set[t]) return false;
        own = m_token_own[t];
        r.cluster = m_token_cluster[t];
        r.snap = m_token_snap[t];
        r.chunk = m_token_chunk.data() + t * static_cast<uint64_t>(kChunk);
        return true;
    }
    auto it = m_tokens.find(t);
    if (it == m_tokens.end()) return false;
    own = 0xFFFFFFFFu;  // no epoch reaches this: always joined
    r.cluster = it->second.cluster;
    r.snap = it->second.snap;
    r.chunk = it->second.chunk.data();
    return true;
}

void HazardChecker::set_token_clock(uint64_t t, int cluster, uint32_t snap, const uint32_t* chunk, uint64_t own) {
    if (t >= kDenseTokens) {
        TokenClock& tc = m_tokens[t];
        tc.cluster = cluster;
        tc.snap = snap;
        std::copy(chunk, chunk + kChunk, tc.chunk.begin());
        return;
    }
    if (t >= m_token_set.size()) {
        const size_t n =
            std::min<size_t>(std::max<size_t>(static_cast<size_t>(t) + 1, m_token_set.size() * 2), kDenseTokens);
        m_token_set.resize(n, 0);
        m_token_own.resize(n, 0);
        m_token_snap.resize(n, 0);
        m_token_cluster.resize(n, 0);
        m_token_chunk.resize(n * kChunk, 0);
    }
    m_token_set[t] = 1;
    m_token_own[t] = own;
    m_token_snap[t] = snap;
    m_token_cluster[t] = cluster;
    std::copy(chunk, chunk + kChunk, m_token_chunk.begin() + static_cast<std::ptrdiff_t>(t * kChunk));
}

void HazardChecker::clear_start(int cluster) {
    if (m_all_dirty) {
        std::fill(m_start.begin(), m_start.end(), 0u);
        std::fill(m_is_dirty.begin(), m_is_dirty.end(), uint8_t{0});
    } else {
        for (int k : m_dirty) {
            std::fill_n(m_start.begin() + static_cast<std::ptrdiff_t>(k) * kChunk, kChunk, 0u);
            m_is_dirty[static_cast<size_t>(k)] = 0;
        }
    }
    m_dirty.clear();
    m_all_dirty = false;
    m_start_cluster = cluster;
    m_start_snap = 0;
    m_start_mixed = false;
}

void HazardChecker::join_ref(const ClockRef& r) {
    if (r.snap != 0) {
        // The whole width (the compiler vectorises the max).
        uint32_t* x = m_start.data();
        const uint32_t* y = snap_row(r.snap);
        const size_t n = width();
        for (size_t i = 0; i < n; ++i) x[i] = std::max(x[i], y[i]);
        m_all_dirty = true;
        if (r.cluster != m_start_cluster || (m_start_snap != 0 && m_start_snap != r.snap)) m_start_mixed = true;
        m_start_snap = r.snap;
    }
    uint32_t* x = m_start.data() + static_cast<size_t>(r.cluster) * kChunk;
    for (int j = 0; j < kChunk; ++j) x[j] = std::max(x[j], r.chunk[j]);
    if (!m_is_dirty[static_cast<size_t>(r.cluster)]) {
        m_is_dirty[static_cast<size_t>(r.cluster)] = 1;
        m_dirty.push_back(r.cluster);
    }
    if (r.cluster != m_start_cluster) m_start_mixed = true;
}

uint32_t HazardChecker::snapshot_of_start(CoreState& cs, int cluster) {
    if (!m_start_mixed) return m_start_snap;
    // The remote part: m_start without the cluster's own chunk. All zeros, the core's last snapshot, or a new one.
    const size_t w = width();
    const size_t lo = static_cast<size_t>(cluster) * kChunk, hi = lo + kChunk;
    auto remote_equals = [&](const uint32_t* row) {
        for (size_t i = 0; i < lo; ++i)
            if (m_start[i] != (row ? row[i] : 0u)) return false;
        for (size_t i = hi; i < w; ++i)
            if (m_start[i] != (row ? row[i] : 0u)) return false;
        return true;
    };
    if (remote_equals(nullptr)) return 0;
    if (cs.last_snap != 0 && remote_equals(snap_row(cs.last_snap))) return cs.last_snap;
    const uint32_t s = ++m_nsnaps;
    if (m_snaps.size() < static_cast<size_t>(s) * w) m_snaps.resize(static_cast<size_t>(s) * w);
    uint32_t* row = m_snaps.data() + static_cast<size_t>(s - 1) * w;
    std::copy(m_start.begin(), m_start.end(), row);
    std::fill(row + lo, row + hi, 0u);
    cs.last_snap = s;
    return s;
}

bool HazardChecker::end_ref(const CoreState& cs, int cluster, uint32_t seq, ClockRef& r) const {
    if (seq >= cs.has_end.size() || !cs.has_end[seq]) return false;
    r.cluster = cluster;
    r.snap = cs.snap_end[seq];
    r.chunk = cs.chunk_end.data() + static_cast<size_t>(seq) * kChunk;
    return true;
}

static bool same_window(const rt::Window& a, const rt::Window& b) {
    return a.offsets == b.offsets && a.extents == b.extents;
}

static rt::Window intersect(const rt::Window& a, const rt::Window& b) {
    rt::Window w = a;
    for (size_t d = 0; d < a.offsets.size() && d < b.offsets.size(); ++d) {
        int64_t lo = std::max(a.offsets[d], b.offsets[d]);
        int64_t hi = std::min(a.offsets[d] + a.extents[d], b.offsets[d] + b.extents[d]);
        w.offsets[d] = lo;
        w.extents[d] = std::max<int64_t>(hi - lo, 0);
    }
    return w;
}

bool HazardChecker::ordered_before(const Access& first, const VC& second_start) const {
    if (first.write && first.delayed)
        return second_start[static_cast<size_t>(fence_comp(first.core))] >= first.fence_next;
    return second_start[first.comp] >= first.epoch;
}

std::string HazardChecker::tensor_label(uint32_t tensor, const rt::Window& w) const {
    std::string name = m_tensors && tensor < m_tensors->tensors.size() ? m_tensors->tensors[tensor].name
                                                                       : fmt::format("tensor{}", tensor);
    return name + rt::window_str(w);
}

void HazardChecker::report(const Access& earlier, const rt::Window& ew, const Access& later, const rt::Window& lw,
                           bool unpublished) {
    // Name the race by the order the sequential program intended; without one, by the observed order.
    int ord = earlier.order && later.order ? compare_order(*earlier.order, *later.order) : 0;
    // Ring slot traffic: the older slot generation first (a push writes generation g, its pops read it).
    // Two writes of one generation (both lanes of a split-0 gather): the lower core first, so the pair is named once.
    if (earlier.ring_gen >= 0 && later.ring_gen >= 0) {
        if (earlier.ring_gen != later.ring_gen)
            ord = earlier.ring_gen < later.ring_gen ? -1 : 1;
        else if (earlier.write && later.write && earlier.core != later.core)
            ord = earlier.core < later.core ? -1 : 1;
    }
    // Two accesses of one kind at one program position on different cores (a statement both blocks or both
    // lanes run): the lower core first, so the pair gets one name (and key) whichever core ran first.
    if (ord == 0 && earlier.write == later.write && earlier.core != later.core)
        ord = earlier.core < later.core ? -1 : 1;
    const Access& first = ord > 0 ? later : earlier;
    const Access& second = ord > 0 ? earlier : later;
    const rt::Window& fw = ord > 0 ? lw : ew;
    const rt::Window& sw = ord > 0 ? ew : lw;
    std::string kind = first.write && second.write ? "WAW" : first.write ? "RAW" : "WAR";
    auto who = [](const Access& a) {
        int cluster = a.core / kCoresPerCluster;
        std::string core(core_name(static_cast<CoreId>(a.core % kCoresPerCluster)));
        return cluster > 0 ? fmt::format("cluster {} {}", cluster, core) : core;
    };
    std::string key =
        fmt::format("{}|{}|{}:{}|{}:{}", kind, fw.tensor, first.loc.str(), first.core, second.loc.str(), second.core);
    if (!m_reported.insert(key).second) return;
    Finding f;
    f.code = first.write && second.write ? codes::kRaceWaw : first.write ? codes::kRaceRaw : codes::kRaceWar;
    std::string where =
        (first.ring || second.ring ? "ring slot memory " : "GM ") + tensor_label(fw.tensor, intersect(fw, sw));
    f.message = fmt::format("{} on {}: {} {} {} at {} (cycle {}) is not ordered before {} {} {} at {} (cycle {})", kind,
                            where, who(first), ir::pipe_name(first.pipe), first.write ? "write" : "read",
                            first.loc.short_str(), first.cycle, who(second), ir::pipe_name(second.pipe),
                            second.write ? "write" : "read", second.loc.short_str(), second.cycle);
    f.loc = second.loc;
    f.loc2 = first.loc;
    f.cycle = std::max(first.cycle, second.cycle);
    f.key = key;
    for (const Access* a : {&first, &second}) {
        FindingAccess fa;
        fa.cluster = static_cast<uint32_t>(a->core / kCoresPerCluster);
        fa.core = static_cast<uint8_t>(a->core % kCoresPerCluster);
        fa.pipe = a->pipe;
        fa.write = a->write;
        fa.cycle = a->cycle;
        fa.loc = a->loc;
        f.accesses.push_back(fa);
    }
    if (unpublished)
        f.details.push_back(fmt::format(
            "the {} write is ordered before the {} {} only on its completion: with gm.visibility_delay = {} a "
            "flag or barrier publishes a GM write only through a system.fence() of the writing core "
            "between the write and the release (SPEC 4.5, 6)",
            who(earlier), who(later), later.write ? "write" : "read", m_vis_delay));
    if (kind == "RAW")
        f.details.push_back(
            "hint: order the producer before the consumer (a tpush/tpop fence, sync_set/sync_wait, or system.fence() + "
            "syncall)");
    else if (kind == "WAR" && (first.ring || second.ring))
        f.details.push_back(
            "hint: the slot was freed (tfree) before this read of the popped tile or a view of it; free it after its "
            "last use");
    else if (kind == "WAR")
        f.details.push_back(
            "hint: the writer must wait until the reader has finished (a reverse flag or a barrier after the read)");
    m_findings.push_back(std::move(f));
}

void HazardChecker::add_read(Cell& cell, Access a) {
    if (!cell.read_vc.empty()) {
        cell.read_vc.push_back(std::move(a));
    } else if (cell.has_read) {
        // A second (core, pipe) reads the window: inflate the read epoch to a read vector clock.
        cell.read_vc.reserve(4);
        cell.read_vc.push_back(std::move(cell.read));
        cell.read_vc.push_back(std::move(a));
        cell.has_read = false;
        cell.read = Access{};
        ++m_inflations;
    } else {
        cell.read = std::move(a);
        cell.has_read = true;
    }
}

void HazardChecker::check(Access a, const rt::Window& w, const VC& start) {
    if (w.tensor >= m_shadow.size()) m_shadow.resize(w.tensor + 1);
    Cells& cells = m_shadow[w.tensor];
    ++m_checked;
    a.id = m_next_id++;
    // 1. Races: the cell's write epoch(s) against any access; its read epoch / read vector clock against a
    //    write. Reported in the order the accesses arrived.
    m_races.clear();
    // Both AIV lanes' writes of one V2C split-0 slot generation (a gather: same ring slot, same generation) do
    // not race with each other: the cube's pop waits for both and receives the last one, which matters only
    // when their data differ, and that is W-NONUNIFORM-GATHER's (SPEC 4.3; the oracle's rule too).
    auto one_gather = [&](const Access& b) {
        return a.write && b.write && a.ring && b.ring && a.ring_gen >= 0 && a.ring_gen == b.ring_gen;
    };
    auto consider = [&](const Access& b, const rt::Window& bw) {
        if (b.core != a.core && !(a.atomic && b.atomic) && !one_gather(b) && !ordered_before(b, start))
            m_races.push_back({&b, &bw, b.write && b.delayed && start[b.comp] >= b.epoch});
    };
    const Axis0 wa = Axis0::of(w);
    for (size_t i = 0; i < cells.n; ++i) {
        if (!Axis0::may_overlap(wa, cells.axis0[i])) continue;
        const Cell& c = cells.store[i];
        if (!rt::windows_overlap(w, c.w)) continue;
        for (const Access& b : c.writes) consider(b, c.w);
        if (!a.write) continue;
        if (c.has_read) consider(c.read, c.w);
        for (const Access& b : c.read_vc) consider(b, c.w);
    }
    if (!m_races.empty()) {
        std::sort(m_races.begin(), m_races.end(), [](const Race& x, const Race& y) { return x.a->id < y.a->id; });
        for (const Race& r : m_races) report(*r.a, *r.w, a, w, r.unpublished);
    }
    // 2. Supersede what this access makes redundant in the cells it covers: a write, the accesses ordered
    //    before it (or of its own core); a read, the older read of its own (core, pipe).
    Cell* own = nullptr;
    bool emptied = false;
    for (size_t i = 0; i < cells.n; ++i) {
        if (!Axis0::may_cover(wa, cells.axis0[i])) continue;
        Cell& c = cells.store[i];
        if (!rt::window_covers(w, c.w)) continue;
        if (!own && same_window(w, c.w)) own = &c;
        auto gone = [&](const Access& b) {
            // An atomic add supersedes only atomic adds: an access before it stays checkable by another core's
            // atomic add, which does not race with this one and so would not report through it.
            if (a.atomic) return b.atomic && (b.core == a.core || ordered_before(b, start));
            return a.write ? b.core == a.core || ordered_before(b, start) : b.comp == a.comp;
        };
        if (a.write) std::erase_if(c.writes, gone);
        if (c.has_read && gone(c.read)) {
            c.has_read = false;
            c.read = Access{};
        }
        if (!c.read_vc.empty()) {
            std::erase_if(c.read_vc, gone);
            if (c.read_vc.size() == 1) {  // deflate to an epoch
                c.read = std::move(c.read_vc[0]);
                c.has_read = true;
                c.read_vc.clear();
            }
        }
        emptied |= c.empty() && &c != own;
    }
    // 3. Record this access as its window's write epoch or read.
    if (own) {
        if (a.write)
            own->writes.push_back(std::move(a));
        else
            add_read(*own, std::move(a));
    }
    if (emptied) cells.drop_empty();  // `own` is not empty now
    if (!own) {
        Cell& c = cells.add(w);
        if (a.write)
            c.writes.push_back(std::move(a));
        else
            add_read(c, std::move(a));
    }
}

void HazardChecker::on_event(const Event& e) {
    if (e.kind != EventKind::Instr) return;
    const int core = e.cluster * kCoresPerCluster + static_cast<int>(e.core);
    if (core >= static_cast<int>(m_cores.size())) return;
    CoreState& cs = m_cores[static_cast<size_t>(core)];
    const int cluster = e.cluster;
    // The joins commute: the start is the pipe's previous end clock joined with the rest, each one it already
    // covers skipped (join_end).
    clear_start(cluster);
    ClockRef r;
    if (int64_t last = cs.last_on_pipe[static_cast<int>(e.pipe)]; last >= 0)
        if (end_ref(cs, cluster, static_cast<uint32_t>(last), r)) join_ref(r);
    if (e.scalar_before >= 0) join_seq(cs, cluster, static_cast<uint32_t>(e.scalar_before));
    for (uint32_t d : e.deps) join_seq(cs, cluster, d);
    for (uint64_t t : e.acquires) {
        uint64_t own = 0;
        if (token_clock(t, own, r)) join_end(r, own);
    }
    const VC& start = m_start;
    const uint32_t c = static_cast<uint32_t>(comp(core, e.pipe));
    const uint32_t epoch = e.pipe_seq + 1;
    for (const GmAccess& g : e.gm) {
        Access a;
        a.core = core;
        a.pipe = e.pipe;
        a.comp = c;
        a.epoch = epoch;
        a.fence_next = cs.fences + 1;
        a.write = g.write;
        a.atomic = g.write && g.atomic;
        a.delayed = g.write && write_visibility_delay(g, m_vis_delay) > 0;
        a.ring = g.ring;
        a.ring_gen = g.ring_gen;
        a.loc = e.loc;
        a.cycle = g.write ? e.end : e.start;
        a.order = e.order;
        if (g.window.tensor == g.tensor) {
            check(std::move(a), g.window, start);
        } else {
            rt::Window w = g.window;
            w.tensor = g.tensor;
            check(std::move(a), w, start);
        }
    }
    // The clock at the end: the start plus its own epoch (and the fence count after a fence), both in the
    // cluster's own chunk.
    VC& end = m_start;
    if (!m_is_dirty[static_cast<size_t>(cluster)]) {
        m_is_dirty[static_cast<size_t>(cluster)] = 1;
        m_dirty.push_back(cluster);
    }
    end[c] = std::max(end[c], epoch);
    if (e.fence) {
        ++cs.fences;
        end[static_cast<size_t>(fence_comp(core))] = cs.fences;
    }
    const uint64_t own = (uint64_t{c} << 32) | epoch;
    const uint32_t snap = snapshot_of_start(cs, cluster);
    const uint32_t* chunk = end.data() + static_cast<size_t>(cluster) * kChunk;
    for (uint64_t t : e.releases) set_token_clock(t, cluster, snap, chunk, own);
    cs.last_on_pipe[static_cast<int>(e.pipe)] = e.seq;
    if (e.seq >= cs.has_end.size()) {
        size_t n = std::max<size_t>(static_cast<size_t>(e.seq) + 1, cs.has_end.size() * 2);
        cs.has_end.resize(n, 0);
        cs.own_end.resize(n, 0);
        cs.snap_end.resize(n, 0);
        cs.chunk_end.resize(n * kChunk, 0);
    }
    cs.has_end[e.seq] = 1;
    cs.own_end[e.seq] = own;
    cs.snap_end[e.seq] = snap;
    std::copy(chunk, chunk + kChunk, cs.chunk_end.begin() + static_cast<std::ptrdiff_t>(e.seq) * kChunk);
}

}  // namespace cvsim::sim
