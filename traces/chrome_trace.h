// Chrome trace JSON writer (Perfetto UI, chrome://tracing): an event sink that streams one slice per
// instruction, handshake arrows, ring/GM counters and, after the run, one instant event per finding.
#pragma once

#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/event.h"
#include "sim/verdict.h"
#include "traces/timeline.h"

namespace cvsim::traces {

struct ChromeTraceOptions {
    double clock_ghz = 0;                                       // core clock, written to otherData
    std::vector<std::pair<std::string, std::string>> metadata;  // more otherData (kernel, policy, schedule, ...)
    std::vector<std::string> tensor_names;                      // GM tensor names by index, for slice args
    uint64_t bandwidth_interval = 100;                          // cycles per GM bandwidth counter sample
    size_t anchor_capacity = size_t{1} << 16;                   // releases / accesses kept for arrows
};

// Life cycle, per schedule: construct with a path -> events (on_event, on_end) -> add_findings (the
// schedule's findings, known only after the run) -> finish (or the destructor). Memory does not grow
// with the number of events: slices are written as they arrive, and the indexes behind arrows and
// finding links are bounded (timeline.h).
class ChromeTrace : public sim::EventSink {
  public:
    // Opens `path` and writes the header; throws std::runtime_error if it cannot be written.
    ChromeTrace(const std::string& path, ChromeTraceOptions opt = {});
    ~ChromeTrace() override;
    ChromeTrace(const ChromeTrace&) = delete;
    ChromeTrace& operator=(const ChromeTrace&) = delete;

    void on_event(const sim::Event& e) override;
    void on_end(uint64_t end_cycle) override;
    // One instant event per finding on its cluster's "findings" lane; a race is linked by arrows to both
    // accesses' slices.
    void add_findings(const std::vector<sim::Finding>& findings);
    // Closes the JSON document and the file. Idempotent. Never throws (it runs after SystemC, where an
    // unwinding exception trips ASan): a write error is kept in error().
    void finish();
    const std::string& error() const { return m_error; }

    uint64_t slices_written() const { return m_slices; }
    uint64_t flows_written() const { return m_flows; }

  private:
    struct FileCloser {
        void operator()(std::FILE* f) const { std::fclose(f); }
    };

    void begin_record();  // separator before the next trace event
    void flush(bool force);
    void ensure_cluster(uint32_t cluster);  // process and lane metadata, once per cluster
    void write_slice(const sim::Event& e, const Slice& s);
    // A flow end bound to the slice [ts, ts + dur] of (cluster, tid): its point lies strictly inside the slice
    // (the middle, a half cycle when needed), so viewers bind it to that slice and no neighbour.
    void write_flow(uint64_t id, const char* ph, uint32_t cluster, int tid, uint64_t ts, uint64_t dur,
                    std::string_view name, std::string_view cat);
    void write_counter(uint32_t pid, std::string_view name, uint64_t ts,
                       const std::vector<std::pair<const char*, uint64_t>>& values);
    void account_gm(uint64_t start, uint64_t end, uint64_t read_bytes, uint64_t write_bytes);
    void flush_bandwidth_before(uint64_t interval);  // writes every pending interval before `interval`
    void write_bandwidth(uint64_t interval, uint64_t read_bytes, uint64_t write_bytes);

    ChromeTraceOptions m_opt;                       // what to write besides the events
    std::string m_path;                             // output file (for error messages)
    std::unique_ptr<std::FILE, FileCloser> m_file;  // the open output
    std::string m_buf;                              // pending output, written in large blocks
    bool m_first = true;                            // no trace event written yet (no comma needed)
    bool m_finished = false;                        // the document is closed
    std::string m_error;                            // the first write error ("" while none)
    std::vector<bool> m_cluster_seen;               // metadata written, per cluster
    Timeline m_timeline;                            // lane placement, release and access indexes
    uint64_t m_next_flow = 1;                       // next flow id
    uint64_t m_slices = 0;                          // X events written
    uint64_t m_flows = 0;                           // flow arrows written (s/f pairs)
    std::vector<uint64_t> m_mark_end;               // per cluster: end of the last finding mark (marks never overlap)
    // GM bandwidth: each transfer's bytes are spread over its cycles, per interval. Intervals more than
    // kBandwidthWindow behind the latest completion are final and written; the rest wait here.
    std::deque<std::pair<uint64_t, uint64_t>> m_bw;  // (read, write) bytes of intervals m_bw_base, m_bw_base + 1, ...
    uint64_t m_bw_base = 0;                          // index of the first pending interval
    bool m_bw_zero = true;                           // the last sample written was zero (zeros are not repeated)
    uint64_t m_end_cycle = 0;                        // last cycle of the run (for findings without a cycle)
};

}  // namespace cvsim::traces
