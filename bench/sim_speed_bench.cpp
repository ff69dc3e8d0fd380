// Simulation speed (SPEC 10): tile instructions per wall second next to the bare SystemC kernel's own
// event rate (two threads ping-ponging an event) measured in the same process, and schedules per second
// of one worker (hazard checking and output comparison included).
#include <benchmark/benchmark.h>

#include <systemc>

#include "sim/session.h"

using namespace sc_core;
using namespace cvsim;

namespace {

// Two threads handing an event back and forth: the kernel's raw context-switch rate.
SC_MODULE(PingPong) {
    sc_event ping, pong, start, done;
    uint64_t rounds = 0;
    SC_CTOR(PingPong) {
        SC_THREAD(a);
        SC_THREAD(b);
    }
    void a() {
        while (true) {
            wait(start);
            for (uint64_t i = 0; i < rounds; ++i) {
                ping.notify(SC_ZERO_TIME);
                wait(pong);
            }
            done.notify(SC_ZERO_TIME);
        }
    }
    void b() {
        while (true) {
            wait(ping);
            pong.notify(SC_ZERO_TIME);
        }
    }
};

PingPong* g_pingpong = nullptr;
std::string g_shared = CVSIM_SHARED_DIR;

void BM_SystemcPingPong(benchmark::State& state) {
    const uint64_t rounds = 100000;
    for (auto _ : state) {
        g_pingpong->rounds = rounds;
        g_pingpong->start.notify(SC_ZERO_TIME);
        sc_start();
    }
    // Two thread switches per round.
    state.counters["switches_per_s"] = benchmark::Counter(
        static_cast<double>(2 * rounds) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void run_kernel(benchmark::State& state, const std::string& kernel, sim::Strategy strategy) {
    sim::SessionOptions o;
    sim::Session s(SourceFile::read(g_shared + "/kernels/" + kernel), o);
    s.run(sim::Schedule{});  // records the memo, as an exploration does
    uint64_t instrs = 0, n = 0;
    for (auto _ : state) {
        sim::Schedule sc;
        sc.strategy = strategy;
        sc.seed = ++n;
        auto r = s.run(sc);
        instrs += r.outcome.instructions;
        if (!r.findings.empty()) state.SkipWithError("unexpected finding");
    }
    state.counters["schedules_per_s"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsRate);
    state.counters["instructions_per_s"] = benchmark::Counter(static_cast<double>(instrs), benchmark::Counter::kIsRate);
}

void BM_RopeAttnFenceRandomSchedules(benchmark::State& state) {
    run_kernel(state, "v2c_rope_attn.py", sim::Strategy::Random);
}
void BM_FlashBlockNominal(benchmark::State& state) {
    run_kernel(state, "flash_block.py", sim::Strategy::Nominal);
}

}  // namespace

BENCHMARK(BM_SystemcPingPong)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RopeAttnFenceRandomSchedules)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FlashBlockNominal)->Unit(benchmark::kMicrosecond);

int main(int argc, char** argv) {
    sim::init_systemc();
    PingPong pp("pingpong");  // elaborated together with the machine (SystemC elaborates once per process)
    g_pingpong = &pp;
    sim::Machine::instance(1);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
