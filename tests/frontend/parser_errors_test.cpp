// Tests of the DSL parser on bad input: malformed and unsupported constructs, error locations, nesting caps and
// mutated kernels (every one a diagnostic at a location, never a crash).
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "parser_test_util.h"

namespace cvsim {
namespace {

using namespace parser_test;

// ---- errors --------------------------------------------------------------------------------------

struct BadCase {
    std::string text;
    const char* code;
    uint32_t line;
    const char* fragment;
};

void check_cases(const std::vector<BadCase>& cases) {
    for (const BadCase& c : cases) {
        Error e = parse_error(c.text);
        EXPECT_EQ(e.code, c.code) << c.text << "\n -> " << e.message;
        EXPECT_EQ(e.line, c.line) << c.text << "\n -> " << e.message;
        EXPECT_NE(e.message.find(c.fragment), std::string::npos) << c.text << "\n -> " << e.message;
    }
}

TEST(ParserErrors, MalformedInputs) {
    const char* P = "E-PARSE";
    check_cases({
        {"def f(self)\n    pass\n", P, 1, "expected ':', found end of line"},
        {in_function("x = = 1"), P, 7, "expected an expression, found '='"},
        {in_function("x = a b"), P, 7, "expected end of line after the statement, found name 'b'"},
        {in_function("x = [1 2]"), P, 7, "expected ',' or ']' in the list, found number '2'"},
        {in_function("x = pl.load(a,, b)"), P, 7, "expected an expression, found ','"},
        {in_function("x = pl.load(a, [0, 0]\ny = 1\nreturn y"), P, 7, "'(' was never closed"},
        {in_function("x = f(a))"), P, 7, "unmatched ')'"},
        {in_function("x = f(a]"), P, 7, "does not match"},
        {in_function("t = 1\nx = 'abc\ny = 2"), P, 8, "unterminated string literal"},
        {in_function("x = 1\ns = \"\"\"never closed\n\nreturn x"), P, 8, "unterminated triple-quoted"},
        {in_function("x = a $ 1"), P, 7, "invalid character '$'"},
        {in_function("x = `a`"), P, 7, "invalid character '`'"},
        {in_function("x = 1\ny = 2 # caf\xE9"), P, 8, "invalid UTF-8"},
        {in_function("x = 1\n\ty = 2"), P, 8, "tabs are not allowed in indentation"},
        {in_function("x = 1\n    y = 2"), P, 8, "unexpected indent"},
        {in_function("if a:\n    x = 1\n  y = 2"), P, 9, "unindent does not match"},
        {in_function("for i in pl.range(4):\nx = 1"), P, 8,
         "expected an indented block after 'for' statement on line 7"},
        {in_function("x = 1\nelse:\n    pass"), P, 8, "unexpected 'else'"},
        {"def (self):\n    pass\n", P, 1, "expected a function name after 'def', found '('"},
        {"def f(self a):\n    pass\n", P, 1, "expected ',' or ')' in the parameter list, found name 'a'"},
        {in_function("for i pl.range(3):\n    pass"), P, 7, "expected 'in' after the loop target"},
        {in_function("if x == :\n    pass"), P, 7, "expected an expression, found ':'"},
        {in_function("x = f(a=1, a=2)"), P, 7, "keyword argument repeated: 'a'"},
        {in_function("x = f(a=1, b)"), P, 7, "positional argument follows keyword argument"},
        {in_function("x = 1 +\ny = 2"), P, 7, "expected an expression, found end of line"},
        {in_function("f() = 1"), P, 7, "cannot assign to a function call"},
        {in_function("1 = x"), P, 7, "cannot assign to a literal"},
        {in_function("x = 08"), P, 7, "leading zeros"},
        {in_function("x = pl.if"), P, 7, "expected an attribute name after '.', found keyword 'if'"},
        {"import\n", P, 1, "expected a module name after 'import', found end of line"},
        {"x = (1, 2\n", P, 1, "'(' was never closed"},
        {in_function("x = 'a' 'b"), P, 7, "unterminated string literal"},
        {in_function("x = 1abc"), P, 7, "invalid decimal literal"},
        {in_function("x = 1\ry = 2"), P, 7, "control character"},
        {in_function("x = t[]"), P, 7, "expected an index, found ']'"},
        {"def f(self, x=1, y):\n    pass\n", P, 1, "parameter without a default"},
        {in_function("x: = 1"), P, 7, "expected an expression, found '='"},
        {in_function("a, b: int = f()"), P, 7, "only a single target"},
        {in_function("return )"), P, 7, "unmatched ')'"},
        {"return 1\n", P, 1, "'return' outside a function"},
        {"class C:\n    pass\n  x = 1\n", P, 3, "unindent does not match"},
        {"@pl.program\n", P, 1, "expected 'def' or 'class', found end of file"},
        {"x = {1: 2, 3}\n", P, 1, "expected ':' after the dictionary key, found '}'"},
        {"def f(self, self):\n    pass\n", P, 1, "duplicate parameter 'self'"},
        {"if a:\n    pass\nelse\n    pass\n", P, 3, "expected ':', found end of line"},
        {"x = (1 for\n", P, 1, "was never closed"},
        {"x = \\", P, 1, "unexpected end of file after line continuation"},
    });
}

TEST(ParserErrors, UnsupportedConstructsAreNamedAtTheirLocation) {
    const char* U = "E-UNSUPPORTED";
    check_cases({
        {in_function("x = 1\ny = lambda v: v"), U, 8, "lambda"},
        {in_function("while a:\n    pass"), U, 7, "'while' loops"},
        {in_function("with pl.scope(), pl.scope():\n    pass"), U, 7, "several context managers"},
        {in_function("try:\n    pass\nexcept E:\n    pass"), U, 7, "'try'"},
        {in_function("raise E"), U, 7, "'raise'"},
        {in_function("global g"), U, 7, "'global'"},
        {in_function("nonlocal g"), U, 7, "'nonlocal'"},
        {in_function("del a"), U, 7, "'del'"},
        {in_function("assert a"), U, 7, "'assert'"},
        {in_function("for i in pl.range(2):\n    break"), U, 8, "'break'"},
        {in_function("for i in pl.range(2):\n    continue"), U, 8, "'continue'"},
        {in_function("x = yield a"), U, 7, "'yield'"},
        {in_function("yield a"), U, 7, "'yield'"},
        {in_function("x = await a"), U, 7, "'await'"},
        {"class C:\n    async def f(self):\n        pass\n", U, 2, "'async'"},
        {in_function("x = 1\nx += 1"), U, 8, "augmented assignment ('+=')"},
        {in_function("x = [y := 1]"), U, 7, "assignment expressions (':=')"},
        {in_function("x = [i for i in a]"), U, 7, "list comprehensions"},
        {in_function("x = f(i for i in a)"), U, 7, "generator expressions"},
        {in_function("x = (i for i in a)"), U, 7, "generator expressions"},
        {in_function("x = {k: v for k in a}"), U, 7, "dict comprehensions"},
        {in_function("x = {k for k in a}"), U, 7, "set comprehensions"},
        {in_function("x = {1, 2}"), U, 7, "set literals"},
        {in_function("x = a if c else b"), U, 7, "conditional expressions"},
        {in_function("x = f(*a)"), U, 7, "star-args"},
        {in_function("x = f(**k)"), U, 7, "star-args"},
        {in_function("x = [*a]"), U, 7, "starred expressions"},
        {in_function("x = f'{a}'"), U, 7, "f-strings"},
        {"class C(Base):\n    pass\n", U, 1, "base classes"},
        {in_function("def g(self):\n    pass"), U, 7, "nested function definitions"},
        {in_function("class D:\n    pass"), U, 7, "class definitions inside a function"},
        {"@pl.program\nx = 1\n", U, 2, "decorators are only supported on 'def' and 'class'"},
        {in_function("x = 0 < a < 4"), U, 7, "chained comparisons"},
        {in_function("x = t[0:8:2]"), U, 7, "slice steps"},
        {in_function("x = y = 1"), U, 7, "chained assignment"},
        {in_function("for i in pl.range(2):\n    pass\nelse:\n    pass"), U, 9, "'for ... else'"},
        {"from . import x\n", U, 1, "relative imports"},
        {"from a import *\n", U, 1, "star imports"},
        {"import a, b\n", U, 1, "several modules"},
        {"from a import b, c\n", U, 1, "several names"},
        {in_function("x: pl.INDEX"), U, 7, "annotations without a value"},
        {in_function("a[0] = 1"), U, 7, "assignment to a subscript"},
        {in_function("self.x = 1"), U, 7, "assignment to an attribute"},
        {in_function("[a, b] = f()"), U, 7, "list assignment targets"},
        {in_function("x = 1; y = 2"), U, 7, "';'"},
        {"def f(self, *args):\n    pass\n", U, 1, "star parameters"},
        {"def f(self, **kw):\n    pass\n", U, 1, "star parameters"},
        {in_function("x = 2j"), U, 7, "complex"},
        {in_function("x = b'a'"), U, 7, "bytes"},
    });
}

TEST(ParserErrors, ErrorLocationsPointAtTheWrongToken) {
    // `a [0, 0]` is a valid subscript; the first wrong token is `c`.
    Error e = parse_error(in_function("x = pl.load(a [0, 0], b c)"));
    EXPECT_EQ(e.code, "E-PARSE");
    EXPECT_EQ(e.line, 7u);
    EXPECT_EQ(e.col, 33u);
    EXPECT_EQ(e.message, "expected ',' or ')' in the argument list, found name 'c'");
}

TEST(ParserErrors, BracketClosedLaterIsNotBlamed) {
    // The stray token comes first; the bracket on line 2 is closed, so the token is reported.
    Error e = parse_error("x = 1 2\ny = (3,\n     4)\n");
    EXPECT_EQ(e.line, 1u);
    EXPECT_EQ(e.message, "expected end of line after the statement, found number '2'");
    // An unclosed bracket opened after the error is not blamed either.
    e = parse_error("x = 1 2\ny = (3,\n");
    EXPECT_EQ(e.line, 1u);
}

std::string repeat(std::string head, const std::string& part, int n) {
    for (int i = 0; i < n; ++i) head += part;
    return head;
}

TEST(ParserErrors, NestingIsCappedWithoutCrashing) {
    EXPECT_NO_THROW(parse("x = " + std::string(60, '(') + "1" + std::string(60, ')') + "\n"));
    struct Deep {
        std::string text;
        uint32_t line;  // 0: not checked
    };
    std::vector<Deep> deep = {
        {"x = " + std::string(1000, '(') + "1" + std::string(1000, ')') + "\n", 1},
        {"x = " + std::string(3000, '-') + "1\n", 1},
        {repeat("x = ", "not ", 3000) + "a\n", 1},
        {repeat("x = a", " + a", 20000) + "\n", 1},
        {repeat("x = a", ".b", 20000) + "\n", 1},
        {repeat("x = a", "[0]", 20000) + "\n", 1},
        {repeat("x = a", " ** a", 20000) + "\n", 1},
        {repeat("x = f", "()", 20000) + "\n", 1},
        {repeat("if a:\n    pass\n", "elif a:\n    pass\n", 5000), 0},
        {[] {
             std::string s;
             for (int i = 0; i < 150; ++i) s += std::string(size_t(i), ' ') + "if a:\n";
             return s + std::string(150, ' ') + "pass\n";
         }(),
         102},
    };
    for (const Deep& d : deep) {
        Error e = parse_error(d.text);
        EXPECT_EQ(e.code, "E-PARSE") << d.text.substr(0, 40);
        EXPECT_NE(e.message.find("nesting too deep"), std::string::npos) << e.message;
        if (d.line != 0) {
            EXPECT_EQ(e.line, d.line) << d.text.substr(0, 40);
        }
    }
}

// Mutated kernels (deleted, duplicated, swapped and random bytes) must either parse or give one
// diagnostic with a location inside the file: never a crash, a hang or another exception type.
TEST(ParserErrors, MutatedKernelsNeverCrash) {
    std::mt19937 rng(20240611);
    int errors = 0;
    for (const auto& path : python_files(kKernels)) {
        const std::string original = SourceFile::read(path.string())->text();
        for (int round = 0; round < 150; ++round) {
            std::string text = original;
            std::uniform_int_distribution<size_t> pos(0, text.size() - 1);
            switch (round % 5) {
                case 0:
                    text.erase(pos(rng), 1 + rng() % 6);
                    break;
                case 1:
                    text.insert(pos(rng), 1, char(rng() % 256));
                    break;
                case 2:
                    std::swap(text[pos(rng)], text[pos(rng)]);
                    break;
                case 3: {
                    size_t p = pos(rng);
                    text.insert(p, text.substr(pos(rng), 1 + rng() % 20));
                    break;
                }
                default:
                    text[pos(rng)] = "()[]{}:,.=\n \t'\"#\\@*"[rng() % 20];
                    break;
            }
            auto file = src(text);
            try {
                parse_module(file);
            } catch (const CompileError& e) {
                ++errors;
                const Diagnostic& d = e.diag();
                EXPECT_TRUE(d.code == "E-PARSE" || d.code == "E-UNSUPPORTED") << d.code;
                EXPECT_GE(d.loc.line, 1u);
                EXPECT_LE(d.loc.line, file->line_count() + 1);
                EXPECT_GE(d.loc.col, 1u);
                EXPECT_FALSE(d.message.empty());
                EXPECT_FALSE(render_text(d).empty());
            }
        }
    }
    EXPECT_GT(errors, 100);  // the mutations really produce bad input
}

}  // namespace
}  // namespace cvsim
