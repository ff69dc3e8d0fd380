// --c2v complete (issue 10): kernels where `upstream` leaves a C2V hazard the checker reports, and where
// `complete` is clean per the checker (nominal + random schedules: no race, no deadlock, outputs equal the
// reference) and per the oracle, with its orderings counted in the expander's statistics.
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
    const char* race;  // the finding upstream leaves
    Target target = Target::A2A3;
    uint64_t vis = 0;
};

class C2vComplete : public ::testing::TestWithParam<Case> {};

TEST_P(C2vComplete, UpstreamRacesCompleteIsClean) {
    const Case& c = GetParam();
    std::string k = c.kernel;
    std::string text = k.rfind("shared:", 0) == 0 ? read_file(kernel_path(k.substr(7))) : fixture(k);
    Opts o;
    o.target = c.target;
    o.vis = c.vis;
    for (auto v2c : {passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall}) {
        o.v2c = v2c;
        o.c2v = passes::C2VPolicy::Upstream;
        auto up = session_of(c.kernel, text, o);
        CheckerView before = checker_of(*up, 3);
        EXPECT_NE(before.text.find(c.race), std::string::npos)
            << c.kernel << ": upstream should leave " << c.race << "\n"
            << before.text;
        EXPECT_EQ(up->compiled().stats.c2v_orders, 0);

        o.c2v = passes::C2VPolicy::Complete;
        auto s = session_of(c.kernel, text, o);
        CheckerView after = checker_of(*s, 5);
        EXPECT_TRUE(after.text.empty()) << c.kernel << " --c2v complete --v2c " << passes::policy_name(v2c) << ":\n"
                                        << after.text;
        EXPECT_FALSE(after.deadlock);
        auto v = oracle_of(*s, true);
        EXPECT_FALSE(v.deadlock);
        EXPECT_TRUE(v.races.empty()) << format_verdict(v);
        EXPECT_TRUE(s->compiled().stats.c2v_complete);
        // The token's publication fence is no "ordering added"; every other kernel needs at least one barrier.
        if (c.vis == 0) {
            EXPECT_GE(s->compiled().stats.c2v_orders, 1) << c.kernel;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Kernels, C2vComplete,
                         // (c2v_loop_war.py and c2v_cross_lane_waw.py are vector-first, V2C: v2c_first_test.cpp.)
                         ::testing::Values(Case{"c2v_two_producer_stores.py", "E-RACE-RAW"},
                                           Case{"c2v_cube_first_waw.py", "E-RACE-WAW"},
                                           Case{"c2v_nested_store.py", "E-RACE-RAW"},
                                           Case{"c2v_loop_carried_raw.py", "E-RACE-RAW"},
                                           // C2V data under a visibility delay: the token needs a cube-side fence.
                                           Case{"shared:c2v_row_relay.py", "E-RACE-RAW", Target::A5, 200},
                                           Case{"shared:c2v_row_relay.py", "E-RACE-RAW", Target::A2A3, 200}));

// The default is upstream: the same kernel expands as before without the option.
TEST(C2vComplete, DefaultIsUpstream) {
    Opts o;
    auto s = session_of("c2v_two_producer_stores.py", fixture("c2v_two_producer_stores.py"), o);
    EXPECT_FALSE(s->compiled().stats.c2v_complete);
    EXPECT_GE(s->compiled().stats.unfenced, 1);
}

}  // namespace

namespace {

// Oracle sweep finding (issue 10): a loop-carried RAW ordered by a tile move of the same direction in the
// next iteration (push after the store, pop before the load) was "already ordered" with nothing added, so
// under a visibility delay the store was never published (no fence between it and the push): the load
// could read stale data. fence / syncall (V2C) and --c2v complete (C2V) now publish the store. The same for
// a loop-carried write-after-write of the two lanes under --c2v complete.
struct Published {
    const char* kernel;
    bool v2c;  // the dependency's direction
};

class CarriedRawPublished : public ::testing::TestWithParam<std::tuple<Published, Target>> {};

TEST_P(CarriedRawPublished, OrderedByATileMoveAndPublished) {
    const auto& [c, target] = GetParam();
    std::string text = fixture(c.kernel);
    Opts o;
    o.target = target;
    o.vis = 50;
    auto racy = [&](const Opts& opt, const char* what) {
        auto s = session_of(c.kernel, text, opt);
        CheckerView cv = checker_of(*s, 3);
        auto v = oracle_of(*s, true);
        EXPECT_TRUE(cv.tensors.count("scratch")) << c.kernel << " " << what << ": the checker should report the race\n"
                                                 << cv.text;
        EXPECT_TRUE(v.race_tensors().count("scratch"))
            << c.kernel << " " << what << ": the oracle should find the race\n"
            << format_verdict(v);
    };
    auto clean = [&](const Opts& opt, const std::string& what) {
        auto s = session_of(c.kernel, text, opt);
        CheckerView cv = checker_of(*s, 5);
        auto v = oracle_of(*s, true);
        EXPECT_TRUE(cv.text.empty() && !cv.deadlock) << c.kernel << " " << what << ":\n" << cv.text;
        EXPECT_TRUE(v.races.empty() && !v.deadlock) << c.kernel << " " << what << ":\n" << format_verdict(v);
    };
    if (c.v2c) {
        o.v2c = passes::V2CPolicy::Off;
        racy(o, "--v2c off");
    } else {
        o.c2v = passes::C2VPolicy::Upstream;
        racy(o, "--c2v upstream");
    }
    for (auto v2c : {passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall})
        for (auto c2v : {passes::C2VPolicy::Upstream, passes::C2VPolicy::Complete}) {
            if (!c.v2c && c2v == passes::C2VPolicy::Upstream) continue;  // upstream leaves the C2V pair (checked above)
            o.v2c = v2c;
            o.c2v = c2v;
            clean(o, std::string("--c2v ") + std::string(passes::c2v_policy_name(c2v)) + " --v2c " +
                         std::string(passes::policy_name(v2c)));
        }
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, CarriedRawPublished,
    ::testing::Combine(::testing::Values(Published{"carried_raw_tile_move_visibility.py", true},
                                         Published{"c2v_carried_raw_tile_move_visibility.py", false},
                                         Published{"c2v_carried_waw_tile_move_visibility.py", false}),
                       ::testing::Values(Target::A2A3, Target::A5)),
    [](const auto& info) {
        std::string k = std::get<0>(info.param).kernel;
        k = k.substr(0, k.find('.'));
        return k + "_" + std::string(target_name(std::get<1>(info.param)));
    });

}  // namespace
