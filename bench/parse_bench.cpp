// Frontend throughput: lex + parse, and lex + parse + check (sema, type rules, capacity), of a generated
// 10,000-line program (many mixed kernels from tests/kernel_gen.h in one @pl.program class).
#include <benchmark/benchmark.h>

#include <string>

#include "core/params.h"
#include "frontend/parser.h"
#include "frontend/passes/capacity.h"
#include "frontend/sema.h"
#include "tests/kernel_gen.h"

namespace {

// A program of at least `lines` lines: seeded generated kernels renamed kernel_0, kernel_1, ...
const std::string& big_program(int lines) {
    static std::string text;
    if (!text.empty()) return text;
    text = "import pypto.language as pl\n\n\n@pl.program\nclass Big:\n";
    int n = 5;
    for (uint64_t seed = 0; n < lines; ++seed) {
        std::string k = cvsim::test::seeded_mixed_kernel(seed).text;
        size_t start = k.find("    @pl.function");
        std::string fn = k.substr(start);
        fn.replace(fn.find("def kernel("), 11, "def kernel_" + std::to_string(seed) + "(");
        text += fn + "\n";
        for (char c : fn) n += c == '\n';
        ++n;
    }
    return text;
}

void BM_Parse10kLines(benchmark::State& state) {
    const std::string& text = big_program(10000);
    for (auto _ : state) {
        auto file = std::make_shared<cvsim::SourceFile>("big.py", text);
        benchmark::DoNotOptimize(cvsim::parse_module(file));
    }
    state.counters["lines"] = static_cast<double>(std::count(text.begin(), text.end(), '\n'));
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}

void BM_ParseAndCheck10kLines(benchmark::State& state) {
    const std::string& text = big_program(10000);
    cvsim::HwParams hw = cvsim::load_params(cvsim::Target::A2A3, {}, {});
    for (auto _ : state) {
        auto program = cvsim::load_program_text("big.py", text);
        cvsim::passes::check_capacity(*program, hw);
        benchmark::DoNotOptimize(program);
    }
    state.counters["lines"] = static_cast<double>(std::count(text.begin(), text.end(), '\n'));
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}

}  // namespace

BENCHMARK(BM_Parse10kLines)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseAndCheck10kLines)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
