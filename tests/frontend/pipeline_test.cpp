// The one pass pipeline (frontend/pipeline.h): its passes, their order and statistics, the verify step.
#include <gtest/gtest.h>

#include <set>

#include "frontend/diag.h"
#include "frontend/pipeline.h"
#include "test_support.h"

using namespace cvsim;

namespace {

PipelineOptions options(bool printed) {
    PipelineOptions po;
    po.sema.keep_unread = true;
    po.sema.dim_default = kDefaultDim;
    po.hw = load_params(Target::A2A3, {}, {});
    po.expand.target = Target::A2A3;
    po.printed = printed;
    po.every_launch = printed;
    po.store_layouts = !printed;
    return po;
}

std::vector<std::string> names(const PipelineResult& r) {
    std::vector<std::string> out;
    for (const auto& p : r.passes) out.push_back(p.name + (p.scope.empty() ? "" : "@" + p.scope));
    return out;
}

int64_t stat(const PassRecord& r, const std::string& key) {
    for (const auto& [k, v] : r.stats)
        if (k == key) return v;
    ADD_FAILURE() << r.name << " has no statistic " << key;
    return -1;
}

}  // namespace

TEST(Pipeline, PassNamesAreUniqueAndDocumented) {
    std::set<std::string_view> seen;
    for (const auto& p : pipeline_passes()) {
        EXPECT_TRUE(seen.insert(p.name).second) << p.name;
        EXPECT_FALSE(p.does.empty()) << p.name;
    }
    std::vector<std::string_view> order;
    for (const auto& p : pipeline_passes()) order.push_back(p.name);
    EXPECT_EQ(order,
              (std::vector<std::string_view>{"sema", "entry", "capacity", "expand-mixed-kernel", "verify-hardware",
                                             "compile", "verify-launch", "ring-layout", "gm-budget"}));
}

// run/check/explore: the launch passes on the entry; expand: the printed expansion too. The passes each ran
// appear in pipeline_passes() order.
TEST(Pipeline, RunAndExpandRunThePassesInOrder) {
    auto file = SourceFile::read(test::kernel_path("v2c_rope_attn.py"));
    PipelineResult run = run_pipeline(file, options(false));
    EXPECT_EQ(names(run),
              (std::vector<std::string>{"sema", "entry", "capacity", "compile@rope_attn", "verify-launch@rope_attn",
                                        "ring-layout@rope_attn", "gm-budget@rope_attn"}));
    ASSERT_EQ(run.launches.size(), 1u);
    EXPECT_EQ(run.printed, nullptr);
    EXPECT_EQ(stat(run.passes[0], "functions"), 1);
    EXPECT_EQ(stat(run.passes[3], "functions_split"), 1);
    EXPECT_EQ(stat(run.passes[3], "blocks"), 1);
    EXPECT_EQ(stat(run.passes[3], "v2c_fences"), run.launches[0].stats.v2c_fences);
    EXPECT_EQ(stat(run.passes[5], "bytes"), run.rings[0].bytes);
    EXPECT_GT(stat(run.passes[6], "bytes"), run.rings[0].bytes);

    PipelineResult expand = run_pipeline(file, options(true));
    EXPECT_EQ(names(expand),
              (std::vector<std::string>{"sema", "entry", "capacity", "expand-mixed-kernel@printed",
                                        "verify-hardware@printed", "compile@rope_attn", "verify-launch@rope_attn",
                                        "ring-layout@rope_attn", "gm-budget@rope_attn"}));
    ASSERT_NE(expand.printed, nullptr);
    EXPECT_EQ(stat(expand.passes[3], "v2c_fences"), expand.printed_stats.v2c_fences);
    EXPECT_EQ(stat(expand.passes[3], "functions_split"), 1);
}

// A file with several kernels and no orchestration has no launch to choose: expand prints every function and
// runs no launch pass; run says E-ENTRY.
TEST(Pipeline, ExpandOfAFileWithoutAnEntryRunsNoLaunchPass) {
    auto file = std::make_shared<SourceFile>("two.py", R"(import pypto.language as pl


@pl.program
class Two:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 64])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def g(self, a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 64])
        out = pl.store(t, [0, 0], out)
        return out
)");
    PipelineResult expand = run_pipeline(file, options(true));
    EXPECT_EQ(names(expand), (std::vector<std::string>{"sema", "entry", "capacity", "expand-mixed-kernel@printed",
                                                       "verify-hardware@printed"}));
    try {
        run_pipeline(file, options(false));
        ADD_FAILURE() << "run accepted a file without an entry";
    } catch (const CompileError& e) {
        EXPECT_EQ(e.diag().code, "E-ENTRY");
    }
}

TEST(Pipeline, VerifyRefusesABrokenProgramAsAnInternalError) {
    ir::Program p;
    auto f = std::make_shared<ir::Function>();
    f->name = "f";
    p.functions = {f, f};
    try {
        verify_program(p, "compile");
        ADD_FAILURE() << "a duplicate function passed the verifier";
    } catch (const CompileError& e) {
        EXPECT_EQ(e.diag().code, "E-INTERNAL");
        EXPECT_NE(e.diag().message.find("after pass 'compile'"), std::string::npos) << e.diag().message;
    }
    f->body.push_back(nullptr);
    p.functions = {f};
    EXPECT_THROW(verify_program(p, "sema"), CompileError);
}
