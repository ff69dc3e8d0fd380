// What a verdict proves (SPEC 6): the static analysis of data-dependent control flow and addresses, the
// scope built from it and the exploration's findings, and the PCT bound; end to end through `cvsim check`.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "app/report.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"
#include "frontend/passes/timing_scope.h"
#include "frontend/sema.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::ir;
using namespace cvsim::test;

namespace {

const char* kKernel = R"(import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[64, 64], pl.FP32], n: pl.Scalar[pl.INDEX], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]) -> pl.Tensor[[16, 64], pl.FP32]:
        for i in pl.range(n):
            t = pl.load(a, [i, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
            out = pl.store(t, [0, 0], out)
        return out
)";

std::shared_ptr<Program> program() {
    return load_program_text("scope.py", kKernel);
}

// Binds `v = <a scalar computed from the loaded tile>` just after the load: no op of the DSL does this
// yet (a tile element read would), so the call is made by hand with a scalar result type.
VarPtr bind_data_scalar(Function& f) {
    Stmt& loop = *f.body[0];
    StmtPtr load = loop.body[0];
    VarPtr tile = load->targets[0];
    VarPtr v = f.new_var("v", Type::scalar(DType::INDEX), load->loc);
    Type st = Type::scalar(DType::INDEX);
    ExprPtr call = passes::make_call(OpCode::RowSum, {{"tile", passes::var_ref(tile)}}, load->loc, &st);
    loop.body.insert(loop.body.begin() + 1, passes::make_assign(v, call, load->loc));
    return v;
}

}  // namespace

TEST(TimingScope, ScalarParametersLoopVariablesAndConstantsAreNotData) {
    auto p = program();
    auto s = passes::analyse_timing_scope(*p);
    EXPECT_TRUE(s.data_independent);
    EXPECT_TRUE(s.reasons.empty());
}

TEST(TimingScope, ADataDerivedScalarInAStoreOffsetIsReportedWithItsLine) {
    auto p = program();
    Function& f = *p->functions[0];
    VarPtr v = bind_data_scalar(f);
    // out = pl.store(t, [v, 0], out)
    Stmt& store = *f.body[0]->body[2];
    ExprPtr offsets = ir::arg(*store.value, "offsets");
    offsets->args[0] = passes::var_ref(v);
    auto s = passes::analyse_timing_scope(*p);
    EXPECT_FALSE(s.data_independent);
    ASSERT_EQ(s.reasons.size(), 1u);
    EXPECT_NE(s.reasons[0].find("scope.py:10"), std::string::npos) << s.reasons[0];
    EXPECT_NE(s.reasons[0].find("'v'"), std::string::npos) << s.reasons[0];
    EXPECT_NE(s.reasons[0].find("offsets"), std::string::npos) << s.reasons[0];
}

TEST(TimingScope, DataDerivedScalarsPropagateThroughArithmeticIntoBranchesAndLoopBounds) {
    auto p = program();
    Function& f = *p->functions[0];
    VarPtr v = bind_data_scalar(f);
    Stmt& loop = *f.body[0];
    // w = v + 1 after the binding, then `for j in pl.range(w)` and `if w > 2` around a pass.
    VarPtr w = f.new_var("w", Type::scalar(DType::INDEX), loop.loc);
    auto plus = std::make_shared<Expr>();
    plus->kind = ExprKind::Binary;
    plus->sval = "+";
    plus->type = Type::scalar(DType::INDEX);
    plus->args = {passes::var_ref(v), passes::int_lit(1)};
    loop.body.insert(loop.body.begin() + 2, passes::make_assign(w, plus, loop.loc));
    auto inner = std::make_shared<Stmt>();
    inner->kind = StmtKind::For;
    inner->loc = loop.loc;
    inner->loop_var = f.new_var("j", Type::scalar(DType::INDEX), loop.loc);
    inner->stop = passes::var_ref(w);
    inner->body.push_back(std::make_shared<Stmt>());
    f.body.push_back(inner);
    auto s = passes::analyse_timing_scope(*p);
    EXPECT_FALSE(s.data_independent);
    ASSERT_EQ(s.reasons.size(), 1u);
    EXPECT_NE(s.reasons[0].find("loop bound"), std::string::npos) << s.reasons[0];
    EXPECT_NE(s.reasons[0].find("'w'"), std::string::npos) << s.reasons[0];
}

TEST(TimingScope, ADataDerivedScalarAsTheValueOfATileScalarOpIsData) {
    auto p = program();
    Function& f = *p->functions[0];
    VarPtr v = bind_data_scalar(f);
    Stmt& loop = *f.body[0];
    VarPtr tile = loop.body[0]->targets[0];
    VarPtr scaled = f.new_var("scaled", tile->type, loop.loc);
    ExprPtr muls = passes::make_call(OpCode::Muls, {{"lhs", passes::var_ref(tile)}, {"rhs", passes::var_ref(v)}},
                                     loop.loc, &tile->type);
    loop.body.insert(loop.body.begin() + 2, passes::make_assign(scaled, muls, loop.loc));
    EXPECT_TRUE(passes::analyse_timing_scope(*p).data_independent);
}

TEST(VerdictScope, NonUniformGatherLimitsTheClaimToTheExploredSchedules) {
    cli::ExploreSummary sum;
    sum.schedules = 201;
    cli::DistinctFinding d;
    d.finding.code = "W-NONUNIFORM-GATHER";
    sum.distinct.push_back(d);
    auto v = cli::verdict_scope({}, sum, sim::Schedule{}, 0, 0);
    EXPECT_FALSE(v.all_schedules);
    ASSERT_EQ(v.reasons.size(), 1u);
    EXPECT_NE(v.reasons[0].find("W-NONUNIFORM-GATHER"), std::string::npos);
    EXPECT_FALSE(v.has_pct_bound);  // random schedules: no bound
}

TEST(VerdictScope, PctBoundIsOneOverNTimesKToTheDMinusOnePerSchedule) {
    cli::ExploreSummary sum;
    sum.schedules = 1001;  // the nominal one plus 1000 PCT draws
    sum.nominal_events = 100;
    sum.nominal_cores = 3;
    auto pct = sim::parse_schedule("pct:3");
    ASSERT_TRUE(pct);
    auto v = cli::verdict_scope({}, sum, *pct, 0, 0);
    EXPECT_TRUE(v.all_schedules);
    ASSERT_TRUE(v.has_pct_bound);
    EXPECT_EQ(v.pct_schedules, 1000u);
    EXPECT_DOUBLE_EQ(v.pct_hit, 1.0 / (3.0 * 100.0 * 100.0));
    EXPECT_NEAR(v.pct_miss, std::pow(1.0 - 1.0 / 30000.0, 1000.0), 1e-12);
}

TEST(VerdictScope, CheckSaysACleanVerdictHoldsForEverySchedule) {
    auto r = run_cvsim({"check", kernel_path("v2c_rope_attn.py"), "--v2c", "fence", "--schedules", "20"});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("scope: holds for every schedule"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("visible on completion"), std::string::npos) << r.out;
}

TEST(VerdictScope, CheckJsonCarriesTheScopeAndItsReasons) {
    std::string json = ::testing::TempDir() + "/scope.json";
    auto r = run_cvsim({"check", kernel_path("nonuniform_gather.py"), "--schedules", "5", "--json", json, "-q"});
    ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
    auto j = nlohmann::json::parse(read_file(json));
    const auto& scope = j["kernels"][0]["scope"];
    EXPECT_FALSE(scope["all_schedules"].get<bool>());
    ASSERT_FALSE(scope["reasons"].empty());
    EXPECT_NE(scope["reasons"][0].get<std::string>().find("W-NONUNIFORM-GATHER"), std::string::npos);

    auto r2 = run_cvsim({"check", kernel_path("v2c_rope_attn.py"), "--v2c", "fence", "--strategy", "pct:2",
                         "--schedules", "10", "--visibility-delay", "0", "--json", json, "-q"});
    ASSERT_EQ(r2.exit_code, 0) << r2.out << r2.err;
    auto j2 = nlohmann::json::parse(read_file(json));
    const auto& s2 = j2["kernels"][0]["scope"];
    EXPECT_TRUE(s2["all_schedules"].get<bool>());
    ASSERT_TRUE(s2.contains("pct"));
    EXPECT_GT(s2["pct"]["events"].get<uint64_t>(), 0u);
    EXPECT_GT(s2["pct"]["cores"].get<int>(), 0);
}
