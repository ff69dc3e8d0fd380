// Self-contained HTML timeline writer (see html.h): collects the run, then writes the page with the data
// inlined as JSON (compact arrays; strings interned).
#include "traces/html.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace cvsim::traces {

namespace {}  // namespace

HtmlTimeline::HtmlTimeline(const std::string& path, HtmlOptions opt) : m_opt(std::move(opt)), m_path(path) {
    std::ofstream probe(path, std::ios::binary | std::ios::trunc);
    if (!probe) throw std::runtime_error("cannot write HTML timeline '" + path + "'");
    intern("");  // id 0: no string
}

HtmlTimeline::~HtmlTimeline() {
    try {
        finish();
    } catch (const std::exception&) {
        // A destructor cannot report; finish() called explicitly does.
    }
}

uint32_t HtmlTimeline::intern(const std::string& s) {
    auto [it, fresh] = m_string_ids.try_emplace(s, static_cast<uint32_t>(m_strings.size()));
    if (fresh) m_strings.push_back(s);
    return it->second;
}

void HtmlTimeline::on_event(const sim::Event& e) {
    if (m_finished) return;
    Slice s = m_timeline.place(e);
    if (s.lane < 0) return;
    m_clusters = std::max(m_clusters, uint32_t{e.cluster} + 1);
    m_end_cycle = std::max(m_end_cycle, e.end);
    if (m_items.size() >= m_opt.max_instructions) {
        ++m_dropped;
        m_timeline.record(e, s, -1);
        return;
    }
    const int64_t idx = static_cast<int64_t>(m_items.size());
    Item it;
    it.cluster = e.cluster;
    it.lane = static_cast<uint8_t>(s.lane);
    it.ts = s.ts;
    it.dur = s.dur;
    it.op = intern(std::string(e.op));
    it.loc = intern(e.loc.short_str());
    it.shape = e.shape.empty() ? 0 : intern(shape_text(e.shape));
    std::string detail = e.detail;
    while (!detail.empty() && detail.back() == ' ') detail.pop_back();
    it.detail = intern(detail);
    if (!e.gm.empty()) {
        it.gm = intern(gm_text(e.gm, m_opt.tensor_names));
    }
    it.bytes = e.bytes;
    m_items.push_back(it);
    for (uint64_t tok : e.acquires) {
        const Anchor* from = m_timeline.release_of(tok);
        if (from && from->item >= 0) m_flows.push_back({from->item, idx, from->kind});
    }
    m_timeline.record(e, s, idx);
}

void HtmlTimeline::on_end(uint64_t end_cycle) {
    m_end_cycle = std::max(m_end_cycle, end_cycle);
}

void HtmlTimeline::add_findings(const std::vector<sim::Finding>& findings) {
    for (const sim::Finding& f : findings) {
        Mark m;
        m.code = f.code;
        m.message = f.message;
        m.details = f.details;
        m.cluster = f.accesses.empty() ? 0 : f.accesses.back().cluster;
        m.ts = f.cycle == 0 && f.accesses.empty() ? m_end_cycle : f.cycle;  // whole-run findings: at the end
        for (const sim::FindingAccess& a : f.accesses) {
            Mark::Access ma;
            std::optional<Anchor> at = m_timeline.access(a);
            ma.cluster = a.cluster;
            ma.item = at ? at->item : -1;
            ma.lane = at ? at->lane : lane_index(static_cast<sim::CoreId>(a.core), a.pipe);
            ma.ts = at ? at->ts : a.cycle;
            std::string who = a.cluster > 0 ? fmt::format("cluster {} ", a.cluster) : std::string();
            ma.line = a.loc.short_str();
            ma.text = fmt::format("{}{} {} {} at {} (cycle {})", who, core_label(static_cast<sim::CoreId>(a.core)),
                                  ir::pipe_name(a.pipe), a.write ? "write" : "read", ma.line, a.cycle);
            m.accesses.push_back(std::move(ma));
            m_clusters = std::max(m_clusters, a.cluster + 1);
        }
        m_end_cycle = std::max(m_end_cycle, m.ts);
        m_marks.push_back(std::move(m));
    }
}

std::string HtmlTimeline::data_json() const {
    std::string j;
    auto out = std::back_inserter(j);
    auto str = [&](const std::string& s) { append_json_string(j, s, true); };
    j += "{\"title\":";
    str(m_opt.title);
    j += ",\"meta\":[";
    for (size_t i = 0; i < m_opt.metadata.size(); ++i) {
        j += i ? ",[" : "[";
        str(m_opt.metadata[i].first);
        j += ',';
        str(m_opt.metadata[i].second);
        j += ']';
    }
    fmt::format_to(out, "],\"clock_ghz\":{},\"end\":{},\"clusters\":{},\"dropped\":{},\"cap\":{}", m_opt.clock_ghz,
                   m_end_cycle, std::max<uint32_t>(m_clusters, 1), m_dropped, m_opt.max_instructions);
    j += ",\"lanes\":[";
    for (int i = 0; i < kLanesPerCluster; ++i) {
        if (i) j += ',';
        str(lane_name(i));
    }
    j += "],\"replays\":[";
    for (size_t i = 0; i < m_replays.size(); ++i) {
        const auto& [cluster, core, of] = m_replays[i];
        fmt::format_to(out, "{}[{},", i ? "," : "", cluster);
        str(std::string(core_label(core)));
        j += ',';
        str(std::string(core_label(of)));
        j += ']';
    }
    j += "],\"flow_kinds\":[";
    for (int k = 0; k < kFlowKinds; ++k) {
        if (k) j += ',';
        str(std::string(flow_name(static_cast<FlowKind>(k))));
    }
    j += "],\"strings\":[";
    for (size_t i = 0; i < m_strings.size(); ++i) {
        if (i) j += ',';
        str(m_strings[i]);
    }
    // Instructions: [cluster, lane, ts, dur, op, line, shape, detail, gm, bytes] (strings by index).
    j += "],\"instrs\":[";
    for (size_t i = 0; i < m_items.size(); ++i) {
        const Item& it = m_items[i];
        fmt::format_to(out, "{}[{},{},{},{},{},{},{},{},{},{}]", i ? ",\n" : "", it.cluster, it.lane, it.ts, it.dur,
                       it.op, it.loc, it.shape, it.detail, it.gm, it.bytes);
    }
    j += "],\"flows\":[";
    for (size_t i = 0; i < m_flows.size(); ++i)
        fmt::format_to(out, "{}[{},{},{}]", i ? "," : "", m_flows[i].from, m_flows[i].to,
                       static_cast<int>(m_flows[i].kind));
    j += "],\"findings\":[";
    for (size_t i = 0; i < m_marks.size(); ++i) {
        const Mark& m = m_marks[i];
        j += i ? ",{\"code\":" : "{\"code\":";
        str(m.code);
        j += ",\"message\":";
        str(m.message);
        fmt::format_to(out, ",\"cluster\":{},\"ts\":{},\"details\":[", m.cluster, m.ts);
        for (size_t d = 0; d < m.details.size(); ++d) {
            if (d) j += ',';
            str(m.details[d]);
        }
        j += "],\"accesses\":[";
        for (size_t a = 0; a < m.accesses.size(); ++a) {
            const Mark::Access& ma = m.accesses[a];
            fmt::format_to(out, "{}{{\"cluster\":{},\"item\":{},\"lane\":{},\"ts\":{},\"text\":", a ? "," : "",
                           ma.cluster, ma.item, ma.lane, ma.ts);
            str(ma.text);
            j += ",\"line\":";
            str(ma.line);
            j += '}';
        }
        j += "]}";
    }
    j += "]}";
    return j;
}

void HtmlTimeline::finish() {
    if (m_finished) return;
    m_finished = true;
    std::string page = html_page(m_opt.title, data_json());
    std::ofstream out(m_path, std::ios::binary | std::ios::trunc);
    if (!out) {
        m_error = "cannot write HTML timeline '" + m_path + "'";
        return;
    }
    out << page;
    out.flush();
    if (!out) m_error = "write error on HTML timeline '" + m_path + "'";
}

}  // namespace cvsim::traces
