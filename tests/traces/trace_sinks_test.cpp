// The trace writers fed directly with synthetic events (no simulation): lane placement, arrows, finding
// links, the HTML cap, and the memory of a million-event Chrome trace.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <map>

#include "trace_test_util.h"
#include "traces/chrome_trace.h"
#include "traces/html.h"

namespace {

using namespace cvsim;
using namespace cvsim::test;
using json = nlohmann::json;
using sim::CoreId;
using P = ir::Pipe;

TEST(ChromeTraceSink, LateStartsAndZeroLengthInstructionsStayInsideTheirLane) {
    ScratchDir d;
    {
        traces::ChromeTrace ct(d.file("t.json"));
        // One lane: a start before the previous end (a scalar instruction that waited), then zero-length ones.
        ct.on_event(make_event(CoreId::Aic, P::Scalar, "system.tfree_to_aiv", 0, 10));
        ct.on_event(make_event(CoreId::Aic, P::Scalar, "tile.tpop_from_aiv", 5, 12));
        ct.on_event(make_event(CoreId::Aic, P::Scalar, "system.sync_set", 12, 12));
        ct.on_event(make_event(CoreId::Aic, P::Scalar, "system.sync_set", 12, 12));
        ct.on_event(make_event(CoreId::Aic, P::Scalar, "tile.tpop_from_aiv", 12, 20));
        ct.on_end(20);
        ct.finish();
    }
    json t = read_json(d.file("t.json"));
    auto xs = events_of(t, "X");
    ASSERT_EQ(xs.size(), 5u);
    for (size_t i = 1; i < xs.size(); ++i)
        EXPECT_GE(xs[i].at("ts").get<uint64_t>(),
                  xs[i - 1].at("ts").get<uint64_t>() + xs[i - 1].at("dur").get<uint64_t>());
    // The moved slice ends where the instruction ended and remembers when it was ready.
    EXPECT_EQ(xs[1].at("ts"), 10);
    EXPECT_EQ(xs[1].at("dur"), 2);
    EXPECT_EQ(xs[1].at("args").at("ready"), 5);
    EXPECT_EQ(xs[4].at("ts"), 12);
    EXPECT_EQ(xs[4].at("dur"), 8);
}

TEST(ChromeTraceSink, EveryAcquirerOfAReleaseGetsItsOwnArrow) {
    ScratchDir d;
    {
        traces::ChromeTrace ct(d.file("t.json"));
        sim::Event set = make_event(CoreId::Aic, P::Mte2, "system.sync_set", 0, 5);
        set.releases = {42};
        ct.on_event(set);
        for (CoreId c : {CoreId::Aiv0, CoreId::Aiv1}) {
            sim::Event wait = make_event(c, P::Mte3, "system.sync_wait", 9, 10);
            wait.acquires = {42};
            ct.on_event(wait);
        }
        sim::Event unknown = make_event(CoreId::Aiv0, P::Scalar, "tile.tpop_from_aic", 11, 12);
        unknown.acquires = {7};  // released before the trace began: no arrow, no dangling flow
        ct.on_event(unknown);
        ct.finish();
        EXPECT_EQ(ct.flows_written(), 2u);
    }
    json t = read_json(d.file("t.json"));
    auto starts = events_of(t, "s");
    auto ends = events_of(t, "f");
    ASSERT_EQ(starts.size(), 2u);
    ASSERT_EQ(ends.size(), 2u);
    EXPECT_NE(starts[0].at("id"), starts[1].at("id"));
    for (size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(starts[i].at("name"), "sync_set->sync_wait");
        EXPECT_EQ(starts[i].at("tid"), 11);  // AIC MTE2
        EXPECT_DOUBLE_EQ(starts[i].at("ts").get<double>(), 2.5) << "inside the sync_set's slice 0..5";
    }
    EXPECT_EQ(thread_names(t, 1)[ends[0].at("tid").get<int>()], "AIV0 MTE3");
    EXPECT_EQ(thread_names(t, 1)[ends[1].at("tid").get<int>()], "AIV1 MTE3");
}

TEST(ChromeTraceSink, FindingsAreMarkedAfterTheRunAndLinkedToBothAccessSlices) {
    ScratchDir d;
    SourceFile src("k.py", "a\nb\nc\n");
    {
        traces::ChromeTrace ct(d.file("t.json"));
        sim::Event load = make_event(CoreId::Aic, P::Mte2, "tile.load", 4, 257);
        load.loc = {&src, 3, 1};
        load.gm = {{0, {}, false}};
        ct.on_event(load);
        sim::Event store = make_event(CoreId::Aiv0, P::Mte3, "tile.store", 930, 1018);
        store.loc = {&src, 1, 1};
        store.gm = {{0, {}, true}};
        ct.on_event(store);
        ct.on_end(1100);
        sim::Finding f;
        f.code = "E-RACE-RAW";
        f.message = "RAW on GM x";
        f.cycle = 1018;
        f.accesses = {{0, 1, P::Mte3, true, 1018, {&src, 1, 1}}, {0, 0, P::Mte2, false, 4, {&src, 3, 1}}};
        sim::Finding whole_run;
        whole_run.code = "E-MISMATCH";
        whole_run.message = "output out differs";
        ct.add_findings({f, whole_run});
        ct.finish();
    }
    json t = read_json(d.file("t.json"));
    std::vector<json> marks;
    for (const auto& x : events_of(t, "X"))
        if (x.value("cat", "") == "finding") marks.push_back(x);
    ASSERT_EQ(marks.size(), 2u);
    EXPECT_TRUE(events_of(t, "i").empty()) << "marks are slices, not instants";
    EXPECT_EQ(marks[0].at("ts"), 1018);
    EXPECT_EQ(marks[0].at("dur"), 1);
    EXPECT_EQ(marks[0].at("args").at("cycle"), 1018);
    EXPECT_EQ(marks[0].at("args").at("first"), "AIV0 MTE3 write at k.py:1 (cycle 1018)");
    EXPECT_EQ(marks[0].at("args").at("second"), "AIC MTE2 read at k.py:3 (cycle 4)");
    EXPECT_EQ(marks[1].at("ts"), 1100) << "a finding without a cycle sits at the end of the run";
    auto starts = events_of(t, "s");
    ASSERT_EQ(starts.size(), 2u);
    // The write's arrow starts inside its slice (930..1018), not at the cycle the checker names (its
    // completion, the slice's end, which a viewer could bind to the next slice); the load's inside 4..257.
    EXPECT_DOUBLE_EQ(starts[0].at("ts").get<double>(), 974);
    EXPECT_DOUBLE_EQ(starts[1].at("ts").get<double>(), 130.5);
    for (const auto& f : events_of(t, "f")) {
        EXPECT_DOUBLE_EQ(f.at("ts").get<double>(), 1018.5) << "inside the one-cycle mark";
        EXPECT_EQ(f.at("tid"), marks[0].at("tid"));
    }
}

TEST(ChromeTraceSink, AnUnwritablePathThrows) {
    EXPECT_THROW(traces::ChromeTrace("/nonexistent-dir/t.json"), std::runtime_error);
    EXPECT_THROW(traces::HtmlTimeline("/nonexistent-dir/t.html"), std::runtime_error);
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

// Peak and current resident memory of this process, in KiB.
uint64_t status_kb(const char* key) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0) return std::stoull(line.substr(std::string(key).size()));
    return 0;
}

TEST(ChromeTraceSink, AMillionEventsAreWrittenInBoundedMemory) {
    ScratchDir d;
    SourceFile src("big.py", "x\n");
    constexpr uint64_t kEvents = 1'200'000;
    uint64_t rss_at_200k = 0, rss_at_1m = 0, hwm_at_200k = 0;
    const uint64_t rss_before = status_kb("VmRSS:");
    {
        traces::ChromeTrace ct(d.file("big.json"));
        // A ring handshake loop: push (GM write, releases), pop (acquires), load (GM read), free (releases,
        // acquired by the next push). Every event indexes a release or a GM access, so the bounded indexes
        // are full long before the first measurement.
        uint64_t token = 1;
        for (uint64_t i = 0; i < kEvents; ++i) {
            const uint64_t t = i * 10;
            sim::Event e;
            switch (i % 4) {
                case 0:
                    e = make_event(CoreId::Aiv0, P::Mte3, "tile.tpush_to_aic", t, t + 8);
                    e.gm = {{1, {}, true}};
                    if (token > 1) e.acquires = {token - 1};
                    e.releases = {token++};
                    e.ring_dir = 1;
                    e.ring_occupancy = 1;
                    break;
                case 1:
                    e = make_event(CoreId::Aic, P::Scalar, "tile.tpop_from_aiv", t, t + 1);
                    e.acquires = {token - 1};
                    e.gm = {{1, {}, false}};
                    break;
                case 2:
                    e = make_event(CoreId::Aic, P::Mte2, "tile.load", t, t + 8);
                    e.gm = {{0, {}, false}};
                    e.bytes = 4096;
                    e.shape = {16, 128};
                    break;
                default:
                    e = make_event(CoreId::Aic, P::Scalar, "system.tfree_to_aiv", t, t + 1);
                    e.releases = {token++};
                    e.ring_dir = 1;
                    e.ring_occupancy = 0;
            }
            e.loc = {&src, 1, 1};
            e.seq = static_cast<uint32_t>(i);
            ct.on_event(e);
            if (i + 1 == 200'000) {
                rss_at_200k = status_kb("VmRSS:");
                hwm_at_200k = status_kb("VmHWM:");
            }
            if (i + 1 == 1'000'000) rss_at_1m = status_kb("VmRSS:");
        }
        ct.on_end(kEvents * 10);
        ct.finish();
        EXPECT_EQ(ct.slices_written(), kEvents);
        EXPECT_EQ(ct.flows_written(), kEvents / 2 - 1);
    }
    const uint64_t hwm_end = status_kb("VmHWM:");
    const uint64_t bytes = std::filesystem::file_size(d.file("big.json"));
    std::cout << "[ memory ] " << kEvents << " events, trace " << bytes / (1024 * 1024) << " MiB; VmRSS before "
              << rss_before << " KiB, after 200k events " << rss_at_200k << " KiB, after 1M " << rss_at_1m
              << " KiB (growth " << static_cast<int64_t>(rss_at_1m) - static_cast<int64_t>(rss_at_200k)
              << " KiB); VmHWM after 200k " << hwm_at_200k << " KiB, at the end " << hwm_end << " KiB\n";
    RecordProperty("rss_kib_200k", std::to_string(rss_at_200k));
    RecordProperty("rss_kib_1m", std::to_string(rss_at_1m));
    RecordProperty("hwm_kib_end", std::to_string(hwm_end));
    ASSERT_GT(rss_at_200k, 0u) << "no /proc/self/status";
    EXPECT_GT(bytes, uint64_t{200} << 20) << "the trace really holds the events";
    // The file is complete: it ends the event array and the document.
    std::ifstream in(d.file("big.json"), std::ios::binary);
    in.seekg(-4, std::ios::end);
    std::string tail(4, '\0');
    in.read(tail.data(), 4);
    EXPECT_EQ(tail, "\n]}\n");
    if (kSanitized)
        GTEST_SKIP() << "memory growth is not measured under AddressSanitizer (its quarantine keeps freed memory)";
    // 800k more events (about 200 MB more JSON) may not cost more than 1 MiB of memory.
    EXPECT_LT(static_cast<int64_t>(rss_at_1m) - static_cast<int64_t>(rss_at_200k), 1024);
    EXPECT_LT(static_cast<int64_t>(hwm_end) - static_cast<int64_t>(hwm_at_200k), 1024);
}

TEST(HtmlSink, KeepsAtMostTheCapAndCountsTheRest) {
    ScratchDir d;
    traces::HtmlOptions o;
    o.max_instructions = 10;
    traces::HtmlTimeline h(d.file("v.html"), o);
    for (uint64_t i = 0; i < 25; ++i) h.on_event(make_event(CoreId::Aiv0, P::Vector, "tile.add", i * 5, i * 5 + 4));
    h.finish();
    EXPECT_EQ(h.instructions_kept(), 10u);
    EXPECT_EQ(h.instructions_dropped(), 15u);
    std::string page = read_file(d.file("v.html"));
    EXPECT_NE(page.find("\"dropped\":15"), std::string::npos);
    // Self-contained: no external resource of any kind (the only URL is the SVG namespace name).
    for (const char* ext : {"https:", "src=", "<link", "@import", "fetch(", "XMLHttpRequest"})
        EXPECT_EQ(page.find(ext), std::string::npos) << ext;
    for (size_t at = page.find("http:"); at != std::string::npos; at = page.find("http:", at + 1))
        EXPECT_EQ(page.compare(at, 26, "http://www.w3.org/2000/svg"), 0) << page.substr(at, 40);
}

}  // namespace
