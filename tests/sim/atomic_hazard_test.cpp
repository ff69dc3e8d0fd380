// Atomic-add stores in the happens-before checker: two atomic adds of the same bytes commute and do not
// race; an atomic add against a plain read or write of those bytes still races (hand-built event streams).
#include <gtest/gtest.h>

#include "sim/check/hazard_checker.h"

using namespace cvsim;
using namespace cvsim::sim;
using ir::Pipe;

namespace {

struct AtomicStream {
    rt::TensorStore store;
    std::unique_ptr<HazardChecker> checker;
    uint32_t seq[3] = {0, 0, 0};
    uint32_t pipe_seq[3][7] = {};
    uint64_t cycle = 0;

    AtomicStream() {
        rt::TensorBuffer t;
        t.name = "out";
        t.dtype = DType::FP32;
        t.shape = {16, 64};
        store.add(t);
        checker = std::make_unique<HazardChecker>(1, &store, 0);
    }
    // One FIXP/MTE access of `core`: kind 'r' read, 'w' plain write, 'a' atomic add.
    void access(CoreId core, char kind, Pipe pipe = Pipe::Fixp) {
        const int c = static_cast<int>(core);
        Event e;
        e.core = core;
        e.pipe = pipe;
        e.seq = seq[c]++;
        e.pipe_seq = pipe_seq[c][static_cast<int>(pipe)]++;
        GmAccess a;
        a.window.offsets = {0, 0};
        a.window.extents = {16, 64};
        a.write = kind != 'r';
        a.atomic = kind == 'a';
        e.gm = {a};
        e.start = e.end = cycle++;
        checker->on_event(e);
    }
    std::vector<std::string> codes() const {
        std::vector<std::string> out;
        for (auto& f : checker->findings()) out.push_back(f.code);
        return out;
    }
};

TEST(AtomicHazard, TwoAtomicAddsOfTheSameBytesDoNotRace) {
    AtomicStream s;
    s.access(CoreId::Aic, 'a');
    s.access(CoreId::Aiv0, 'a', Pipe::Mte3);
    s.access(CoreId::Aiv1, 'a', Pipe::Mte3);
    EXPECT_TRUE(s.codes().empty());
}

TEST(AtomicHazard, AtomicAgainstAPlainWriteIsAWaw) {
    AtomicStream s;
    s.access(CoreId::Aic, 'a');
    s.access(CoreId::Aiv0, 'w', Pipe::Mte3);
    EXPECT_EQ(s.codes(), std::vector<std::string>{"E-RACE-WAW"});
}

TEST(AtomicHazard, AtomicAgainstAPlainReadRaces) {
    AtomicStream s;
    s.access(CoreId::Aic, 'a');
    s.access(CoreId::Aiv0, 'r', Pipe::Mte2);
    EXPECT_EQ(s.codes(), std::vector<std::string>{"E-RACE-RAW"});
}

// A core's own plain write followed by its atomic add: another core's unordered atomic add still races with
// the plain write (the atomic add must not hide the write it follows).
TEST(AtomicHazard, AnAtomicAddDoesNotHideThePlainWriteBeforeIt) {
    AtomicStream s;
    s.access(CoreId::Aic, 'w');
    s.access(CoreId::Aic, 'a');
    s.access(CoreId::Aiv0, 'a', Pipe::Mte3);
    EXPECT_EQ(s.codes(), std::vector<std::string>{"E-RACE-WAW"});
}

TEST(AtomicHazard, AnAtomicAddDoesNotHideThePlainReadBeforeIt) {
    AtomicStream s;
    s.access(CoreId::Aic, 'r', Pipe::Mte2);
    s.access(CoreId::Aic, 'a');
    s.access(CoreId::Aiv0, 'a', Pipe::Mte3);
    EXPECT_EQ(s.codes(), std::vector<std::string>{"E-RACE-WAR"});
}

}  // namespace
