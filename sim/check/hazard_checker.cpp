// Happens-before hazard checker (see the header for the rules).
#include "sim/check/hazard_checker.h"

#include <fmt/format.h>

#include <algorithm>

namespace cvsim::sim {

HazardChecker::HazardChecker(int clusters, const rt::TensorStore* tensors, uint64_t visibility_delay)
    : m_ncomp(clusters * kCoresPerCluster * kComps), m_tensors(tensors), m_vis_delay(visibility_delay) {
    reset(visibility_delay);
}

void HazardChecker::reset(uint64_t visibility_delay) {
    m_vis_delay = visibility_delay;
    m_cores.assign(static_cast<size_t>(m_ncomp / kComps), CoreState{});
    for (auto& c : m_cores)
        for (auto& v : c.last_on_pipe) v.assign(static_cast<size_t>(m_ncomp), 0);
    m_tokens.clear();
    m_shadow.clear();
    m_findings.clear();
    m_reported.clear();
    m_checked = 0;
}

void HazardChecker::join(VC& a, const VC& b) {
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) a[i] = std::max(a[i], b[i]);
}

static bool overlap(const rt::Window& a, const rt::Window& b) {
    if (a.offsets.size() != b.offsets.size()) return true;
    for (size_t d = 0; d < a.offsets.size(); ++d)
        if (a.offsets[d] + a.extents[d] <= b.offsets[d] || b.offsets[d] + b.extents[d] <= a.offsets[d]) return false;
    return true;
}

static bool covers(const rt::Window& big, const rt::Window& small) {
    if (big.offsets.size() != small.offsets.size()) return false;
    for (size_t d = 0; d < big.offsets.size(); ++d)
        if (small.offsets[d] < big.offsets[d] || small.offsets[d] + small.extents[d] > big.offsets[d] + big.extents[d]) return false;
    return true;
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
    if (first.write && m_vis_delay > 0) return second_start[static_cast<size_t>(fence_comp(first.core))] >= first.fence_next;
    return second_start[first.comp] >= first.epoch;
}

std::string HazardChecker::tensor_label(uint32_t tensor, const rt::Window& w) const {
    std::string name = m_tensors && tensor < m_tensors->tensors.size() ? m_tensors->tensors[tensor].name : fmt::format("tensor{}", tensor);
    return name + rt::window_str(w);
}

void HazardChecker::report(const Access& earlier, const Access& later) {
    // Name the race by the order the sequential program intended; without one, by the observed order.
    int ord = earlier.order && later.order ? compare_order(*earlier.order, *later.order) : 0;
    const Access& first = ord > 0 ? later : earlier;
    const Access& second = ord > 0 ? earlier : later;
    std::string kind = first.write && second.write ? "WAW" : first.write ? "RAW" : "WAR";
    auto who = [](const Access& a) {
        int cluster = a.core / kCoresPerCluster;
        std::string core(core_name(static_cast<CoreId>(a.core % kCoresPerCluster)));
        return cluster > 0 ? fmt::format("cluster {} {}", cluster, core) : core;
    };
    std::string key = fmt::format("{}|{}|{}:{}|{}:{}", kind, first.w.tensor, first.loc.str(), first.core, second.loc.str(), second.core);
    if (!m_reported.insert(key).second) return;
    Finding f;
    f.code = "E-RACE-" + kind;
    f.message = fmt::format("{} on GM {}: {} {} {} at {} (cycle {}) is not ordered before {} {} {} at {} (cycle {})", kind,
                            tensor_label(first.w.tensor, intersect(first.w, second.w)), who(first), ir::pipe_name(first.pipe),
                            first.write ? "write" : "read", first.loc.short_str(), first.cycle, who(second), ir::pipe_name(second.pipe),
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
    if (kind == "RAW") f.details.push_back("hint: order the producer before the consumer (a tpush/tpop fence, sync_set/sync_wait, or system.fence() + syncall)");
    else if (kind == "WAR") f.details.push_back("hint: the writer must wait until the reader has finished (a reverse flag or a barrier after the read)");
    m_findings.push_back(std::move(f));
}

void HazardChecker::check(const Access& a, const VC& start) {
    auto& recs = m_shadow[a.w.tensor];
    ++m_checked;
    for (const Access& b : recs) {
        if (b.core == a.core) continue;              // same core: ordered by the core itself
        if (!b.write && !a.write) continue;
        if (!overlap(a.w, b.w)) continue;
        if (ordered_before(b, start)) continue;
        report(b, a);
    }
    // Supersede what this access makes redundant (FastTrack): a write covering older accesses that are
    // ordered before it; a read covering older reads of the same pipe.
    std::erase_if(recs, [&](const Access& b) {
        if (!covers(a.w, b.w)) return false;
        if (a.write) return b.core == a.core || ordered_before(b, start);
        return !b.write && b.core == a.core && b.pipe == a.pipe;
    });
    recs.push_back(a);
}

void HazardChecker::on_event(const Event& e) {
    if (e.kind != EventKind::Instr) return;
    const int core = e.cluster * kCoresPerCluster + static_cast<int>(e.core);
    if (core >= static_cast<int>(m_cores.size())) return;
    CoreState& cs = m_cores[static_cast<size_t>(core)];
    VC start(static_cast<size_t>(m_ncomp), 0);
    if (e.scalar_before >= 0) {
        auto it = cs.vc_end.find(static_cast<uint32_t>(e.scalar_before));
        if (it != cs.vc_end.end()) join(start, it->second);
    }
    for (uint32_t d : e.deps) {
        auto it = cs.vc_end.find(d);
        if (it != cs.vc_end.end()) join(start, it->second);
    }
    join(start, cs.last_on_pipe[static_cast<int>(e.pipe)]);
    for (uint64_t t : e.acquires) {
        auto it = m_tokens.find(t);
        if (it != m_tokens.end()) join(start, it->second);
    }
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
        a.w = g.window;
        a.w.tensor = g.tensor;
        a.loc = e.loc;
        a.op = e.op;
        a.cycle = g.write ? e.end : e.start;
        a.order = e.order;
        check(a, start);
    }
    VC end = std::move(start);
    end[c] = std::max(end[c], epoch);
    if (e.fence) {
        ++cs.fences;
        end[static_cast<size_t>(fence_comp(core))] = cs.fences;
    }
    for (uint64_t t : e.releases) m_tokens[t] = end;
    cs.last_on_pipe[static_cast<int>(e.pipe)] = end;
    cs.vc_end[e.seq] = std::move(end);
}

}  // namespace cvsim::sim
