// Properties of the expander's GM synchronisation, checked by simulation: random mixed kernels with V2C and
// C2V dependencies through GM scratches (tests/kernel_gen.h). Under `fence` and `syncall` the nominal
// schedule and 20 random ones find nothing and every output matches the reference; under `off`, a kernel
// with a V2C dependency that nothing but a fence could order (no V2C tile moves), on every path and live
// after dead-code removal, races in the nominal run.
//
// The run count is modest (rapidcheck's 100 cases would take minutes under ASan): CVSIM_PROPERTY_CASES
// sets it (default 20), and RC_PARAMS="seed=..." reproduces a failure.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdlib>
#include <memory>
#include <regex>

#include "frontend/diag.h"
#include "frontend/printer.h"
#include "kernel_gen.h"
#include "property_support.h"
#include "sim/session.h"

using namespace cvsim;
using namespace cvsim::sim;
using namespace cvsim::test;

namespace {

int property_cases() {
    return test::property_cases(20);
}

template <typename Testable>
void check_property(const std::string& name, Testable&& t) {
    test::check_property(name, std::forward<Testable>(t), property_cases());
}

// Every choice drawn over its whole range from the first case on (rapidcheck grows the size with the case
// number, which with few cases would keep the kernels trivial); shrinking still simplifies a failure.
rc::Gen<GeneratedKernel> full_size(rc::Gen<GeneratedKernel> g) {
    return rc::gen::resize(rc::kNominalSize, std::move(g));
}

std::unique_ptr<Session> compile(const GeneratedKernel& k, passes::V2CPolicy pol, Target target) {
    SessionOptions o;
    o.v2c = pol;
    o.target = target;
    try {
        return std::make_unique<Session>(std::make_shared<SourceFile>("generated.py", k.text), o);
    } catch (const CompileError& e) {
        RC_FAIL("does not compile under --v2c " + std::string(passes::policy_name(pol)) + ": " + render_text(e.diag()) +
                "\n" + k.text);
    }
}

std::string describe(const ScheduleResult& r) {
    std::string s = r.schedule.str() + " seed " + std::to_string(r.schedule.seed) + ":";
    for (const auto& f : r.findings) s += "\n  " + f.code + " " + f.message;
    return s;
}

bool has_race(const ScheduleResult& r) {
    for (const auto& f : r.findings)
        if (f.code.rfind("E-RACE-", 0) == 0) return true;
    return false;
}

TEST(ExpandProperty, FenceAndSyncallAreRaceFreeAndMatchTheReference) {
    KernelGenOptions opt;
    opt.single_store_scratch = true;  // the dependencies the expander orders (tests/kernel_gen.h)
    opt.gm_rich = true;
    check_property("fence and syncall: nominal + 20 random schedules clean", [opt] {
        GeneratedKernel k = *full_size(gen_mixed_kernel(opt));
        auto pol = *rc::gen::element(passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall);
        Target target = *rc::gen::element(Target::A2A3, Target::A5);
        RC_TAG(passes::policy_name(pol), k.has_v2c_gm, k.has_c2v_gm);
        auto s = compile(k, pol, target);
        for (uint64_t seed = 0; seed <= 20; ++seed) {
            Schedule sc;
            if (seed > 0) {
                sc.strategy = Strategy::Random;
                sc.seed = seed;
            }
            ScheduleResult r = s->run(sc);
            if (!r.clean())
                RC_FAIL("--v2c " + std::string(passes::policy_name(pol)) + " on " + std::string(target_name(target)) +
                        ", " + describe(r) + "\n" + k.text);
        }
    });
}

TEST(ExpandProperty, OffRacesWheneverAV2cDependencyIsPlaced) {
    KernelGenOptions opt;
    opt.single_store_scratch = true;
    opt.boundary_v2c = false;  // no V2C tile move that would order the dependency by itself
    opt.gm_rich = true;
    auto raced = std::make_shared<int>(0);
    check_property("off: a V2C GM dependency races", [opt, raced] {
        // Draw until a kernel has a V2C dependency on every path whose cube load survives dead-code removal
        // (a load nothing uses is not expanded, so it reads nothing). Drawing instead of RC_PRE: a discard
        // throws through rapidcheck's uninstrumented library, which ASan misreads as a stack overflow.
        for (int attempt = 0; attempt < 100; ++attempt) {
            GeneratedKernel k = *full_size(gen_mixed_kernel(opt));
            if (!k.has_v2c_gm_always) continue;
            auto s = compile(k, passes::V2CPolicy::Off, Target::A2A3);
            if (print_program(*s->compiled().expanded).find("pl.tile.load(sv") == std::string::npos) continue;
            RC_ASSERT(s->compiled().stats.unfenced >= 1);
            ScheduleResult r = s->run(Schedule{});
            if (!has_race(r)) RC_FAIL("no E-RACE-* under --v2c off, " + describe(r) + "\n" + k.text);
            ++*raced;
            return;
        }
    });
    EXPECT_GE(*raced, property_cases() / 2) << "too few generated kernels had a live V2C dependency";
}

// The generator options the properties rely on produce what they promise.
TEST(ExpandProperty, GeneratorOptionsHoldTheirPromises) {
    KernelGenOptions opt;
    opt.single_store_scratch = true;
    opt.boundary_v2c = false;
    opt.gm_rich = true;
    int v2c_always = 0, c2v = 0;
    const std::regex v2c_move(R"(pl\.move\(v\w*, target_memory=pl\.MemorySpace\.Mat\))");
    for (uint64_t seed = 0; seed < 200; ++seed) {
        GeneratedKernel k = seeded_mixed_kernel(seed, opt);
        v2c_always += k.has_v2c_gm_always;
        c2v += k.has_c2v_gm;
        EXPECT_FALSE(std::regex_search(k.text, v2c_move)) << "a V2C tile move\n" << k.text;
        for (const char* t : {"sv0 = pl.store", "sv1 = pl.store", "sc0 = pl.store", "sc1 = pl.store"}) {
            size_t first = k.text.find(t);
            EXPECT_TRUE(first == std::string::npos || k.text.find(t, first + 1) == std::string::npos) << t << "\n"
                                                                                                      << k.text;
        }
        for (const char* t : {"            sc0 = pl.store", "            sc1 = pl.store"})
            EXPECT_EQ(k.text.find(t), std::string::npos) << "a cube scratch store below the top level\n" << k.text;
    }
    EXPECT_GT(v2c_always, 20);
    EXPECT_GT(c2v, 20);
}

}  // namespace
