// Self-contained HTML timeline writer: an event sink that buffers the instructions of a (small) run and
// writes one HTML file (inline CSS/JS, no network) drawing each core's lanes, handshake arrows and red
// finding marks, with zoom, pan, hover tooltips and a legend.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/event.h"
#include "sim/verdict.h"
#include "traces/timeline.h"

namespace cvsim::traces {

struct HtmlOptions {
    std::string title = "cvsim timeline";                       // page title (the kernel, usually)
    std::vector<std::pair<std::string, std::string>> metadata;  // shown under the title (policy, schedule, ...)
    double clock_ghz = 0;                                       // core clock, for the time axis label
    std::vector<std::string> tensor_names;                      // GM tensor names by index, for tooltips
    size_t max_instructions = 200'000;                          // instructions kept; later ones are dropped
};

// Same life cycle as ChromeTrace: construct per schedule -> events -> add_findings -> finish (or the
// destructor). Unlike the JSON writer it keeps what it draws, up to `max_instructions` (the page says
// so when the run had more).
class HtmlTimeline : public sim::EventSink {
  public:
    // Opens (truncates) `path` now, so a bad path fails before the run; throws std::runtime_error.
    HtmlTimeline(const std::string& path, HtmlOptions opt = {});
    ~HtmlTimeline() override;
    HtmlTimeline(const HtmlTimeline&) = delete;
    HtmlTimeline& operator=(const HtmlTimeline&) = delete;

    void on_event(const sim::Event& e) override;
    void on_end(uint64_t end_cycle) override;
    void add_findings(const std::vector<sim::Finding>& findings);
    // Cores that replay another core's program (a2a3: AIV1 replays AIV0): (cluster, core, replayed core).
    // Their lanes and handshake arrows are labelled "AIV1 (replay of AIV0)". Call before finish().
    void set_replays(std::vector<std::tuple<uint32_t, sim::CoreId, sim::CoreId>> replays) {
        m_replays = std::move(replays);
    }
    // Writes the page; throws std::runtime_error on a write error. Idempotent.
    void finish();  // never throws (runs after SystemC): a write error is kept in error()
    const std::string& error() const { return m_error; }

    size_t instructions_kept() const { return m_items.size(); }
    uint64_t instructions_dropped() const { return m_dropped; }

  private:
    struct Item {
        uint32_t cluster = 0;      // cluster index
        uint8_t lane = 0;          // lane in the cluster (timeline.h order)
        uint64_t ts = 0, dur = 0;  // drawn slice (cycles)
        uint32_t op = 0;           // interned strings: op name, source line, shape, detail, GM windows
        uint32_t loc = 0;
        uint32_t shape = 0;
        uint32_t detail = 0;
        uint32_t gm = 0;
        uint64_t bytes = 0;  // bytes moved
    };
    struct Flow {
        int64_t from = 0, to = 0;  // item indices
        FlowKind kind = FlowKind::Other;
    };
    struct Mark {
        std::string code, message;         // what the mark says
        std::vector<std::string> details;  // further lines
        uint32_t cluster = 0;              // cluster whose findings row holds the mark
        uint64_t ts = 0;                   // cycle of the mark
        struct Access {
            uint32_t cluster = 0;  // its cluster
            int64_t item = -1;     // the access's instruction, -1 when not kept
            int lane = -1;         // its lane
            uint64_t ts = 0;       // its cycle
            std::string text;      // "AIV0 MTE3 write at k.py:31 (cycle 1018)"
            std::string line;      // "k.py:31"
        };
        std::vector<Access> accesses;  // races: both accesses
    };

    uint32_t intern(const std::string& s);
    std::string data_json() const;

    HtmlOptions m_opt;                                       // page options
    std::string m_path;                                      // output file
    bool m_finished = false;                                 // the page was written
    std::string m_error;                                     // the write error ("" while none)
    Timeline m_timeline;                                     // lane placement, release and access indexes
    std::vector<Item> m_items;                               // kept instructions, in arrival order
    std::vector<Flow> m_flows;                               // arrows between kept instructions
    std::vector<Mark> m_marks;                               // findings
    std::vector<std::string> m_strings;                      // interned strings
    std::unordered_map<std::string, uint32_t> m_string_ids;  // string -> index in m_strings
    uint64_t m_dropped = 0;                                  // instructions beyond the cap
    uint64_t m_end_cycle = 0;                                // last cycle of the run
    uint32_t m_clusters = 0;                                 // clusters seen
    std::vector<std::tuple<uint32_t, sim::CoreId, sim::CoreId>> m_replays;  // replay cores (set_replays)
};

// The page around the data: CSS, the drawing script, and where the data goes (html_page.cpp).
std::string html_page(const std::string& title, const std::string& data_json);

}  // namespace cvsim::traces
