// The hazard checker on ring slot traffic (hand-built event streams, no SystemC): slot writes are ordered by
// the ring's flags even under a visibility delay (one definition shared with the simulator), and a read of a
// popped tile after its tfree races with the push that reuses the slot.
#include <gtest/gtest.h>

#include "sim/check/hazard_checker.h"

using namespace cvsim;
using namespace cvsim::sim;
using ir::Pipe;

namespace {

class RingStream {
  public:
    explicit RingStream(uint64_t vis) {
        rt::TensorBuffer t;
        t.name = "__ring_cluster0";
        t.dtype = DType::UINT8;
        t.shape = {4096};
        t.hidden = true;
        m_store.add(t);
        m_checker = std::make_unique<HazardChecker>(1, &m_store, vis);
    }
    uint32_t instr(CoreId core, Pipe pipe, std::vector<GmAccess> gm = {}, std::vector<uint32_t> deps = {},
                   std::vector<uint64_t> acq = {}, std::vector<uint64_t> rel = {}, int line = 1) {
        int c = static_cast<int>(core);
        Event e;
        e.core = core;
        e.pipe = pipe;
        e.seq = m_seq[c]++;
        e.pipe_seq = m_pipe_seq[c][static_cast<int>(pipe)]++;
        e.scalar_before = pipe == Pipe::Scalar ? -1 : m_last_scalar[c];
        if (pipe == Pipe::Scalar) {
            if (m_last_scalar[c] >= 0) deps.push_back(static_cast<uint32_t>(m_last_scalar[c]));
            m_last_scalar[c] = e.seq;
        }
        e.deps = deps;
        e.acquires = acq;
        e.releases = rel;
        e.gm = gm;
        e.loc.line = static_cast<uint32_t>(line);
        e.start = e.end = m_cycle++;
        m_checker->on_event(e);
        return e.seq;
    }
    static GmAccess slot(bool write, int64_t gen, bool ring = true) {
        GmAccess a;
        a.window.offsets = {0};
        a.window.extents = {1024};
        a.write = write;
        a.ring = ring;
        a.ring_gen = ring ? gen : -1;
        return a;
    }
    const std::vector<Finding>& findings() const { return m_checker->findings(); }

  private:
    rt::TensorStore m_store;
    std::unique_ptr<HazardChecker> m_checker;
    uint32_t m_seq[3] = {0, 0, 0};
    uint32_t m_pipe_seq[3][7] = {};
    int64_t m_last_scalar[3] = {-1, -1, -1};
    uint64_t m_cycle = 0;
};

TEST(RingSlotChecker, OneDefinitionOfWriteVisibility) {
    GmAccess store, push;
    store.write = push.write = true;
    push.ring = true;
    EXPECT_EQ(write_visibility_delay(store, 200), 200u);
    EXPECT_EQ(write_visibility_delay(push, 200), 0u) << "ring slot data travels with its ready flag";
    EXPECT_EQ(write_visibility_delay(store, 0), 0u);
}

TEST(RingSlotChecker, APushIsOrderedByItsReadyFlagUnderAVisibilityDelay) {
    // AIC pushes (slot write on FIXP, ready flag after it on FIXP); AIV pops (acquire) and copies the slot (a2a3).
    for (bool ring : {true, false}) {
        RingStream s(200);
        s.instr(CoreId::Aic, Pipe::Fixp, {RingStream::slot(true, 0, ring)}, {}, {}, {7});
        s.instr(CoreId::Aiv0, Pipe::Scalar, {}, {}, {7});
        s.instr(CoreId::Aiv0, Pipe::Mte2, {RingStream::slot(false, 0, ring)});
        if (ring)
            EXPECT_TRUE(s.findings().empty()) << s.findings()[0].message;
        else
            ASSERT_EQ(s.findings().size(), 1u) << "a plain GM store still needs a fence under a delay";
    }
}

TEST(RingSlotChecker, AReadAfterTheTfreeRacesWithThePushThatReusesTheSlot) {
    for (bool early : {false, true}) {
        RingStream s(0);
        s.instr(CoreId::Aic, Pipe::Fixp, {RingStream::slot(true, 0)}, {}, {}, {1}, 10);  // push, generation 0
        s.instr(CoreId::Aiv0, Pipe::Scalar, {}, {}, {1}, {}, 20);                        // pop (a5: bound in place)
        std::vector<uint32_t> free_deps;
        if (!early)
            free_deps.push_back(s.instr(CoreId::Aiv0, Pipe::Vector, {RingStream::slot(false, 0)}, {}, {}, {}, 21));
        s.instr(CoreId::Aiv0, Pipe::Scalar, {}, free_deps, {}, {2}, 22);  // tfree
        if (early)
            s.instr(CoreId::Aiv0, Pipe::Vector, {RingStream::slot(false, 0)}, {}, {}, {}, 23);  // read after the free
        s.instr(CoreId::Aic, Pipe::Fixp, {RingStream::slot(true, 1)}, {}, {2}, {3}, 10);        // push, generation 1
        if (!early) {
            EXPECT_TRUE(s.findings().empty()) << s.findings()[0].message;
            continue;
        }
        ASSERT_EQ(s.findings().size(), 1u);
        const Finding& f = s.findings()[0];
        EXPECT_EQ(f.code, "E-RACE-WAR") << "the read of generation 0 comes before the write of generation 1";
        EXPECT_NE(f.message.find("on ring slot memory __ring_cluster0"), std::string::npos) << f.message;
        EXPECT_EQ(f.loc.line, 10u);
        EXPECT_EQ(f.loc2.line, 23u);
    }
}

TEST(RingSlotChecker, BothLanesWritingOneGenerationAreAGatherAndTheNextGenerationStillRaces) {
    // A split-0 gather: AIV0 and AIV1 write the same slot bytes of one generation, unordered: no race (the
    // cube's pop waits for both; differing data is W-NONUNIFORM-GATHER, SPEC 4.3). A write of the next
    // generation that nothing orders after the other lane's write still races, reported once.
    for (bool aiv1_first : {false, true}) {
        RingStream s(0);
        CoreId a = aiv1_first ? CoreId::Aiv1 : CoreId::Aiv0, b = aiv1_first ? CoreId::Aiv0 : CoreId::Aiv1;
        s.instr(a, Pipe::Mte3, {RingStream::slot(true, 0)});
        s.instr(b, Pipe::Mte3, {RingStream::slot(true, 0)});
        EXPECT_TRUE(s.findings().empty()) << s.findings()[0].message;
        s.instr(a, Pipe::Mte3, {RingStream::slot(true, 1)});
        ASSERT_EQ(s.findings().size(), 1u);
        EXPECT_EQ(s.findings()[0].code, "E-RACE-WAW");
    }
}

}  // namespace
