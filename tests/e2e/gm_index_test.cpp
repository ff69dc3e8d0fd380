// pl.tile.mgather / pl.tile.mscatter (frontend/ops_gm_index.cpp): GM accesses whose elements an index tile picks
// at run time. Row and elem gathers (gather_oob zero / wrap) and an element scatter with a repeated index run
// bit-exact to the reference on both targets with hand-computed values; a V2C hand-over through a scatter is
// ordered by the pass (fence, syncall) and a race without it; misuse gets a diagnostic at a caret. The index tile
// makes the GM addresses data: a verdict holds for the explored schedules only. A C2V pair into an mgather is
// left unfenced under --c2v upstream (upstream pairs store -> tile.load only) and ordered under complete.
// Views pto-isa addresses linearly (not contiguous) and a5's 2-D row table are refused.
#include <gtest/gtest.h>

#include <filesystem>

#include "npy_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/" + name;
}

}  // namespace

TEST(GmIndex, GathersAndAScatterEqualTheReferenceAndTheHandComputedValues) {
    std::vector<double> table(16 * 32), ridx = {5, 0, 15, 9, 2, 2, 7, 11}, eidx(32), sidx(32);
    for (int r = 0; r < 16; ++r)
        for (int c = 0; c < 32; ++c) table[static_cast<size_t>(r * 32 + c)] = r * 100 + c;
    for (int k = 0; k < 32; ++k) {
        eidx[static_cast<size_t>(k)] = (k * 37) % 512;
        sidx[static_cast<size_t>(k)] = (k * 5 + 3) % 512;
    }
    eidx[31] = 600;  // outside the 512 elements: zero mode reads 0, wrap mode element 88
    sidx[31] = 3;    // the first scatter's index again: the later write wins
    auto at = [&](double flat) {
        const int e = static_cast<int>(flat);
        return (e / 32) * 100.0 + e % 32;
    };
    for (const char* target : {"a2a3", "a5"}) {
        SCOPED_TRACE(target);
        const std::string dir = ::testing::TempDir() + "/gm_index_" + target;
        std::filesystem::create_directories(dir);
        rt::write_npy(npy_buffer("table", DType::FP32, {16, 32}, table), dir + "/table.npy");
        rt::write_npy(npy_buffer("ridx", DType::INT32, {1, 8}, ridx), dir + "/ridx.npy");
        rt::write_npy(npy_buffer("eidx", DType::INT32, {4, 8}, eidx), dir + "/eidx.npy");
        rt::write_npy(npy_buffer("sidx", DType::INT32, {4, 8}, sidx), dir + "/sidx.npy");
        RunResult r =
            run_cvsim({"run", kernel("mgather_mscatter.py"), "--target", target, "--input",
                       "table=" + dir + "/table.npy", "--input", "ridx=" + dir + "/ridx.npy", "--input",
                       "eidx=" + dir + "/eidx.npy", "--input", "sidx=" + dir + "/sidx.npy", "--output-dir", dir});
        ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
        EXPECT_NE(unwrapped(r.out).find("outputs: equal to the reference (4 tensors, bit-exact)"), std::string::npos)
            << r.out;
        const auto rows = npy_values(dir, "rows", DType::FP32, {8, 32}),
                   elems = npy_values(dir, "elems", DType::FP32, {4, 8}),
                   wrapped = npy_values(dir, "wrapped", DType::FP32, {4, 8}),
                   scat = npy_values(dir, "scat", DType::FP32, {16, 32});
        for (int i = 0; i < 8; ++i)
            for (int c = 0; c < 32; ++c) {
                EXPECT_EQ(rows[static_cast<size_t>(i * 32 + c)], ridx[static_cast<size_t>(i)] * 100 + c);
            }
        for (int k = 0; k < 32; ++k) {
            const double e = k == 31 ? 0.0 : at(eidx[static_cast<size_t>(k)]);
            EXPECT_EQ(elems[static_cast<size_t>(k)], e) << k;
            EXPECT_EQ(wrapped[static_cast<size_t>(k)], k == 31 ? at(88) : e) << k;
            if (k > 0) {
                EXPECT_EQ(scat[static_cast<size_t>(sidx[static_cast<size_t>(k)])], e + 1000) << k;
            }
        }
        EXPECT_EQ(scat[3], 1000.0);  // element 31 (0 + 1000) overwrote element 0's
    }
}

TEST(GmIndex, AV2CHandOverThroughAScatterIsOrderedByThePassAndARaceWithoutIt) {
    const std::string dir = ::testing::TempDir() + "/gm_index_v2c";
    std::filesystem::create_directories(dir);
    std::vector<double> sidx(256);
    for (int k = 0; k < 256; ++k) sidx[static_cast<size_t>(k)] = (k * 7) % 256;  // a permutation of the scratch
    rt::write_npy(npy_buffer("sidx", DType::INT32, {16, 16}, sidx), dir + "/sidx.npy");
    for (const char* target : {"a2a3", "a5"}) {
        SCOPED_TRACE(target);
        RunResult off = run_cvsim({"check", kernel("mscatter_v2c.py"), "--target", target, "--v2c", "off",
                                   "--schedules", "20", "--jobs", "1", "--input", "sidx=" + dir + "/sidx.npy"});
        EXPECT_NE(off.exit_code, 0) << off.out << off.err;
        EXPECT_NE(unwrapped(off.out).find("E-RACE-"), std::string::npos) << off.out;
        for (const char* policy : {"fence", "syncall"}) {
            RunResult ok = run_cvsim({"check", kernel("mscatter_v2c.py"), "--target", target, "--v2c", policy,
                                      "--schedules", "20", "--jobs", "1", "--input", "sidx=" + dir + "/sidx.npy"});
            EXPECT_EQ(ok.exit_code, 0) << policy << "\n" << ok.out << ok.err;
        }
        RunResult scope = run_cvsim({"check", kernel("mscatter_v2c.py"), "--target", target, "--v2c", "fence",
                                     "--schedules", "5", "--jobs", "1", "--input", "sidx=" + dir + "/sidx.npy"});
        EXPECT_NE(unwrapped(scope.out).find("scope: holds for the explored schedules only"), std::string::npos)
            << scope.out;
        EXPECT_NE(unwrapped(scope.out).find("the GM addresses of pl.tile.mscatter are the values of its index tile"),
                  std::string::npos)
            << scope.out;
        RunResult rej = run_cvsim({"check", kernel("mscatter_v2c.py"), "--target", target, "--v2c", "reject", "--input",
                                   "sidx=" + dir + "/sidx.npy"});
        EXPECT_NE(rej.exit_code, 0) << rej.out << rej.err;
        EXPECT_NE((rej.out + rej.err).find("error[E-V2C-UNFENCED]"), std::string::npos) << rej.out << rej.err;
    }
}

TEST(GmIndex, MisusesGetADiagnosticAtACaret) {
    const std::vector<Misuse> cases = {
        {"pl.tile.mgather(table, ri)", "pl.tile.mgather(table, ri, target_memory=pl.MemorySpace.Mat)", "E-TYPE",
         "argument 'idx' must be a GM tensor", "a5"},
        {"ei = pl.load(eidx, [0, 0], [4, 8])", "ei = pl.cast(pl.load(eidx, [0, 0], [4, 8]), pl.FP32)", "E-TYPE",
         "idx dtype to be INT32", "a5"},
        {"\"elem\", gather_oob=\"zero\"", "\"elem\", gather_oob=\"skip\"", "E-TYPE", "gather_oob must be one of", "a5"},
        {"pl.tile.mscatter(v, si, scat)", "pl.tile.mscatter(v, ri, scat)", "E-TYPE", "idx shape to match src shape",
         "a5"},
        {"ri = pl.load(ridx, [0, 0], [1, 8])", "ri = pl.reshape(pl.load(ridx, [0, 0], [1, 8]), [8, 1])", "E-TYPE",
         "requires an idx shape [1, R]", "a2a3"},
        {"g = pl.tile.mgather(table, ri)",
         "t3 = pl.tensor.view(table, [2, 8, 32])\n        g = pl.tile.mgather(t3, ri)", "E-UNSUPPORTED",
         "a5's MGATHER counts only the second-to-last dimension", "a5"},
    };
    const std::string src = read_file(kernel("mgather_mscatter.py"));
    expect_misuses(src, cases, "gm_index");
}

TEST(GmIndex, AnIndexOutsideTheTableIsOutOfBoundsUnderGatherOobUndefined) {
    const std::string dir = ::testing::TempDir() + "/gm_index_oob";
    std::filesystem::create_directories(dir);
    std::vector<double> ridx = {5, 0, 16, 9, 2, 2, 7, 11};  // row 16 of a 16-row table
    rt::write_npy(npy_buffer("ridx", DType::INT32, {1, 8}, ridx), dir + "/ridx.npy");
    RunResult r = run_cvsim({"run", kernel("mgather_mscatter.py"), "--input", "ridx=" + dir + "/ridx.npy"});
    EXPECT_NE(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE((r.out + r.err).find("E-OOB"), std::string::npos) << r.out << r.err;
    EXPECT_NE((r.out + r.err).find("index 16 is outside the 16 rows"), std::string::npos) << r.out << r.err;
}

TEST(GmIndex, AC2VPairIntoAGatherIsLeftUnfencedAsUpstreamDoesAndOrderedUnderComplete) {
    const std::string dir = ::testing::TempDir() + "/gm_index_c2v";
    std::filesystem::create_directories(dir);
    std::vector<double> gidx(256);
    for (int k = 0; k < 256; ++k) gidx[static_cast<size_t>(k)] = (k * 7) % 256;
    rt::write_npy(npy_buffer("gidx", DType::INT32, {16, 16}, gidx), dir + "/gidx.npy");
    for (const char* target : {"a2a3", "a5"}) {
        SCOPED_TRACE(target);
        RunResult up = run_cvsim({"check", kernel("mgather_c2v.py"), "--target", target, "--schedules", "10", "--jobs",
                                  "1", "--input", "gidx=" + dir + "/gidx.npy"});
        EXPECT_EQ(up.exit_code, 1) << up.out << up.err;
        EXPECT_NE(unwrapped(up.out).find("error[E-RACE-RAW]"), std::string::npos) << up.out;
        RunResult e = run_cvsim({"expand", kernel("mgather_c2v.py"), "--target", target, "-v"});
        EXPECT_NE(unwrapped(e.out + e.err).find("C2V left unfenced as upstream does"), std::string::npos)
            << e.out << e.err;
        RunResult full = run_cvsim({"check", kernel("mgather_c2v.py"), "--target", target, "--c2v", "complete",
                                    "--schedules", "10", "--jobs", "1", "--input", "gidx=" + dir + "/gidx.npy"});
        EXPECT_EQ(full.exit_code, 0) << full.out << full.err;
    }
}

TEST(GmIndex, AViewThatIsNotContiguousIsRefusedWherePtoIsaAddressesItLinearly) {
    const std::string dir = ::testing::TempDir() + "/gm_index_view";
    std::filesystem::create_directories(dir);
    std::vector<double> eidx(32, 3.0), ridx = {5, 0, 15, 9, 2, 2, 7, 11}, sidx(32);
    for (int k = 0; k < 32; ++k) sidx[static_cast<size_t>(k)] = k;
    rt::write_npy(npy_buffer("eidx", DType::INT32, {4, 8}, eidx), dir + "/eidx.npy");
    rt::write_npy(npy_buffer("ridx", DType::INT32, {1, 8}, ridx), dir + "/ridx.npy");
    rt::write_npy(npy_buffer("sidx", DType::INT32, {4, 8}, sidx), dir + "/sidx.npy");
    const std::vector<std::string> inputs = {"--input", "eidx=" + dir + "/eidx.npy",
                                             "--input", "ridx=" + dir + "/ridx.npy",
                                             "--input", "sidx=" + dir + "/sidx.npy"};
    std::string src = read_file(kernel("mgather_mscatter.py"));
    const std::string from = "e = pl.tile.mgather(table, ei, \"elem\", gather_oob=\"zero\")";
    ASSERT_NE(src.find(from), std::string::npos);
    src.replace(src.find(from), from.size(),
                "e = pl.tile.mgather(table[4:12, 8:16], ei, \"elem\", gather_oob=\"zero\")");
    const std::string path = ::testing::TempDir() + "/gm_index_strided.py";
    ASSERT_TRUE(write_text_file(path, src));
    for (const char* target : {"a2a3", "a5"}) {
        SCOPED_TRACE(target);
        std::vector<std::string> cmd = {"run", path, "--target", target};
        cmd.insert(cmd.end(), inputs.begin(), inputs.end());
        RunResult r = run_cvsim(cmd);
        EXPECT_NE(r.exit_code, 0) << r.out << r.err;
        EXPECT_NE(unwrapped(r.out).find("error[E-UNSUPPORTED]"), std::string::npos) << r.out;
        EXPECT_NE(unwrapped(r.out).find("not contiguous"), std::string::npos) << r.out;
    }
    // Whole rows of the table are one run: read as before.
    src = read_file(kernel("mgather_mscatter.py"));
    src.replace(src.find(from), from.size(),
                "e = pl.tile.mgather(table[4:12, 0:32], ei, \"elem\", gather_oob=\"zero\")");
    ASSERT_TRUE(write_text_file(path, src));
    std::vector<std::string> cmd = {"run", path};
    cmd.insert(cmd.end(), inputs.begin(), inputs.end());
    RunResult ok = run_cvsim(cmd);
    EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
    EXPECT_NE(unwrapped(ok.out).find("outputs: equal to the reference"), std::string::npos) << ok.out;
}
