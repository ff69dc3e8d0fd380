// Tests of the DSL parser: the shared kernels, tree shapes, precedence, and every kind of bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/diag.h"
#include "frontend/parser.h"

#ifndef CVSIM_SHARED_DIR
#define CVSIM_SHARED_DIR "/work/shared"
#endif

namespace cvsim {
namespace {

namespace fs = std::filesystem;
using ast::ExprKind;
using ast::StmtKind;

const fs::path kKernels = fs::path(CVSIM_SHARED_DIR) / "kernels";

std::shared_ptr<SourceFile> src(std::string text) {
    return std::make_shared<SourceFile>("t.py", std::move(text));
}

ast::Module parse(const std::string& text) {
    return parse_module(src(text));
}

// S-expression rendering of an expression, to check tree shapes compactly.
std::string sx(const ast::Expr* e) {
    if (!e) return "_";
    auto list = [](const std::vector<ast::ExprPtr>& v) {
        std::string out;
        for (const auto& x : v) out += " " + sx(x.get());
        return out;
    };
    std::ostringstream os;
    switch (e->kind) {
        case ExprKind::Name:
            return e->name;
        case ExprKind::Int:
            return std::to_string(e->int_value);
        case ExprKind::Float:
            os << e->float_value;
            return os.str();
        case ExprKind::Str:
            return "\"" + e->str_value + "\"";
        case ExprKind::Bool:
            return e->bool_value ? "True" : "False";
        case ExprKind::None:
            return "None";
        case ExprKind::Ellipsis:
            return "...";
        case ExprKind::Attribute:
            return sx(e->children[0].get()) + "." + e->name;
        case ExprKind::Call: {
            std::string out = "(call " + sx(e->children[0].get()) + list(e->args);
            for (const auto& k : e->keywords) out += " " + k.name + "=" + sx(k.value.get());
            return out + ")";
        }
        case ExprKind::Subscript:
            return "(sub " + sx(e->children[0].get()) + list(e->args) + ")";
        case ExprKind::Slice:
            return "(slice " + sx(e->children[0].get()) + " " + sx(e->children[1].get()) + ")";
        case ExprKind::List:
            return "[" + list(e->args) + " ]";
        case ExprKind::Tuple:
            return "(tuple" + list(e->args) + ")";
        case ExprKind::Dict: {
            std::string out = "{";
            for (size_t i = 0; i < e->args.size(); ++i)
                out += " " + sx(e->args[i].get()) + ":" + sx(e->values[i].get());
            return out + " }";
        }
        case ExprKind::UnaryOp:
            return "(" + e->op + " " + sx(e->children[0].get()) + ")";
        case ExprKind::BinOp:
        case ExprKind::Compare:
        case ExprKind::BoolOp:
            return "(" + e->op + " " + sx(e->children[0].get()) + " " + sx(e->children[1].get()) + ")";
    }
    return "?";
}

// Parses `x = <text>` and renders the value.
std::string expr(const std::string& text) {
    auto m = parse("x = " + text + "\n");
    return sx(m.body.at(0)->value.get());
}

struct Error {
    std::string code;
    uint32_t line = 0;
    uint32_t col = 0;
    std::string message;
};

Error parse_error(const std::string& text) {
    auto file = src(text);
    try {
        parse_module(file);
    } catch (const CompileError& e) {
        return {e.diag().code, e.diag().loc.line, e.diag().loc.col, e.diag().message};
    }
    return {"(no error)", 0, 0, ""};
}

// Wraps body lines (8-space indented) in a program; the first body line is line 7 of the file.
std::string in_function(const std::string& body) {
    std::string out = "import pypto.language as pl\n\n@pl.program\nclass C:\n    @pl.function\n    def f(self, a):\n";
    std::istringstream lines(body);
    for (std::string line; std::getline(lines, line);) out += (line.empty() ? "" : "        ") + line + "\n";
    return out;
}

const ast::Stmt& only_function(const ast::Module& m) {
    for (const auto& s : m.body) {
        if (s->kind == StmtKind::ClassDef) return *s->body.at(0);
    }
    throw std::runtime_error("no class");
}

// ---- the shared kernels --------------------------------------------------------------------------

std::vector<fs::path> python_files(const fs::path& dir) {
    std::vector<fs::path> out;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() == ".py") out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

TEST(ParserKernels, EveryKernelParsesIntoADecoratedProgramClass) {
    auto files = python_files(kKernels);
    ASSERT_GE(files.size(), 10u) << kKernels;
    for (const auto& path : files) {
        SCOPED_TRACE(path.string());
        auto file = SourceFile::read(path.string());
        ast::Module m;
        try {
            m = parse_module(file);
        } catch (const CompileError& e) {
            FAIL() << render_text(e.diag());
        }
        int programs = 0;
        for (const auto& s : m.body) {
            if (s->kind != StmtKind::ClassDef) continue;
            ++programs;
            ASSERT_EQ(s->decorators.size(), 1u);
            EXPECT_EQ(s->decorators[0]->dotted(), "pl.program");
            bool has_function = false;
            for (const auto& f : s->body) {
                if (f->kind != StmtKind::FunctionDef) continue;
                has_function = true;
                ASSERT_FALSE(f->decorators.empty());
                const ast::Expr& d = *f->decorators[0];
                EXPECT_EQ(d.kind == ExprKind::Call ? d.children[0]->dotted() : d.dotted(), "pl.function");
                ASSERT_FALSE(f->params.empty());
                EXPECT_EQ(f->params[0].name, "self");
            }
            EXPECT_TRUE(has_function);
        }
        EXPECT_EQ(programs, 1);
    }
}

TEST(ParserKernels, FlashBlockTreeShape) {
    auto m = parse_module(SourceFile::read((kKernels / "flash_block.py").string()));
    ASSERT_EQ(m.body.size(), 6u);  // import, 4 constants, class
    EXPECT_EQ(m.body[0]->kind, StmtKind::Import);
    EXPECT_EQ(m.body[0]->name, "pypto.language");
    EXPECT_EQ(m.body[0]->alias, "pl");
    EXPECT_EQ(m.body[1]->targets[0]->name, "S");
    EXPECT_EQ(m.body[1]->value->int_value, 128);
    const ast::Stmt& cls = *m.body[5];
    EXPECT_EQ(cls.name, "FlashBlock");
    EXPECT_EQ(cls.loc.line, 17u);
    const ast::Stmt& fn = *cls.body[0];
    EXPECT_EQ(fn.kind, StmtKind::FunctionDef);
    EXPECT_EQ(fn.name, "flash");
    EXPECT_EQ(sx(fn.decorators[0].get()), "(call pl.function type=pl.FunctionType.InCore)");
    ASSERT_EQ(fn.params.size(), 5u);
    EXPECT_EQ(fn.params[0].annotation, nullptr);
    EXPECT_EQ(sx(fn.params[1].annotation.get()), "(sub pl.Tensor [ S D ] pl.FP16)");
    EXPECT_EQ(sx(fn.params[2].annotation.get()), "(sub pl.Tensor [ D (* NB BK) ] pl.FP16)");
    EXPECT_EQ(sx(fn.params[4].annotation.get()), "(sub pl.Out (sub pl.Tensor [ S D ] pl.FP32))");
    EXPECT_EQ(fn.params[4].loc.line, 24u);
    EXPECT_EQ(sx(fn.annotation.get()), "(sub pl.Tensor [ S D ] pl.FP32)");

    const ast::Stmt* loop = nullptr;
    for (const auto& s : fn.body) {
        if (s->kind == StmtKind::For) loop = s.get();
    }
    ASSERT_NE(loop, nullptr);
    EXPECT_EQ(loop->loc.line, 39u);
    const ast::Expr& target = *loop->targets[0];
    EXPECT_EQ(sx(&target), "(tuple i (tuple o))");
    EXPECT_FALSE(target.parenthesized);
    EXPECT_TRUE(target.args[1]->parenthesized);  // `(o,)`
    EXPECT_EQ(sx(loop->value.get()), "(call pl.range 1 NB init_values=(tuple o0))");
    EXPECT_EQ(loop->value->keywords[0].loc.line, 39u);
    EXPECT_EQ(loop->body.size(), 12u);
    EXPECT_EQ(sx(loop->body.back()->value.get()), "(call pl.yield_ o_next)");
    EXPECT_EQ(fn.body.back()->kind, StmtKind::Return);
    EXPECT_EQ(sx(fn.body.back()->value.get()), "out");
}

TEST(ParserKernels, BranchKernelHasIfInsideFor) {
    auto m = parse_module(SourceFile::read((kKernels / "v2c_branch.py").string()));
    const ast::Stmt& fn = only_function(m);
    const ast::Stmt& loop = *fn.body.at(0);
    ASSERT_EQ(loop.kind, StmtKind::For);
    const ast::Stmt& branch = *loop.body.at(0);
    ASSERT_EQ(branch.kind, StmtKind::If);
    EXPECT_EQ(sx(branch.value.get()), "(== i 0)");
    EXPECT_EQ(branch.body.size(), 3u);
    EXPECT_TRUE(branch.orelse.empty());
}

TEST(ParserKernels, SemanticBadCasesParse) {
    for (const char* name : {"unknown_op.py", "undefined_name.py", "matmul_shape_mismatch.py", "load_out_of_bounds.py",
                             "ub_overflow.py"}) {
        auto file = SourceFile::read((kKernels / "bad" / name).string());
        try {
            auto m = parse_module(file);
            EXPECT_EQ(only_function(m).name, "broken") << name;
        } catch (const CompileError& e) {
            ADD_FAILURE() << name << ": " << render_text(e.diag());
        }
    }
}

TEST(ParserKernels, SyntaxBadCasesReportCodeAndLine) {
    struct Case {
        const char* file;
        const char* code;
        uint32_t line;
        const char* fragment;
    };
    for (const Case& c :
         {Case{"unclosed_paren.py", "E-PARSE", 8, "'(' was never closed"},
          Case{"bad_indent.py", "E-PARSE", 9, "unexpected indent"},
          Case{"lambda_expr.py", "E-UNSUPPORTED", 9, "lambda"},
          Case{"empty_class.py", "E-PARSE", 5, "expected an indented block after class definition on line 5"},
          Case{"binary_garbage.py", "E-PARSE", 1, "null byte"}}) {
        auto file = SourceFile::read((kKernels / "bad" / c.file).string());
        try {
            parse_module(file);
            ADD_FAILURE() << c.file << " parsed";
        } catch (const CompileError& e) {
            EXPECT_EQ(e.diag().code, c.code) << c.file;
            EXPECT_EQ(e.diag().loc.line, c.line) << c.file;
            EXPECT_NE(e.diag().message.find(c.fragment), std::string::npos) << c.file << ": " << e.diag().message;
            EXPECT_FALSE(render_text(e.diag()).empty());
        }
    }
}

// ---- expressions ---------------------------------------------------------------------------------

TEST(ParserExpr, ArithmeticPrecedenceAndAssociativity) {
    EXPECT_EQ(expr("a + b * c"), "(+ a (* b c))");
    EXPECT_EQ(expr("a - b - c"), "(- (- a b) c)");
    EXPECT_EQ(expr("a // b % c @ d"), "(@ (% (// a b) c) d)");
    EXPECT_EQ(expr("-a ** b"), "(- (** a b))");
    EXPECT_EQ(expr("a ** b ** c"), "(** a (** b c))");
    EXPECT_EQ(expr("a ** -b"), "(** a (- b))");
    EXPECT_EQ(expr("~a + +b"), "(+ (~ a) (+ b))");
    EXPECT_EQ(expr("a << 1 + 2"), "(<< a (+ 1 2))");
    EXPECT_EQ(expr("a | b ^ c & d"), "(| a (^ b (& c d)))");
    EXPECT_EQ(expr("(a + b) * c"), "(* (+ a b) c)");
}

TEST(ParserExpr, BooleanAndComparisonPrecedence) {
    EXPECT_EQ(expr("not a == b and c or d"), "(or (and (not (== a b)) c) d)");
    EXPECT_EQ(expr("a < b + 1"), "(< a (+ b 1))");
    EXPECT_EQ(expr("a not in b"), "(not in a b)");
    EXPECT_EQ(expr("a is not None"), "(is not a None)");
    EXPECT_EQ(expr("not not a"), "(not (not a))");
    EXPECT_EQ(expr("a | b == c"), "(== (| a b) c)");
}

TEST(ParserExpr, AtomsAndLiterals) {
    EXPECT_EQ(expr("[1, 2.5, 'a', True, None, ...]"), "[ 1 2.5 \"a\" True None ... ]");
    EXPECT_EQ(expr("()"), "(tuple)");
    EXPECT_EQ(expr("(a,)"), "(tuple a)");
    EXPECT_EQ(expr("(a, b,)"), "(tuple a b)");
    EXPECT_EQ(expr("a, b"), "(tuple a b)");
    EXPECT_EQ(expr("{}"), "{ }");
    EXPECT_EQ(expr("{'split': pl.SplitMode.UP_DOWN, 'slot_num': 4,}"),
              "{ \"split\":pl.SplitMode.UP_DOWN \"slot_num\":4 }");
    EXPECT_EQ(expr("'a' \"b\"\n'''c'''"), "\"ab\"");  // the newline ends the statement
}

TEST(ParserExpr, AdjacentStringsConcatenateInsideBrackets) {
    EXPECT_EQ(expr("('a' \"b\"\n   '''c''')"), "\"abc\"");
}

TEST(ParserExpr, CallsSubscriptsAndSlices) {
    EXPECT_EQ(expr("pl.load(a, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat,)"),
              "(call pl.load a [ 0 0 ] [ 16 16 ] target_memory=pl.MemorySpace.Mat)");
    EXPECT_EQ(expr("f()(1)[2].g"), "(sub (call (call f) 1) 2).g");
    EXPECT_EQ(expr("t[0:16, :]"), "(sub t (slice 0 16) (slice _ _))");
    EXPECT_EQ(expr("t[i, 4:]"), "(sub t i (slice 4 _))");
    EXPECT_EQ(expr("t[:n, ::]"), "(sub t (slice _ n) (slice _ _))");
    EXPECT_EQ(expr("t[(1, 2)]"), "(sub t (tuple 1 2))");
}

TEST(ParserExpr, ParenthesizedFlagLocationsAndSpans) {
    auto m = parse("x = (a)\ny = pl.tile.load(q, [0, 0])\nz = (1,\n     2)\n");
    EXPECT_TRUE(m.body[0]->value->parenthesized);
    EXPECT_EQ(m.body[0]->value->loc.col, 6u);
    const ast::Expr& call = *m.body[1]->value;
    EXPECT_EQ(call.loc.line, 2u);
    EXPECT_EQ(call.loc.col, 5u);
    EXPECT_EQ(call.span, 23u);  // `pl.tile.load(q, [0, 0])`
    EXPECT_EQ(call.children[0]->dotted(), "pl.tile.load");
    EXPECT_EQ(call.children[0]->span, 12u);
    const ast::Expr& tuple = *m.body[2]->value;
    EXPECT_TRUE(tuple.parenthesized);
    EXPECT_EQ(tuple.loc.col, 5u);
    EXPECT_EQ(tuple.span, 3u);  // `(1,`: to the end of its first line
}

TEST(ParserExpr, DottedOnlyForNameChains) {
    auto m = parse("a = pl.Mem.Vec\nb = f().x\nc = x\n");
    EXPECT_EQ(m.body[0]->value->dotted(), "pl.Mem.Vec");
    EXPECT_EQ(m.body[1]->value->dotted(), "");
    EXPECT_EQ(m.body[2]->value->dotted(), "x");
}

// ---- statements ----------------------------------------------------------------------------------

TEST(ParserStmt, AssignmentForms) {
    auto m = parse("a, b = f()\n(c, d) = g()\ne: pl.Scalar[pl.INDEX] = 3\nf_, = h()\n");
    EXPECT_EQ(sx(m.body[0]->targets[0].get()), "(tuple a b)");
    EXPECT_FALSE(m.body[0]->targets[0]->parenthesized);
    EXPECT_TRUE(m.body[1]->targets[0]->parenthesized);
    EXPECT_EQ(sx(m.body[2]->annotation.get()), "(sub pl.Scalar pl.INDEX)");
    EXPECT_EQ(m.body[2]->targets[0]->name, "e");
    EXPECT_EQ(m.body[2]->value->int_value, 3);
    EXPECT_EQ(sx(m.body[3]->targets[0].get()), "(tuple f_)");
}

TEST(ParserStmt, ImportForms) {
    auto m = parse("import pypto.language as pl\nfrom pypto import language as pl\nimport os\nfrom a.b import (c)\n");
    EXPECT_EQ(m.body[0]->name, "pypto.language");
    EXPECT_EQ(m.body[0]->alias, "pl");
    EXPECT_EQ(m.body[1]->name, "pypto.language");
    EXPECT_EQ(m.body[1]->alias, "pl");
    EXPECT_EQ(m.body[2]->alias, "");
    EXPECT_EQ(m.body[3]->name, "a.b.c");
    EXPECT_EQ(m.body[3]->alias, "c");
}

TEST(ParserStmt, ElifNestsAnIfInTheElseBranch) {
    auto m = parse(in_function("if a:\n    x = 1\nelif b:\n    x = 2\nelif c:\n    pass\nelse:\n    x = 3\n"));
    const ast::Stmt& s = *only_function(m).body[0];
    EXPECT_EQ(sx(s.value.get()), "a");
    ASSERT_EQ(s.orelse.size(), 1u);
    const ast::Stmt& e1 = *s.orelse[0];
    EXPECT_EQ(e1.kind, StmtKind::If);
    EXPECT_EQ(e1.loc.line, 9u);
    EXPECT_EQ(sx(e1.value.get()), "b");
    const ast::Stmt& e2 = *e1.orelse.at(0);
    EXPECT_EQ(sx(e2.value.get()), "c");
    EXPECT_EQ(e2.body[0]->kind, StmtKind::Pass);
    EXPECT_EQ(e2.orelse.at(0)->value->int_value, 3);
}

TEST(ParserStmt, FunctionSignatures) {
    auto m = parse(
        "@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.AIV, attrs={'split': 1})\n"
        "    def k(self, a: pl.Tensor[[16], pl.FP32], n=4,) -> "
        "tuple[pl.Tensor[[16], pl.FP32], pl.Tensor[[16], pl.FP32]]:\n"
        "        return a, a\n");
    const ast::Stmt& fn = only_function(m);
    EXPECT_EQ(fn.loc.line, 4u);
    ASSERT_EQ(fn.params.size(), 3u);
    EXPECT_EQ(fn.params[2].name, "n");
    EXPECT_EQ(fn.params[2].default_value->int_value, 4);
    EXPECT_EQ(fn.params[2].annotation, nullptr);
    EXPECT_EQ(sx(fn.decorators[0].get()), "(call pl.function type=pl.FunctionType.AIV attrs={ \"split\":1 })");
    EXPECT_EQ(sx(fn.annotation.get()), "(sub tuple (sub pl.Tensor [ 16 ] pl.FP32) (sub pl.Tensor [ 16 ] pl.FP32))");
    EXPECT_EQ(sx(fn.body[0]->value.get()), "(tuple a a)");
}

TEST(ParserStmt, DocstringsAreDropped) {
    auto m = parse(
        "\"\"\"Module doc.\"\"\"\n"
        "class P:\n    'only a docstring'\n"
        "def f(self):\n    \"doc\"\n    return 1\n");
    ASSERT_EQ(m.body.size(), 2u);
    ASSERT_EQ(m.body[0]->body.size(), 1u);
    EXPECT_EQ(m.body[0]->body[0]->kind, StmtKind::Pass);  // a block with only a docstring is `pass`
    ASSERT_EQ(m.body[1]->body.size(), 1u);
    EXPECT_EQ(m.body[1]->body[0]->kind, StmtKind::Return);
}

TEST(ParserStmt, SimpleStatementsAfterColonOnTheSameLine) {
    auto m = parse(in_function("for i in pl.range(4): pass\nif i == 0: return a\nreturn\n"));
    const ast::Stmt& fn = only_function(m);
    EXPECT_EQ(fn.body[0]->body[0]->kind, StmtKind::Pass);
    EXPECT_EQ(fn.body[1]->body[0]->kind, StmtKind::Return);
    EXPECT_EQ(fn.body[2]->value, nullptr);
}

TEST(Parser, WithStatementsParseIntoAScopeNodeForSema) {
    // `with pl.scope():` (printed Orchestration code) is parsed; sema decides which scopes it supports.
    auto m = parse(in_function("with pl.scope(mode=pl.ScopeMode.MANUAL):\n    pass\nwith pl.scope() as s: return a\n"));
    const ast::Stmt& fn = only_function(m);
    ASSERT_EQ(fn.body.size(), 2u);
    EXPECT_EQ(fn.body[0]->kind, StmtKind::With);
    EXPECT_EQ(fn.body[0]->value->kind, ExprKind::Call);
    EXPECT_EQ(fn.body[0]->body[0]->kind, StmtKind::Pass);
    EXPECT_TRUE(fn.body[0]->targets.empty());
    ASSERT_EQ(fn.body[1]->targets.size(), 1u);
    EXPECT_EQ(fn.body[1]->targets[0]->name, "s");
    EXPECT_EQ(fn.body[1]->body[0]->kind, StmtKind::Return);
}

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
