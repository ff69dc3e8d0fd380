// One table-driven test per op family (issue 12): each op runs in a small vector kernel on random inputs
// (several shapes, dtypes, input seeds and operand layouts: row-major ND and column-major DN UB tiles) through
// the simulator, whose outputs must equal the reference interpreter's bit for bit (both evaluate the op
// registry's one numerics entry, on the logical values the simulator decodes from its physical tile layouts).
// The cube family runs matmul / move / extract / transpose_view over the NZ (L1, L0A) and ZN (L0B) layouts on
// both targets.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "frontend/source.h"
#include "sim/session.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::sim;

namespace {

struct Shape {
    int r, c;
};
const Shape kShapes[] = {{16, 16}, {8, 64}, {32, 8}};

struct Case {
    std::string name;
    std::string dtype;      // tile dtype of the inputs: FP32, FP16, INT32
    std::string body;       // statements after the loads; the result is `y`
    std::string out_shape;  // fmt pattern of the output shape over {r} {c} (default: [{r}, {c}])
    std::string out_dtype;  // default: dtype
};

std::string loads(const Shape& s, const std::string& layout) {
    if (layout == "ND")
        return fmt::format("        x = pl.load(a, [0, 0], [{0}, {1}])\n        w = pl.load(b, [0, 0], [{0}, {1}])\n",
                           s.r, s.c);
    return fmt::format(
        "        x0 = pl.load(a, [0, 0], [{0}, {1}])\n        w0 = pl.load(b, [0, 0], [{0}, {1}])\n"
        "        x = pl.move(x0, target_memory=pl.Mem.Vec, blayout=pl.TileLayout.col_major)\n"
        "        w = pl.move(w0, target_memory=pl.Mem.Vec, blayout=pl.TileLayout.col_major)\n",
        s.r, s.c);
}

std::string subst(const std::string& pat, const Shape& s) {
    return fmt::format(fmt::runtime(pat), fmt::arg("r", s.r), fmt::arg("c", s.c), fmt::arg("r2", s.r / 2),
                       fmt::arg("c2", s.c / 2), fmt::arg("cx2", s.c * 2), fmt::arg("rm1", s.r - 1),
                       fmt::arg("c8", s.c * 8), fmt::arg("rc1", s.r * s.c - 1), fmt::arg("c4", s.c / 4),
                       fmt::arg("mc", ((s.c + 7) / 8 + 31) / 32 * 32));
}

// The operand layout of x and w: "ND" (as loaded) or "DN" (moved into a column-major UB tile first).
std::string kernel(const Case& k, const Shape& s, const std::string& layout) {
    const std::string dt = "pl." + k.dtype;
    const std::string odt = "pl." + (k.out_dtype.empty() ? k.dtype : k.out_dtype);
    const std::string oshape = subst(k.out_shape.empty() ? "[{r}, {c}]" : k.out_shape, s);
    std::string body = subst(k.body, s);
    std::string indented;
    for (size_t p = 0; p < body.size();) {
        size_t e = body.find('\n', p);
        if (e == std::string::npos) e = body.size();
        indented += "        " + body.substr(p, e - p) + "\n";
        p = e + 1;
    }
    return fmt::format(
        "import pypto.language as pl\n\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n"
        "    def f(self, a: pl.Tensor[[{r}, {c}], {dt}], b: pl.Tensor[[{r}, {c}], {dt}], rr: pl.Tensor[[{r}, 1], "
        "{dt}],\n"
        "          cc: pl.Tensor[[1, {c}], {dt}], out: pl.Out[pl.Tensor[{os}, {odt}]]):\n"
        "{ld}"
        "        rv = pl.load(rr, [0, 0], [{r}, 1])\n        cv = pl.load(cc, [0, 0], [1, {c}])\n"
        "        t = pl.tile.create([{r}, {c}], dtype={dt})\n{body}{st}",
        fmt::arg("r", s.r), fmt::arg("c", s.c), fmt::arg("dt", dt), fmt::arg("os", oshape), fmt::arg("odt", odt),
        fmt::arg("body", indented), fmt::arg("ld", loads(s, layout)),
        // MTE3 stores UB bytes as laid out: a DN result goes back to ND first (a DN store lands transposed).
        fmt::arg("st", layout == "ND"
                           ? "        out = pl.store(y, [0, 0], out)\n"
                           : "        yo = pl.move(y, target_memory=pl.Mem.Vec, blayout=pl.TileLayout.row_major)\n"
                             "        out = pl.store(yo, [0, 0], out)\n"));
}

// One kernel through the simulator: no reference error, a clean run (outputs equal to the reference).
void run_one(const std::string& name, const std::string& text, uint64_t seed, Target target = Target::A2A3) {
    SessionOptions o;
    o.input_seed = seed;
    o.target = target;
    try {
        Session sess(std::make_shared<SourceFile>("ops_" + name + ".py", text), o);
        const auto& ref = sess.reference();
        ASSERT_FALSE(ref.error) << ref.error->code << " " << ref.error->message << "\n" << text;
        ScheduleResult r = sess.run(Schedule{});
        EXPECT_TRUE(r.clean()) << (r.findings.empty() ? "" : r.findings[0].code + " " + r.findings[0].message) << "\n"
                               << text;
    } catch (const std::exception& e) {
        ADD_FAILURE() << e.what() << "\n" << text;
    }
}

// Every case, every shape, both layouts, input seeds (3 for ND, 2 for DN): simulator == reference, bit for bit,
// and nothing else found.
void check_family(const std::vector<Case>& cases) {
    for (const Case& k : cases)
        for (const Shape& s : kShapes)
            for (const char* layout : {"ND", "DN"})
                for (uint64_t seed : {1, 2, 3}) {
                    if (layout[0] == 'D' && seed == 3) continue;
                    SCOPED_TRACE(fmt::format("{} [{}, {}] {} {} seed {}", k.name, s.r, s.c, k.dtype, layout, seed));
                    run_one(k.name, kernel(k, s, layout), seed);
                }
}

}  // namespace

TEST(OpFamily, BinaryElementwiseMatchesTheReference) {
    check_family({
        {"rem", "FP32", "y = pl.tile.rem(x, w, t)\n", "", ""},
        {"fmod", "FP32", "y = pl.tile.fmod(x, w)\n", "", ""},
        {"maximum", "FP16", "y = pl.maximum(x, w)\n", "", ""},
        {"rem_int", "INT32", "y = pl.tile.rem(x, w, t)\n", "", ""},
        {"and", "INT32", "y = pl.tile.and_(x, w)\n", "", ""},
        {"or", "INT32", "y = pl.tile.or_(x, w)\n", "", ""},
        {"xor", "INT32", "y = pl.tile.xor(x, w, t)\n", "", ""},
        {"shl", "INT32", "y = pl.tile.shl(x, w)\n", "", ""},
        {"shr", "INT32", "y = pl.tile.shr(x, w)\n", "", ""},
    });
}

TEST(OpFamily, TileScalarMatchesTheReference) {
    check_family({
        {"maximums", "FP32", "y = pl.tile.maximums(x, 0.25)\n", "", ""},
        {"minimums", "FP16", "y = pl.tile.minimums(x, -0.25)\n", "", ""},
        {"unified_maximum", "FP32", "y = pl.maximum(x, 0.5)\n", "", ""},
        {"rems", "FP32", "y = pl.tile.rems(x, 0.3, t)\n", "", ""},
        {"fmods", "FP32", "y = pl.tile.fmods(x, 0.3)\n", "", ""},
        {"lrelu", "FP32", "y = pl.tile.lrelu(x, 0.1)\n", "", ""},
        {"expands", "FP16", "y = pl.tile.expands(x, 1.5)\n", "", ""},
        {"ands", "INT32", "y = pl.tile.ands(x, 3)\n", "", ""},
        {"ors", "INT32", "y = pl.tile.ors(x, 5)\n", "", ""},
        {"xors", "INT32", "y = pl.tile.xors(x, 6, t)\n", "", ""},
        {"shls", "INT32", "y = pl.tile.shls(x, 2)\n", "", ""},
        {"shrs", "INT32", "y = pl.tile.shrs(x, 1)\n", "", ""},
    });
}

TEST(OpFamily, UnaryAndTernaryMatchTheReference) {
    check_family({
        {"sin", "FP32", "y = pl.tile.sin(x)\n", "", ""},
        {"cos", "FP32", "y = pl.tile.cos(x)\n", "", ""},
        {"not", "INT32", "y = pl.tile.not_(x)\n", "", ""},
        {"addc", "FP16", "y = pl.tile.addc(x, w, x)\n", "", ""},
        {"subc", "FP32", "y = pl.tile.subc(x, w, x)\n", "", ""},
        {"addsc", "FP32", "y = pl.tile.addsc(x, 0.5, w)\n", "", ""},
        {"subsc", "FP16", "y = pl.tile.subsc(x, 0.5, w)\n", "", ""},
        {"prelu", "FP32", "y = pl.tile.prelu(x, w, t)\n", "", ""},
    });
}

TEST(OpFamily, ReductionsMatchTheReference) {
    check_family({
        {"row_min", "FP32", "y = pl.tile.row_min(x, t)\n", "[{r}, 1]", ""},
        {"row_prod", "FP32", "y = pl.tile.row_prod(x, t)\n", "[{r}, 1]", ""},
        {"col_sum", "FP32", "y = pl.tile.col_sum(x)\n", "[1, {c}]", ""},
        {"col_sum_fp16", "FP16", "y = pl.tile.col_sum(x, t)\n", "[1, {c}]", ""},
        {"col_max", "FP32", "y = pl.tile.col_max(x)\n", "[1, {c}]", ""},
        {"col_min", "INT32", "y = pl.tile.col_min(x)\n", "[1, {c}]", ""},
        {"col_prod", "FP32", "y = pl.tile.col_prod(x)\n", "[1, {c}]", ""},
    });
}

TEST(OpFamily, BroadcastsMatchTheReference) {
    std::vector<Case> cases;
    for (const char* op :
         {"row_expand", "row_expand_div", "row_expand_max", "row_expand_min", "row_expand_expdif", "row_expand_mul"})
        cases.push_back({op, "FP32", fmt::format("y = pl.tile.{}(x, rv)\n", op), "", ""});
    for (const char* op : {"col_expand", "col_expand_mul", "col_expand_div", "col_expand_sub", "col_expand_add",
                           "col_expand_max", "col_expand_min", "col_expand_expdif"})
        cases.push_back({op, "FP32", fmt::format("y = pl.tile.{}(x, cv)\n", op), "", ""});
    cases.push_back({"col_expand_fp16", "FP16", "y = pl.tile.col_expand_sub(x, cv)\n", "", ""});
    cases.push_back({"row_expand_int", "INT32", "y = pl.tile.row_expand_div(x, rv)\n", "", ""});
    check_family(cases);
}

TEST(OpFamily, PredicatesAndSelectsMatchTheReference) {
    std::vector<Case> cases;
    for (int m = 0; m <= 5; ++m)
        cases.push_back({fmt::format("cmp{}", m), "FP32", fmt::format("y = pl.tile.cmp(x, w, cmp_type={})\n", m),
                         "[{r}, {mc}]", "UINT8"});
    cases.push_back({"cmps", "FP16", "y = pl.tile.cmps(x, 0.0, cmp_type=4)\n", "[{r}, {mc}]", "UINT8"});
    cases.push_back({"cmp_int_default", "INT32", "y = pl.tile.cmp(x, w)\n", "[{r}, {mc}]", "UINT8"});
    cases.push_back({"sel", "FP32", "m = pl.tile.cmp(x, w, cmp_type=2)\ny = pl.tile.sel(m, x, w, t)\n", "", ""});
    cases.push_back(
        {"sels", "FP32", "m = pl.tile.cmps(x, 0.0, cmp_type=5)\ny = pl.tile.sels(m, x, t, -1.0)\n", "", ""});
    check_family(cases);
}

TEST(OpFamily, FillsAndGeneratorsMatchTheReference) {
    check_family({
        {"fillpad_zero", "FP32",
         "v = pl.load(a, [0, 0], [{r}, {c}], valid_shape=[{r2}, {c2}])\ny = pl.tile.fillpad(v)\n", "", ""},
        {"fillpad_max", "FP32",
         "v = pl.load(a, [0, 0], [{r}, {c}], valid_shape=[{r2}, 3])\ny = pl.tile.fillpad(v, "
         "pad_value=pl.PadValue.max)\n",
         "", ""},
        {"fillpad_min_int", "INT32",
         "v = pl.load(a, [0, 0], [{r}, {c}], valid_shape=[1, {c2}])\ny = pl.tile.fillpad(v, "
         "pad_value=pl.PadValue.min)\n",
         "", ""},
        {"fillpad_number", "FP16",
         "v = pl.load(a, [0, 0], [{r}, {c}], valid_shape=[{r2}, {c2}])\ny = pl.tile.fillpad_inplace(v, "
         "pad_value=2.5)\n",
         "", ""},
        {"fillpad_expand", "FP32",
         "v = pl.load(a, [0, 0], [{r2}, {c2}])\ny = pl.tile.fillpad_expand(v, [{r}, {c}], pad_value=pl.PadValue.min)\n",
         "", ""},
        {"ci", "INT32", "y = pl.tile.ci(3, [{r}, {c}], dtype=pl.INT32)\n", "", ""},
        {"ci_desc", "INT32", "y = pl.tile.ci(100, [1, {c}], dtype=pl.INT32, descending=True)\n", "[1, {c}]", ""},
        {"tri", "INT32", "y = pl.tile.tri(1, [{r}, {c}], dtype=pl.INT32)\n", "", ""},
        {"tri_upper", "FP32", "y = pl.tile.tri(0, [{r}, {c}], dtype=pl.FP32, upper=True)\n", "", ""},
    });
}

TEST(OpFamily, TransformsMatchTheReference) {
    check_family({
        {"concat", "FP32", "y = pl.tile.concat(x, w)\n", "[{r}, {cx2}]", ""},
        {"extract", "FP32", "y = pl.tile.extract(x, 2, 4, [{r2}, {c2}], target_memory=pl.Mem.Vec)\n", "[{r2}, {c2}]",
         ""},
        {"write", "FP16", "y = pl.tile.write(x, [1, 2], 3.5)\n", "", ""},
        {"read", "FP32", "s = pl.tile.read(x, [3, 1])\ny = pl.adds(w, s)\n", "", ""},
        {"assemble", "FP32", "v = pl.load(b, [0, 0], [{r2}, {c2}])\ny = pl.tile.assemble(x, v, [2, 1])\n", "", ""},
    });
}

TEST(OpFamily, SortGatherScatterAndArgOpsMatchTheReference) {
    check_family({
        {"sort32", "FP32", "i = pl.tile.ci(0, [1, {c}], dtype=pl.INT32)\ny = pl.tile.sort32(x, i)\n", "[{r}, {cx2}]",
         ""},
        {"gather", "FP32",
         "ix = pl.tile.ci({rc1}, [{r}, {c}], dtype=pl.INT32, descending=True)\ny = pl.tile.gather(x, ix, t)\n", "", ""},
        {"gather_mask", "FP32", "y = pl.tile.gather_mask(x, pl.tile.MaskPattern.P0101)\n", "[{r}, {c2}]", ""},
        {"gather_mask_bits", "FP16", "y = pl.tile.gather_mask(x, pl.tile.MaskPattern.P0001, output_dtype=pl.INT16)\n",
         "[{r}, {c4}]", "INT16"},
        {"scatter", "FP32",
         "ix = pl.tile.ci({rc1}, [{r}, {c}], dtype=pl.INT32, descending=True)\ny = pl.tile.scatter(t, x, ix)\n", "",
         ""},
        {"scatter_mask", "FP32",
         "h = pl.tile.gather_mask(w, pl.tile.MaskPattern.P1010)\ny = pl.tile.scatter_mask(x, h, "
         "pl.tile.MaskPattern.P0101)\n",
         "", ""},
        {"row_argmax", "FP32", "y = pl.tile.row_argmax(x, t)\n", "[{r}, 1]", "INT32"},
        {"row_argmin", "FP16", "y = pl.tile.row_argmin(x, t)\n", "[{r}, 1]", "INT32"},
        {"col_argmax", "INT32", "y = pl.tile.col_argmax(x, t)\n", "[1, {c}]", "INT32"},
        {"col_argmin", "FP32", "y = pl.tile.col_argmin(x, t)\n", "[1, {c}]", "INT32"},
    });
}

TEST(OpFamily, PartialRegionByteAndRowOpsMatchTheReference) {
    check_family({
        {"part_add", "FP32",
         "v = pl.load(a, [0, 0], [{r}, {c}], valid_shape=[{r2}, {c}])\ny = pl.tile.part_add(x, v)\n", "", ""},
        {"part_mul", "FP32",
         "v = pl.load(a, [0, 0], [{r}, {c}], valid_shape=[{r2}, {c}])\nu = pl.load(b, [0, 0], [{r}, {c}], "
         "valid_shape=[{r}, {c2}])\n"
         "y = pl.tile.part_mul(v, u)\n",
         "", ""},
        {"part_max", "FP16",
         "u = pl.load(b, [0, 0], [{r}, {c}], valid_shape=[{r}, {c2}])\ny = pl.tile.part_max(u, x)\n", "", ""},
        {"part_min", "INT32", "v = pl.load(a, [0, 0], [{r}, {c}], valid_shape=[1, {c}])\ny = pl.tile.part_min(v, w)\n",
         "", ""},
        {"reinterpret_fp32_int32", "FP32", "y = pl.tile.reinterpret_view(x, pl.INT32)\n", "", "INT32"},
        {"reinterpret_int32_fp32", "INT32", "y = pl.tile.reinterpret_view(pl.tile.ands(x, 1065353215), pl.FP32)\n", "",
         "FP32"},
        {"gatherb", "FP32",
         "o = pl.tile.ci(0, [{r}, 8], dtype=pl.INT32)\no = pl.muls(o, 12)\n"
         "y = pl.tile.gatherb(x, pl.tile.reinterpret_view(o, pl.UINT32))\n",
         "[{r}, 64]", ""},
        {"gatherb_fp16", "FP16",
         "o = pl.tile.ci(5, [{r}, 8], dtype=pl.INT32, descending=True)\no = pl.muls(pl.tile.maximums(o, 0), 32)\n"
         "y = pl.tile.gatherb(x, pl.tile.reinterpret_view(o, pl.UINT32))\n",
         "[{r}, 128]", ""},
        {"scatter_update", "FP32",
         "ix = pl.tile.ci({rm1}, [1, {r}], dtype=pl.INT32, descending=True)\ny = pl.tile.scatter_update(x, ix, w, "
         "dim=-2)\n",
         "", ""},
        {"mrgsort4", "FP32",
         "i = pl.tile.ci(0, [1, {c}], dtype=pl.INT32)\n"
         "l0 = pl.tile.sort32(pl.tile.extract(x, 0, 0, [1, {c}], target_memory=pl.Mem.Vec), i)\n"
         "l1 = pl.tile.sort32(pl.tile.extract(x, 1, 0, [1, {c}], target_memory=pl.Mem.Vec), i)\n"
         "l2 = pl.tile.sort32(pl.tile.extract(w, 2, 0, [1, {c}], target_memory=pl.Mem.Vec), i)\n"
         "l3 = pl.tile.sort32(pl.tile.extract(w, 3, 0, [1, {c}], target_memory=pl.Mem.Vec), i)\n"
         "m = pl.tile.create([1, {c8}], dtype=pl.FP32)\ny = pl.tile.mrgsort(l0, l1, l2, l3, tmp=m)\n",
         "[1, {c8}]", ""},
    });
}

namespace {

struct CubeShape {
    int m, k, n;
};
struct CubeCase {
    std::string name;
    std::string body;       // statements after the operand loads; the result is `y` (shape fmt over {m} {k} {n} {k2})
    std::string out_shape;  // default: [{m}, {n}]
    bool ints = true;       // also run with INT8 operands (INT32 result)
};

// A cube kernel: a [M, K] and b [K, N] in L1 (NZ), bt = b's transpose [N, K] (for the transpose_view case),
// bias [1, N]; the ops of `body`; y stored from L0C (FIXP) or from UB.
std::string cube_kernel(const CubeCase& k, const CubeShape& s, const std::string& dt) {
    auto sub = [&](const std::string& pat) {
        return fmt::format(fmt::runtime(pat), fmt::arg("m", s.m), fmt::arg("k", s.k), fmt::arg("n", s.n),
                           fmt::arg("k2", s.k / 2));
    };
    std::string body;
    const std::string b = sub(k.body);
    for (size_t p = 0; p < b.size();) {
        size_t e = b.find('\n', p);
        if (e == std::string::npos) e = b.size();
        body += "        " + b.substr(p, e - p) + "\n";
        p = e + 1;
    }
    const std::string odt = dt == "INT8" ? "INT32" : "FP32";
    return fmt::format(
        "import pypto.language as pl\n\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n"
        "    def f(self, a: pl.Tensor[[{m}, {k}], pl.{dt}], b: pl.Tensor[[{k}, {n}], pl.{dt}], bt: pl.Tensor[[{n}, "
        "{k}], pl.{dt}],\n"
        "          c: pl.Tensor[[1, {n}], pl.{bdt}], out: pl.Out[pl.Tensor[{os}, pl.{odt}]]):\n"
        "        a_mat = pl.load(a, [0, 0], [{m}, {k}], target_memory=pl.Mem.Mat)\n"
        "        b_mat = pl.load(b, [0, 0], [{k}, {n}], target_memory=pl.Mem.Mat)\n"
        "        l = pl.move(a_mat, target_memory=pl.Mem.Left)\n        r = pl.move(b_mat, "
        "target_memory=pl.Mem.Right)\n"
        "{body}        out = pl.store(y, [0, 0], out)\n",
        fmt::arg("m", s.m), fmt::arg("k", s.k), fmt::arg("n", s.n), fmt::arg("dt", dt),
        fmt::arg("bdt", dt == "INT8" ? "INT32" : dt), fmt::arg("odt", odt),
        fmt::arg("os", sub(k.out_shape.empty() ? "[{m}, {n}]" : k.out_shape)), fmt::arg("body", body));
}

}  // namespace

TEST(OpFamily, CubeOpsOverNzAndZnLayoutsMatchTheReferenceOnBothTargets) {
    const CubeShape shapes[] = {{16, 64, 16}, {32, 64, 32}, {16, 128, 64}};
    const std::vector<CubeCase> cases = {
        {"matmul", "y = pl.matmul(l, r)\n", "", true},
        {"matmul_acc", "y0 = pl.matmul(l, r)\ny = pl.tile.matmul_acc(y0, l, r)\n", "", true},
        {"matmul_bias",
         "c_mat = pl.load(c, [0, 0], [1, {n}], target_memory=pl.Mem.Mat)\nbias = pl.move(c_mat, "
         "target_memory=pl.Mem.Bias)\n"
         "y = pl.matmul_bias(l, r, bias)\n",
         "", false},
        {"extract",
         "l2 = pl.tile.extract(a_mat, 0, {k2}, [{m}, {k2}], target_memory=pl.Mem.Left)\n"
         "r2 = pl.tile.extract(b_mat, {k2}, 0, [{k2}, {n}], target_memory=pl.Mem.Right)\ny = pl.matmul(l2, r2)\n",
         "", true},
        {"transpose_view",
         "t_mat = pl.load(bt, [0, 0], [{n}, {k}], target_memory=pl.Mem.Mat)\n"
         "r3 = pl.move(pl.tile.transpose_view(t_mat), target_memory=pl.Mem.Right)\ny = pl.matmul(l, r3)\n",
         "", true},
        {"gemv",
         "row = pl.load(a, [0, 0], [1, {k}], target_memory=pl.Mem.Mat)\nrl = pl.move(row, target_memory=pl.Mem.Left)\n"
         "y = pl.tile.gemv(rl, r)\n",
         "[1, {n}]", true},
        {"acc_to_ub_nd", "z = pl.matmul(l, r)\ny = pl.move(z, target_memory=pl.Mem.Vec)\n", "", false},
        {"acc_to_ub_nz",
         "z = pl.matmul(l, r)\nzv = pl.move(z, target_memory=pl.Mem.Vec, blayout=pl.TileLayout.col_major, "
         "slayout=pl.TileLayout.row_major)\ny = pl.adds(zv, 1.0)\n",
         "", false},
    };
    for (const CubeCase& k : cases)
        for (const CubeShape& s : shapes)
            for (const char* dt : {"FP16", "BF16", "INT8"}) {
                if (std::string(dt) == "INT8" && !k.ints) continue;
                for (Target t : {Target::A2A3, Target::A5}) {
                    SCOPED_TRACE(fmt::format("{} [{}, {}, {}] {} {}", k.name, s.m, s.k, s.n, dt,
                                             t == Target::A5 ? "a5" : "a2a3"));
                    run_one(k.name, cube_kernel(k, s, dt), 1, t);
                }
            }
}
