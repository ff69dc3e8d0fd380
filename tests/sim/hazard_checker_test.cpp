// The happens-before checker on hand-built event streams (no SystemC).
#include <gtest/gtest.h>

#include "sim/check/hazard_checker.h"

using namespace cvsim;
using namespace cvsim::sim;

namespace {

class Stream {
  public:
    Stream() {
        rt::TensorBuffer t;
        t.name = "scratch";
        t.dtype = DType::FP16;
        t.shape = {16, 128};
        m_store.add(t);
    }
    HazardChecker& checker(uint64_t vis = 0) {
        if (!m_checker) m_checker = std::make_unique<HazardChecker>(1, &m_store, vis);
        return *m_checker;
    }
    // Emits an instruction event of `core` on `pipe`; returns its seq.
    uint32_t instr(CoreId core, ir::Pipe pipe, std::vector<GmAccess> gm = {}, std::vector<uint32_t> deps = {},
                   std::vector<uint64_t> acq = {}, std::vector<uint64_t> rel = {}, bool fence = false, int line = 1) {
        int c = static_cast<int>(core);
        Event e;
        e.core = core;
        e.pipe = pipe;
        e.seq = m_seq[c]++;
        e.pipe_seq = m_pipe_seq[c][static_cast<int>(pipe)]++;
        e.scalar_before = pipe == ir::Pipe::Scalar ? -1 : m_last_scalar[c];
        if (pipe == ir::Pipe::Scalar) {
            // scalar instructions follow the previous scalar instruction
            if (m_last_scalar[c] >= 0) deps.push_back(static_cast<uint32_t>(m_last_scalar[c]));
            m_last_scalar[c] = e.seq;
        }
        e.deps = deps;
        e.acquires = acq;
        e.releases = rel;
        e.gm = gm;
        e.fence = fence;
        e.drain = fence;
        e.loc.line = static_cast<uint32_t>(line);
        e.start = e.end = m_cycle++;
        checker().on_event(e);
        return e.seq;
    }
    static GmAccess acc(bool write, int64_t r0 = 0, int64_t rows = 16, int64_t c0 = 0, int64_t cols = 128) {
        GmAccess a;
        a.tensor = 0;
        a.window.tensor = 0;
        a.window.offsets = {r0, c0};
        a.window.extents = {rows, cols};
        a.write = write;
        return a;
    }
    std::vector<std::string> codes() {
        std::vector<std::string> out;
        for (auto& f : checker().findings()) out.push_back(f.code);
        return out;
    }

  private:
    rt::TensorStore m_store;
    std::unique_ptr<HazardChecker> m_checker;
    uint32_t m_seq[3] = {0, 0, 0};
    uint32_t m_pipe_seq[3][7] = {};
    int64_t m_last_scalar[3] = {-1, -1, -1};
    uint64_t m_cycle = 0;
};

using ir::Pipe;

TEST(HazardChecker, UnorderedWriteThenReadIsARaw) {
    Stream s;
    s.instr(CoreId::Aiv0, Pipe::Mte3, {Stream::acc(true)});
    s.instr(CoreId::Aic, Pipe::Mte2, {Stream::acc(false)});
    EXPECT_EQ(s.codes(), std::vector<std::string>{"E-RACE-RAW"});
    EXPECT_NE(s.checker().findings()[0].message.find("scratch[0:16, 0:128]"), std::string::npos);
}

TEST(HazardChecker, DisjointWindowsDoNotRace) {
    Stream s;
    s.instr(CoreId::Aiv0, Pipe::Mte3, {Stream::acc(true, 0, 8)});
    s.instr(CoreId::Aic, Pipe::Mte2, {Stream::acc(false, 8, 8)});
    EXPECT_TRUE(s.codes().empty());
}

TEST(HazardChecker, ReadsNeverRaceWithReads) {
    Stream s;
    s.instr(CoreId::Aiv0, Pipe::Mte2, {Stream::acc(false)});
    s.instr(CoreId::Aic, Pipe::Mte2, {Stream::acc(false)});
    EXPECT_TRUE(s.codes().empty());
}

TEST(HazardChecker, ReleaseOnTheSamePipeAfterTheWriteOrdersIt) {
    Stream s;
    s.instr(CoreId::Aiv0, Pipe::Mte3, {Stream::acc(true)});
    s.instr(CoreId::Aiv0, Pipe::Mte3, {}, {}, {}, {42});     // tpush: ready flag raised on MTE3 after the copy
    s.instr(CoreId::Aic, Pipe::Scalar, {}, {}, {42});        // tpop acquires on the scalar unit
    s.instr(CoreId::Aic, Pipe::Mte2, {Stream::acc(false)});  // the load issued after the pop
    EXPECT_TRUE(s.codes().empty());
}

TEST(HazardChecker, ReleaseOnAnotherPipeWithoutDependencyDoesNotCoverTheWrite) {
    Stream s;
    s.instr(CoreId::Aiv0, Pipe::Mte3, {Stream::acc(true)});
    s.instr(CoreId::Aiv0, Pipe::Vector, {}, {}, {}, {42});  // a flag raised on VECTOR, not after the store
    s.instr(CoreId::Aic, Pipe::Scalar, {}, {}, {42});
    s.instr(CoreId::Aic, Pipe::Mte2, {Stream::acc(false)});
    EXPECT_EQ(s.codes(), std::vector<std::string>{"E-RACE-RAW"});
}

TEST(HazardChecker, DependencyChainCoversTheWrite) {
    Stream s;
    uint32_t w = s.instr(CoreId::Aiv0, Pipe::Mte3, {Stream::acc(true)});
    s.instr(CoreId::Aiv0, Pipe::Vector, {}, {w}, {}, {42});  // depends on the store
    s.instr(CoreId::Aic, Pipe::Scalar, {}, {}, {42});
    s.instr(CoreId::Aic, Pipe::Mte2, {Stream::acc(false)});
    EXPECT_TRUE(s.codes().empty());
}

TEST(HazardChecker, WithAVisibilityDelayOnlyAFenceCoversTheWrite) {
    Stream no_fence;
    no_fence.checker(200);
    no_fence.instr(CoreId::Aiv0, Pipe::Mte3, {Stream::acc(true)});
    no_fence.instr(CoreId::Aiv0, Pipe::Mte3, {}, {}, {}, {42});
    no_fence.instr(CoreId::Aic, Pipe::Scalar, {}, {}, {42});
    no_fence.instr(CoreId::Aic, Pipe::Mte2, {Stream::acc(false)});
    EXPECT_EQ(no_fence.codes(), std::vector<std::string>{"E-RACE-RAW"});

    Stream fenced;
    fenced.checker(200);
    uint32_t w = fenced.instr(CoreId::Aiv0, Pipe::Mte3, {Stream::acc(true)});
    fenced.instr(CoreId::Aiv0, Pipe::Scalar, {}, {w}, {}, {}, /*fence=*/true);
    fenced.instr(CoreId::Aiv0, Pipe::Scalar, {}, {}, {}, {42});  // barrier arrival after the fence
    fenced.instr(CoreId::Aic, Pipe::Scalar, {}, {}, {42});
    fenced.instr(CoreId::Aic, Pipe::Mte2, {Stream::acc(false)});
    EXPECT_TRUE(fenced.codes().empty());
}

TEST(HazardChecker, WarAcrossIterationsIsReported) {
    Stream s;
    s.instr(CoreId::Aic, Pipe::Mte2, {Stream::acc(false)});  // iteration i reads
    s.instr(CoreId::Aiv0, Pipe::Mte3, {Stream::acc(true)});  // iteration i+1 overwrites, unordered
    EXPECT_EQ(s.codes(), std::vector<std::string>{"E-RACE-WAR"});
}

TEST(HazardChecker, EachAccessPairIsReportedOnce) {
    Stream s;
    for (int i = 0; i < 5; ++i) {
        s.instr(CoreId::Aiv0, Pipe::Mte3, {Stream::acc(true)}, {}, {}, {}, false, 10);
        s.instr(CoreId::Aic, Pipe::Mte2, {Stream::acc(false)}, {}, {}, {}, false, 20);
    }
    EXPECT_EQ(s.checker().findings().size(), 2u);  // RAW (10 -> 20) and the WAR of the next iteration (20 -> 10)
}

TEST(HazardChecker, IntendedOrderNamesAReadBeforeItsWriteAsRaw) {
    Stream s;
    auto key = [](uint64_t stmt) {
        auto k = std::make_shared<OrderKey>();
        k->stmt = stmt;
        k->origin = "f";
        return k;
    };
    Event r;
    r.core = CoreId::Aic;
    r.pipe = Pipe::Mte2;
    r.gm = {Stream::acc(false)};
    r.order = key(33 << 20);
    r.loc.line = 33;
    s.checker().on_event(r);  // the cube read ran first ...
    Event w;
    w.core = CoreId::Aiv0;
    w.pipe = Pipe::Mte3;
    w.gm = {Stream::acc(true)};
    w.order = key(31 << 20);  // ... but the program stores first
    w.loc.line = 31;
    s.checker().on_event(w);
    EXPECT_EQ(s.codes(), std::vector<std::string>{"E-RACE-RAW"});
}

TEST(HazardChecker, RingSlotTrafficOrderedByItsFlagsIsNotARace) {
    Stream s;
    // Producer writes slot 0 and raises ready; consumer pops (acquire), copies, frees (release);
    // producer's next push into slot 0 acquires the free.
    s.instr(CoreId::Aic, Pipe::Fixp, {Stream::acc(true, 0, 1)}, {}, {}, {1});
    s.instr(CoreId::Aiv0, Pipe::Scalar, {}, {}, {1});
    uint32_t copy = s.instr(CoreId::Aiv0, Pipe::Mte2, {Stream::acc(false, 0, 1)});
    s.instr(CoreId::Aiv0, Pipe::Scalar, {}, {copy}, {}, {2});
    s.instr(CoreId::Aic, Pipe::Fixp, {Stream::acc(true, 0, 1)}, {}, {2}, {3});
    EXPECT_TRUE(s.codes().empty());
}

// ---- FastTrack shadow state: read epochs inflate to a read vector clock only when reads are shared.

TEST(HazardChecker, OneReaderKeepsAReadEpoch) {
    Stream s;
    for (int i = 0; i < 3; ++i) s.instr(CoreId::Aic, Pipe::Mte2, {Stream::acc(false)});  // same (core, pipe)
    s.instr(CoreId::Aiv0, Pipe::Mte2, {Stream::acc(false, 0, 8)});                       // another window
    EXPECT_EQ(s.checker().read_inflations(), 0u);
    EXPECT_EQ(s.checker().shared_read_cells(), 0u);
}

TEST(HazardChecker, SharedReadsThenAWriteUnorderedWithOneReaderIsOneWar) {
    Stream s;
    // AIV0 and AIV1 read the same window (the read epoch inflates); AIV0 then tells the cube it is done.
    s.instr(CoreId::Aiv0, Pipe::Mte2, {Stream::acc(false)}, {}, {}, {}, false, 10);
    s.instr(CoreId::Aiv1, Pipe::Mte2, {Stream::acc(false)}, {}, {}, {}, false, 11);
    EXPECT_EQ(s.checker().read_inflations(), 1u);
    EXPECT_EQ(s.checker().shared_read_cells(), 1u);
    s.instr(CoreId::Aiv0, Pipe::Mte2, {}, {}, {}, {7});  // release after AIV0's read (same pipe)
    s.instr(CoreId::Aic, Pipe::Scalar, {}, {}, {7});
    s.instr(CoreId::Aic, Pipe::Mte3, {Stream::acc(true)}, {}, {}, {}, false, 20);  // ordered after AIV0 only
    ASSERT_EQ(s.codes(), std::vector<std::string>{"E-RACE-WAR"});
    const Finding& f = s.checker().findings()[0];
    ASSERT_EQ(f.accesses.size(), 2u);
    EXPECT_EQ(f.accesses[0].core, 2) << "the AIV1 read, not AIV0's: " << f.message;
    EXPECT_EQ(f.accesses[0].loc.line, 11u);
    EXPECT_FALSE(f.accesses[0].write);
    EXPECT_EQ(f.accesses[1].core, 0);
    EXPECT_TRUE(f.accesses[1].write);
}

TEST(HazardChecker, SharedReadsThenAWriteUnorderedWithBothAreTwoWarsInArrivalOrder) {
    Stream s;
    s.instr(CoreId::Aiv1, Pipe::Mte2, {Stream::acc(false)}, {}, {}, {}, false, 11);
    s.instr(CoreId::Aiv0, Pipe::Mte2, {Stream::acc(false)}, {}, {}, {}, false, 10);
    s.instr(CoreId::Aic, Pipe::Mte3, {Stream::acc(true)}, {}, {}, {}, false, 20);
    ASSERT_EQ(s.codes(), (std::vector<std::string>{"E-RACE-WAR", "E-RACE-WAR"}));
    EXPECT_EQ(s.checker().findings()[0].accesses[0].core, 2);  // AIV1 read first
    EXPECT_EQ(s.checker().findings()[1].accesses[0].core, 1);
}

TEST(HazardChecker, AWriteOrderedAfterAllSharedReadsDeflatesTheReadVectorClock) {
    Stream s;
    s.instr(CoreId::Aiv0, Pipe::Mte2, {Stream::acc(false)});
    s.instr(CoreId::Aiv1, Pipe::Mte2, {Stream::acc(false)});
    s.instr(CoreId::Aiv0, Pipe::Mte2, {}, {}, {}, {7});
    s.instr(CoreId::Aiv1, Pipe::Mte2, {}, {}, {}, {8});
    s.instr(CoreId::Aic, Pipe::Scalar, {}, {}, {7, 8});
    s.instr(CoreId::Aic, Pipe::Mte3, {Stream::acc(true)});
    EXPECT_TRUE(s.codes().empty());
    EXPECT_EQ(s.checker().shared_read_cells(), 0u);
    // The window now holds the write's epoch only: a later unordered read of a third party is a RAW.
    s.instr(CoreId::Aiv1, Pipe::Mte2, {Stream::acc(false)});
    EXPECT_EQ(s.codes(), std::vector<std::string>{"E-RACE-RAW"});
}

TEST(HazardChecker, TwoPipesOfOneCoreReadingAreSharedToo) {
    Stream s;
    // The cube reads on MTE2 and (through another instruction) on MTE1's clock component: both epochs stay.
    s.instr(CoreId::Aic, Pipe::Mte2, {Stream::acc(false)});
    s.instr(CoreId::Aic, Pipe::Mte1, {Stream::acc(false)});
    EXPECT_EQ(s.checker().read_inflations(), 1u);
    // A vector write ordered after the MTE1 read only still races with the MTE2 read.
    s.instr(CoreId::Aic, Pipe::Mte1, {}, {}, {}, {9});
    s.instr(CoreId::Aiv0, Pipe::Scalar, {}, {}, {9});
    s.instr(CoreId::Aiv0, Pipe::Mte3, {Stream::acc(true)});
    EXPECT_EQ(s.codes(), std::vector<std::string>{"E-RACE-WAR"});
}

TEST(HazardChecker, AnOlderRacingWriteStaysInTheShadow) {
    Stream s;
    // AIV0 and AIV1 write the window unordered (WAW); the cube then reads ordered after AIV1's write only:
    // the read still races with AIV0's write.
    s.instr(CoreId::Aiv0, Pipe::Mte3, {Stream::acc(true)}, {}, {}, {}, false, 10);
    s.instr(CoreId::Aiv1, Pipe::Mte3, {Stream::acc(true)}, {}, {}, {}, false, 11);
    s.instr(CoreId::Aiv1, Pipe::Mte3, {}, {}, {}, {5});
    s.instr(CoreId::Aic, Pipe::Scalar, {}, {}, {5});
    s.instr(CoreId::Aic, Pipe::Mte2, {Stream::acc(false)}, {}, {}, {}, false, 20);
    EXPECT_EQ(s.codes(), (std::vector<std::string>{"E-RACE-WAW", "E-RACE-RAW"}));
    const Finding& raw = s.checker().findings()[1];
    EXPECT_EQ(raw.accesses[0].core, 1) << "AIV0's write: " << raw.message;
    EXPECT_EQ(raw.accesses[0].loc.line, 10u);
}

TEST(HazardChecker, PartlyOverlappingReadsOfOtherWindowsAreEachChecked) {
    Stream s;
    s.instr(CoreId::Aiv0, Pipe::Mte2, {Stream::acc(false, 0, 4)});  // rows 0..4
    s.instr(CoreId::Aiv1, Pipe::Mte2, {Stream::acc(false, 4, 4)});  // rows 4..8
    s.instr(CoreId::Aic, Pipe::Mte3, {Stream::acc(true, 2, 4)});    // rows 2..6: races with both reads
    EXPECT_EQ(s.codes(), (std::vector<std::string>{"E-RACE-WAR", "E-RACE-WAR"}));
    EXPECT_EQ(s.checker().read_inflations(), 0u);  // different windows: one read epoch each
}

// The checker tests a window's first dimension and rank before its window (HazardChecker::Axis0): among many one-row
// windows of two lanes, a read races with the writes of exactly the rows and columns it shares, a shared row with
// disjoint columns does not race, and a window of another rank (a reshaped view) is assumed to overlap every cell.
// (A finding is keyed by kind, tensor and the two cores here, the test's locations having no file: one read each.)
TEST(HazardChecker, ManyOneRowWindowsRaceByRowsColumnsAndRank) {
    auto lines_of_one_read = [](const GmAccess& read) {
        Stream s;
        for (int64_t r = 0; r < 16; ++r)  // AIV0 writes the even rows' first half (line 10), AIV1 the odd rows' (11)
            s.instr(r % 2 ? CoreId::Aiv1 : CoreId::Aiv0, Pipe::Mte3, {Stream::acc(true, r, 1, 0, 64)}, {}, {}, {},
                    false, r % 2 ? 11 : 10);
        s.instr(CoreId::Aiv1, Pipe::Mte3, {Stream::acc(true, 2, 1, 64, 64)}, {}, {}, {}, false, 12);  // row 2's rest
        EXPECT_TRUE(s.codes().empty());
        s.instr(CoreId::Aic, Pipe::Mte2, {read}, {}, {}, {}, false, 20);
        std::vector<uint32_t> lines;  // the writes each RAW names, in report order
        for (const Finding& f : s.checker().findings()) {
            EXPECT_EQ(f.code, "E-RACE-RAW");
            lines.push_back(f.accesses[0].loc.line);
        }
        return lines;
    };
    using L = std::vector<uint32_t>;
    EXPECT_EQ(lines_of_one_read(Stream::acc(false, 6, 2, 32, 64)), (L{10, 11}));  // rows 6 and 7: both lanes
    EXPECT_EQ(lines_of_one_read(Stream::acc(false, 2, 1, 100, 28)), (L{12}));     // row 2, AIV1's columns only
    EXPECT_EQ(lines_of_one_read(Stream::acc(false, 2, 1, 0, 10)), (L{10}));       // row 2, AIV0's columns only
    EXPECT_EQ(lines_of_one_read(Stream::acc(false, 5, 1, 64, 64)), (L{}));        // row 5's unwritten half
    GmAccess flat = Stream::acc(false);  // a 1-D window of the 2-D tensor: assumed to overlap every write
    flat.window.offsets = {200};
    flat.window.extents = {1};
    EXPECT_EQ(lines_of_one_read(flat), (L{10, 11}));
}

}  // namespace
