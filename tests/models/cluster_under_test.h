// ClusterUnderTest: run a DSL kernel on the SystemC machine and assert exact timing relations on the
// recorded history of (cycle, core, pipe, op) (in the style of Ramulator's assert_gap).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sim/session.h"

namespace cvsim::test {

class ClusterUnderTest : public sim::EventSink {
  public:
    struct Rec {
        uint64_t start = 0, end = 0;
        int cluster = 0;
        sim::CoreId core = sim::CoreId::Aic;
        ir::Pipe pipe = ir::Pipe::Scalar;
        std::string op;
        uint32_t line = 0;
        std::string detail;
    };

    ClusterUnderTest(const std::string& dsl, sim::SessionOptions opt = {})
        : m_session(std::make_shared<SourceFile>("cut.py", dsl), std::move(opt)) {}

    // Runs one schedule; a run that does not complete fails the test with the deadlock dump.
    sim::ScheduleResult run_until_idle(uint64_t max_cycles = 2'000'000, sim::Schedule s = {}) {
        m_history.clear();
        sim::ScheduleResult r = run(s, max_cycles);
        if (!r.outcome.completed) {
            std::string dump;
            for (auto& f : r.findings) dump += sim::format_finding(f);
            ADD_FAILURE() << "the cluster did not go idle within " << max_cycles << " cycles:\n" << dump;
        }
        return r;
    }
    // Runs one schedule that may deadlock.
    sim::ScheduleResult run(sim::Schedule s = {}, uint64_t max_cycles = 2'000'000) {
        (void)max_cycles;
        m_history.clear();
        return m_session.run(s, {this});
    }

    void on_event(const sim::Event& e) override {
        if (e.kind != sim::EventKind::Instr) return;
        m_history.push_back({e.start, e.end, e.cluster, e.core, e.pipe, std::string(e.op), e.loc.line, e.detail});
    }

    const std::vector<Rec>& history() const { return m_history; }
    // Every record of `core` with op `op` (and detail containing `detail`), in completion order.
    std::vector<Rec> find(sim::CoreId core, const std::string& op, const std::string& detail = "",
                          int cluster = -1) const {
        std::vector<Rec> out;
        for (const auto& r : m_history)
            if (r.core == core && r.op == op && r.detail.find(detail) != std::string::npos &&
                (cluster < 0 || r.cluster == cluster))
                out.push_back(r);
        return out;
    }
    static void expect_gap(const Rec& a, const Rec& b, uint64_t cycles) {
        EXPECT_EQ(b.start - a.end, cycles)
            << a.op << " (ends " << a.end << ") -> " << b.op << " (starts " << b.start << ")";
    }
    static void expect_order(const Rec& a, const Rec& b) {
        EXPECT_LE(a.end, b.start) << a.op << " (ends " << a.end << ") must precede " << b.op << " (starts " << b.start
                                  << ")";
    }

    sim::Session& session() { return m_session; }

  private:
    sim::Session m_session;
    std::vector<Rec> m_history;
};

}  // namespace cvsim::test
