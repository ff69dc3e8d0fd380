// Scalar GM accesses (pl.tensor.write / pl.tensor.read) are GM accesses of the V2C pass (issue 10): a
// vector-side scalar write before a cube load of the same element is ordered by --v2c fence / syncall and
// reported by --v2c reject exactly when the program as written races (the HB checker and the oracle agree);
// a write to an element the cube does not read needs nothing. A write both AIV lanes would run is refused.
#include <gtest/gtest.h>

#include "oracle_support.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string fixture(const std::string& name, int row) {
    std::string t = read_file(std::string(CVSIM_SOURCE_DIR) + "/tests/oracle/kernels/" + name);
    for (size_t p; (p = t.find("ROW")) != std::string::npos;) t.replace(p, 3, std::to_string(row));
    return t;
}

// The E-V2C-UNFENCED of --v2c reject ("" when it accepts); any other diagnostic is a failure.
std::string reject_code(const std::string& text, Opts o) {
    o.v2c = passes::V2CPolicy::Reject;
    try {
        session_of("k.py", text, o);
    } catch (const CompileError& e) {
        return e.diag().code;
    }
    return "";
}

// An AIV write racing with an AIC access of a kernel tensor, per the oracle (the --v2c off program).
bool oracle_v2c_race(const oracle::Verdict& v) {
    for (const auto& r : v.races)
        if (r.key.tensor.rfind("__", 0) != 0 && r.write_core != 0 && r.other_core == 0) return true;
    return false;
}

struct Case {
    const char* kernel;
    int row;
    bool racy;              // the program as written (--v2c off) races
    bool complete = false;  // run with --c2v complete (upstream leaves a C2V pair into a scalar read unfenced)
};

class ScalarGm : public ::testing::TestWithParam<Case> {};

TEST_P(ScalarGm, FenceAndSyncallOrderItRejectIsExact) {
    const Case& c = GetParam();
    std::string text = fixture(c.kernel, c.row);
    // Every compile that throws comes before the first simulation (ASan + QuickThreads, docs/DECISIONS.md).
    for (Target t : {Target::A2A3, Target::A5}) {
        Opts o;
        o.target = t;
        if (c.complete) o.c2v = passes::C2VPolicy::Complete;
        EXPECT_EQ(reject_code(text, o), c.racy ? "E-V2C-UNFENCED" : "")
            << c.kernel << " row " << c.row << " " << target_name(t);
    }
    for (Target t : {Target::A2A3, Target::A5}) {
        std::string what = std::string(c.kernel) + " row " + std::to_string(c.row) + " " + std::string(target_name(t));
        Opts o;
        o.target = t;
        if (c.complete) o.c2v = passes::C2VPolicy::Complete;
        o.v2c = passes::V2CPolicy::Off;
        auto off = session_of("k.py", text, o);
        CheckerView cv = checker_of(*off, 5);
        EXPECT_EQ(!cv.races.empty(), c.racy) << what << " --v2c off:\n" << cv.text;
        EXPECT_EQ(oracle_v2c_race(oracle_of(*off, true)), c.racy) << what << " --v2c off (oracle)";
        for (auto p : {passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall}) {
            o.v2c = p;
            auto s = session_of("k.py", text, o);
            CheckerView f = checker_of(*s, 5);
            EXPECT_TRUE(f.text.empty() && !f.deadlock)
                << what << " --v2c " << (p == passes::V2CPolicy::Fence ? "fence" : "syncall") << ":\n"
                << f.text;
            auto v = oracle_of(*s, true);
            EXPECT_TRUE(v.races.empty() && !v.deadlock)
                << what << " --v2c " << (p == passes::V2CPolicy::Fence ? "fence" : "syncall") << " (oracle):\n"
                << format_verdict(v);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, ScalarGm,
    ::testing::Values(
        // vector pl.tensor.write, then a cube load of the element (same iteration); row 12: not read
        Case{"scalar_write_v2c.py", 3, true}, Case{"scalar_write_v2c.py", 12, false},
        // the cube load earlier in the loop body than the write (loop-carried RAW, same-iteration WAR)
        Case{"scalar_write_v2c_carried.py", 3, true}, Case{"scalar_write_v2c_carried.py", 12, false},
        // the write and the load in sibling arms of a branch in a loop
        Case{"scalar_write_v2c_arms.py", 3, true}, Case{"scalar_write_v2c_arms.py", 12, false},
        // a cube store, then a vector pl.tensor.read of it (C2V: --c2v complete orders it; upstream's pairing
        // takes tile.load consumers only, tests/e2e/adversarial_test.cpp checks that race)
        Case{"scalar_read_c2v.py", 3, false, true}, Case{"scalar_read_c2v.py", 12, false, true}));

// Both AIV lanes run a split function: a scalar write of a vector value would be issued by each (E-UNSUPPORTED,
// never two silent writes); a write of no lane's value goes to the cube, which runs once.
TEST(ScalarGmSplit, AVectorValueWrittenByBothAivLanesIsRefusedAConstantGoesToTheCube) {
    std::string text = fixture("scalar_write_v2c.py", 3);
    const std::string attr = "@pl.function(type=pl.FunctionType.InCore)";
    text.replace(text.find(attr), attr.size(),
                 "@pl.function(type=pl.FunctionType.InCore, attrs={\"split\": pl.SplitMode.UP_DOWN})");
    std::string constant = text;
    const std::string val = "v = pl.tile.read(vin, [0, 0])";
    constant.replace(constant.find(val), val.size(), "v = pl.cast(2.0, pl.FP16)");
    for (Target t : {Target::A2A3, Target::A5}) {
        Opts o;
        o.target = t;
        std::string code;
        try {
            session_of("k.py", text, o);
        } catch (const CompileError& e) {
            code = e.diag().code;
        }
        EXPECT_EQ(code, "E-UNSUPPORTED") << target_name(t);
        EXPECT_EQ(reject_code(constant, o), "") << target_name(t);
    }
    for (Target t : {Target::A2A3, Target::A5}) {
        Opts o;
        o.target = t;
        auto s = session_of("k.py", constant, o);
        CheckerView f = checker_of(*s, 5);
        EXPECT_TRUE(f.text.empty() && !f.deadlock) << target_name(t) << ":\n" << f.text;
        auto v = oracle_of(*s, true);
        EXPECT_TRUE(v.races.empty() && !v.deadlock) << target_name(t) << ":\n" << format_verdict(v);
    }
}

}  // namespace

namespace {

// A vector pl.tensor.read only the vector lane uses: the cube's copy is dropped by the split (no V2C pair,
// no token: before, reject errored on a dependency the expanded program does not have), but a2a3's lane 1
// replay issues the read, so AIV0's store -> AIV1's read is ordered by a barrier (fence / syncall) or named
// (reject); the checker and the oracle see it in the --v2c off program. a5 unsplit: AIV0 only.
TEST(ScalarGmVectorLanes, AReadTheOtherAivIssuesIsOrderedByABarrier) {
    for (int row : {3, 12})
        for (Target t : {Target::A2A3, Target::A5}) {
            Opts o;
            o.target = t;
            bool racy = row == 3 && t == Target::A2A3;
            EXPECT_EQ(reject_code(fixture("scalar_read_vector_lanes.py", row), o), racy ? "E-V2C-UNFENCED" : "")
                << row << " " << target_name(t);
        }
    for (int row : {3, 12})
        for (Target t : {Target::A2A3, Target::A5}) {
            std::string text = fixture("scalar_read_vector_lanes.py", row);
            std::string what = "row " + std::to_string(row) + " " + std::string(target_name(t));
            bool racy = row == 3 && t == Target::A2A3;
            Opts o;
            o.target = t;
            o.v2c = passes::V2CPolicy::Off;
            auto off = session_of("k.py", text, o);
            CheckerView cv = checker_of(*off, 3);
            EXPECT_EQ(!cv.races.empty(), racy) << what << " --v2c off:\n" << cv.text;
            auto ov = oracle_of(*off, true);
            EXPECT_EQ(!ov.races.empty(), racy) << what << " --v2c off (oracle):\n" << format_verdict(ov);
            for (auto p : {passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall}) {
                o.v2c = p;
                auto s = session_of("k.py", text, o);
                int tokens = 0;
                for (const auto& l : s->compiled().stats.log)
                    tokens += l.find("fenced (tpush_to_aic") != std::string::npos;
                EXPECT_EQ(tokens, 0) << what << ": a V2C token for a read the cube does not issue";
                CheckerView f = checker_of(*s, 3);
                EXPECT_TRUE(f.text.empty() && !f.deadlock) << what << ":\n" << f.text;
                auto v = oracle_of(*s, true);
                EXPECT_TRUE(v.races.empty() && !v.deadlock) << what << " (oracle):\n" << format_verdict(v);
            }
        }
}

}  // namespace

namespace {

// A vector pl.tensor.write that a V2C tile move after it orders before the cube load (the move's MTE3 flag
// follows the write's MTE3): ordered without a visibility delay; with one, only a fence after the write
// publishes it. reject accepts / errors exactly as the checker finds the --v2c off program clean / racy.
TEST(ScalarGmPublication, ATransportOrderedScalarWriteNeedsAFenceUnderADelay) {
    std::string bare = fixture("scalar_write_v2c.py", 3);
    auto edit = [](std::string& t, const std::string& from, const std::string& to) {
        size_t p = t.find(from);
        ASSERT_NE(p, std::string::npos) << from;
        t.replace(p, from.size(), to);
    };
    edit(bare, "        b_l = pl.load(b,",
         "        m1 = pl.move(vin, target_memory=pl.MemorySpace.Mat)\n        b_l = pl.load(b,");
    edit(bare,
         "        a_l = pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)\n        rhs = pl.move(a_l,",
         "        rhs = pl.move(m1,");
    std::string fenced = bare;
    edit(fenced, "        pl.tensor.write(b, [3, 5], v)\n",
         "        pl.tensor.write(b, [3, 5], v)\n        pl.system.fence()\n");
    struct V {
        const std::string* text;
        uint64_t vis;
        bool racy;
    };
    const V vs[] = {{&bare, 0, false}, {&bare, 50, true}, {&fenced, 50, false}};
    for (const V& v : vs)
        for (Target t : {Target::A2A3, Target::A5}) {
            Opts o;
            o.target = t;
            o.vis = v.vis;
            EXPECT_EQ(reject_code(*v.text, o), v.racy ? "E-V2C-UNFENCED" : "") << target_name(t) << " vis " << v.vis;
        }
    for (const V& v : vs)
        for (Target t : {Target::A2A3, Target::A5}) {
            std::string what =
                std::string(target_name(t)) + " vis " + std::to_string(v.vis) + (v.text == &fenced ? " fenced" : "");
            Opts o;
            o.target = t;
            o.vis = v.vis;
            o.v2c = passes::V2CPolicy::Off;
            auto off = session_of("k.py", *v.text, o);
            EXPECT_EQ(!checker_of(*off, 3).races.empty(), v.racy) << what;
            EXPECT_EQ(oracle_v2c_race(oracle_of(*off, true)), v.racy) << what << " (oracle)";
            o.v2c = passes::V2CPolicy::Fence;
            auto s = session_of("k.py", *v.text, o);
            CheckerView f = checker_of(*s, 3);
            EXPECT_TRUE(f.text.empty() && !f.deadlock) << what << " fence:\n" << f.text;
        }
}

}  // namespace
