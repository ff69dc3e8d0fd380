// The HTML timeline of `cvsim run --html`, loaded in a real browser (headless Chromium): the page's script
// must have drawn the lanes, the handshake arrows and the finding marks, and must answer hover, wheel
// and drag. Skipped only when /usr/bin/chromium is not installed (`scripts/setup.sh --ci` installs it).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "trace_test_util.h"
#include "traces/html.h"

namespace {

using namespace cvsim::test;
using json = nlohmann::json;

const char* kChromium = "/usr/bin/chromium";

#define REQUIRE_CHROMIUM()                   \
    if (!std::filesystem::exists(kChromium)) \
    GTEST_SKIP() << kChromium << " is not installed (scripts/setup.sh --ci installs it)"

std::string unescape(std::string s) {
    for (auto [from, to] : {std::pair{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&amp;", "&"}})
        for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + 1))
            s.replace(at, std::string(from).size(), to);
    return s;
}

// The DOM after the page's scripts ran. `extra` adds browser flags.
std::string dump_dom(const ScratchDir& d, const std::string& page, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> argv = {kChromium,
                                     "--headless",
                                     "--no-sandbox",
                                     "--disable-gpu",
                                     "--disable-background-networking",
                                     "--disable-component-update",
                                     "--disable-sync",
                                     "--no-first-run",
                                     "--window-size=1400,800",
                                     "--user-data-dir=" + d.file("profile")};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.push_back("--dump-dom");
    argv.push_back("file://" + page);
    ProcessResult r = run_process(argv, d.file("dom.html"), d.file("chromium.log"), 120);
    EXPECT_FALSE(r.timed_out) << "chromium timed out";
    EXPECT_EQ(r.exit_code, 0) << read_file(d.file("chromium.log"));
    return read_file(d.file("dom.html"));
}

// Every element `<tag ... class="cls" ...>` of the DOM, as attribute maps.
std::vector<std::map<std::string, std::string>> elements(const std::string& dom, const std::string& tag,
                                                         const std::string& cls) {
    std::vector<std::map<std::string, std::string>> out;
    const std::string open = "<" + tag;
    for (size_t pos = dom.find(open); pos != std::string::npos; pos = dom.find(open, pos + 1)) {
        size_t p = pos + open.size();
        if (p >= dom.size() || !std::isspace(static_cast<unsigned char>(dom[p]))) continue;  // <pathx, <path>
        size_t end = dom.find('>', p);
        if (end == std::string::npos) break;
        // name="value" pairs (the DOM dump quotes every attribute value with double quotes).
        std::map<std::string, std::string> a;
        while (p < end) {
            while (p < end && std::isspace(static_cast<unsigned char>(dom[p]))) ++p;
            size_t name_end = p;
            while (name_end < end && (std::isalnum(static_cast<unsigned char>(dom[name_end])) || dom[name_end] == '-' ||
                                      dom[name_end] == '_'))
                ++name_end;
            if (name_end == p) break;
            if (dom.compare(name_end, 2, "=\"") != 0) {
                p = name_end;
                continue;
            }
            size_t v = name_end + 2, v_end = dom.find('"', v);
            if (v_end == std::string::npos || v_end > end) break;
            a[dom.substr(p, name_end - p)] = unescape(dom.substr(v, v_end - v));
            p = v_end + 1;
        }
        if (a["class"] == cls) out.push_back(a);
    }
    return out;
}

std::string write_view(const ScratchDir& d, const std::string& policy, int* exit_code = nullptr) {
    std::string page = d.file(policy + ".html");
    RunResult r = run_cvsim({"run", kernel_path("v2c_rope_attn.py"), "--v2c", policy, "--html", page});
    if (exit_code) *exit_code = r.exit_code;
    return page;
}

TEST(HtmlBrowser, FenceViewDrawsEveryLaneAndSliceAndTheV2CArrow) {
    REQUIRE_CHROMIUM();
    ScratchDir d;
    int rc = -1;
    std::string page = write_view(d, "fence", &rc);
    ASSERT_EQ(rc, 0);
    std::string dom = dump_dom(d, page);
    std::vector<std::string> lanes;
    for (auto& l : elements(dom, "g", "lane")) lanes.push_back(l["data-lane"]);
    std::vector<std::string> want = {"AIC SCALAR",  "AIC MTE2",    "AIC MTE1",    "AIC CUBE",    "AIC FIXP",
                                     "AIC MTE3",    "AIV0 SCALAR", "AIV0 MTE2",   "AIV0 VECTOR", "AIV0 MTE3",
                                     "AIV1 SCALAR", "AIV1 MTE2",   "AIV1 VECTOR", "AIV1 MTE3"};
    EXPECT_EQ(lanes, want);
    // Every instruction of the run is a slice (the whole run is visible at first).
    auto slices = elements(dom, "rect", "instr");
    auto thin = elements(dom, "rect", "instr thin");
    std::string summary = dom.substr(dom.find("class=\"summary\""));
    std::string count = number_before(summary, " instructions on");
    ASSERT_FALSE(count.empty()) << summary.substr(0, 200);
    EXPECT_EQ(slices.size() + thin.size(), std::stoul(count));
    EXPECT_GE(slices.size() + thin.size(), 20u);
    // The V2C handshake arrow: the AIV's tpush_to_aic into the AIC's tpop_from_aiv.
    bool v2c = false;
    for (auto& f : elements(dom, "path", "flow"))
        v2c = v2c || (f["data-kind"] == "tpush->tpop" && f["data-from"] == "tile.tpush_to_aic" &&
                      f["data-to"] == "tile.tpop_from_aiv");
    EXPECT_TRUE(v2c) << "no tpush_to_aic -> tpop_from_aiv arrow in the DOM";
    EXPECT_TRUE(elements(dom, "g", "finding").empty()) << "the fenced kernel has no finding mark";
    EXPECT_NE(dom.find("class=\"legend\""), std::string::npos);
}

// a2a3's AIV1 replays AIV0's program: its rows and its handshake arrows say so, AIV0's do not.
TEST(HtmlBrowser, ReplayLanesAndTheirHandshakesAreLabelledAsTheReplay) {
    REQUIRE_CHROMIUM();
    ScratchDir d;
    std::string dom = dump_dom(d, write_view(d, "fence"));
    for (const char* lane : {"AIV1 SCALAR", "AIV1 MTE2", "AIV1 VECTOR", "AIV1 MTE3"})
        EXPECT_NE(dom.find(std::string(">") + lane + " (replay of AIV0)<"), std::string::npos) << lane;
    EXPECT_EQ(dom.find("AIV0 SCALAR (replay"), std::string::npos);
    EXPECT_NE(dom.find(">AIV0 SCALAR<"), std::string::npos);
    auto replay_flows = elements(dom, "path", "flow replay");
    ASSERT_FALSE(replay_flows.empty()) << "the replay's ring handshakes";
    for (auto& f : replay_flows) EXPECT_EQ(f["data-replay"], "AIV1 (replay of AIV0)");
    for (auto& f : elements(dom, "path", "flow"))
        EXPECT_EQ(f["data-replay"], "") << f["data-from"] << " -> " << f["data-to"];
    EXPECT_NE(dom.find("AIV1 (replay of AIV0): "), std::string::npos) << "the legend explains the replay";
}

TEST(HtmlBrowser, OffViewHasARedFindingMarkLinkingTheStoreAndTheLoad) {
    REQUIRE_CHROMIUM();
    ScratchDir d;
    std::string dom = dump_dom(d, write_view(d, "off"));
    auto marks = elements(dom, "g", "finding");
    const std::map<std::string, std::string>* race = nullptr;
    for (auto& mk : marks)
        if (mk["data-code"] == "E-RACE-RAW") race = &mk;
    ASSERT_TRUE(race) << "no race mark in the DOM";
    EXPECT_EQ(race->at("data-lines"), "v2c_rope_attn.py:31 v2c_rope_attn.py:33");
    // The mark links both accesses: a red circle on each and a dashed link from each to the mark.
    size_t at = dom.find("data-code=\"E-RACE-RAW\"");
    std::string group = dom.substr(at, dom.find("</g>", at) - at);
    EXPECT_EQ(elements(group, "circle", "finding-access").size(), 2u);
    EXPECT_EQ(elements(group, "path", "finding-link").size(), 2u);
    EXPECT_EQ(elements(group, "path", "finding-mark").size(), 1u);
    EXPECT_NE(dom.find("RAW on GM q_rot[0:16, 0:128]"), std::string::npos) << "the findings list names the race";
}

TEST(HtmlBrowser, HoverShowsTheSourceLineAndWheelAndDragZoomAndPan) {
    REQUIRE_CHROMIUM();
    ScratchDir d;
    std::string page = write_view(d, "off");
    // A harness page drives the view in an iframe the way a user would, then writes what it saw.
    std::string harness = d.file("harness.html");
    std::ofstream(harness) << R"(<!DOCTYPE html><html><body>
<iframe id="f" src="file://)"
                           << page << R"(" width="1300" height="700"></iframe><pre id="result">pending</pre>
<script>
const frame = document.getElementById('f');
// Polls with timers (the browser's virtual time runs them) until the view redrew, at most 4 s.
const waitFor = (cond, then, n = 200) => { if (cond() || n === 0) then(); else setTimeout(() => waitFor(cond, then, n - 1), 20); };
function drive() {
  const out = {}, win = frame.contentWindow, doc = frame.contentDocument;
  const svg = doc.getElementById('timeline'), tip = doc.getElementById('tip');
  const ticks = () => Array.from(doc.querySelectorAll('.axis text')).map(t => t.textContent).filter(t => t !== 'cycle').map(Number);
  const store = Array.from(doc.querySelectorAll('rect.instr')).find(r => r.dataset.op === 'tile.store' && r.dataset.line.endsWith(':31'));
  const b = store.getBoundingClientRect();
  store.dispatchEvent(new win.MouseEvent('mousemove', { bubbles: true, clientX: b.x + 2, clientY: b.y + 2 }));
  out.tip = tip.textContent; out.tip_display = tip.style.display;
  out.ticks0 = ticks();
  const s = svg.getBoundingClientRect();
  svg.dispatchEvent(new win.WheelEvent('wheel', { bubbles: true, cancelable: true, deltaY: -800, clientX: s.x + s.width / 2, clientY: s.y + 60 }));
  waitFor(() => ticks().join() !== out.ticks0.join(), () => {
    out.ticks1 = ticks();
    svg.dispatchEvent(new win.MouseEvent('mousedown', { bubbles: true, button: 0, clientX: s.x + 600, clientY: s.y + 60 }));
    win.dispatchEvent(new win.MouseEvent('mousemove', { bubbles: true, clientX: s.x + 800, clientY: s.y + 60 }));
    win.dispatchEvent(new win.MouseEvent('mouseup', { bubbles: true }));
    waitFor(() => ticks().join() !== out.ticks1.join(), () => {
      out.ticks2 = ticks();
      document.getElementById('result').textContent = JSON.stringify(out);
    });
  });
}
const ready = () => frame.contentDocument && frame.contentDocument.getElementById('timeline');
if (ready() && frame.contentDocument.readyState === 'complete') drive(); else frame.addEventListener('load', drive);
</script></body></html>)";
    std::string dom = dump_dom(d, harness, {"--allow-file-access-from-files", "--virtual-time-budget=5000"});
    auto result = between(dom, "<pre id=\"result\">", "</pre>");
    ASSERT_TRUE(result && result->find('<') == std::string::npos) << dom.substr(0, 2000);
    ASSERT_NE(*result, "pending") << "the harness did not finish";
    json out = json::parse(unescape(*result));
    // Hover: the op and its source line.
    std::string tip = out.at("tip");
    EXPECT_EQ(out.at("tip_display"), "block");
    EXPECT_NE(tip.find("tile.store"), std::string::npos) << tip;
    EXPECT_NE(tip.find("v2c_rope_attn.py:31"), std::string::npos) << tip;
    EXPECT_NE(tip.find("write q_rot[0:16, 0:128]"), std::string::npos) << tip;
    // Wheel up: finer axis steps (zoomed in). Drag right: earlier cycles come into view.
    auto t0 = out.at("ticks0").get<std::vector<double>>(), t1 = out.at("ticks1").get<std::vector<double>>(),
         t2 = out.at("ticks2").get<std::vector<double>>();
    ASSERT_GE(t0.size(), 2u);
    ASSERT_GE(t1.size(), 2u);
    ASSERT_GE(t2.size(), 2u);
    EXPECT_LT(t1[1] - t1[0], t0[1] - t0[0]) << "wheel did not zoom in";
    EXPECT_LT(t2.front(), t1.front()) << "drag did not pan";
}

TEST(HtmlBrowser, ATruncatedViewSaysSo) {
    REQUIRE_CHROMIUM();
    ScratchDir d;
    // A page written by the sink with a cap of 10 instructions for a 25-instruction run.
    std::string page = d.file("cap.html");
    {
        cvsim::traces::HtmlOptions o;
        o.max_instructions = 10;
        cvsim::traces::HtmlTimeline h(page, o);
        for (uint64_t i = 0; i < 25; ++i)
            h.on_event(make_event(cvsim::sim::CoreId::Aiv0, cvsim::ir::Pipe::Vector, "tile.add", i * 5, i * 5 + 4));
        h.finish();
    }
    std::string dom = dump_dom(d, page);
    auto note = dom.find("class=\"truncated\"");
    ASSERT_NE(note, std::string::npos) << "no truncation notice";
    std::string text = dom.substr(note, dom.find("</div>", note) - note);
    EXPECT_NE(text.find("25 instructions"), std::string::npos) << text;
    EXPECT_NE(text.find("first 10"), std::string::npos) << text;
}

}  // namespace
