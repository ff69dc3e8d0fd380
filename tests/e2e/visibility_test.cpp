// Regression tests of issue 10, classes 5, 7, 8 and 14: publication under a visibility delay, a5 per-lane
// WAR flags in split functions, token pops versus fallback barriers, and one resolved schedule record
// (drawn visibility delay) for the model, the checker and the replay line; every parameter is read.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string own_kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/" + name;
}

struct Verdict {
    int exit_code = -1;
    std::vector<nlohmann::json> findings;  // of the first kernel
    std::string out, err;
    // Codes of the findings that are not races on a ring's hidden GM buffer (class 10 reports those on
    // a2a3 under a visibility delay; another fix owns it, so these tests neither need nor forbid them).
    std::set<std::string> codes_beyond_ring_slots() const {
        std::set<std::string> c;
        for (const auto& f : findings) {
            std::string m = f.value("message", "");
            if (f.value("code", "").rfind("E-RACE-", 0) == 0 && m.find("__ring_cluster") != std::string::npos) continue;
            c.insert(f.value("code", ""));
        }
        return c;
    }
    std::set<std::string> codes() const {
        std::set<std::string> c;
        for (const auto& f : findings) c.insert(f.value("code", ""));
        return c;
    }
};

Verdict check(const std::string& kernel, const std::string& args, const std::string& tag) {
    std::string js = testing::TempDir() + "/vis_" + tag + ".json";
    std::remove(js.c_str());
    std::vector<std::string> a = {"check", kernel, "--jobs", "1", "--schedules", "40", "--json", js, "--no-progress"};
    for (auto& x : split_args(args)) a.push_back(x);
    RunResult r = run_cvsim(a, 300);
    Verdict v;
    v.exit_code = r.exit_code;
    v.out = r.out;
    v.err = r.err;
    std::ifstream in(js);
    if (in) {
        auto j = nlohmann::json::parse(in, nullptr, false);
        if (!j.is_discarded() && j.contains("kernels") && !j["kernels"].empty())
            for (const auto& f : j["kernels"][0].value("findings", nlohmann::json::array())) v.findings.push_back(f);
    }
    return v;
}

std::string describe(const Verdict& v) {
    std::string s = "exit " + std::to_string(v.exit_code) + ":";
    for (const auto& f : v.findings) s += "\n  " + f.value("code", "") + " " + f.value("message", "");
    return s + "\n" + v.err.substr(0, 2000);
}

// ---- class 5: the V2C token publishes its store -------------------------------------------------

// Every V2C sample kernel under fence/syncall, both targets, with a visibility delay: clean (no race, no
// wrong output). Before the fix a5 gave E-MISMATCH + E-RACE-RAW.
TEST(Visibility, V2cFenceAndSyncallPublishUnderAVisibilityDelay) {
    struct K {
        std::string path, extra;
    };
    std::vector<K> kernels = {{kernel_path("v2c_rope_attn.py"), ""},
                              {kernel_path("v2c_reused_scratch.py"), ""},
                              {kernel_path("v2c_blocked_loop.py"), ""},
                              {kernel_path("split_updown_scratch.py"), ""},
                              {kernel_path("v2c_branch.py"), ""},
                              {kernel_path("flash_block.py"), ""},
                              {own_kernel("v2c_blocks_loop.py"), "--blocks 2"}};
    int n = 0;
    for (const auto& k : kernels)
        for (std::string target : {"a2a3", "a5"})
            for (std::string policy : {"fence", "syncall"}) {
                Verdict v =
                    check(k.path, "--visibility-delay 200 --target " + target + " --v2c " + policy + " " + k.extra,
                          std::to_string(n++));
                SCOPED_TRACE(k.path + " " + target + " " + policy);
                EXPECT_EQ(v.exit_code, 0) << describe(v);
                EXPECT_TRUE(v.codes_beyond_ring_slots().empty()) << describe(v);
            }
}

// The published token is the vector lane's alone: the fence sits between the store and the push on the
// AIV, and the AIC gets no fence for it (a SHARED fence would stall the cube on its own stores).
TEST(Visibility, TheTokenFenceIsOnTheVectorLaneOnly) {
    for (std::string target : {"a2a3", "a5"}) {
        RunResult r = run_cvsim({"expand", kernel_path("v2c_reused_scratch.py"), "--target", target});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        auto aic = r.out.find("def reused_aic"), aiv = r.out.find("def reused_aiv"),
             group = r.out.find("FunctionType.Group");
        ASSERT_TRUE(aic != std::string::npos && aiv != std::string::npos && group != std::string::npos);
        std::string aic_body = r.out.substr(aic, aiv - aic), aiv_body = r.out.substr(aiv, group - aiv);
        EXPECT_EQ(aic_body.find("system.fence()"), std::string::npos) << target << "\n" << aic_body;
        auto store = aiv_body.find("pl.tile.store(t, [0, 0], scratch)");
        auto fence = aiv_body.find("pl.system.fence()", store);
        auto push = aiv_body.find("tpush_to_aic", store);
        ASSERT_NE(store, std::string::npos);
        EXPECT_TRUE(fence != std::string::npos && push != std::string::npos && fence < push) << target << "\n"
                                                                                             << aiv_body;
    }
}

// The C2V token of --c2v upstream (kept for parity) publishes nothing: under a visibility delay the
// checker reports the race and says why (ordered on completion only), it does not stay silent.
TEST(Visibility, TheUpstreamC2vTokenIsReportedHonestlyUnderADelay) {
    Verdict clean = check(kernel_path("c2v_row_relay.py"), "--target a5", "c2v0");
    EXPECT_EQ(clean.exit_code, 0) << describe(clean);
    Verdict v = check(kernel_path("c2v_row_relay.py"), "--target a5 --visibility-delay 200", "c2v200");
    EXPECT_EQ(v.exit_code, 1) << describe(v);
    bool explained = false;
    for (const auto& f : v.findings)
        if (f.value("code", "") == "E-RACE-RAW" && f.value("message", "").find("scratch") != std::string::npos)
            for (const auto& d : f.value("details", std::vector<std::string>{}))
                explained |= d.find("only on its completion") != std::string::npos &&
                             d.find("system.fence()") != std::string::npos;
    EXPECT_TRUE(explained) << describe(v);
}

// ---- class 7: a5 split, loop-carried WAR flag per lane --------------------------------------------

TEST(Visibility, SplitLoopCarriedWarFlagReachesBothLanesOnA5) {
    int n = 0;
    for (std::string k : {"split_war_updown.py", "split_war_leftright.py", "split_region_war.py"})
        for (std::string target : {"a5", "a2a3"})
            for (std::string extra : {"", "--visibility-delay 200", "--v2c syncall --visibility-delay 200"}) {
                Verdict v = check(own_kernel(k), "--target " + target + " " + extra, "split" + std::to_string(n++));
                SCOPED_TRACE(k + " " + target + " " + extra);
                EXPECT_EQ(v.codes().count("E-DEADLOCK"), 0u) << describe(v);
                EXPECT_TRUE(v.codes_beyond_ring_slots().empty()) << describe(v);
            }
    // The expansion: on a5 one cube set per lane (ids 0 and 16), the lanes pick theirs by subblock index.
    RunResult r = run_cvsim({"expand", own_kernel("split_war_updown.py"), "--target", "a5"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("pl.system.sync_set(16, pipe=pl.PipeType.MTE2, core_type='aic')"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("pl.system.sync_wait(16, pipe=pl.PipeType.MTE3, core_type='aiv')"), std::string::npos)
        << r.out;
    // a2a3: an AIC set reaches both AIVs; one id.
    RunResult a = run_cvsim({"expand", own_kernel("split_war_updown.py"), "--target", "a2a3"});
    EXPECT_EQ(a.out.find("sync_set(16"), std::string::npos) << a.out;
}

// ---- class 8: token pops before a fallback barrier ------------------------------------------------

TEST(Visibility, TokenPopsGoBeforeAFallbackBarrier) {
    int n = 0;
    for (std::string k : {"tokens_fallback_barrier.py", "tokens_fallback_barrier_loop.py"})
        for (std::string target : {"a2a3", "a5"})
            for (std::string extra : {"", "--visibility-delay 200", "--input flag=1"}) {
                Verdict v = check(own_kernel(k), "--target " + target + " " + extra, "tok" + std::to_string(n++));
                SCOPED_TRACE(k + " " + target + " " + extra);
                EXPECT_EQ(v.codes().count("E-DEADLOCK"), 0u) << describe(v);
                EXPECT_TRUE(v.codes_beyond_ring_slots().empty()) << describe(v);
            }
    // Every pop of the cube precedes the first barrier (a token the barrier already orders is dropped since
    // sound5's 9b40684, so the expansion may have no pop at all; none may follow the barrier).
    RunResult r = run_cvsim({"expand", own_kernel("tokens_fallback_barrier.py")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto aiv = r.out.find("def tokens_barrier_aiv");
    std::string aic = r.out.substr(0, aiv);
    auto barrier = aic.find("syncall(");
    ASSERT_NE(barrier, std::string::npos);
    EXPECT_EQ(aic.find("tpop_from_aiv", barrier), std::string::npos) << aic;
}

// ---- class 14: one resolved schedule record -------------------------------------------------------

// explore --max-visibility-delay: the checker runs with the drawn delay (the race is reported, not only
// the mismatch it causes), and the printed replay line reproduces the schedule: same cycles, same codes.
TEST(Visibility, DrawnVisibilityDelayReachesTheCheckerAndTheReplayLine) {
    std::string jsonl = testing::TempDir() + "/vis_draw.jsonl";
    std::remove(jsonl.c_str());
    std::string js = testing::TempDir() + "/vis_draw.json";
    RunResult e =
        run_cvsim({"explore", kernel_path("c2v_row_relay.py"), "--target", "a5", "--max-visibility-delay", "300",
                   "--schedules", "12", "--jobs", "1", "--jsonl", jsonl, "--json", js, "--no-progress"});
    ASSERT_EQ(e.exit_code, 1) << e.out << e.err;
    // Per seed: cycles, codes and the drawn delay of the record.
    std::map<uint64_t, nlohmann::json> rec;
    std::ifstream in(jsonl);
    for (std::string line; std::getline(in, line);) {
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_discarded() && j.value("strategy", "") == "random") rec[j.value("seed", uint64_t{0})] = j;
    }
    ASSERT_EQ(rec.size(), 12u);
    int mismatches = 0;
    for (const auto& [seed, j] : rec) {
        ASSERT_TRUE(j.contains("visibility_delay")) << j.dump();
        EXPECT_LE(j.value("visibility_delay", uint64_t{0}), 300u);
        auto codes = j.value("codes", std::vector<std::string>{});
        std::set<std::string> cs(codes.begin(), codes.end());
        // A wrong output caused by the delay is never reported without the race that causes it.
        if (cs.count("E-MISMATCH")) {
            ++mismatches;
            EXPECT_TRUE(cs.count("E-RACE-RAW")) << "seed " << seed << ": " << j.dump();
        }
    }
    EXPECT_GT(mismatches, 0) << "the drawn delays never exposed the unpublished C2V token";
    // Replay every distinct finding's line and compare with the record of its seed.
    auto j = nlohmann::json::parse(read_file(js));
    int replayed = 0;
    for (const auto& f : j["kernels"][0]["findings"]) {
        // E-NONDET compares with the nominal schedule of the same exploration, which one `run` does not have.
        if (f.value("first_schedule", "") != "random" || f.value("code", "") == "E-NONDET") continue;
        std::string line = f.value("replay", "");
        ASSERT_EQ(line.rfind("cvsim run ", 0), 0u) << line;
        EXPECT_NE(line.find("--visibility-delay " + std::to_string(f.value("first_visibility_delay", uint64_t{0}))),
                  std::string::npos)
            << line;
        std::string rj = testing::TempDir() + "/vis_replay.json";
        auto args = split_args(line.substr(6));
        args.insert(args.end(), {"--json", rj, "-q"});
        RunResult r = run_cvsim(args);
        EXPECT_EQ(r.exit_code, 1) << line << "\n" << r.err;
        auto rr = nlohmann::json::parse(read_file(rj));
        const auto& want = rec.at(f.value("first_seed", uint64_t{0}));
        EXPECT_EQ(rr.value("cycles", uint64_t{0}), want.value("cycles", uint64_t{1})) << line;
        EXPECT_EQ(rr.value("visibility_delay", uint64_t{0}), want.value("visibility_delay", uint64_t{1})) << line;
        std::set<std::string> got;
        for (const auto& x : rr.value("findings", nlohmann::json::array())) got.insert(x.value("code", ""));
        EXPECT_TRUE(got.count(f.value("code", ""))) << line << " does not reproduce " << f.value("code", "");
        ++replayed;
    }
    EXPECT_GT(replayed, 0);
}

// `run --max-visibility-delay` draws as explore does, prints the drawn delay, and equals the run with that
// delay fixed (the draw has its own stream: the latency jitter of the seed is the same).
TEST(Visibility, RunDrawsTheDelayAndAFixedReplayMatchesIt) {
    std::string a = testing::TempDir() + "/vis_run_a.json", b = testing::TempDir() + "/vis_run_b.json";
    RunResult r1 = run_cvsim({"run", kernel_path("c2v_row_relay.py"), "--target", "a5", "--schedule", "random",
                              "--seed", "5", "--max-visibility-delay", "300", "--json", a});
    ASSERT_TRUE(r1.exit_code == 0 || r1.exit_code == 1) << r1.err;
    EXPECT_NE(r1.out.find("(drawn from [0, 300])"), std::string::npos) << r1.out;
    auto ja = nlohmann::json::parse(read_file(a));
    uint64_t d = ja.value("visibility_delay", uint64_t{0});
    RunResult r2 = run_cvsim({"run", kernel_path("c2v_row_relay.py"), "--target", "a5", "--schedule", "random",
                              "--seed", "5", "--visibility-delay", std::to_string(d), "--json", b});
    EXPECT_EQ(r2.exit_code, r1.exit_code) << r2.err;
    auto jb = nlohmann::json::parse(read_file(b));
    EXPECT_EQ(ja.value("cycles", uint64_t{0}), jb.value("cycles", uint64_t{1}));
    // The delay is drawn by random schedules only; elsewhere the option is an error, not ignored.
    RunResult bad =
        run_cvsim({"run", kernel_path("c2v_row_relay.py"), "--schedule", "pct:2", "--max-visibility-delay", "300"});
    EXPECT_EQ(bad.exit_code, 2) << bad.err;
    RunResult bad2 = run_cvsim({"explore", kernel_path("c2v_row_relay.py"), "--strategy", "pct:2",
                                "--max-visibility-delay", "300", "--jobs", "0"});
    EXPECT_EQ(bad2.exit_code, 2) << bad2.err;
}

// gm.visibility_delay is the default of --visibility-delay (the parameter used to be listed and ignored).
TEST(Visibility, TheVisibilityDelayParameterIsRead) {
    Verdict opt = check(kernel_path("c2v_row_relay.py"), "--target a5 --visibility-delay 200", "p_opt");
    Verdict par = check(kernel_path("c2v_row_relay.py"), "--target a5 --set gm.visibility_delay=200", "p_set");
    EXPECT_EQ(par.exit_code, 1) << describe(par);
    EXPECT_EQ(par.codes(), opt.codes());
    // The option overrides the parameter.
    Verdict off = check(kernel_path("c2v_row_relay.py"),
                        "--target a5 --set gm.visibility_delay=200 --visibility-delay 0", "p_off");
    EXPECT_EQ(off.exit_code, 0) << describe(off);
}

// sync.auto_slot_num sizes the pipes the expander adds; chip.flag_counters bounds flag ids;
// chip.aivs_per_cluster is gone (the machine has 2 AIVs per cluster; no other count is simulated).
TEST(Visibility, SlotAndFlagParametersAreRead) {
    RunResult two = run_cvsim({"expand", kernel_path("v2c_rope_attn.py")});
    EXPECT_NE(two.out.find("slot_num=2)"), std::string::npos) << two.out;
    RunResult four = run_cvsim({"expand", kernel_path("v2c_rope_attn.py"), "--set", "sync.auto_slot_num=4"});
    ASSERT_EQ(four.exit_code, 0) << four.err;
    EXPECT_NE(four.out.find("slot_num=4)"), std::string::npos) << four.out;
    EXPECT_EQ(four.out.find("slot_num=2)"), std::string::npos) << four.out;

    for (std::string target : {"a2a3", "a5"}) {
        Verdict ok =
            check(own_kernel("hand_flags.py"), "--target " + target + " --visibility-delay 200", "f_ok" + target);
        EXPECT_EQ(ok.exit_code, 0) << describe(ok);
        RunResult few = run_cvsim({"check", own_kernel("hand_flags.py"), "--target", target, "--set",
                                   "chip.flag_counters=12", "--jobs", "0"});
        EXPECT_EQ(few.exit_code, 2) << few.err;
        EXPECT_NE(few.err.find("error[E-CAPACITY]"), std::string::npos) << few.err;
        EXPECT_NE(few.err.find("chip.flag_counters"), std::string::npos) << few.err;
    }
    RunResult one =
        run_cvsim({"check", own_kernel("hand_flags.py"), "--set", "chip.aivs_per_cluster=1", "--jobs", "0"});
    EXPECT_EQ(one.exit_code, 2) << one.err;
    EXPECT_NE(one.err.find("unknown parameter 'chip.aivs_per_cluster'"), std::string::npos) << one.err;
}

}  // namespace

// A core reads back its own completed GM write under a visibility delay (the delay is to other cores): no
// false E-MISMATCH on a one-core store -> load, with or without the V2C policies (oracle sweep, property 2).
namespace {
TEST(Visibility, ACoreReadsItsOwnWriteUnderADelay) {
    int n = 0;
    for (std::string target : {"a2a3", "a5"})
        for (std::string policy : {"off", "fence", "syncall"}) {
            Verdict v =
                check(own_kernel("own_write_read_back.py"),
                      "--visibility-delay 50 --target " + target + " --v2c " + policy, "own" + std::to_string(n++));
            SCOPED_TRACE(target + " " + policy);
            EXPECT_EQ(v.exit_code, 0) << describe(v);
            EXPECT_TRUE(v.codes().empty()) << describe(v);
        }
}
}  // namespace
