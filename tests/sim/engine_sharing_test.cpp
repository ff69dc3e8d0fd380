// The engine's shortcuts change nothing a user sees: memoised results shared between schedules (ring slots,
// pops and the memo hold the same values), loads compared with the recorded GM bytes in place, and waits
// that an abort wakes through the per-core registry instead of an `e | abort` list.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "sim/session.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::sim;
using namespace cvsim::test;

namespace {

std::unique_ptr<Session> session(const std::string& kernel, Target t, bool memo, uint64_t max_cycles = 200'000'000) {
    SessionOptions o;
    o.target = t;
    o.memo = memo;
    o.max_cycles = max_cycles;
    return std::make_unique<Session>(SourceFile::read(kernel_path(kernel)), o);
}

std::vector<Schedule> schedules() {
    std::vector<Schedule> out(1);  // nominal first (records the memo)
    for (uint64_t seed = 1; seed <= 4; ++seed) {
        Schedule r;
        r.strategy = Strategy::Random;
        r.seed = seed;
        out.push_back(r);
    }
    Schedule p;
    p.strategy = Strategy::Pct;
    p.pct_depth = 3;
    p.seed = 5;
    out.push_back(p);
    return out;
}

void expect_same(const ScheduleResult& a, const ScheduleResult& b, const std::string& what) {
    EXPECT_EQ(a.cycles(), b.cycles()) << what;
    EXPECT_EQ(a.outcome.instructions, b.outcome.instructions) << what;
    ASSERT_EQ(a.findings.size(), b.findings.size()) << what;
    for (size_t i = 0; i < a.findings.size(); ++i) EXPECT_EQ(a.findings[i].message, b.findings[i].message) << what;
    ASSERT_EQ(a.outcome.gm_final.tensors.size(), b.outcome.gm_final.tensors.size()) << what;
    for (size_t i = 0; i < a.outcome.gm_final.tensors.size(); ++i)
        EXPECT_TRUE(a.outcome.gm_final.tensors[i].bytes == b.outcome.gm_final.tensors[i].bytes)
            << what << " tensor " << i;
}

TEST(EngineSharing, MemoisedSchedulesEqualTheSameSchedulesComputedInFull) {
    // Pushes and pops of whole tiles and of split halves, a V2C gather with differing lane data
    // (W-NONUNIFORM-GATHER), loads of GM that a race changes, on both targets.
    for (const char* k :
         {"flash_block.py", "nonuniform_gather.py", "c2v_row_relay.py", "split_updown_scratch.py", "v2c_rope_attn.py"})
        for (Target t : {Target::A2A3, Target::A5}) {
            auto memo = session(k, t, true), full = session(k, t, false);
            int n = 0;
            for (const Schedule& sc : schedules()) {
                std::string what = fmt::format("{} {} schedule {}", k, target_name(t), n++);
                // Twice through the memoised session: the second run reuses what the first recorded.
                ScheduleResult a = memo->run(sc), b = full->run(sc), c = memo->run(sc);
                expect_same(a, b, what);
                expect_same(c, b, what + " (again)");
            }
        }
}

TEST(EngineSharing, AMemoOutOfBudgetComputesTheRestAndChangesNothingAUserSees) {
    // The memo stops recording at its budget (real kernels would keep every result of the session): the
    // instructions past it compute in every schedule, and what reads their outputs computes too.
    for (const char* k : {"flash_block.py", "v2c_rope_attn.py"})
        for (Target t : {Target::A2A3, Target::A5}) {
            SessionOptions o;
            o.target = t;
            auto unlimited = std::make_unique<Session>(SourceFile::read(kernel_path(k)), o);
            unlimited->run(Schedule{});
            const size_t all = unlimited->memo_bytes();
            ASSERT_GT(all, 4096u) << k;
            for (size_t budget : {size_t{0}, all / 2}) {
                o.memo_budget = budget;
                auto capped = std::make_unique<Session>(SourceFile::read(kernel_path(k)), o);
                o.memo = false;
                auto full = std::make_unique<Session>(SourceFile::read(kernel_path(k)), o);
                o.memo = true;
                int n = 0;
                for (const Schedule& sc : schedules()) {
                    std::string what = fmt::format("{} {} budget {} schedule {}", k, target_name(t), budget, n++);
                    ScheduleResult a = capped->run(sc), b = full->run(sc), c = capped->run(sc);
                    expect_same(a, b, what);
                    expect_same(c, b, what + " (again)");
                }
                EXPECT_LT(capped->memo_bytes(), all) << k << " budget " << budget;
                if (budget == 0) {
                    EXPECT_EQ(capped->memo_bytes(), 0u) << k;
                }
            }
        }
}

TEST(EngineSharing, AScheduleCutByTheCycleBoundLeavesTheNextOneIntact) {
    // The bound stops the run with pipes in timed waits and cores blocked on rings and flags; the abort must
    // unwind all of them, or the next schedule would resume their stale instructions.
    auto full = session("flash_block.py", Target::A2A3, true);
    auto cut = session("flash_block.py", Target::A2A3, true, 3000);
    ScheduleResult before = full->run(Schedule{});
    ASSERT_TRUE(before.clean());
    ASSERT_GT(before.cycles(), 3000u);
    for (const Schedule& sc : schedules()) {
        ScheduleResult r = cut->run(sc);
        EXPECT_FALSE(r.outcome.completed);
        bool timeout = false;
        for (auto& f : r.findings) timeout |= f.code == "E-TIMEOUT";
        EXPECT_TRUE(timeout);
        expect_same(full->run(Schedule{}), before, "nominal after a cut schedule");
    }
}

}  // namespace
