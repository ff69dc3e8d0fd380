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
        out.push_back({name, e.path().string(), source_dir() + kDir + name + ".after.py", name.find(".a5") != std::string::npos ? "a5" : "a2a3"});
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
    if (ps.empty()) GTEST_SKIP() << "SKIPPED: no parity fixtures yet (run scripts/parity_fixtures.sh where PyPTO is importable)";
    for (const auto& p : ps) {
        EXPECT_TRUE(fs::exists(p.after)) << p.after;
        std::string base = p.name.substr(0, p.name.find('.'));
        EXPECT_TRUE(fs::exists(source_dir() + kDir + "src/" + base + ".py")) << base;
    }
}

TEST(Parity, CvsimsExpansionHasUpstreamsOpsInUpstreamsOrder) {
    auto ps = pairs();
    if (ps.empty()) GTEST_SKIP() << "SKIPPED: no parity fixtures yet (run scripts/parity_fixtures.sh where PyPTO is importable)";
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
    if (ps.empty()) GTEST_SKIP() << "SKIPPED: no parity fixtures yet (run scripts/parity_fixtures.sh where PyPTO is importable)";
    for (const auto& p : ps) {
        RunResult r = run_cvsim({"check", p.after, "--target", p.target, "--schedules", "20", "--jobs", "0"});
        EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << p.name << "\n" << r.out << r.err;
    }
}

TEST(Parity, AFunctionPyptoAlreadySplitPerLaneIsNotHalvedTwice) {
    std::string before = source_dir() + kDir + "split_up_down.before.py";
    if (!fs::exists(before)) GTEST_SKIP() << "SKIPPED: no parity fixtures yet (run scripts/parity_fixtures.sh where PyPTO is importable)";
    RunResult r = run_cvsim({"expand", before, "--v2c", "off"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // LowerAutoVectorSplit already halved the AIV tiles (attr split_aiv): [32, 64] -> [16, 64], not [8, 64].
    EXPECT_NE(r.out.find("z_vec__ssa_v0: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=1)"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("subblock_idx_1"), std::string::npos) << r.out;
}

}  // namespace
