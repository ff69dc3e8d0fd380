// The SystemC machine end to end on small programs (each test runs in its own process under ctest).
#include <gtest/gtest.h>

#include "frontend/sema.h"
#include "sim/session.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::sim;
using namespace cvsim::test;

namespace {

std::unique_ptr<Session> session(const std::string& kernel, passes::V2CPolicy pol = passes::V2CPolicy::Fence,
                                 Target t = Target::A2A3) {
    SessionOptions o;
    o.v2c = pol;
    o.target = t;
    return std::make_unique<Session>(SourceFile::read(kernel_path(kernel)), o);
}

bool has(const ScheduleResult& r, const std::string& code) {
    for (auto& f : r.findings)
        if (f.code == code) return true;
    return false;
}

TEST(Machine, FencedKernelMatchesTheReferenceInNominalAndRandomSchedules) {
    auto s = session("v2c_rope_attn.py");
    ScheduleResult nom = s->run(Schedule{});
    EXPECT_TRUE(nom.clean()) << (nom.findings.empty() ? "" : nom.findings[0].message);
    EXPECT_GT(nom.cycles(), 500u);
    for (uint64_t seed = 1; seed <= 20; ++seed) {
        Schedule r;
        r.strategy = Strategy::Random;
        r.seed = seed;
        EXPECT_TRUE(s->run(r).clean()) << seed;
    }
}

TEST(Machine, UnfencedKernelRacesAndReadsStaleData) {
    auto s = session("v2c_rope_attn.py", passes::V2CPolicy::Off);
    ScheduleResult r = s->run(Schedule{});
    EXPECT_TRUE(has(r, "E-RACE-RAW"));
    EXPECT_TRUE(has(r, "E-MISMATCH")) << "the cube read the poisoned scratch";
}

TEST(Machine, SameSeedSameResult) {
    auto s = session("v2c_blocked_loop.py", passes::V2CPolicy::Off);
    Schedule r;
    r.strategy = Strategy::Random;
    r.seed = 11;
    ScheduleResult a = s->run(r), b = s->run(r);
    EXPECT_EQ(a.cycles(), b.cycles());
    ASSERT_EQ(a.findings.size(), b.findings.size());
    for (size_t i = 0; i < a.findings.size(); ++i) EXPECT_EQ(a.findings[i].message, b.findings[i].message);
}

TEST(Machine, RandomSchedulesChangeTiming) {
    auto s = session("v2c_rope_attn.py");
    std::set<uint64_t> cycles;
    for (uint64_t seed = 1; seed <= 10; ++seed) {
        Schedule r;
        r.strategy = Strategy::Random;
        r.seed = seed;
        cycles.insert(s->run(r).cycles());
    }
    EXPECT_GT(cycles.size(), 5u);
}

TEST(Machine, DeadlockIsReportedAndTheNextScheduleStillRuns) {
    auto bad = session("missing_tfree.py");
    ScheduleResult r = bad->run(Schedule{});
    EXPECT_TRUE(has(r, "E-DEADLOCK"));
    EXPECT_FALSE(r.outcome.completed);
    // The machine was reset: a good kernel runs cleanly afterwards in the same elaboration.
    auto good = session("v2c_rope_attn.py");
    EXPECT_TRUE(good->run(Schedule{}).clean());
    // A diagnostic raised after the runs is an ordinary exception (under ASan: the thread's stack is known
    // again after each sc_start, so unwinding it reports nothing; see sc_run in sim/cluster.cpp).
    for (int k = 0; k < 3; ++k) {
        try {
            session("v2c_rope_attn.py", passes::V2CPolicy::Reject);
            ADD_FAILURE() << "reject accepted v2c_rope_attn.py";
        } catch (const CompileError& e) {
            EXPECT_EQ(e.diag().code, "E-V2C-UNFENCED");
        }
    }
}

TEST(Machine, RingBackPressureStallsTheProducer) {
    // The vector side of flash_block pops one tile per iteration; the cube pushes 16 over a 2-slot ring.
    auto s = session("flash_block.py");
    ScheduleResult r = s->run(Schedule{});
    EXPECT_TRUE(r.clean());
    ASSERT_FALSE(r.outcome.rings.empty());
    for (auto& ring : r.outcome.rings) {
        EXPECT_EQ(ring.slot_num, 2);
        EXPECT_LE(ring.max_occupancy, 2);
    }
}

TEST(Machine, A5WithoutNzAdapterDeliversScrambledData) {
    // a5_missing_nz.py pushes a 16 x 16 fp16 tile: one fractal box, whose NZ and ND layouts coincide, so
    // only the warning shows. A 16 x 32 tile spans two boxes: read as NZ, its bytes land in the wrong
    // places and the cube computes on scrambled data.
    auto s = session("a5_missing_nz.py", passes::V2CPolicy::Fence, Target::A5);
    EXPECT_TRUE(has(s->run(Schedule{}), "W-V2C-LAYOUT"));
    std::string text = read_file(kernel_path("a5_missing_nz.py"));
    auto replace_all = [&](const std::string& a, const std::string& b) {
        for (size_t p = text.find(a); p != std::string::npos; p = text.find(a, p + b.size()))
            text.replace(p, a.size(), b);
    };
    replace_all("a: pl.Tensor[[16, 16], pl.FP16]", "a: pl.Tensor[[16, 32], pl.FP16]");
    replace_all("b: pl.Tensor[[16, 16], pl.FP16]", "b: pl.Tensor[[32, 16], pl.FP16]");
    replace_all("pl.Tile[[16, 16], pl.FP16, pl.MemorySpace.Mat]", "pl.Tile[[16, 32], pl.FP16, pl.MemorySpace.Mat]");
    replace_all("pl.load(b, [0, 0], [16, 16]", "pl.load(b, [0, 0], [32, 16]");
    replace_all("pl.load(a, [0, 0], [16, 16])", "pl.load(a, [0, 0], [16, 32])");
    // The reservation first: "size=1024" is also a substring of the new "slot_size=1024" (the ring became
    // 2 x 2048 bytes in a 2048-byte reservation, which a5 now refuses with E-CAPACITY).
    replace_all("size=1024", "size=2048");
    replace_all("slot_size=512", "slot_size=1024");
    for (Target t : {Target::A5, Target::A2A3}) {
        SessionOptions o;
        o.target = t;
        Session wide(std::make_shared<SourceFile>("a5_wide.py", text), o);
        ScheduleResult r = wide.run(Schedule{});
        if (t == Target::A5) {
            EXPECT_TRUE(has(r, "W-V2C-LAYOUT"));
            EXPECT_TRUE(has(r, "E-MISMATCH")) << "the cube computed on scrambled data";
        } else {
            EXPECT_TRUE(r.clean()) << "on a2a3 the pop's GM->L1 copy repacks ND->NZ";
        }
    }
    auto ok = session("a5_missing_nz.py", passes::V2CPolicy::Fence, Target::A2A3);
    EXPECT_TRUE(ok->run(Schedule{}).clean());
}

// Split codes end to end (expand, simulate, compare with the reference): the odd codes 3/4 of aiv_shard /
// aic_gather on odd extents in split_aiv regions (lane 1's smaller part is a run-time valid region, which
// its store and its gather push honour), and a C2V tile move in a split function (both sides carry code 1).
TEST(Machine, SplitCodesIncludingTheOddOnesMatchTheReference) {
    const std::string odd = source_dir() + "/tests/golden/expand/odd_split_codes.py";
    const std::string c2v = source_dir() + "/tests/golden/expand/split_updown_c2v.py";
    struct Case {
        std::string file, entry;
    };
    for (const Case& k : {Case{odd, "odd_rows"}, Case{odd, "odd_cols"}, Case{c2v, ""}}) {
        for (Target t : {Target::A2A3, Target::A5}) {
            SessionOptions o;
            o.target = t;
            o.entry = k.entry;
            Session s(SourceFile::read(k.file), o);
            for (uint64_t seed = 0; seed <= 10; ++seed) {
                Schedule sc;
                if (seed > 0) {
                    sc.strategy = Strategy::Random;
                    sc.seed = seed;
                }
                ScheduleResult r = s.run(sc);
                EXPECT_TRUE(r.clean()) << k.file << " " << k.entry << " " << target_name(t) << " seed " << seed << ": "
                                       << (r.findings.empty() ? "" : r.findings[0].code + " " + r.findings[0].message);
            }
        }
    }
}

TEST(Machine, VisibilityDelayWithoutAFenceIsCaught) {
    SessionOptions o;
    o.v2c = passes::V2CPolicy::Off;
    o.visibility_delay = 200;
    Session good(SourceFile::read(kernel_path("v2c_manual_syncall.py")), o);
    EXPECT_TRUE(good.run(Schedule{}).clean());
}

}  // namespace
