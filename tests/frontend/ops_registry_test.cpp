// The op registry is the one place an op is defined: every op has its side, pipe, numerics (compute and view
// ops), cost formula and doc; docs/OPS_TABLE.md is generated from it; every PyPTO tile op is either supported
// or rejected with E-UNSUPPORTED naming it.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "frontend/ops.h"
#include "frontend_util.h"

using namespace cvsim;
using namespace cvsim::ir;
using namespace cvsim::test;

namespace {

std::string slurp(const std::string& path) {
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::vector<std::string> pypto_tile_ops() {
    std::ifstream f(source_dir() + "/tests/frontend/pypto_tile_ops.txt");
    std::vector<std::string> v;
    for (std::string line; std::getline(f, line);)
        if (!line.empty() && line[0] != '#') v.push_back(line);
    return v;
}

// An op of the registry, a tile-module function sema lowers to a scalar expression (pl.tile.max / min), or an op
// sema rewrites into registry ops (pl.tile.gather_row).
bool supported(const std::string& n) {
    for (const ScalarFunction& f : scalar_functions())
        if (f.name == "tile." + n) return true;
    for (const LoweredOp& f : lowered_ops())
        if (f.name == "tile." + n) return true;
    return !lookup_ops(n).empty() || !lookup_ops("tile." + n).empty();
}

}  // namespace

TEST(OpRegistry, EveryOpHasSidePipeNumericsCostAndDoc) {
    std::set<std::string> names;
    for (const OpDef& d : all_ops()) {
        SCOPED_TRACE(d.name());
        EXPECT_TRUE(names.insert(d.name()).second) << "duplicate op";
        EXPECT_FALSE(d.doc.empty()) << "no doc line";
        EXPECT_EQ(&op_def(d.code), &d) << "op_def does not find it";
        EXPECT_FALSE(lookup_ops(d.name()).empty()) << "its canonical spelling does not resolve";
        const bool data = d.effect == Effect::Compute || d.effect == Effect::View;
        EXPECT_EQ(d.numerics != nullptr, data) << "compute/view ops need a numerics entry (and only they have one)";
        const OpCostInfo& c = op_cost_info(d.cost);
        EXPECT_EQ(c.kind, d.cost) << "cost entry missing from the cost table";
        EXPECT_FALSE(c.formula.empty());
        EXPECT_FALSE(c.source.empty());
        EXPECT_NE(std::string("HML").find(c.confidence), std::string::npos);
        if (d.effect == Effect::View) {
            EXPECT_EQ(d.cost, OpCost::None) << "a view moves no data";
        }
        if (d.effect == Effect::Compute && d.cost != OpCost::None) {
            // A priced compute op runs on a real pipe and has a side.
            if (d.pipe_rule == PipeRule::Fixed && d.cost != OpCost::Scalar) {
                EXPECT_NE(d.pipe, Pipe::Scalar) << "compute op without a pipe";
            }
            if (d.side_rule == SideRule::Fixed) {
                EXPECT_TRUE(d.side == Side::Cube || d.side == Side::Vector) << "compute op without a side";
            }
        }
        if (d.cost == OpCost::Mad) {
            EXPECT_EQ(d.side, Side::Cube);
        }
        if (d.cost >= OpCost::VecUnary && d.cost <= OpCost::VecReduce && d.pipe_rule == PipeRule::Fixed) {
            EXPECT_EQ(d.pipe, Pipe::Vector);
        }
        for (const ParamSpec& p : d.params) EXPECT_FALSE(p.name.empty());
    }
}

TEST(OpRegistry, OpsTableDocIsGeneratedFromTheRegistry) {
    // Regenerate with: build/cvsim ops > docs/OPS_TABLE.md
    const std::string want = ops_table_markdown();
    EXPECT_EQ(slurp(source_dir() + "/docs/OPS_TABLE.md"), want)
        << "docs/OPS_TABLE.md is stale: run `cvsim ops > docs/OPS_TABLE.md`";
    for (const OpDef& d : all_ops()) EXPECT_NE(want.find("`pl." + d.name() + "`"), std::string::npos) << d.name();
}

TEST(OpCoverage, EveryPyptoTileOpIsSupportedOrExplicitlyUnsupported) {
    auto names = pypto_tile_ops();
    ASSERT_GT(names.size(), 130u);
    int sup = 0, unsup = 0;
    for (const auto& n : names) {
        if (supported(n)) {
            ++sup;
            EXPECT_EQ(find_unsupported(n), nullptr) << n << " is both supported and listed as unsupported";
            continue;
        }
        const UnsupportedOp* u = find_unsupported(n);
        if (!u) {
            ADD_FAILURE() << "pl.tile." << n << " is neither supported nor explicitly unsupported";
            continue;
        }
        ++unsup;
        EXPECT_FALSE(u->reason.empty()) << n;
    }
    std::cout << "[coverage] " << names.size() << " PyPTO tile ops: " << sup << " supported, " << unsup
              << " explicitly unsupported\n";
    // Every unsupported entry names a PyPTO op of the list (no stale entries).
    std::set<std::string> all(names.begin(), names.end());
    for (const auto& u : unsupported_ops())
        EXPECT_TRUE(all.count(u.name.substr(5))) << u.name << " is not a PyPTO tile op";
}

TEST(OpCoverage, AnUnsupportedOpIsRejectedWithItsNameAndAReasonAtACaret) {
    ASSERT_FALSE(unsupported_ops().empty());
    const UnsupportedOp& u = unsupported_ops().front();
    auto d = diag_of(kernel_with("a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]", "",
                                 "        t = pl.load(a, [0, 0], [16, 16])\n        u = pl." + u.name +
                                     "(t, t)\n"
                                     "        out = pl.store(t, [0, 0], out)\n"));
    ASSERT_TRUE(d);
    EXPECT_EQ(d->code, "E-UNSUPPORTED");
    EXPECT_NE(d->message.find("pl." + u.name), std::string::npos) << d->message;
    EXPECT_NE(d->message.find(u.reason), std::string::npos) << d->message;
    EXPECT_EQ(d->loc.line, 9u);
}

TEST(OpCoverage, RandomStaysUnsupportedNamingWhyNoSequenceIsPinned) {
    // pto-isa's A5 kernel and CPU model of TRANDOM order the Philox words differently; no golden pins the device.
    const UnsupportedOp* u = find_unsupported("tile.random");
    ASSERT_NE(u, nullptr);
    EXPECT_NE(u->reason.find("disagree on the output sequence"), std::string::npos) << u->reason;
    EXPECT_NE(u->reason.find("determinism only"), std::string::npos) << u->reason;
}
