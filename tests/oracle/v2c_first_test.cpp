// V2C beyond read-after-write (issue 10): a cross-lane hazard whose vector access runs first and whose
// cube access writes (write-after-read: a vector load, then a cube store; write-after-write: a vector
// store, then a cube store) is V2C, governed by --v2c like a RAW under either --c2v: `off` races (checker
// and oracle) and counts it as left unfenced, `reject` raises E-V2C-UNFENCED naming the tensor and both
// accesses, `fence` / `syncall` are clean per the checker (nominal + random schedules, outputs equal the
// reference) and per the oracle, with and without a visibility delay, on both targets.
#include <gtest/gtest.h>

#include "oracle_support.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string fixture(const std::string& name) {
    return read_file(std::string(CVSIM_SOURCE_DIR) + "/tests/oracle/kernels/" + name);
}

struct Case {
    const char* kernel;
    const char* race;                 // what --v2c off leaves
    const char* tensor;               // the tensor of the hazard
    uint32_t vector_line, cube_line;  // the vector access (first) and the cube store (second)
    int blocks = 1;
    bool c2v_token = false;  // also holds a C2V RAW that upstream's token orders (unpublished under a delay)
};

std::ostream& operator<<(std::ostream& os, const Case& c) {
    return os << c.kernel;
}

class V2cFirst : public ::testing::TestWithParam<std::tuple<Case, Target>> {};

TEST_P(V2cFirst, OffRacesRejectErrorsFenceAndSyncallAreClean) {
    const auto& [c, target] = GetParam();
    std::string text = fixture(c.kernel);
    Opts o;
    o.target = target;
    o.blocks = c.blocks;
    // Every compile that throws comes before the first simulation: under ASan an exception after SystemC ran
    // in the same process is a false stack-buffer-overflow (QuickThreads; docs/DECISIONS.md).
    for (auto c2v : {passes::C2VPolicy::Upstream, passes::C2VPolicy::Complete}) {
        o.c2v = c2v;
        std::string cfg = std::string(c.kernel) + " --c2v " + std::string(passes::c2v_policy_name(c2v)) + " --target " +
                          std::string(target_name(target));
        // reject: E-V2C-UNFENCED at the cube store, naming the tensor and the vector access.
        o.v2c = passes::V2CPolicy::Reject;
        try {
            session_of(c.kernel, text, o);
            ADD_FAILURE() << cfg << " --v2c reject is silent";
        } catch (const CompileError& e) {
            EXPECT_EQ(e.diag().code, "E-V2C-UNFENCED") << render_text(e.diag());
            EXPECT_EQ(e.diag().loc.line, c.cube_line) << render_text(e.diag());
            EXPECT_NE(e.diag().message.find("'" + std::string(c.tensor) + "'"), std::string::npos) << e.diag().message;
            EXPECT_NE(e.diag().message.find(std::string(c.kernel) + ":" + std::to_string(c.vector_line)),
                      std::string::npos)
                << e.diag().message;
        }
    }
    for (auto c2v : {passes::C2VPolicy::Upstream, passes::C2VPolicy::Complete}) {
        o.c2v = c2v;
        std::string cfg = std::string(c.kernel) + " --c2v " + std::string(passes::c2v_policy_name(c2v)) + " --target " +
                          std::string(target_name(target));

        // off: the race is there (the vector-first hazard is not --c2v complete's), and counted.
        o.v2c = passes::V2CPolicy::Off;
        o.vis = 0;
        auto off = session_of(c.kernel, text, o);
        CheckerView racy = checker_of(*off, 3);
        EXPECT_NE(racy.text.find(c.race), std::string::npos) << cfg << " --v2c off should race\n" << racy.text;
        EXPECT_TRUE(racy.tensors.count(c.tensor)) << cfg << "\n" << racy.text;
        EXPECT_TRUE(oracle_of(*off).race_tensors().count(c.tensor))
            << cfg << " --v2c off: the oracle should find the race";
        EXPECT_GE(off->compiled().stats.unfenced, 1) << cfg;

        // fence / syncall: ordered, clean, equal to the reference; the ordering is counted.
        for (auto v2c : {passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall})
            for (uint64_t vis : {uint64_t{0}, uint64_t{50}}) {
                if (vis && c.c2v_token && c2v == passes::C2VPolicy::Upstream)
                    continue;  // the C2V RAW races (DECISIONS)
                o.v2c = v2c;
                o.vis = vis;
                std::string what = cfg + " --v2c " + std::string(passes::policy_name(v2c)) + " --visibility-delay " +
                                   std::to_string(vis);
                auto s = session_of(c.kernel, text, o);
                CheckerView cv = checker_of(*s, 5);
                EXPECT_TRUE(cv.text.empty() && !cv.deadlock) << what << ":\n" << cv.text;
                auto v = oracle_of(*s, true);
                EXPECT_TRUE(v.races.empty() && !v.deadlock) << what << ":\n" << format_verdict(v);
                const auto& st = s->compiled().stats;
                EXPECT_EQ(st.unfenced, 0) << what;
                EXPECT_GE(st.v2c_fences + st.war_orders + st.barriers, 1) << what;
            }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, V2cFirst,
    ::testing::Combine(::testing::Values(Case{"v2c_war_same.py", "E-RACE-WAR", "io", 15, 22},
                                         Case{"v2c_waw_same.py", "E-RACE-WAW", "out", 18, 23},
                                         Case{"v2c_war_loop.py", "E-RACE-WAR", "io", 22, 21},
                                         Case{"v2c_waw_loop.py", "E-RACE-WAW", "out", 24, 22},
                                         Case{"v2c_war_split.py", "E-RACE-WAR", "io", 15, 22},
                                         Case{"v2c_war_split_loop.py", "E-RACE-WAR", "io", 22, 21},
                                         Case{"v2c_waw_split_loop.py", "E-RACE-WAW", "out", 24, 22},
                                         Case{"v2c_war_blocks.py", "E-RACE-WAR", "io", 16, 23, 2},
                                         Case{"v2c_waw_blocks_loop.py", "E-RACE-WAW", "out", 25, 23, 2},
                                         // --c2v complete used to order these two; they are V2C (vector first).
                                         Case{"c2v_loop_war.py", "E-RACE-WAR", "scratch", 22, 21, 1, true},
                                         Case{"c2v_cross_lane_waw.py", "E-RACE-WAW", "out", 17, 22}),
                       ::testing::Values(Target::A2A3, Target::A5)),
    [](const ::testing::TestParamInfo<std::tuple<Case, Target>>& i) {
        std::string n = std::get<0>(i.param).kernel;
        n = n.substr(0, n.find('.')) + "_" + std::string(target_name(std::get<1>(i.param)));
        return n;
    });

// A cube-first write-after-read (the cube reads, then the vector overwrites) is C2V: --c2v complete orders
// it where the V2C policy does not (off, reject); fence / syncall order it under either --c2v, as before.
TEST(V2cFirst, CubeFirstWarIsOrderedByCompleteUnderOffAndReject) {
    const char* k = "c2v_cube_first_war.py";
    std::string text = fixture(k);
    Opts o;
    o.v2c = passes::V2CPolicy::Off;
    auto up = session_of(k, text, o);
    EXPECT_TRUE(checker_of(*up, 3).tensors.count("io"));
    o.c2v = passes::C2VPolicy::Complete;
    for (auto v2c : {passes::V2CPolicy::Off, passes::V2CPolicy::Reject, passes::V2CPolicy::Fence}) {
        o.v2c = v2c;
        auto s = session_of(k, text, o);  // reject raises nothing: complete orders the pair
        CheckerView cv = checker_of(*s, 5);
        EXPECT_TRUE(cv.text.empty()) << "--v2c " << passes::policy_name(v2c) << ":\n" << cv.text;
        EXPECT_TRUE(oracle_of(*s, true).races.empty());
        if (v2c != passes::V2CPolicy::Fence) {
            EXPECT_GE(s->compiled().stats.c2v_orders, 1);
        }
    }
}

}  // namespace
