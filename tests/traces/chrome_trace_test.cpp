// Chrome trace JSON from `cvsim run --trace`: what a user opening it in Perfetto or chrome://tracing sees.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "trace_test_util.h"

namespace {

using namespace cvsim::test;
using json = nlohmann::json;

const std::vector<std::string> kLaneOrder = {"AIC SCALAR",  "AIC MTE2",    "AIC MTE1",    "AIC CUBE",    "AIC FIXP",
                                             "AIC MTE3",    "AIV0 SCALAR", "AIV0 MTE2",   "AIV0 VECTOR", "AIV0 MTE3",
                                             "AIV1 SCALAR", "AIV1 MTE2",   "AIV1 VECTOR", "AIV1 MTE3"};

struct TraceRun {
    RunResult run;      // the command's exit code and report
    std::string bytes;  // the trace file
    json trace;         // parsed
};

TraceRun run_trace(const ScratchDir& dir, const std::string& name, const std::string& kernel,
                   std::vector<std::string> args) {
    TraceRun t;
    std::string path = dir.file(name);
    std::vector<std::string> argv = {"run", kernel_path(kernel), "--trace", path};
    argv.insert(argv.end(), args.begin(), args.end());
    t.run = run_cvsim(argv);
    t.bytes = read_file(path);
    t.trace = json::parse(t.bytes);  // throws (fails the test) if the file is not JSON
    return t;
}

std::string lane_of(const json& trace, const json& ev) {
    auto names = thread_names(trace, ev.at("pid").get<int>());
    return names[ev.at("tid").get<int>()];
}

TEST(ChromeTraceCli, LanesAreNamedLikeTheProfilerAndSortedInDataflowOrder) {
    ScratchDir d;
    TraceRun t = run_trace(d, "t.json", "v2c_rope_attn.py", {"--v2c", "fence"});
    ASSERT_EQ(t.run.exit_code, 0) << t.run.err;
    // One process per cluster, named so.
    std::map<int, std::string> procs;
    for (const auto& m : events_of(t.trace, "M"))
        if (m.at("name") == "process_name") procs[m.at("pid").get<int>()] = m.at("args").at("name");
    EXPECT_EQ(procs[1], "cluster 0");
    // Lanes sorted by thread_sort_index give the profiler's dataflow order.
    std::vector<std::pair<int, std::string>> sorted;
    auto names = thread_names(t.trace, 1);
    for (const auto& m : events_of(t.trace, "M"))
        if (m.at("name") == "thread_sort_index" && m.at("pid") == 1)
            sorted.emplace_back(m.at("args").at("sort_index").get<int>(), names[m.at("tid").get<int>()]);
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::string> lanes;
    for (const auto& [idx, name] : sorted)
        if (name != "findings") lanes.push_back(name);
    EXPECT_EQ(lanes, kLaneOrder);
    // Every slice sits on one of these lanes, and its category is the lane's pipe.
    for (const auto& x : events_of(t.trace, "X")) {
        std::string lane = lane_of(t.trace, x);
        ASSERT_NE(std::find(kLaneOrder.begin(), kLaneOrder.end(), lane), kLaneOrder.end()) << x.dump();
        EXPECT_EQ(lane.substr(lane.find(' ') + 1), x.at("cat").get<std::string>()) << x.dump();
    }
}

TEST(ChromeTraceCli, EveryInstructionIsOneSliceWithItsSourceLineAndNoLaneOverlaps) {
    ScratchDir d;
    TraceRun t = run_trace(d, "t.json", "v2c_rope_attn.py", {"--v2c", "fence"});
    ASSERT_EQ(t.run.exit_code, 0) << t.run.err;
    std::string cycles_text = number_before(t.run.out, " cycles"),
                instr_text = number_before(t.run.out, " instructions");
    ASSERT_FALSE(cycles_text.empty() || instr_text.empty()) << t.run.out;
    const uint64_t cycles = std::stoull(cycles_text);
    auto slices = events_of(t.trace, "X");
    EXPECT_EQ(slices.size(), std::stoull(instr_text)) << "one slice per simulated instruction";
    std::map<std::pair<int, int>, std::vector<std::pair<uint64_t, uint64_t>>> lanes;
    for (const auto& x : slices) {
        // Integer cycles, inside the run.
        ASSERT_TRUE(x.at("ts").is_number_unsigned() && x.at("dur").is_number_unsigned()) << x.dump();
        uint64_t ts = x.at("ts"), dur = x.at("dur");
        EXPECT_LE(ts + dur, cycles) << x.dump();
        EXPECT_TRUE(is_prefix_digits_suffix(x.at("args").at("line").get<std::string>(), "v2c_rope_attn.py:", ""))
            << x.dump();
        EXPECT_TRUE(x.at("args").contains("bytes") && x.at("args").contains("shape")) << x.dump();
        lanes[{x.at("pid").get<int>(), x.at("tid").get<int>()}].emplace_back(ts, dur);
    }
    for (auto& [lane, v] : lanes) {
        // In file order (how the writer placed them) and in time order (how a viewer draws them).
        for (size_t i = 1; i < v.size(); ++i)
            EXPECT_GE(v[i].first, v[i - 1].first + v[i - 1].second) << "lane tid " << lane.second;
        std::stable_sort(v.begin(), v.end());
        for (size_t i = 1; i < v.size(); ++i)
            EXPECT_GE(v[i].first, v[i - 1].first + v[i - 1].second) << "lane tid " << lane.second;
    }
    // The vector store of q_rot is on AIV0 MTE3 with its GM window.
    bool store = false;
    for (const auto& x : slices)
        store =
            store || (x.at("name") == "tile.store" && x.at("args").at("line") == "v2c_rope_attn.py:31" &&
                      lane_of(t.trace, x) == "AIV0 MTE3" && x.at("args").value("gm", "") == "write q_rot[0:16, 0:128]");
    EXPECT_TRUE(store);
}

// Checks that every flow id has exactly one start and one end, each bound to exactly one complete (X)
// slice of its thread -- the point strictly inside the slice (or at a zero-length slice's start), so
// Perfetto's and chrome://tracing's "enclosing slice" binding picks that slice and no neighbour -- with
// the start's slice not after the end's; returns (start slice, end slice) per id.
std::map<uint64_t, std::pair<json, json>> bound_flows(const json& trace) {
    auto slices = events_of(trace, "X");
    std::map<uint64_t, std::pair<std::vector<json>, std::vector<json>>> ends;
    for (const auto& s : events_of(trace, "s")) ends[s.at("id")].first.push_back(s);
    for (const auto& f : events_of(trace, "f")) ends[f.at("id")].second.push_back(f);
    auto enclosing = [&](const json& p) -> const json* {
        const json* found = nullptr;
        const double ts = p.at("ts").get<double>();
        for (const auto& x : slices) {
            if (x.at("pid") != p.at("pid") || x.at("tid") != p.at("tid")) continue;
            const double t = x.at("ts").get<double>(), d = x.at("dur").get<double>();
            if ((t < ts && ts < t + d) || (d == 0 && t == ts)) {
                EXPECT_EQ(found, nullptr) << "flow point on two slices: " << p.dump();
                found = &x;
            }
        }
        return found;
    };
    std::map<uint64_t, std::pair<json, json>> out;
    for (const auto& [id, se] : ends) {
        EXPECT_EQ(se.first.size(), 1u) << "flow " << id << " starts";
        EXPECT_EQ(se.second.size(), 1u) << "flow " << id << " ends";
        if (se.first.size() != 1 || se.second.size() != 1) continue;
        const json& s = se.first[0];
        const json& f = se.second[0];
        EXPECT_EQ(f.value("bp", ""), "e");
        const json* from = enclosing(s);
        const json* to = enclosing(f);
        EXPECT_TRUE(from) << "flow start not on a slice: " << s.dump();
        EXPECT_TRUE(to) << "flow end not on a slice: " << f.dump();
        if (from && to) {
            EXPECT_LE(from->at("ts").get<uint64_t>(), to->at("ts").get<uint64_t>()) << s.dump() << f.dump();
            out[id] = {*from, *to};
        }
    }
    return out;
}

// The finding marks: one-cycle slices on the findings lanes.
std::vector<json> finding_marks(const json& trace) {
    std::vector<json> out;
    for (const auto& x : events_of(trace, "X"))
        if (x.value("cat", "") == "finding") out.push_back(x);
    return out;
}

TEST(ChromeTraceCli, EveryFlowHasOneStartAndOneEndOnASlice) {
    ScratchDir d;
    for (const char* policy : {"fence", "off", "syncall"}) {
        TraceRun t = run_trace(d, std::string(policy) + ".json", "v2c_rope_attn.py", {"--v2c", policy});
        auto flows = bound_flows(t.trace);
        EXPECT_FALSE(flows.empty()) << policy;
    }
    TraceRun t =
        run_trace(d, "flags.json", "v2c_reused_scratch.py", {"--v2c", "fence", "--schedule", "random", "--seed", "3"});
    EXPECT_FALSE(bound_flows(t.trace).empty());
}

TEST(ChromeTraceCli, FenceTraceHasTheV2CArrowFromTpushToTpopOrderingStoreBeforeLoad) {
    ScratchDir d;
    TraceRun t = run_trace(d, "t.json", "v2c_rope_attn.py", {"--v2c", "fence"});
    ASSERT_EQ(t.run.exit_code, 0) << t.run.err;
    EXPECT_TRUE(finding_marks(t.trace).empty()) << "the fenced kernel has no finding";
    EXPECT_TRUE(events_of(t.trace, "i").empty()) << "no instants: arrows end on slices";
    bool arrow = false;
    for (const auto& [id, ends] : bound_flows(t.trace)) {
        const auto& [from, to] = ends;
        if (from.at("name") == "tile.tpush_to_aic" && lane_of(t.trace, from) == "AIV0 MTE3" &&
            to.at("name") == "tile.tpop_from_aiv" && lane_of(t.trace, to).rfind("AIC ", 0) == 0) {
            arrow = true;
        }
    }
    EXPECT_TRUE(arrow) << "no tpush_to_aic (AIV0) -> tpop_from_aiv (AIC) arrow";
    // What the arrow orders: the store of line 31 ends before the cube's load of line 33 begins.
    uint64_t store_end = 0, load_start = UINT64_MAX;
    for (const auto& x : events_of(t.trace, "X")) {
        if (x.at("args").value("gm", "") == "write q_rot[0:16, 0:128]")
            store_end = x.at("ts").get<uint64_t>() + x.at("dur").get<uint64_t>();
        if (x.at("args").value("gm", "") == "read q_rot[0:16, 0:128]") load_start = x.at("ts");
    }
    EXPECT_GT(store_end, 0u);
    EXPECT_LE(store_end, load_start);
}

TEST(ChromeTraceCli, OffTraceMarksTheRaceBetweenTheVectorStoreAndTheCubeLoad) {
    ScratchDir d;
    TraceRun t = run_trace(d, "t.json", "v2c_rope_attn.py", {"--v2c", "off"});
    EXPECT_EQ(t.run.exit_code, 1);
    const json* race = nullptr;
    auto marks = finding_marks(t.trace);
    for (const auto& i : marks)
        if (i.at("name") == "E-RACE-RAW") race = &i;
    ASSERT_TRUE(race) << "no race mark";
    EXPECT_EQ(race->at("dur"), 1);
    EXPECT_EQ(lane_of(t.trace, *race), "findings");
    const json& args = race->at("args");
    EXPECT_TRUE(is_prefix_digits_suffix(args.at("first").get<std::string>(),
                                        "AIV0 MTE3 write at v2c_rope_attn.py:31 (cycle ", ")"))
        << args;
    EXPECT_TRUE(is_prefix_digits_suffix(args.at("second").get<std::string>(),
                                        "AIC MTE2 read at v2c_rope_attn.py:33 (cycle ", ")"))
        << args;
    EXPECT_NE(args.at("message").get<std::string>().find("q_rot[0:16, 0:128]"), std::string::npos);
    // Arrows from both accesses' slices end at the mark.
    std::set<std::string> linked;
    for (const auto& [id, ends] : bound_flows(t.trace)) {
        const auto& [from, to] = ends;
        if (to.value("cat", "") == "finding" && to.at("name") == "E-RACE-RAW")
            linked.insert(from.at("name").get<std::string>() + "@" + from.at("args").at("line").get<std::string>() +
                          " " + lane_of(t.trace, from));
    }
    EXPECT_EQ(linked, (std::set<std::string>{"tile.store@v2c_rope_attn.py:31 AIV0 MTE3",
                                             "tile.load@v2c_rope_attn.py:33 AIC MTE2"}));
}

TEST(ChromeTraceCli, SameRunGivesByteIdenticalTraces) {
    ScratchDir d;
    TraceRun a = run_trace(d, "a.json", "v2c_rope_attn.py", {"--v2c", "fence"});
    TraceRun b = run_trace(d, "b.json", "v2c_rope_attn.py", {"--v2c", "fence"});
    EXPECT_EQ(a.bytes, b.bytes);
    TraceRun r1 = run_trace(d, "r1.json", "v2c_rope_attn.py", {"--v2c", "off", "--schedule", "random", "--seed", "11"});
    TraceRun r2 = run_trace(d, "r2.json", "v2c_rope_attn.py", {"--v2c", "off", "--schedule", "random", "--seed", "11"});
    EXPECT_EQ(r1.bytes, r2.bytes);
    // The comparison can fail: another schedule is another trace.
    TraceRun r3 = run_trace(d, "r3.json", "v2c_rope_attn.py", {"--v2c", "off", "--schedule", "random", "--seed", "12"});
    EXPECT_NE(r1.bytes, r3.bytes);
}

TEST(ChromeTraceCli, CountersShowRingOccupancyAndConserveGmBytes) {
    ScratchDir d;
    TraceRun t = run_trace(d, "t.json", "v2c_rope_attn.py", {"--v2c", "fence"});
    std::map<std::string, std::vector<uint64_t>> ring;
    uint64_t counted = 0;
    json last_bw;
    for (const auto& c : events_of(t.trace, "C")) {
        std::string name = c.at("name");
        if (name.find("ring occupancy") != std::string::npos) ring[name].push_back(c.at("args").at("slots"));
        if (name.rfind("GM bytes per ", 0) == 0) {
            counted += c.at("args").at("read").get<uint64_t>() + c.at("args").at("write").get<uint64_t>();
            last_bw = c;
        }
    }
    for (const char* dir : {"C2V ring occupancy", "V2C ring occupancy"}) {
        ASSERT_FALSE(ring[dir].empty()) << dir;
        EXPECT_EQ(*std::max_element(ring[dir].begin(), ring[dir].end()), 1u) << dir;  // the report's max occupancy
        EXPECT_EQ(ring[dir].back(), 0u) << dir << ": every slot freed at the end";
    }
    uint64_t moved = 0;
    for (const auto& x : events_of(t.trace, "X"))
        if (x.at("args").contains("gm")) moved += x.at("args").at("bytes").get<uint64_t>();
    EXPECT_GT(moved, 0u);
    EXPECT_EQ(counted, moved) << "the bandwidth counter accounts every GM byte once";
    EXPECT_EQ(last_bw.at("args").at("read"), 0);
    EXPECT_EQ(last_bw.at("args").at("write"), 0);
}

TEST(ChromeTraceCli, SyncallArrowsGoFromEveryArrivalToEveryExit) {
    ScratchDir d;
    TraceRun t = run_trace(d, "t.json", "v2c_rope_attn.py", {"--v2c", "syncall"});
    ASSERT_EQ(t.run.exit_code, 0) << t.run.err;
    std::map<std::string, std::set<std::string>> into;  // exit lane -> arrival lanes
    for (const auto& [id, ends] : bound_flows(t.trace)) {
        const auto& [from, to] = ends;
        if (from.at("name") == "system.syncall" && to.at("name") == "system.syncall")
            into[lane_of(t.trace, to)].insert(lane_of(t.trace, from));
    }
    const std::set<std::string> cores = {"AIC SCALAR", "AIV0 SCALAR", "AIV1 SCALAR"};
    ASSERT_EQ(into.size(), 3u);
    for (const auto& [exit_lane, arrivals] : into) EXPECT_EQ(arrivals, cores) << exit_lane;
}

TEST(ChromeTraceCli, OtherDataCarriesTheClockAndTheRun) {
    ScratchDir d;
    TraceRun t = run_trace(d, "t.json", "v2c_rope_attn.py", {"--v2c", "off", "--schedule", "random", "--seed", "5"});
    std::string ghz = number_before(t.run.out, " GHz");
    ASSERT_FALSE(ghz.empty()) << t.run.out;
    const json& od = t.trace.at("otherData");
    EXPECT_DOUBLE_EQ(od.at("clock_ghz").get<double>(), std::stod(ghz));
    EXPECT_EQ(od.at("kernel"), "v2c_rope_attn.py");
    EXPECT_EQ(od.at("v2c"), "off");
    EXPECT_EQ(od.at("schedule"), "random");
    EXPECT_EQ(od.at("seed"), "5");
    EXPECT_NE(od.at("time_unit").get<std::string>().find("cycle"), std::string::npos);
}

TEST(ChromeTraceCli, AnUnwritableTracePathIsAnInputError) {
    RunResult r = run_cvsim({"run", kernel_path("v2c_rope_attn.py"), "--trace", "/nonexistent-dir/t.json"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("/nonexistent-dir/t.json"), std::string::npos) << r.err;
}

}  // namespace

// A golden trace of a small kernel: the exact bytes a user gets for `cvsim run v2c_rope_attn.py` (fence,
// nominal). It changes whenever the model's timing or the writer changes; regenerate it then with
// CVSIM_UPDATE_GOLDEN=1 and review the diff.
TEST(ChromeTraceCli, TheTraceOfTheFencedRopeKernelMatchesItsGolden) {
    ScratchDir d;
    TraceRun t = run_trace(d, "t.json", "v2c_rope_attn.py", {"--v2c", "fence"});
    ASSERT_EQ(t.run.exit_code, 0) << t.run.err;
    std::string golden = source_dir() + "/tests/traces/golden/v2c_rope_attn_fence.json";
    if (const char* u = std::getenv("CVSIM_UPDATE_GOLDEN"); u && *u == '1') {
        std::ofstream(golden, std::ios::binary) << t.bytes;
        GTEST_SKIP() << "rewrote " << golden;
    }
    std::string want = read_file(golden);
    ASSERT_EQ(t.bytes.size(), want.size()) << "regenerate with CVSIM_UPDATE_GOLDEN=1 if the change is intended";
    EXPECT_TRUE(t.bytes == want) << "regenerate with CVSIM_UPDATE_GOLDEN=1 if the change is intended";
}

// `explore --save-failures DIR`: per distinct finding, the replay command and the three views of the
// failing schedule, and those views are exactly what the replay command writes.
TEST(ExploreSaveFailures, WritesTheReplayAndTheThreeViewsOfEachFailingSchedule) {
    ScratchDir d;
    std::string dir = d.file("failures");
    RunResult r = run_cvsim({"explore", kernel_path("v2c_rope_attn.py"), "--v2c", "off", "--schedules", "8", "--seed",
                             "5", "--jobs", "1", "--no-progress", "--save-failures", dir});
    ASSERT_EQ(r.exit_code, 1) << r.err;
    std::vector<std::string> stems;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        if (e.path().extension() == ".txt")
            stems.push_back(e.path().parent_path().string() + "/" + e.path().stem().string());
    ASSERT_FALSE(stems.empty());
    for (const auto& stem : stems) {
        std::string txt = read_file(stem + ".txt");
        EXPECT_NE(txt.find("E-RACE-RAW"), std::string::npos) << txt;
        // The replay line, then its trace written by hand, byte for byte the saved one.
        auto pos = txt.find("cvsim run ");
        ASSERT_NE(pos, std::string::npos) << txt;
        auto args = split_args(txt.substr(pos + 6, txt.find('\n', pos) - pos - 6));
        std::string again = d.file("again.json");
        args.insert(args.end(), {"-q", "--trace", again});
        EXPECT_EQ(run_cvsim(args).exit_code, 1);
        std::string saved = read_file(stem + ".json");
        EXPECT_TRUE(saved == read_file(again)) << stem;
        json trace = json::parse(saved);
        bool race_mark = false;
        for (const auto& i : finding_marks(trace)) race_mark |= i.at("name") == "E-RACE-RAW";
        EXPECT_TRUE(race_mark);
        std::string vcd = read_file(stem + ".vcd");
        EXPECT_NE(vcd.find("$enddefinitions"), std::string::npos);
        EXPECT_NE(vcd.find("ring_V2C"), std::string::npos);
        std::string html = read_file(stem + ".html");
        EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u) << html.substr(0, 40);
        EXPECT_NE(html.find("E-RACE-RAW"), std::string::npos);
    }
}
