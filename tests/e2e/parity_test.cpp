// Parity with upstream's ExpandMixedKernel (issue 11): for each fixture pair PyPTO printed from a kernel
// written for cvsim (tests/golden/pypto/parity/, scripts/parity_fixtures.sh), `cvsim expand BEFORE --v2c off
// --compare AFTER` finds the same functions with the same ops in the same order, except the differences
// listed in differences.txt (each a decision in docs/DECISIONS.md), and `cvsim check AFTER` reaches a
// verdict on upstream's expansion as it is.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include "test_support.h"

using namespace cvsim::test;
namespace fs = std::filesystem;

namespace {

const std::string kDir = "/tests/golden/pypto/parity/";

struct Pair {
    std::string name, before, after, target;
};

std::vector<Pair> pairs() {
    std::vector<Pair> out;
    for (const auto& e : fs::directory_iterator(source_dir() + kDir)) {
        std::string f = e.path().filename().string();
        const std::string suffix = ".before.py";
        if (f.size() <= suffix.size() || f.compare(f.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
        std::string name = f.substr(0, f.size() - suffix.size());
        out.push_back({name, e.path().string(), source_dir() + kDir + name + ".after.py",
                       name.find(".a5") != std::string::npos ? "a5" : "a2a3"});
    }
    std::sort(out.begin(), out.end(), [](const Pair& a, const Pair& b) { return a.name < b.name; });
    return out;
}

// differences.txt: "NAME: why" per fixture whose expansion differs from upstream's on purpose.
std::map<std::string, std::string> documented() {
    std::map<std::string, std::string> d;
    std::istringstream in(read_file(source_dir() + kDir + "differences.txt"));
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        auto c = line.find(':');
        if (c != std::string::npos) d[line.substr(0, c)] = line.substr(c + 1);
    }
    return d;
}

TEST(Parity, EveryFixtureHasItsSourceAndBothDumps) {
    auto ps = pairs();
    if (ps.empty())
        GTEST_SKIP() << "SKIPPED: no parity fixtures yet (run scripts/parity_fixtures.sh where PyPTO is importable)";
    for (const auto& p : ps) {
        EXPECT_TRUE(fs::exists(p.after)) << p.after;
        std::string base = p.name.substr(0, p.name.find('.'));
        EXPECT_TRUE(fs::exists(source_dir() + kDir + "src/" + base + ".py")) << base;
    }
}

TEST(Parity, CvsimsExpansionHasUpstreamsOpsInUpstreamsOrder) {
    auto ps = pairs();
    if (ps.empty())
        GTEST_SKIP() << "SKIPPED: no parity fixtures yet (run scripts/parity_fixtures.sh where PyPTO is importable)";
    auto doc = documented();
    int same = 0, differs = 0;
    for (const auto& p : ps) {
        RunResult r = run_cvsim({"expand", p.before, "--v2c", "off", "--target", p.target, "--compare", p.after});
        ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << p.name << "\n" << r.out << r.err;
        if (doc.count(p.name)) {
            EXPECT_EQ(r.exit_code, 1) << p.name << " is listed in differences.txt but now has parity:\n" << r.out;
            ++differs;
        } else {
            EXPECT_EQ(r.exit_code, 0) << p.name << " (" << p.target << "):\n" << r.out << r.err;
            ++same;
        }
    }
    std::cout << "parity: " << same << " same, " << differs << " documented differences\n";
}

TEST(Parity, CheckReachesAVerdictOnUpstreamsExpansion) {
    auto ps = pairs();
    if (ps.empty())
        GTEST_SKIP() << "SKIPPED: no parity fixtures yet (run scripts/parity_fixtures.sh where PyPTO is importable)";
    for (const auto& p : ps) {
        RunResult r = run_cvsim({"check", p.after, "--target", p.target, "--schedules", "20", "--jobs", "0"});
        EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << p.name << "\n" << r.out << r.err;
    }
}

TEST(Parity, AFunctionPyptoAlreadySplitPerLaneIsNotHalvedTwice) {
    std::string before = source_dir() + kDir + "split_up_down.before.py";
    if (!fs::exists(before))
        GTEST_SKIP() << "SKIPPED: no parity fixtures yet (run scripts/parity_fixtures.sh where PyPTO is importable)";
    RunResult r = run_cvsim({"expand", before, "--v2c", "off"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // LowerAutoVectorSplit already halved the AIV tiles (attr split_aiv): [32, 64] -> [16, 64], not [8, 64].
    EXPECT_NE(r.out.find("z_vec__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=1)"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find("subblock_idx_1"), std::string::npos) << r.out;
}

}  // namespace

TEST(Parity, AMixedDistributedKernelIsExpandedLikeUpstreamAndNeverSimulated) {
    const std::string k = source_dir() + "/tests/e2e/kernels/dist_mixed.py";
    RunResult e = run_cvsim({"expand", k, "--v2c", "off"});
    ASSERT_EQ(e.exit_code, 0) << e.err;
    const size_t aic = e.out.find("def mm_send_aic("), aiv = e.out.find("def mm_send_aiv("),
                 grp = e.out.find("def mm_send(");
    ASSERT_TRUE(aic != std::string::npos && aiv != std::string::npos && grp != std::string::npos) << e.out;
    const std::string aic_body = e.out.substr(aic, aiv - aic), aiv_body = e.out.substr(aiv, grp - aiv);
    // The pld.* ops go where upstream's core affinity puts them: remote_store of a Vec tile and the notify
    // placed on "aiv" on the AIV lane only; the popped tile is freed after the remote_store reads it.
    EXPECT_EQ(aic_body.find("pld.tile."), std::string::npos) << aic_body;
    EXPECT_EQ(aic_body.find("pld.system."), std::string::npos) << aic_body;
    const size_t rs = aiv_body.find("pld.tile.remote_store(v"), fr = aiv_body.find("pl.system.tfree_to_aic(v)");
    EXPECT_NE(rs, std::string::npos) << aiv_body;
    EXPECT_NE(aiv_body.find("pld.system.notify(done"), std::string::npos) << aiv_body;
    EXPECT_TRUE(rs != std::string::npos && fr != std::string::npos && rs < fr) << aiv_body;
    // No V2C addition for pld.* accesses (not analysed), and no simulation (one device).
    RunResult f = run_cvsim({"expand", k});
    EXPECT_EQ(f.exit_code, 2) << f.out;
    EXPECT_NE(f.err.find("error[E-UNSUPPORTED]"), std::string::npos) << f.err;
    EXPECT_NE(unwrapped(f.err).find("for comparison only (--v2c off)"), std::string::npos) << f.err;
    RunResult c = run_cvsim({"check", k, "--no-progress"});
    EXPECT_EQ(c.exit_code, 2) << c.out;
    EXPECT_NE(unwrapped(c.err).find("which cvsim does not simulate"), std::string::npos) << c.err;
}

TEST(Parity, ALaneDropsALoopCarryItNeitherReadsNorUpdates) {
    // loop_c2v: the AIV lane stores the carried tensor, so the AIC lane's loop carries nothing (upstream's
    // StripDeadIterArgs); the AIV lane keeps its carry.
    RunResult e = run_cvsim({"expand", source_dir() + kDir + "loop_c2v.before.py", "--v2c", "off"});
    ASSERT_EQ(e.exit_code, 0) << e.err;
    const size_t aic = e.out.find("_aic("), aiv = e.out.find("_aiv(");
    ASSERT_TRUE(aic != std::string::npos && aiv != std::string::npos && aic < aiv) << e.out;
    const std::string aic_body = e.out.substr(aic, aiv - aic), aiv_body = e.out.substr(aiv);
    EXPECT_EQ(aic_body.find("init_values"), std::string::npos) << aic_body;
    EXPECT_EQ(aic_body.find("pl.yield_"), std::string::npos) << aic_body;
    EXPECT_NE(aiv_body.find("init_values"), std::string::npos) << aiv_body;
}

TEST(Parity, ALoopCarryReadAfterTheLoopThroughABodyNameIsKept) {
    const std::string k = source_dir() + "/tests/e2e/kernels/carry_read_after_loop.py";
    RunResult off = run_cvsim({"check", k, "--v2c", "off", "--schedules", "5", "--no-progress"});
    EXPECT_EQ(off.exit_code, 1) << off.out << off.err;
    EXPECT_NE((off.out + off.err).find("E-RACE-RAW"), std::string::npos) << off.out << off.err;
    EXPECT_EQ(off.err.find("E-UNSUPPORTED"), std::string::npos) << off.err;
    RunResult fence = run_cvsim({"check", k, "--v2c", "fence", "--schedules", "5", "--no-progress"});
    EXPECT_EQ(fence.exit_code, 0) << fence.out << fence.err;
}

TEST(Parity, ABranchsTensorResultIsStrippedLikeUpstreamAndItsRaceStays) {
    // The AIC lane of a branch whose vector arm stores a GM scratch: upstream strips the branch's result (its
    // yield names a version the lane does not define) and the cube load reads the parameter; inside a loop the
    // dangling yield takes the carried value instead; a vector-side branch kept only for its (dead) scalar
    // statements is dropped from the AIC lane. The rewrite names the same tensor, so the V2C race is still
    // found and fence still orders it.
    for (const char* name :
         {"branch_result_v2c.py", "branch_result_in_loop_v2c.py", "branch_result_other_side_v2c.py"}) {
        const std::string k = source_dir() + "/tests/e2e/kernels/" + name;
        RunResult e = run_cvsim({"expand", k, "--v2c", "off"});
        ASSERT_EQ(e.exit_code, 0) << e.err;
        const size_t aic = e.out.find("def k_aic("), aiv = e.out.find("def k_aiv(");
        ASSERT_TRUE(aic != std::string::npos && aiv != std::string::npos && aic < aiv) << e.out;
        const std::string aic_body = e.out.substr(aic, aiv - aic);
        EXPECT_EQ(aic_body.find("sc2"), std::string::npos)
            << name << ": the AIC lane still names the AIV lane's version\n"
            << aic_body;
        RunResult off =
            run_cvsim({"check", k, "--v2c", "off", "--input", "flag=3", "--schedules", "10", "--no-progress"});
        EXPECT_EQ(off.exit_code, 1) << name << off.out << off.err;
        EXPECT_NE((off.out + off.err).find("E-RACE-RAW"), std::string::npos) << name << off.out << off.err;
        RunResult fence =
            run_cvsim({"check", k, "--v2c", "fence", "--input", "flag=3", "--schedules", "10", "--no-progress"});
        EXPECT_EQ(fence.exit_code, 0) << name << fence.out << fence.err;
    }
    // A branch or carry that picks between tensors stays on the lane that does not define them.
    for (const char* name : {"branch_picks_tensor_v2c.py", "swap_carry_v2c.py"}) {
        const std::string k = source_dir() + "/tests/e2e/kernels/" + name;
        RunResult off = run_cvsim({"check", k, "--v2c", "off", "--schedules", "20", "--no-progress"});
        EXPECT_EQ(off.exit_code, 1) << name << off.out << off.err;
        EXPECT_NE(off.out.find("E-RACE-RAW"), std::string::npos) << name << off.out << off.err;
        EXPECT_EQ(off.err.find("E-UNSUPPORTED"), std::string::npos) << name << off.err;
        RunResult fence = run_cvsim({"check", k, "--v2c", "fence", "--schedules", "20", "--no-progress"});
        EXPECT_EQ(fence.exit_code, 0) << name << fence.out << fence.err;
    }
    // Without the branch's store the same kernels are clean under every policy (flag = 0: the else arm).
    RunResult none = run_cvsim({"check", source_dir() + "/tests/e2e/kernels/branch_result_v2c.py", "--v2c", "off",
                                "--input", "flag=0", "--schedules", "10", "--no-progress"});
    EXPECT_EQ(none.exit_code, 0) << none.out << none.err;
}
