// Properties of the frontend over generated mixed kernels (tests/kernel_gen.h): they type-check, print ->
// parse -> print is the identity before and after expansion, and mangled variants of them are either
// accepted or rejected with exactly one diagnostic (never another exception).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "frontend/diag.h"
#include "frontend/passes/expand_mixed_kernel.h"
#include "frontend/printer.h"
#include "frontend/sema.h"
#include "frontend_util.h"
#include "kernel_gen.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string reprint(const std::string& text) {
    return print_program(*load_program_text("printed.py", text));
}

std::shared_ptr<ir::Program> must_load(const GeneratedKernel& k) {
    try {
        return load_program_text("generated.py", k.text);
    } catch (const CompileError& e) {
        RC_FAIL(render_text(e.diag()) + "\n" + k.text);
    }
}

RC_GTEST_PROP(FrontendProperty, GeneratedKernelsTypeCheckAndRoundTrip, ()) {
    GeneratedKernel k = *gen_mixed_kernel();
    auto p = must_load(k);
    std::string once = print_program(*p);
    RC_ASSERT(reprint(once) == once);
}

RC_GTEST_PROP(FrontendProperty, ExpandedGeneratedKernelsRoundTrip, ()) {
    GeneratedKernel k = *gen_mixed_kernel();
    auto p = must_load(k);
    passes::ExpandOptions o;
    o.v2c = *rc::gen::element(passes::V2CPolicy::Off, passes::V2CPolicy::Fence, passes::V2CPolicy::Syncall);
    o.target = *rc::gen::element(Target::A2A3, Target::A5);
    passes::ExpandStats st;
    std::string once = print_program(*passes::expand_mixed_kernel(*p, o, st));
    std::string twice;
    try {
        twice = reprint(once);
    } catch (const CompileError& e) {
        RC_FAIL("expanded program does not parse: " + render_text(e.diag()) + "\n" + once);
    }
    RC_ASSERT(twice == once);
}

RC_GTEST_PROP(FrontendProperty, MangledKernelsGiveOneDiagnosticOrParse, ()) {
    GeneratedKernel k = *gen_mixed_kernel();
    std::string text = k.text;
    // Delete, duplicate or swap a short range of bytes, or overwrite one byte.
    size_t n = text.size();
    size_t at = *rc::gen::inRange<size_t>(0, n - 1);
    size_t len = *rc::gen::inRange<size_t>(1, 8);
    len = std::min(len, n - at);
    switch (*rc::gen::inRange(0, 4)) {
        case 0:
            text.erase(at, len);
            break;
        case 1:
            text.insert(at, text.substr(at, len));
            break;
        case 2: {
            size_t other = *rc::gen::inRange<size_t>(0, n - len);
            std::string a = text.substr(at, len), b = text.substr(other, len);
            text.replace(at, len, b);
            text.replace(other, len, a);
            break;
        }
        case 3:
            text[at] = *rc::gen::element('(', ')', '[', ']', ':', ',', '=', ' ', '\n', '\t', '#', '"', '\\', '\xff');
            break;
        default:
            text.insert(at, *rc::gen::element<std::string>("    ", "\n", "pl.", "lambda", "((", "]", "0x", "1e"));
            break;
    }
    try {
        auto p = load_program_text("mangled.py", text);
        std::string once = print_program(*p);
        RC_ASSERT(reprint(once) == once);
    } catch (const CompileError& e) {
        const Diagnostic& d = e.diag();
        RC_ASSERT(!d.code.empty());
        RC_ASSERT(d.loc.line >= 1u);
        // Lines count from 1; an error may point one past the last line only at end of file.
        RC_ASSERT(d.loc.line <= std::count(text.begin(), text.end(), '\n') + 2);
        RC_ASSERT(!render_text(d).empty());
    }
}

TEST(FrontendProperty, SeededKernelsAreDeterministicAndWellTyped) {
    for (uint64_t seed = 0; seed < 50; ++seed) {
        GeneratedKernel a = seeded_mixed_kernel(seed), b = seeded_mixed_kernel(seed);
        EXPECT_EQ(a.text, b.text);
        EXPECT_NO_THROW(load_program_text("seeded.py", a.text)) << a.text;
    }
}

TEST(FrontendProperty, TheGeneratorCoversEveryKindOfStep) {
    bool v2c = false, c2v = false, boundary = false, loop = false, init = false, branch = false;
    for (uint64_t seed = 0; seed < 200; ++seed) {
        GeneratedKernel k = seeded_mixed_kernel(seed);
        v2c |= k.has_v2c_gm;
        c2v |= k.has_c2v_gm;
        boundary |= k.has_boundary;
        loop |= k.text.find("in pl.range(") != std::string::npos;
        init |= k.text.find("init_values=") != std::string::npos;
        branch |= k.text.find("        if ") != std::string::npos;
    }
    EXPECT_TRUE(v2c && c2v && boundary && loop && init && branch);
}

}  // namespace
