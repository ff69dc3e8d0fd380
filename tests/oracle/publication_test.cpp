// Publication under a GM visibility delay (SPEC 4.5/6, issue 10): a flag, a barrier or a tile transport
// orders a store's completion, not its visibility; only a fence of the writing core between the store and
// the release publishes it. The expansions the policies produce must stay race-free under a delay.
#include <gtest/gtest.h>

#include "oracle_support.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string fixture(const std::string& name) { return read_file(std::string(CVSIM_SOURCE_DIR) + "/tests/oracle/kernels/" + name); }

// A RAW's token dropped because a write-after-read token nests inside it: the inner push carries a loaded
// tile and no fence, so the RAW store keeps its own publishing fence (the merged sweep's last racy fence
// expansion, sweep_1: a5, 2 blocks, visibility delay 50).
TEST(Publication, ARawTokenDroppedForANestedWarTokenKeepsItsFence) {
    const char* k = "nested_war_token_publish.py";
    std::string text = fixture(k);
    for (Target t : {Target::A2A3, Target::A5})
        for (uint64_t vis : {uint64_t{0}, uint64_t{50}}) {
            Opts o;
            o.target = t;
            o.vis = vis;
            std::string what = std::string(target_name(t)) + " --visibility-delay " + std::to_string(vis);
            auto s = session_of(k, text, o);
            bool dropped = false;
            for (const auto& l : s->compiled().stats.log) dropped |= l.find("token dropped") != std::string::npos;
            EXPECT_TRUE(dropped) << what << ": the kernel no longer nests a WAR token inside a RAW token";
            CheckerView cv = checker_of(*s, 5);
            EXPECT_TRUE(cv.text.empty() && !cv.deadlock) << what << ":\n" << cv.text;
            auto v = oracle_of(*s, true);
            EXPECT_TRUE(v.races.empty() && !v.deadlock) << what << ":\n" << format_verdict(v);
        }
}

}  // namespace
