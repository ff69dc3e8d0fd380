// Tests of the DSL parser: the shared kernels, tree shapes, precedence (bad input: parser_errors_test.cpp).
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
#include "parser_test_util.h"

#ifndef CVSIM_SHARED_DIR
#define CVSIM_SHARED_DIR "/work/shared"
#endif

namespace cvsim {
namespace {

using namespace parser_test;
using ast::ExprKind;
using ast::StmtKind;

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

const ast::Stmt& only_function(const ast::Module& m) {
    for (const auto& s : m.body) {
        if (s->kind == StmtKind::ClassDef) return *s->body.at(0);
    }
    throw std::runtime_error("no class");
}

// ---- the shared kernels --------------------------------------------------------------------------

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

}  // namespace
}  // namespace cvsim
