// The embedded demo (`cvsim` with no arguments): one V2C kernel under every policy, side by side.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>
#include <vector>

#include "app/cli.h"
#include "app/explore.h"
#include "frontend/diag.h"

namespace cvsim::cli {

namespace {

// The seed scenario: the vector lane writes a rotary-scaled q to a GM scratch, the cube lane reads it back
// for the score matmul (V2C through GM), and the scores return to the vector lane as a tile.
constexpr const char* kDemoKernel = R"(# cvsim demo: in-kernel rope -> attention fusion (V2C through a GM scratch)
import pypto.language as pl

S = 16
D = 128
N = 64


@pl.program
class RopeAttn:
    @pl.function(type=pl.FunctionType.InCore)
    def rope_attn(
        self,
        q: pl.Tensor[[S, D], pl.FP16],
        cos: pl.Tensor[[S, D], pl.FP16],
        sin: pl.Tensor[[S, D], pl.FP16],
        k: pl.Tensor[[D, N], pl.FP16],
        q_rot: pl.Out[pl.Tensor[[S, D], pl.FP16]],
        out: pl.Out[pl.Tensor[[S, N], pl.FP32]],
    ) -> pl.Tensor[[S, N], pl.FP32]:
        q_t = pl.load(q, [0, 0], [S, D])
        c_t = pl.load(cos, [0, 0], [S, D])
        s_t = pl.load(sin, [0, 0], [S, D])
        qc = pl.mul(q_t, c_t)
        qs = pl.mul(q_t, s_t)
        r = pl.add(qc, qs)
        q_rot = pl.store(r, [0, 0], q_rot)
        a_mat = pl.load(q_rot, [0, 0], [S, D], target_memory=pl.MemorySpace.Mat)
        a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
        k_mat = pl.load(k, [0, 0], [D, N], target_memory=pl.MemorySpace.Mat)
        k_right = pl.move(k_mat, target_memory=pl.MemorySpace.Right)
        scores = pl.matmul(a_left, k_right)
        scores_vec = pl.move(scores, target_memory=pl.MemorySpace.Vec)
        scaled = pl.mul(scores_vec, 0.0625)
        probs = pl.exp(scaled)
        out = pl.store(probs, [0, 0], out)
        return out
)";

}  // namespace

int cmd_demo(const CommonOptions& c, uint64_t schedules) {
    auto file = std::make_shared<SourceFile>("demo/rope_attn.py", kDemoKernel);
    std::cout << fmt::format(
        "cvsim demo: V2C through a GM scratch (vector stores q_rot, cube loads it for q_rot @ k)\n"
        "target {}, nominal schedule + {} random schedules per policy\n\n",
        c.target, schedules);
    std::cout << fmt::format("{:<8} {:<22} {:>14} {:>14} {:>10} {:>7} {:>9}\n", "policy", "verdict", "hazard sched.",
                             "wrong outputs", "cycles", "fences", "barriers");
    bool off_found = false, others_clean = true;
    // Compile every policy before simulating any: a diagnostic thrown on the main stack after SystemC's
    // coroutines ran trips a false stack-buffer-overflow in AddressSanitizer (it cannot see QuickThreads'
    // stack switches), and the table reads the same either way.
    struct Row {
        CommonOptions opts;                     // the demo's options with this row's --v2c
        std::unique_ptr<sim::Session> session;  // compiled, or
        std::optional<Diagnostic> rejected;     // the diagnostic that refused it
    };
    std::vector<Row> rows;
    for (const char* policy : {"off", "fence", "syncall", "reject"}) {
        Row& row = rows.emplace_back();
        row.opts = c;
        row.opts.v2c = policy;
        try {
            row.session = std::make_unique<sim::Session>(file, session_options(row.opts));
        } catch (const CompileError& e) {
            row.rejected = e.diag();
        }
    }
    for (const Row& row : rows) {
        const std::string& policy = row.opts.v2c;
        if (row.rejected) {
            const Diagnostic& d = *row.rejected;
            std::cout << fmt::format("{:<8} {:<22} {:>14} {:>14} {:>10} {:>7} {:>9}\n", policy, d.code, "-", "-", "-",
                                     "-", "-");
            std::cout << fmt::format("         (at compile time: {} - {})\n", d.loc.short_str(), d.hint);
            continue;
        }
        sim::Session* session = row.session.get();
        ExploreOptions eo;
        eo.schedules = schedules;
        sim::Schedule base;
        base.strategy = sim::Strategy::Random;
        ExploreSummary sum = explore_kernel(*session, row.opts, "demo/rope_attn.py", eo, base);
        std::string verdict = "clean";
        if (!sum.distinct.empty()) verdict = sum.distinct.front().finding.code;
        if (policy == "off")
            off_found = !sum.distinct.empty();
        else if (!sum.distinct.empty())
            others_clean = false;
        const auto& st = session->compiled().stats;
        std::cout << fmt::format("{:<8} {:<22} {:>14} {:>14} {:>10} {:>7} {:>9}\n", policy, verdict,
                                 fmt::format("{}/{}", sum.hazards, sum.schedules),
                                 fmt::format("{}/{}", sum.wrong_outputs, sum.schedules), sum.nominal_cycles,
                                 st.v2c_fences + st.c2v_fences, st.barriers);
    }
    std::cout << "\nhazard sched. = schedules with a GM race between cores; wrong outputs = schedules whose outputs "
                 "differ from\n"
                 "the reference; cycles = nominal schedule; fences/barriers = synchronisation the expander inserted.\n"
                 "Try: cvsim check ../shared/kernels/v2c_rope_attn.py --v2c off\n";
    return off_found && others_clean ? kExitClean : kExitInternal;
}

}  // namespace cvsim::cli
