// Properties of the expander on launches of several clusters with per-block windows (tests/kernel_gen.h,
// options.blocks): block b stores band b of each scratch, a load reads band b or b + 1, so some
// dependencies cross clusters. Under `--v2c fence` / `syncall` (with `--c2v complete`, which orders the
// C2V ones) the nominal schedule and 10 random ones find nothing and every output equals the lockstep
// reference.
//
// CVSIM_PROPERTY_CASES sets the case count (default 20); RC_PARAMS="seed=..." reproduces a failure.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdlib>
#include <memory>

#include "frontend/diag.h"
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

rc::Gen<GeneratedKernel> full_size(rc::Gen<GeneratedKernel> g) {
    return rc::gen::resize(rc::kNominalSize, std::move(g));
}

KernelGenOptions cross_options(int blocks) {
    KernelGenOptions opt;
    opt.single_store_scratch = true;
    opt.gm_rich = true;
    opt.blocks = blocks;
    return opt;
}

std::string describe(const ScheduleResult& r) {
    std::string s = r.schedule.str() + " seed " + std::to_string(r.schedule.seed) + ":";
    for (const auto& f : r.findings) s += "\n  " + f.code + " " + f.message;
    return s;
}

// (One launch width per test: a process elaborates its clusters once; ctest runs each test alone.)
void fence_and_syncall_order_dependencies_between_clusters(int blocks) {
    auto crossed = std::make_shared<int>(0);
    check_property(
        "fence/syncall + c2v complete on " + std::to_string(blocks) + " clusters: clean, equal to the reference",
        [crossed, blocks] {
            GeneratedKernel k = *full_size(gen_mixed_kernel(cross_options(blocks)));
            auto pol = *rc::gen::element(passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall);
            Target target = *rc::gen::element(Target::A2A3, Target::A5);
            RC_TAG(passes::policy_name(pol), k.cross_block);
            *crossed += k.cross_block;
            SessionOptions o;
            o.v2c = pol;
            o.c2v = passes::C2VPolicy::Complete;
            o.target = target;
            o.blocks = blocks;
            std::unique_ptr<Session> s;
            try {
                s = std::make_unique<Session>(std::make_shared<SourceFile>("generated.py", k.text), o);
            } catch (const CompileError& e) {
                RC_FAIL("does not compile: " + render_text(e.diag()) + "\n" + k.text);
            }
            for (uint64_t seed = 0; seed <= 10; ++seed) {
                Schedule sc;
                if (seed > 0) {
                    sc.strategy = Strategy::Random;
                    sc.seed = seed;
                }
                ScheduleResult r = s->run(sc);
                if (!r.clean())
                    RC_FAIL("--v2c " + std::string(passes::policy_name(pol)) + " --c2v complete --blocks " +
                            std::to_string(blocks) + " on " + std::string(target_name(target)) + ", " + describe(r) +
                            "\n" + k.text);
            }
        });
    EXPECT_GE(*crossed, property_cases() / 4) << "too few generated kernels read another cluster's band";
}

TEST(CrossBlockProperty, FenceAndSyncallOrderDependenciesBetweenTwoClusters) {
    fence_and_syncall_order_dependencies_between_clusters(2);
}
TEST(CrossBlockProperty, FenceAndSyncallOrderDependenciesBetweenThreeClusters) {
    fence_and_syncall_order_dependencies_between_clusters(3);
}

// The generator's per-block windows: one cluster sees the same kernels as before (no choice drawn), several
// see stores to their own band and some loads of the next band.
TEST(CrossBlockProperty, GeneratorEmitsPerBlockAndCrossBlockWindows) {
    int cross = 0;
    for (uint64_t seed = 0; seed < 100; ++seed) {
        KernelGenOptions one = cross_options(1);
        EXPECT_EQ(seeded_mixed_kernel(seed, one).text.find("get_block_idx"), std::string::npos);
        GeneratedKernel k = seeded_mixed_kernel(seed, cross_options(2));
        EXPECT_NE(k.text.find("blk = pl.tile.get_block_idx()"), std::string::npos) << k.text;
        EXPECT_EQ(k.text.find(", [0, 0], s"), std::string::npos) << "a scratch store at the origin\n" << k.text;
        cross += k.cross_block;
        if (k.cross_block) {
            EXPECT_NE(k.text.find("[(blk + 1) * "), std::string::npos) << k.text;
        }
    }
    EXPECT_GT(cross, 30);
}

}  // namespace
