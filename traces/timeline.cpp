// Lane placement shared by the trace writers (see timeline.h).
#include "traces/timeline.h"

#include <algorithm>
#include <array>

#include "frontend/runtime.h"

namespace cvsim::traces {

namespace {

using sim::CoreId;
using P = ir::Pipe;

// Dataflow order: loads come in (MTE2), move inward (MTE1), compute (CUBE / VECTOR), leave (FIXP / MTE3).
constexpr std::array<Lane, kLanesPerCluster> kLanes = {{
    {CoreId::Aic, P::Scalar},
    {CoreId::Aic, P::Mte2},
    {CoreId::Aic, P::Mte1},
    {CoreId::Aic, P::Cube},
    {CoreId::Aic, P::Fixp},
    {CoreId::Aic, P::Mte3},
    {CoreId::Aiv0, P::Scalar},
    {CoreId::Aiv0, P::Mte2},
    {CoreId::Aiv0, P::Vector},
    {CoreId::Aiv0, P::Mte3},
    {CoreId::Aiv1, P::Scalar},
    {CoreId::Aiv1, P::Mte2},
    {CoreId::Aiv1, P::Vector},
    {CoreId::Aiv1, P::Mte3},
}};

std::string_view pipe_label(P p) {
    switch (p) {
        case P::Scalar:
            return "SCALAR";
        case P::Mte1:
            return "MTE1";
        case P::Mte2:
            return "MTE2";
        case P::Mte3:
            return "MTE3";
        case P::Cube:
            return "CUBE";
        case P::Fixp:
            return "FIXP";
        case P::Vector:
            return "VECTOR";
    }
    return "?";
}

}  // namespace

int lane_index(CoreId core, P pipe) {
    for (int i = 0; i < kLanesPerCluster; ++i)
        if (kLanes[static_cast<size_t>(i)].core == core && kLanes[static_cast<size_t>(i)].pipe == pipe) return i;
    return -1;
}

const Lane& lane_at(int index) {
    return kLanes[static_cast<size_t>(index)];
}

std::string_view core_label(CoreId core) {
    switch (core) {
        case CoreId::Aic:
            return "AIC";
        case CoreId::Aiv0:
            return "AIV0";
        case CoreId::Aiv1:
            return "AIV1";
    }
    return "?";
}

std::string lane_name(int index) {
    const Lane& l = lane_at(index);
    return std::string(core_label(l.core)) + " " + std::string(pipe_label(l.pipe));
}

FlowKind flow_kind(std::string_view op) {
    if (op.find("tpush") != std::string_view::npos) return FlowKind::Ring;
    if (op.find("tfree") != std::string_view::npos) return FlowKind::RingFree;
    if (op.find("sync_set") != std::string_view::npos) return FlowKind::Flag;
    if (op.find("syncall") != std::string_view::npos) return FlowKind::Barrier;
    return FlowKind::Other;
}

std::string_view flow_name(FlowKind k) {
    switch (k) {
        case FlowKind::Ring:
            return "tpush->tpop";
        case FlowKind::RingFree:
            return "tfree->tpush";
        case FlowKind::Flag:
            return "sync_set->sync_wait";
        case FlowKind::Barrier:
            return "syncall arrival->exit";
        case FlowKind::Other:
            return "sync";
    }
    return "sync";
}

std::string shape_text(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

std::string gm_text(const std::vector<sim::GmAccess>& gm, const std::vector<std::string>& tensor_names) {
    std::string out;
    for (const sim::GmAccess& g : gm) {
        if (!out.empty()) out += "; ";
        out += g.write ? "write " : "read ";
        out += g.tensor < tensor_names.size() ? tensor_names[g.tensor] : "tensor" + std::to_string(g.tensor);
        out += rt::window_str(g.window);
    }
    return out;
}

void append_json_string(std::string& out, std::string_view s, bool html_safe) {
    static constexpr char kHex[] = "0123456789abcdef";
    out.push_back('"');
    for (char ch : s) {
        auto c = static_cast<unsigned char>(ch);
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\r':
                out += "\\r";
                break;
            default:
                if (c < 0x20 || (html_safe && (c == '<' || c == '>' || c == '&'))) {
                    out += "\\u00";
                    out.push_back(kHex[c >> 4]);
                    out.push_back(kHex[c & 15]);
                } else {
                    out.push_back(ch);
                }
        }
    }
    out.push_back('"');
}

Timeline::Timeline(size_t anchor_capacity) : m_releases(anchor_capacity), m_accesses(anchor_capacity) {}

Slice Timeline::place(const sim::Event& e) {
    Slice s;
    if (e.kind != sim::EventKind::Instr) return s;
    s.lane = lane_index(e.core, e.pipe);
    if (s.lane < 0) return s;
    size_t slot = size_t{e.cluster} * kLanesPerCluster + static_cast<size_t>(s.lane);
    if (slot >= m_lane_end.size()) m_lane_end.resize(slot + 1, 0);
    uint64_t& lane_end = m_lane_end[slot];
    s.ts = std::max(e.start, lane_end);
    s.dur = e.end > s.ts ? e.end - s.ts : 0;
    lane_end = s.ts + s.dur;
    return s;
}

void Timeline::record(const sim::Event& e, const Slice& s, int64_t item) {
    if (s.lane < 0) return;
    Anchor a;
    a.cluster = e.cluster;
    a.lane = s.lane;
    a.ts = s.ts;
    a.dur = s.dur;
    a.item = item;
    if (!e.releases.empty()) {
        a.kind = flow_kind(e.op);
        for (uint64_t t : e.releases) m_releases.put(t, a);
    }
    for (const sim::GmAccess& g : e.gm) {
        AccessKey k;
        k.cluster = e.cluster;
        k.core = static_cast<uint8_t>(e.core);
        k.pipe = static_cast<uint8_t>(e.pipe);
        k.write = g.write;
        k.cycle = g.write ? e.end : e.start;
        m_accesses.put(k, a);
    }
}

std::optional<Anchor> Timeline::access(const sim::FindingAccess& fa) const {
    AccessKey k;
    k.cluster = fa.cluster;
    k.core = fa.core;
    k.pipe = static_cast<uint8_t>(fa.pipe);
    k.write = fa.write;
    k.cycle = fa.cycle;
    if (const Anchor* a = m_accesses.find(k)) return *a;
    return std::nullopt;
}

}  // namespace cvsim::traces
