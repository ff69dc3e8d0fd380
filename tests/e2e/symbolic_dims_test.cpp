// Dimensions over names that are not module-level pl.dynamic symbols (issue 11): PyPTO's printed IR writes a
// caller's variable there after inlining (`pl.Tensor[[rows__ssa_v0, 64], ...]`), possibly in arithmetic.
// Sema reads each such name as a dynamic dimension of the launch (docs/DECISIONS.md, Frontend).
#include <gtest/gtest.h>

#include <fstream>

#include "frontend/diag.h"
#include "frontend/sema.h"
#include "frontend/source.h"
#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/" + name;
}

// An FP32 .npy of the given shape, every element `v`.
std::string write_npy(const std::string& name, int64_t rows, int64_t cols, float v) {
    std::string path = ::testing::TempDir() + "/" + name;
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " +
                         std::to_string(cols) + "), }";
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::ofstream out(path, std::ios::binary);
    out.write("\x93NUMPY\x01\x00", 8);
    const char len[2] = {static_cast<char>(header.size() & 0xff), static_cast<char>(header.size() >> 8)};
    out.write(len, 2);
    out << header;
    for (int64_t i = 0; i < rows * cols; ++i) out.write(reinterpret_cast<const char*>(&v), sizeof v);
    return path;
}

}  // namespace

TEST(SymbolicDims, ACallersVariableInAKernelDimTakesTheActualArgumentsShape) {
    // rows__ssa_v0 follows T through the call (x: [T, 64] -> [rows__ssa_v0, 64]); only T is defaulted.
    RunResult e = run_cvsim({"expand", kernel("symdim_caller_shape.py"), "--v2c", "off"});
    ASSERT_EQ(e.exit_code, 0) << e.out << e.err;
    EXPECT_NE(e.out.find("pl.Tensor[[256, 64], pl.FP32]"), std::string::npos) << e.out;  // rows * 2 = 2 * 128
    EXPECT_NE(unwrapped(e.err).find("'T' is not bound: cvsim uses T=128"), std::string::npos) << e.err;
    EXPECT_EQ(e.err.find("rows__ssa_v0"), std::string::npos) << e.err;  // bound by the call, not defaulted
    // --dim T=32: the kernel's dims follow (the last-rows store at 2 * 32 - 16 is in bounds), clean verdict.
    RunResult c =
        run_cvsim({"check", kernel("symdim_caller_shape.py"), "--dim", "T=32", "--schedules", "5", "--no-progress"});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
    EXPECT_EQ(unwrapped(c.out + c.err).find("E-OOB"), std::string::npos) << c.out << c.err;
    EXPECT_EQ(c.err.find("is not bound"), std::string::npos) << c.err;
}

TEST(SymbolicDims, ACallersVariableFollowsTheShapeOfAnInputFile) {
    std::string x = write_npy("symdim_x48.npy", 48, 64, 1.5f);
    std::string dir = ::testing::TempDir() + "/symdim_out";
    RunResult r = run_cvsim({"run", kernel("symdim_caller_shape.py"), "--input", "x=" + x, "--output-dir", dir});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(read_file(dir + "/out.npy").find("'shape': (96, 64)"), std::string::npos);
    EXPECT_EQ(r.err.find("is not bound"), std::string::npos) << r.err;
}

TEST(SymbolicDims, ABindingThatContradictsTheCallIsRejectedNotIgnored) {
    // --dim rows__ssa_v0=64 with T=32: the argument [32, 64] does not fit the parameter [64, 64].
    RunResult c = run_cvsim(
        {"check", kernel("symdim_caller_shape.py"), "--dim", "T=32", "--dim", "rows__ssa_v0=64", "--no-progress"});
    EXPECT_EQ(c.exit_code, 2) << c.out << c.err;
    EXPECT_NE(unwrapped(c.err).find("error[E-TYPE]"), std::string::npos) << c.err;
}

TEST(SymbolicDims, AnExpressionDimOverAnUnboundNameIsDefaultedVisibly) {
    // No caller and no --dim: n__ssa_v0 takes the documented default and the note names it.
    RunResult d = run_cvsim({"check", kernel("symdim_kernel_only.py"), "--schedules", "5", "--no-progress"});
    EXPECT_EQ(d.exit_code, 0) << d.out << d.err;
    EXPECT_NE(unwrapped(d.err).find("'n__ssa_v0' is not bound: cvsim uses n__ssa_v0=128"), std::string::npos) << d.err;
    RunResult e = run_cvsim({"expand", kernel("symdim_kernel_only.py"), "--v2c", "off"});
    EXPECT_NE(e.out.find("pl.Tensor[[144, 32], pl.FP32]"), std::string::npos) << e.out;  // 128 + 16
    // --dim binds it: the dimension evaluates over the bound value; no note.
    RunResult b = run_cvsim({"expand", kernel("symdim_kernel_only.py"), "--v2c", "off", "--dim", "n__ssa_v0=8"});
    ASSERT_EQ(b.exit_code, 0) << b.out << b.err;
    EXPECT_NE(b.out.find("pl.Tensor[[24, 32], pl.FP32]"), std::string::npos) << b.out;
    EXPECT_EQ(b.err.find("is not bound"), std::string::npos) << b.err;
}

TEST(SymbolicDims, ANameFromTensorDimInTheOrchestrationFollowsItsTensor) {
    // n__ssa_v0 = pl.tensor.dim(x, 0) annotates the call's result; m__ssa_v0 comes from the argument: both = T.
    RunResult c =
        run_cvsim({"check", kernel("symdim_tensor_dim.py"), "--dim", "T=32", "--schedules", "5", "--no-progress"});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
    EXPECT_EQ(c.err.find("is not bound"), std::string::npos) << c.err;
    // A --dim that contradicts pl.tensor.dim is a type error at the call, not a silently different size.
    RunResult d =
        run_cvsim({"check", kernel("symdim_tensor_dim.py"), "--dim", "T=32", "--dim", "n__ssa_v0=48", "--no-progress"});
    EXPECT_EQ(d.exit_code, 2) << d.out << d.err;
    EXPECT_NE(unwrapped(d.err).find("error[E-TYPE]"), std::string::npos) << d.err;
}

TEST(SymbolicDims, AnUnboundNameInADimIsNeverZero) {
    // Without a default (sema alone, no command), the name stays symbolic: using it is an error naming it.
    try {
        cvsim::load_program(cvsim::SourceFile::read(kernel("symdim_kernel_only.py")));
        ADD_FAILURE() << "an unbound dimension name was accepted";
    } catch (const cvsim::CompileError& e) {
        EXPECT_EQ(e.diag().code, "E-UNSUPPORTED");
        EXPECT_NE(e.diag().message.find("dynamic dimension 'n__ssa_v0' is not bound"), std::string::npos)
            << e.diag().message;
    }
}

TEST(SymbolicDims, AMadeUpSizeIsAtLeastWhatTheProgramsWindowsNeed) {
    // N carries a 256-row load window, K a 64-row store at row 96: the plain default 128 would make the program
    // invalid, so the made-up sizes are 256 and 160, and the notes say so.
    RunResult c = run_cvsim({"check", kernel("symdim_window_floor.py"), "--schedules", "3", "--no-progress"});
    ASSERT_EQ(c.exit_code, 0) << c.out << c.err;
    const std::string err = unwrapped(c.err);
    EXPECT_NE(err.find("cvsim uses N=256, the smallest size the program's windows along it need"), std::string::npos)
        << c.err;
    EXPECT_NE(err.find("cvsim uses K=160, the smallest size"), std::string::npos) << c.err;
    RunResult r = run_cvsim({"run", kernel("symdim_window_floor.py")});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(unwrapped(r.err).find("cvsim uses N=256, the smallest size"), std::string::npos)
        << r.err;  // run says so too
    EXPECT_NE(r.out.find("outputs: equal to the reference"), std::string::npos) << r.out;
    // --dim still wins, and a size that does not fit is the program's own E-OOB, naming the choices.
    RunResult d = run_cvsim({"check", kernel("symdim_window_floor.py"), "--dim", "N=128", "--no-progress"});
    EXPECT_EQ(d.exit_code, 2) << d.out << d.err;
    EXPECT_NE(d.err.find("error[E-OOB]"), std::string::npos) << d.err;
    EXPECT_NE(unwrapped(d.err).find("N=128 (--dim), K=160 (default)"), std::string::npos) << d.err;
    // A symbol whose windows fit the default keeps it (the floor only raises).
    RunResult k = run_cvsim({"expand", kernel("symdim_window_floor.py"), "--dim", "N=512"});
    EXPECT_EQ(k.exit_code, 0) << k.err;
    EXPECT_EQ(unwrapped(k.err).find("'N' is not bound"), std::string::npos) << k.err;
}
