// Syntax tree of the Python subset the PyPTO DSL uses (produced by the parser, consumed by sema).
//
// The tree is deliberately close to Python's own `ast` module, minus everything the DSL does not
// need. Constructs that are valid Python but outside the subset are rejected by the parser with
// E-UNSUPPORTED (lambda, comprehensions, while, ...), so sema only sees the nodes below.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frontend/source.h"

namespace cvsim::ast {

struct Expr;
struct Stmt;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;

enum class ExprKind {
    Name,       // `x`                      -> name
    Int,        // `16`, `0x10`, `1_000`    -> int_value
    Float,      // `1.0`, `1e-3`, `.5`      -> float_value
    Str,        // `'a'`, `"a"` (adjacent literals concatenated) -> str_value
    Bool,       // `True` / `False`         -> bool_value
    None,       // `None`
    Ellipsis,   // `...`
    Attribute,  // `value.name`             -> children[0] = value, name
    Call,       // `f(args, kw=v)`          -> children[0] = callee, args, keywords
    Subscript,  // `value[index]`           -> children[0] = value, args = index elements (a tuple index is
                // flattened)
    Slice,      // `lo:hi` inside a subscript -> children[0]/[1] = lo/hi (nullptr when omitted); a step is
                // E-UNSUPPORTED
    List,       // `[a, b]`                 -> args
    Tuple,      // `(a, b)`, `a, b`         -> args
    Dict,       // `{k: v}`                 -> args = keys, values = values
    BinOp,      // `a + b`                  -> op, children[0], children[1]
    UnaryOp,    // `-a`, `not a`, `~a`, `+a` -> op, children[0]
    Compare,    // `a < b` (not chained)    -> op, children[0], children[1]
    BoolOp,     // `a and b`, `a or b`      -> op, children[0], children[1]
};

// Operator spelled as in Python ("+", "//", "not", "and", "<=", ...).
struct Keyword {
    std::string name;  // keyword name
    SourceLoc loc;     // location of the keyword name
    ExprPtr value;     // the argument
};

struct Expr {
    ExprKind kind = ExprKind::None;
    SourceLoc loc;                  // first character of the expression
    uint32_t span = 1;              // columns covered on the first line (for carets)
    std::string name;               // Name, Attribute member
    std::string op;                 // BinOp/UnaryOp/Compare/BoolOp operator spelling
    int64_t int_value = 0;          // Int
    double float_value = 0;         // Float
    std::string str_value;          // Str
    bool bool_value = false;        // Bool
    bool parenthesized = false;     // written inside parentheses (a tuple `(a,)` vs a bare value)
    std::vector<ExprPtr> children;  // see ExprKind
    std::vector<ExprPtr> args;      // Call positional args, List/Tuple elements, Subscript indices, Dict keys
    std::vector<ExprPtr> values;    // Dict values
    std::vector<Keyword> keywords;  // Call keyword args

    // "pl.tile.load" for a dotted Name/Attribute chain, "" otherwise.
    std::string dotted() const;
};

enum class StmtKind {
    Expr,         // expression statement            -> value
    Assign,       // targets = value / target: annotation = value -> targets, annotation, value
    Return,       // return [value]                  -> value (nullptr, a single expr, or a Tuple)
    For,          // for target in iter: body        -> target, value (= iter), body
    If,           // if test: body else: orelse      -> value (= test), body, orelse
    Pass,         // pass
    FunctionDef,  // def name(params) -> returns: body   (decorators, params)
    ClassDef,     // class name: body                  (decorators)
    Import,       // import pypto.language as pl / from pypto import language as pl -> name = module, alias
    With,         // with value [as targets[0]]: body (one context manager)
};

struct Param {
    std::string name;       // parameter name ("self" included)
    SourceLoc loc;          // location of the name
    ExprPtr annotation;     // nullptr when absent
    ExprPtr default_value;  // nullptr when absent (defaults are E-UNSUPPORTED in sema)
};

struct Stmt {
    StmtKind kind = StmtKind::Pass;
    SourceLoc loc;                    // first character of the statement
    std::string name;                 // FunctionDef/ClassDef name, Import module
    std::string alias;                // Import `as` name
    std::vector<ExprPtr> targets;     // Assign targets (a Name, or a Tuple of Names); For target in targets[0]
    ExprPtr annotation;               // Assign annotation; FunctionDef return annotation
    ExprPtr value;                    // Assign value, Expr value, Return value, For iter, If test
    std::vector<StmtPtr> body;        // For/If/FunctionDef/ClassDef body
    std::vector<StmtPtr> orelse;      // If else-branch (an `elif` is a nested If here)
    std::vector<ExprPtr> decorators;  // FunctionDef/ClassDef decorators (the expression after '@')
    std::vector<Param> params;        // FunctionDef parameters
};

struct Module {
    std::shared_ptr<SourceFile> source;  // the file the module was parsed from
    std::vector<StmtPtr> body;           // top-level statements
};

}  // namespace cvsim::ast
