// Chrome trace JSON writer (see chrome_trace.h).
//
// Layout of the document: {"otherData":{...},"traceEvents":[ one event per line ]}. Process 0 is the chip's
// GM (its bandwidth counter); process 1 + c is cluster c, with a "findings" lane on top and one lane per
// core x pipe in dataflow order. Timestamps are cycles written as integer microseconds. Events are written
// as they arrive; arrows (flow events) are written when their acquiring end arrives, so their start
// points back in time, which both viewers accept (they sort by timestamp). Everything written is derived
// from simulated cycles and stable names, so the same run gives the same bytes.
#include "traces/chrome_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <stdexcept>

namespace cvsim::traces {

namespace {

constexpr int kFindingsTid = 9;   // the findings lane of each cluster process
constexpr int kLaneTidBase = 10;  // lane i of a cluster is thread 10 + i
constexpr uint32_t kGmPid = 0;    // the chip-wide GM process
constexpr size_t kFlushBytes = size_t{1} << 20;
constexpr uint64_t kBandwidthWindow = 256;  // intervals a transfer may reach back (longer ones are clipped)

uint32_t cluster_pid(uint32_t cluster) {
    return cluster + 1;
}

std::string access_text(const sim::FindingAccess& a) {
    std::string who = a.cluster > 0 ? fmt::format("cluster {} ", a.cluster) : std::string();
    return fmt::format("{}{} {} {} at {} (cycle {})", who, core_label(static_cast<sim::CoreId>(a.core)),
                       ir::pipe_name(a.pipe), a.write ? "write" : "read", a.loc.short_str(), a.cycle);
}

}  // namespace

ChromeTrace::ChromeTrace(const std::string& path, ChromeTraceOptions opt)
    : m_opt(std::move(opt)), m_path(path), m_file(std::fopen(path.c_str(), "wb")), m_timeline(m_opt.anchor_capacity) {
    if (!m_file) throw std::runtime_error("cannot write trace '" + path + "'");
    if (m_opt.bandwidth_interval == 0) m_opt.bandwidth_interval = 1;
    auto out = std::back_inserter(m_buf);
    m_buf += "{\"otherData\":{\"clock_ghz\":";
    fmt::format_to(out, "{}", m_opt.clock_ghz);
    m_buf += ",\"time_unit\":\"1 us in this trace = 1 core clock cycle\"";
    fmt::format_to(out, ",\"gm_bandwidth_interval_cycles\":{}", m_opt.bandwidth_interval);
    for (const auto& [k, v] : m_opt.metadata) {
        m_buf += ',';
        append_json_string(m_buf, k);
        m_buf += ':';
        append_json_string(m_buf, v);
    }
    m_buf += "},\"traceEvents\":[\n";
    begin_record();
    fmt::format_to(out, R"({{"ph":"M","pid":{},"name":"process_name","args":{{"name":"GM"}}}})", kGmPid);
    begin_record();
    fmt::format_to(out, R"({{"ph":"M","pid":{},"name":"process_sort_index","args":{{"sort_index":1000000}}}})", kGmPid);
}

ChromeTrace::~ChromeTrace() {
    try {
        finish();
    } catch (const std::exception&) {
        // A destructor cannot report; finish() called explicitly does.
    }
}

void ChromeTrace::begin_record() {
    if (!m_first) m_buf += ",\n";
    m_first = false;
}

void ChromeTrace::flush(bool force) {
    if (!m_file || (!force && m_buf.size() < kFlushBytes)) return;
    // No throw: this runs inside SystemC's threads, and after them (see error()).
    if (!m_buf.empty() && m_error.empty() && std::fwrite(m_buf.data(), 1, m_buf.size(), m_file.get()) != m_buf.size())
        m_error = "write error on trace '" + m_path + "'";
    m_buf.clear();
}

void ChromeTrace::ensure_cluster(uint32_t cluster) {
    if (cluster < m_cluster_seen.size() && m_cluster_seen[cluster]) return;
    if (cluster >= m_cluster_seen.size()) m_cluster_seen.resize(cluster + 1, false);
    m_cluster_seen[cluster] = true;
    auto out = std::back_inserter(m_buf);
    const uint32_t pid = cluster_pid(cluster);
    begin_record();
    fmt::format_to(out, R"({{"ph":"M","pid":{},"name":"process_name","args":{{"name":"cluster {}"}}}})", pid, cluster);
    begin_record();
    fmt::format_to(out, R"({{"ph":"M","pid":{},"name":"process_sort_index","args":{{"sort_index":{}}}}})", pid, pid);
    begin_record();
    fmt::format_to(out, R"({{"ph":"M","pid":{},"tid":{},"name":"thread_name","args":{{"name":"findings"}}}})", pid,
                   kFindingsTid);
    begin_record();
    fmt::format_to(out, R"({{"ph":"M","pid":{},"tid":{},"name":"thread_sort_index","args":{{"sort_index":0}}}})", pid,
                   kFindingsTid);
    for (int i = 0; i < kLanesPerCluster; ++i) {
        begin_record();
        fmt::format_to(out, R"({{"ph":"M","pid":{},"tid":{},"name":"thread_name","args":{{"name":"{}"}}}})", pid,
                       kLaneTidBase + i, lane_name(i));
        begin_record();
        fmt::format_to(out, R"({{"ph":"M","pid":{},"tid":{},"name":"thread_sort_index","args":{{"sort_index":{}}}}})",
                       pid, kLaneTidBase + i, i + 1);
    }
}

void ChromeTrace::write_slice(const sim::Event& e, const Slice& s) {
    auto out = std::back_inserter(m_buf);
    begin_record();
    fmt::format_to(out, R"({{"ph":"X","pid":{},"tid":{},"ts":{},"dur":{},"cat":"{}","name":)", cluster_pid(e.cluster),
                   kLaneTidBase + s.lane, s.ts, s.dur, ir::pipe_name(e.pipe));
    append_json_string(m_buf, e.op);
    m_buf += ",\"args\":{\"line\":";
    append_json_string(m_buf, e.loc.short_str());
    fmt::format_to(out, ",\"bytes\":{},\"shape\":\"{}\",\"seq\":{}", e.bytes, shape_text(e.shape), e.seq);
    // A start moved to keep the lane free of overlaps keeps its real cycle here.
    if (s.ts != e.start) fmt::format_to(out, ",\"ready\":{}", e.start);
    std::string_view detail = e.detail;
    while (!detail.empty() && detail.back() == ' ') detail.remove_suffix(1);
    if (!detail.empty()) {
        m_buf += ",\"detail\":";
        append_json_string(m_buf, detail);
    }
    if (!e.gm.empty()) {
        m_buf += ",\"gm\":";
        append_json_string(m_buf, gm_text(e.gm, m_opt.tensor_names));
    }
    if (e.flag_event >= 0) fmt::format_to(out, ",\"event_id\":{}", e.flag_event);
    m_buf += "}}";
    ++m_slices;
}

void ChromeTrace::write_flow(uint64_t id, const char* ph, uint32_t cluster, int tid, uint64_t ts, uint64_t dur,
                             std::string_view name, std::string_view cat) {
    begin_record();
    // The middle of the slice in half cycles: "ts" or "ts.5" (a zero-length slice: its start).
    const uint64_t mid2 = 2 * ts + dur;
    fmt::format_to(std::back_inserter(m_buf),
                   R"({{"ph":"{}","id":{},"pid":{},"tid":{},"ts":{}{},"cat":"{}","name":"{}","bp":"e"}})", ph, id,
                   cluster_pid(cluster), tid, mid2 / 2, mid2 % 2 ? ".5" : "", cat, name);
}

void ChromeTrace::write_counter(uint32_t pid, std::string_view name, uint64_t ts,
                                const std::vector<std::pair<const char*, uint64_t>>& values) {
    auto out = std::back_inserter(m_buf);
    begin_record();
    fmt::format_to(out, R"({{"ph":"C","pid":{},"ts":{},"name":"{}","args":{{)", pid, ts, name);
    for (size_t i = 0; i < values.size(); ++i)
        fmt::format_to(out, R"({}"{}":{})", i ? "," : "", values[i].first, values[i].second);
    m_buf += "}}";
}

void ChromeTrace::write_bandwidth(uint64_t interval, uint64_t read_bytes, uint64_t write_bytes) {
    const bool zero = read_bytes == 0 && write_bytes == 0;
    if (zero && m_bw_zero) return;
    m_bw_zero = zero;
    write_counter(kGmPid, fmt::format("GM bytes per {} cycles", m_opt.bandwidth_interval),
                  interval * m_opt.bandwidth_interval, {{"read", read_bytes}, {"write", write_bytes}});
}

void ChromeTrace::flush_bandwidth_before(uint64_t interval) {
    while (m_bw_base < interval) {
        if (m_bw.empty()) {
            write_bandwidth(m_bw_base, 0, 0);  // the traffic stopped: one zero sample
            m_bw_base = interval;
            break;
        }
        write_bandwidth(m_bw_base, m_bw.front().first, m_bw.front().second);
        m_bw.pop_front();
        ++m_bw_base;
    }
}

void ChromeTrace::account_gm(uint64_t start, uint64_t end, uint64_t read_bytes, uint64_t write_bytes) {
    const uint64_t iv = m_opt.bandwidth_interval;
    const uint64_t last = (end > start ? end - 1 : end) / iv;  // interval of the transfer's last cycle
    if (last >= kBandwidthWindow) flush_bandwidth_before(last - kBandwidthWindow + 1);
    // A transfer that began before the pending window is spread over the part of it still pending.
    const uint64_t s = std::max(start, m_bw_base * iv);
    const uint64_t e = std::max(end, s);
    const uint64_t first = s / iv;
    while (m_bw_base + m_bw.size() <= last) m_bw.emplace_back(0, 0);
    const uint64_t len = e - s;
    uint64_t left_r = read_bytes, left_w = write_bytes;
    for (uint64_t b = first; b <= last; ++b) {
        auto& slot = m_bw[static_cast<size_t>(b - m_bw_base)];
        if (b == last || len == 0) {
            slot.first += left_r;
            slot.second += left_w;
            break;
        }
        const uint64_t overlap = std::min(e, (b + 1) * iv) - std::max(s, b * iv);
        const uint64_t r = read_bytes * overlap / len, w = write_bytes * overlap / len;
        slot.first += r;
        slot.second += w;
        left_r -= r;
        left_w -= w;
    }
}

void ChromeTrace::on_event(const sim::Event& e) {
    if (m_finished) return;
    m_end_cycle = std::max(m_end_cycle, e.end);
    Slice s = m_timeline.place(e);
    if (s.lane < 0) return;
    ensure_cluster(e.cluster);
    write_slice(e, s);
    // Arrows into this instruction from every release it acquired.
    for (uint64_t tok : e.acquires) {
        const Anchor* from = m_timeline.release_of(tok);
        if (!from) continue;
        const uint64_t id = m_next_flow++;
        std::string_view name = flow_name(from->kind);
        write_flow(id, "s", from->cluster, kLaneTidBase + from->lane, from->ts, from->dur, name, "sync");
        write_flow(id, "f", e.cluster, kLaneTidBase + s.lane, s.ts, s.dur, name, "sync");
        ++m_flows;
    }
    m_timeline.record(e, s, -1);
    if (e.ring_dir >= 0 && e.ring_occupancy >= 0)
        write_counter(cluster_pid(e.cluster), e.ring_dir == 0 ? "C2V ring occupancy" : "V2C ring occupancy", e.end,
                      {{"slots", static_cast<uint64_t>(e.ring_occupancy)}});
    if (!e.gm.empty()) {
        bool writes = false;
        for (const sim::GmAccess& g : e.gm) writes = writes || g.write;
        account_gm(e.start, e.end, writes ? 0 : e.bytes, writes ? e.bytes : 0);
    }
    flush(false);
}

void ChromeTrace::on_end(uint64_t end_cycle) {
    if (m_finished) return;
    m_end_cycle = std::max(m_end_cycle, end_cycle);
    flush_bandwidth_before(UINT64_MAX);
    flush(false);
}

void ChromeTrace::add_findings(const std::vector<sim::Finding>& findings) {
    if (m_finished) return;
    flush_bandwidth_before(UINT64_MAX);
    for (const sim::Finding& f : findings) {
        const uint32_t cluster = f.accesses.empty() ? 0 : f.accesses.back().cluster;
        // A finding about the whole run (an output mismatch) carries no cycle: mark the run's end.
        const uint64_t cycle = f.cycle == 0 && f.accesses.empty() ? m_end_cycle : f.cycle;
        ensure_cluster(cluster);
        // The mark is a one-cycle slice (both ends of its arrows are slices, which every viewer draws); marks
        // of one cluster never overlap: a second finding of the same cycle sits one cycle later.
        if (m_mark_end.size() <= cluster) m_mark_end.resize(cluster + 1, 0);
        const uint64_t ts = std::max(cycle, m_mark_end[cluster]);
        m_mark_end[cluster] = ts + 1;
        auto out = std::back_inserter(m_buf);
        begin_record();
        fmt::format_to(out, R"({{"ph":"X","pid":{},"tid":{},"ts":{},"dur":1,"cat":"finding","name":)",
                       cluster_pid(cluster), kFindingsTid, ts);
        append_json_string(m_buf, f.code);
        fmt::format_to(out, ",\"args\":{{\"cycle\":{},\"message\":", cycle);
        append_json_string(m_buf, f.message);
        if (f.loc.valid()) {
            m_buf += ",\"line\":";
            append_json_string(m_buf, f.loc.short_str());
        }
        static constexpr const char* kRole[] = {"first", "second"};
        for (size_t i = 0; i < f.accesses.size() && i < 2; ++i) {
            fmt::format_to(out, ",\"{}\":", kRole[i]);
            append_json_string(m_buf, access_text(f.accesses[i]));
        }
        if (!f.details.empty()) {
            m_buf += ",\"details\":[";
            for (size_t i = 0; i < f.details.size(); ++i) {
                if (i) m_buf += ',';
                append_json_string(m_buf, f.details[i]);
            }
            m_buf += ']';
        }
        m_buf += "}}";
        // Arrows from both accesses' slices to the mark. An access no longer indexed has no slice to start
        // from: the mark's "first"/"second" arguments still name it.
        for (const sim::FindingAccess& a : f.accesses) {
            std::optional<Anchor> at = m_timeline.access(a);
            if (!at) continue;
            const uint64_t id = m_next_flow++;
            write_flow(id, "s", a.cluster, kLaneTidBase + at->lane, at->ts, at->dur, "race access", "finding");
            write_flow(id, "f", cluster, kFindingsTid, ts, 1, "race access", "finding");
            ++m_flows;
        }
    }
    flush(false);
}

void ChromeTrace::finish() {
    if (m_finished) return;
    m_finished = true;
    flush_bandwidth_before(UINT64_MAX);
    m_buf += "\n]}\n";
    flush(true);
    std::FILE* f = m_file.release();
    if (std::fclose(f) != 0 && m_error.empty()) m_error = "write error on trace '" + m_path + "'";
}

}  // namespace cvsim::traces
