// One table-driven test per op family (issue 12): each op runs in a small vector kernel on random inputs
// (several shapes, dtypes and input seeds) through the simulator, whose outputs must equal the reference
// interpreter's bit for bit (both evaluate the op registry's one numerics entry, on the logical values the
// simulator decodes from its physical tile layouts).
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

std::string subst(const std::string& pat, const Shape& s) {
    return fmt::format(fmt::runtime(pat), fmt::arg("r", s.r), fmt::arg("c", s.c), fmt::arg("r2", s.r / 2), fmt::arg("c2", s.c / 2), fmt::arg("cx2", s.c * 2),
                       fmt::arg("mc", ((s.c + 7) / 8 + 31) / 32 * 32));
}

std::string kernel(const Case& k, const Shape& s) {
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
        "    def f(self, a: pl.Tensor[[{r}, {c}], {dt}], b: pl.Tensor[[{r}, {c}], {dt}], rr: pl.Tensor[[{r}, 1], {dt}],\n"
        "          cc: pl.Tensor[[1, {c}], {dt}], out: pl.Out[pl.Tensor[{os}, {odt}]]):\n"
        "        x = pl.load(a, [0, 0], [{r}, {c}])\n        w = pl.load(b, [0, 0], [{r}, {c}])\n"
        "        rv = pl.load(rr, [0, 0], [{r}, 1])\n        cv = pl.load(cc, [0, 0], [1, {c}])\n"
        "        t = pl.tile.create([{r}, {c}], dtype={dt})\n{body}        out = pl.store(y, [0, 0], out)\n",
        fmt::arg("r", s.r), fmt::arg("c", s.c), fmt::arg("dt", dt), fmt::arg("os", oshape), fmt::arg("odt", odt), fmt::arg("body", indented));
}

// Every case, every shape, three input seeds: simulator == reference, bit for bit, and nothing else found.
void check_family(const std::vector<Case>& cases) {
    for (const Case& k : cases)
        for (const Shape& s : kShapes)
            for (uint64_t seed : {1, 2, 3}) {
                SCOPED_TRACE(fmt::format("{} [{}, {}] {} seed {}", k.name, s.r, s.c, k.dtype, seed));
                const std::string text = kernel(k, s);
                SessionOptions o;
                o.input_seed = seed;
                try {
                    Session sess(std::make_shared<SourceFile>("ops_" + k.name + ".py", text), o);
                    const auto& ref = sess.reference();
                    ASSERT_FALSE(ref.error) << ref.error->code << " " << ref.error->message << "\n" << text;
                    ScheduleResult r = sess.run(Schedule{});
                    EXPECT_TRUE(r.clean()) << (r.findings.empty() ? "" : r.findings[0].code + " " + r.findings[0].message) << "\n" << text;
                } catch (const std::exception& e) {
                    ADD_FAILURE() << e.what() << "\n" << text;
                }
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
    for (const char* op : {"row_expand", "row_expand_div", "row_expand_max", "row_expand_min", "row_expand_expdif", "row_expand_mul"})
        cases.push_back({op, "FP32", fmt::format("y = pl.tile.{}(x, rv)\n", op), "", ""});
    for (const char* op : {"col_expand", "col_expand_mul", "col_expand_div", "col_expand_sub", "col_expand_add", "col_expand_max",
                           "col_expand_min", "col_expand_expdif"})
        cases.push_back({op, "FP32", fmt::format("y = pl.tile.{}(x, cv)\n", op), "", ""});
    cases.push_back({"col_expand_fp16", "FP16", "y = pl.tile.col_expand_sub(x, cv)\n", "", ""});
    cases.push_back({"row_expand_int", "INT32", "y = pl.tile.row_expand_div(x, rv)\n", "", ""});
    check_family(cases);
}

TEST(OpFamily, PredicatesAndSelectsMatchTheReference) {
    std::vector<Case> cases;
    for (int m = 0; m <= 5; ++m)
        cases.push_back({fmt::format("cmp{}", m), "FP32", fmt::format("y = pl.tile.cmp(x, w, cmp_type={})\n", m), "[{r}, {mc}]", "UINT8"});
    cases.push_back({"cmps", "FP16", "y = pl.tile.cmps(x, 0.0, cmp_type=4)\n", "[{r}, {mc}]", "UINT8"});
    cases.push_back({"cmp_int_default", "INT32", "y = pl.tile.cmp(x, w)\n", "[{r}, {mc}]", "UINT8"});
    cases.push_back({"sel", "FP32", "m = pl.tile.cmp(x, w, cmp_type=2)\ny = pl.tile.sel(m, x, w, t)\n", "", ""});
    cases.push_back({"sels", "FP32", "m = pl.tile.cmps(x, 0.0, cmp_type=5)\ny = pl.tile.sels(m, x, t, -1.0)\n", "", ""});
    check_family(cases);
}

TEST(OpFamily, FillsAndGeneratorsMatchTheReference) {
    check_family({
        {"fillpad_zero", "FP32", "v = pl.load(a, [0, 0], [{r}, {c}], valid_shape=[{r2}, {c2}])\ny = pl.tile.fillpad(v)\n", "", ""},
        {"fillpad_max", "FP32", "v = pl.load(a, [0, 0], [{r}, {c}], valid_shape=[{r2}, 3])\ny = pl.tile.fillpad(v, pad_value=pl.PadValue.max)\n", "", ""},
        {"fillpad_min_int", "INT32", "v = pl.load(a, [0, 0], [{r}, {c}], valid_shape=[1, {c2}])\ny = pl.tile.fillpad(v, pad_value=pl.PadValue.min)\n", "", ""},
        {"fillpad_number", "FP16", "v = pl.load(a, [0, 0], [{r}, {c}], valid_shape=[{r2}, {c2}])\ny = pl.tile.fillpad_inplace(v, pad_value=2.5)\n", "", ""},
        {"fillpad_expand", "FP32", "v = pl.load(a, [0, 0], [{r2}, {c2}])\ny = pl.tile.fillpad_expand(v, [{r}, {c}], pad_value=pl.PadValue.min)\n", "", ""},
        {"ci", "INT32", "y = pl.tile.ci(3, [{r}, {c}], dtype=pl.INT32)\n", "", ""},
        {"ci_desc", "INT32", "y = pl.tile.ci(100, [1, {c}], dtype=pl.INT32, descending=True)\n", "[1, {c}]", ""},
        {"tri", "INT32", "y = pl.tile.tri(1, [{r}, {c}], dtype=pl.INT32)\n", "", ""},
        {"tri_upper", "FP32", "y = pl.tile.tri(0, [{r}, {c}], dtype=pl.FP32, upper=True)\n", "", ""},
    });
}

TEST(OpFamily, TransformsMatchTheReference) {
    check_family({
        {"concat", "FP32", "y = pl.tile.concat(x, w)\n", "[{r}, {cx2}]", ""},
        {"extract", "FP32", "y = pl.tile.extract(x, 2, 4, [{r2}, {c2}], target_memory=pl.Mem.Vec)\n", "[{r2}, {c2}]", ""},
        {"write", "FP16", "y = pl.tile.write(x, [1, 2], 3.5)\n", "", ""},
        {"read", "FP32", "s = pl.tile.read(x, [3, 1])\ny = pl.adds(w, s)\n", "", ""},
        {"assemble", "FP32", "v = pl.load(b, [0, 0], [{r2}, {c2}])\ny = pl.tile.assemble(x, v, [2, 1])\n", "", ""},
    });
}
