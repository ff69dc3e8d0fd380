// Publication under a GM visibility delay (SPEC 4.5/6, issue 10): a flag, a barrier or a tile transport
// orders a store's completion, not its visibility; only a fence of the writing core between the store and
// the release publishes it. The expansions the policies produce must stay race-free under a delay.
#include <gtest/gtest.h>

#include "oracle_support.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string fixture(const std::string& name) {
    return read_file(std::string(CVSIM_SOURCE_DIR) + "/tests/oracle/kernels/" + name);
}

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

namespace {

// reject and a pair a tile transport orders (issue 10): the transport orders the store's completion, not its
// visibility. Without a delay reject accepts it (exact); with --visibility-delay > 0 (or a drawn delay,
// --max-visibility-delay) and no fence between the store and the transport, reject errors at the cube load,
// as fence / syncall publish the store there; a fence right after the store satisfies it.
TEST(Publication, RejectErrorsOnATransportOrderedStoreNobodyPublishesUnderADelay) {
    const char* k = "reject_transport_unpublished.py";
    std::string bare = fixture(k);
    std::string fenced = bare;
    const std::string store = "        sv0 = pl.store(vin, [0, 0], sv0)\n";
    fenced.replace(fenced.find(store), store.size(), store + "        pl.system.fence()\n");
    auto reject_line = [&](const std::string& text, Target t, uint64_t vis) -> uint32_t {
        Opts o;
        o.target = t;
        o.v2c = passes::V2CPolicy::Reject;
        o.vis = vis;
        try {
            session_of(k, text, o);
        } catch (const CompileError& e) {
            EXPECT_EQ(e.diag().code, "E-V2C-UNFENCED") << render_text(e.diag());
            return e.diag().loc.line;
        }
        return 0;
    };
    // Every compile that throws comes before the first simulation (ASan + QuickThreads, docs/DECISIONS.md).
    for (Target t : {Target::A2A3, Target::A5}) {
        std::string tn(target_name(t));
        EXPECT_EQ(reject_line(bare, t, 0), 0u) << tn << ": the transport orders the pair without a delay";
        EXPECT_EQ(reject_line(bare, t, 50), 25u) << tn << ": reject accepts an unpublished store under a delay";
        EXPECT_EQ(reject_line(fenced, t, 50), 0u) << tn << ": the author's fence publishes the store";
    }
    RunResult drawn = run_cvsim({"check", std::string(CVSIM_SOURCE_DIR) + "/tests/oracle/kernels/" + k, "--v2c",
                                 "reject", "--max-visibility-delay", "50", "--schedules", "3"});
    EXPECT_EQ(drawn.exit_code, 1) << drawn.out << drawn.err;
    EXPECT_NE(unwrapped(drawn.out + drawn.err).find("E-V2C-UNFENCED"), std::string::npos) << drawn.out << drawn.err;
    // What reject decides is what the checker and the oracle see in the program as written (--v2c off).
    for (Target t : {Target::A2A3, Target::A5})
        for (const auto& [text, vis, racy] :
             {std::tuple{bare, uint64_t{0}, false}, std::tuple{bare, uint64_t{50}, true},
              std::tuple{fenced, uint64_t{50}, false}}) {
            Opts o;
            o.target = t;
            o.v2c = passes::V2CPolicy::Off;
            o.vis = vis;
            std::string what = std::string(target_name(t)) + (text == fenced ? " fenced" : " bare") +
                               " --visibility-delay " + std::to_string(vis);
            auto s = session_of(k, text, o);
            EXPECT_EQ(checker_of(*s, 3).tensors.count("sv0") > 0, racy) << what;
            EXPECT_EQ(oracle_of(*s, true).race_tensors().count("sv0") > 0, racy) << what;
        }
}

}  // namespace
