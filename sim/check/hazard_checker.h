// Happens-before hazard checker over GM windows (SPEC 6): RAW / WAR / WAW races between cores.
//
// Vector clocks have one component per (core, pipe) plus one "fence" component per core. An instruction's
// clock at its start joins: the clock of the scalar instruction issued before it (program order through
// the scalar unit, which performs every acquire), its same-core dependencies, the previous instruction of
// its own pipe (pipes complete in order) and the tokens it acquired (a ready flag from a tpush, a free
// from a tfree, a sync_set, every arrival of a syncall). Its clock at the end adds its own epoch. So a
// write is covered by a release only when the core's own ordering puts the write's completion before the
// release. With a visibility delay, a write is ordered before another core's access only through a fence
// of its core that follows it. Two accesses of different cores to overlapping bytes, at least one a
// write, with neither ordered before the other, are a race; each (kind, tensor, access pair) is reported
// once.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/runtime.h"
#include "sim/event.h"
#include "sim/verdict.h"

namespace cvsim::sim {

class HazardChecker : public EventSink {
public:
    // `tensors` gives names and shapes for reports; `visibility_delay` > 0 switches on the fence rule.
    HazardChecker(int clusters, const rt::TensorStore* tensors, uint64_t visibility_delay);
    void reset(uint64_t visibility_delay);

    void on_event(const Event& e) override;
    const std::vector<Finding>& findings() const { return m_findings; }
    uint64_t accesses_checked() const { return m_checked; }

private:
    using VC = std::vector<uint32_t>;
    static constexpr int kComps = 8;  // 7 pipes + fence, per core

    struct Access {
        int core = 0;                 // global core index (cluster * 3 + core)
        ir::Pipe pipe = ir::Pipe::Scalar;
        uint32_t comp = 0;            // clock component of (core, pipe)
        uint32_t epoch = 0;           // its epoch there (pipe_seq + 1)
        uint32_t fence_next = 0;      // the first fence epoch of its core that covers it
        bool write = false;
        rt::Window w;
        SourceLoc loc;
        std::string_view op;
        uint64_t cycle = 0;
        OrderKeyPtr order;
    };

    int comp(int core, ir::Pipe p) const { return core * kComps + static_cast<int>(p); }
    int fence_comp(int core) const { return core * kComps + 7; }
    static void join(VC& a, const VC& b);
    bool ordered_before(const Access& first, const VC& second_start) const;
    void check(const Access& a, const VC& start);
    void report(const Access& earlier, const Access& later);
    std::string tensor_label(uint32_t tensor, const rt::Window& w) const;

    int m_ncomp;                                           // clock width
    const rt::TensorStore* m_tensors;                      // names and shapes
    uint64_t m_vis_delay;                                  // > 0: writes need a fence to be covered
    struct CoreState {
        std::unordered_map<uint32_t, VC> vc_end;           // clock at the end of each instruction (by seq)
        std::array<VC, 7> last_on_pipe;                    // clock at the end of each pipe's last instruction
        uint32_t fences = 0;                               // fences completed
    };
    std::vector<CoreState> m_cores;
    std::unordered_map<uint64_t, VC> m_tokens;             // released sync tokens -> clock of the release
    std::unordered_map<uint32_t, std::vector<Access>> m_shadow;  // per tensor: accesses not yet superseded
    std::vector<Finding> m_findings;
    std::set<std::string> m_reported;                      // (kind, tensor, pair) already reported
    uint64_t m_checked = 0;
};

}  // namespace cvsim::sim
