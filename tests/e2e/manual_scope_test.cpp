// Launch ordering of orchestrations (docs/DECISIONS.md, "Manual scopes") and false refusals of the host walk,
// through the real cvsim binary. Fixtures: tests/e2e/kernels/manual/ (kernels written for cvsim). Each test
// failed before its fix; each racy or ordered twin keeps the rule from going silent or flooding.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string kpath(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/manual/" + name;
}

RunResult check(const std::string& path, const std::vector<std::string>& extra = {}, int schedules = 3) {
    std::vector<std::string> args = {"check", path, "--schedules", std::to_string(schedules), "--jobs", "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cvsim(args, 300);
}

// The fixture with each (from, to) replaced once, written to the test's scratch folder (TempDir()).
std::string variant(const std::string& name, const std::vector<std::pair<std::string, std::string>>& edits,
                    const std::string& tag) {
    std::ifstream in(kpath(name));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const auto& [from, to] : edits) {
        auto at = text.find(from);
        EXPECT_NE(at, std::string::npos) << name << " has no '" << from << "'";
        if (at != std::string::npos) text.replace(at, from.size(), to);
    }
    std::string path = ::testing::TempDir() + "manual_" + tag + "_" + name;
    std::ofstream(path) << text;
    return path;
}

}  // namespace

// A pl.spmd_submit whose core_num the orchestration computes: the note names the kernel and the width the host
// walk evaluated (before: "the launch of 'pl.spmd_submit' ... cvsim launches --blocks 1", though it ran 4).
TEST(ManualScope, TheCoreNumNoteOfASubmitNamesTheKernelAndTheEvaluatedWidth) {
    RunResult r = check(kpath("spmd_submit_computed_core_num.py"));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    const std::string err = unwrapped(r.err);
    EXPECT_NE(err.find("the launch of 'double' sets core_num at run time; the host walk evaluates it to 4 block(s)"),
              std::string::npos)
        << err;
    EXPECT_EQ(err.find("--blocks 1"), std::string::npos) << err;
}

// Every iteration of a manual-scope loop writes the same accumulator window without deps= on the previous
// iteration's task id: a race between iterations (before: PASS, iterations were never paired). Carrying the task
// id orders them; giving each iteration its own columns (a scalar offset i * 64 the kernel stores at) makes the
// windows apart: no finding either way.
TEST(ManualScope, LoopIterationsWritingOneAccumulatorWithoutACarriedDependencyRace) {
    RunResult r = check(kpath("loop_accumulator.py"));
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    const std::string all = unwrapped(r.out + r.err);
    EXPECT_NE(all.find("E-RACE-WAW"), std::string::npos) << all;
    EXPECT_NE(all.find("'fill' writes it at a later iteration of the loop at line 19"), std::string::npos) << all;

    RunResult carried = check(
        variant("loop_accumulator.py",
                {{"pl.submit(self.fill, x, n0, acc)", "pl.submit(self.fill, x, n0, acc, deps=[prev])"}}, "carried"));
    EXPECT_EQ(carried.exit_code, 0) << carried.out << carried.err;
    EXPECT_EQ(unwrapped(carried.out + carried.err).find("E-RACE"), std::string::npos);

    RunResult apart = check(variant("loop_accumulator.py",
                                    {{"pl.tile.store(xv, [0, 0], acc)", "pl.tile.store(xv, [0, n0], acc)"},
                                     {"n0: pl.Scalar[pl.INDEX] = 0", "n0: pl.Scalar[pl.INDEX] = i * 64"}},
                                    "apart"));
    EXPECT_EQ(apart.exit_code, 0) << apart.out << apart.err;
    EXPECT_EQ(unwrapped(apart.out + apart.err).find("E-RACE"), std::string::npos);
}

// pl.no_dep (printed: attrs={"arg_direction_overrides": [k]}) takes the argument out of the runtime's tracking in
// an AUTO scope: a read of what an earlier launch wrote is unordered without deps= (before: ordered as tracked).
TEST(ManualScope, ANoDepArgumentIsNotOrderedByTheTensorMap) {
    RunResult r = check(kpath("no_dep_auto.py"));
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(unwrapped(r.out + r.err).find("E-RACE-RAW"), std::string::npos) << r.out << r.err;
    EXPECT_NE(unwrapped(r.out + r.err).find("passing it with pl.no_dep"), std::string::npos) << r.out << r.err;

    RunResult tracked =
        check(variant("no_dep_auto.py", {{", attrs={\"arg_direction_overrides\": [0]}", ""}}, "tracked"));
    EXPECT_EQ(tracked.exit_code, 0) << tracked.out << tracked.err;

    RunResult dep = check(variant(
        "no_dep_auto.py",
        {{"        s1: pl.Tensor[[16, 64], pl.FP16] = ret0[0]\n",
          "        s1: pl.Tensor[[16, 64], pl.FP16] = ret0[0]\n        tid0: pl.Scalar[pl.TASK_ID] = ret0[1]\n"},
         {"out, attrs={\"arg_direction_overrides\": [0]}",
          "out, deps=[tid0], attrs={\"arg_direction_overrides\": [0]}"}},
        "dep"));
    EXPECT_EQ(dep.exit_code, 0) << dep.out << dep.err;
}

// A launch in a manual scope reading what an AUTO launch before the scope wrote: the manual scope's task looks
// nothing up in the tensor map (simpler's compute_task_fanin returns at once in a manual scope), so it needs
// deps= (before: the pair was never checked).
TEST(ManualScope, ALaunchInAManualScopeIsNotOrderedAfterAnAutoWriterBeforeIt) {
    RunResult r = check(kpath("auto_then_manual.py"));
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(unwrapped(r.out + r.err).find("across a manual scope and outside it"), std::string::npos)
        << r.out << r.err;

    RunResult dep = check(
        variant("auto_then_manual.py",
                {{"pl.submit(self.consume, s1, out)", "pl.submit(self.consume, s1, out, deps=[ret0[1]])"}}, "dep"));
    EXPECT_EQ(dep.exit_code, 0) << dep.out << dep.err;
}

// What the kernel accesses of its tensor parameter (its loads and stores, through a loop it carries the tensor in,
// offsets from its scalar parameters) narrows the launch's window: iterations writing columns i * 64 .. + 63 are
// apart (no finding); the same kernel storing 128 columns per launch overlaps the next iteration (a race).
// Atomic adds to one window commute: no finding.
TEST(ManualScope, KernelWindowsAndAtomicAddsKeepLoopIterationsApart) {
    RunResult apart = check(kpath("loop_kernel_carried_columns.py"));
    EXPECT_EQ(apart.exit_code, 0) << apart.out << apart.err;

    RunResult overlap = check(variant("loop_kernel_carried_columns.py",
                                      {{"pl.range(4, init_values=(acc,))", "pl.range(8, init_values=(acc,))"},
                                       {"n0: pl.Scalar[pl.INDEX] = i * 64", "n0: pl.Scalar[pl.INDEX] = i * 16"}},
                                      "overlap"));
    EXPECT_EQ(overlap.exit_code, 1) << overlap.out << overlap.err;
    EXPECT_NE(unwrapped(overlap.out + overlap.err).find("at a later iteration of the loop"), std::string::npos)
        << overlap.out << overlap.err;

    RunResult atomic = check(variant(
        "loop_accumulator.py",
        {{"pl.tile.store(xv, [0, 0], acc)", "pl.tile.store(xv, [0, 0], acc, atomic=pl.AtomicType.Add)"}}, "atomic"));
    EXPECT_EQ(atomic.exit_code, 0) << atomic.out << atomic.err;
}

// A Spmd wrapper that computes a scalar before launching its kernel is checked with the value (before: refused).
// Blocks writing the same rows race; base 8 puts the last block's rows outside the tensor (the value is used).
TEST(ManualScope, ASpmdWrapperComputingAScalarIsCheckedWithItsValue) {
    RunResult r = check(kpath("spmd_wrapper_computed_scalar.py"));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(unwrapped(r.out + r.err).find("neither a parameter"), std::string::npos) << r.out << r.err;

    RunResult race =
        check(variant("spmd_wrapper_computed_scalar.py",
                      {{"r: pl.Scalar[pl.INDEX] = row + b * 16", "r: pl.Scalar[pl.INDEX] = row + b * 0"}}, "race"));
    EXPECT_EQ(race.exit_code, 1) << race.out << race.err;
    EXPECT_NE(unwrapped(race.out).find("E-RACE-WAW"), std::string::npos) << race.out;

    RunResult oob = check(variant("spmd_wrapper_computed_scalar.py",
                                  {{"self.scale_spmd(x, 0, out", "self.scale_spmd(x, 8, out"}}, "oob"));
    EXPECT_EQ(oob.exit_code, 1) << oob.out << oob.err;
    EXPECT_NE(unwrapped(oob.out).find("window [64:80, 0:64] is outside tensor x"), std::string::npos) << oob.out;
}

// A slice at a computed offset that the launch also passes as the kernel's scalar parameters is bound as a view
// of the shared tensor at the parameters' values (before: refused as not a constant slice). Two blocks, block b
// storing at row r0 + 16 * b, race with the other block's read of rows r0 .. r0 + 15 through the slice; an
// offset past the tensor is refused at bind time.
TEST(ManualScope, AComputedSliceOffsetPassedAsScalarParametersIsBound) {
    RunResult r = check(kpath("computed_slice_offset_params.py"));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(unwrapped(r.out + r.err).find("E-UNSUPPORTED"), std::string::npos) << r.out << r.err;

    RunResult race = check(
        variant("computed_slice_offset_params.py",
                {{"        v: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(src",
                  "        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()\n        v: pl.Tile[[16, 64], pl.FP16, "
                  "pl.Mem.Vec] = pl.tile.load(src"},
                 {"pl.tile.store(v, [r0 + 16, c0], dst)", "pl.tile.store(v, [r0 + b * 16, c0], dst)"},
                 {"self.copy(s, r0, c0, out)", "self.copy(s, r0, c0, out, attrs={\"core_num\": 2})"}},
                "race"),
        {}, 5);
    EXPECT_EQ(race.exit_code, 1) << race.out << race.err;
    EXPECT_NE(unwrapped(race.out).find("E-RACE-WAR"), std::string::npos) << race.out;

    RunResult oob =
        check(variant("computed_slice_offset_params.py",
                      {{"r0: pl.Scalar[pl.INDEX] = n // 4 - 16", "r0: pl.Scalar[pl.INDEX] = n // 4 + 40"}}, "oob"));
    EXPECT_NE(unwrapped(oob.out + oob.err).find("is a slice at offset [56, 0] (from the scalar arguments 'r0', 'c0')"),
              std::string::npos)
        << oob.out << oob.err;
}

// Of more than 8 distinct bindings of a kernel, the launches with each scalar's smallest and largest value are
// among those checked (before: the first, the last and evenly spaced ones, which missed s = 19's E-OOB).
TEST(ManualScope, ManyBindingsAreCheckedAtEachScalarsExtremes) {
    RunResult r = check(kpath("many_bindings_extreme.py"), {}, 1);
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(unwrapped(r.out).find("window [152:168, 0:64] is outside tensor x"), std::string::npos) << r.out;
    EXPECT_NE(unwrapped(r.err).find("the first with the smallest and with the largest value of each scalar"),
              std::string::npos)
        << r.err;
}
