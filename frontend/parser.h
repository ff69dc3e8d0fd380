// Recursive-descent parser: PyPTO DSL source text -> ast::Module.
//
// Accepts the Python subset described in docs/DSL.md. Syntax errors are E-PARSE (saying what was
// expected and what was found); valid Python outside the subset is E-UNSUPPORTED naming the
// construct. Docstrings (bare string statements) are dropped. Nesting of brackets, blocks and
// expressions is capped so that arbitrary input cannot exhaust the stack.
#pragma once

#include <memory>

#include "frontend/ast.h"
#include "frontend/source.h"

namespace cvsim {

// Maximum depth of the syntax tree of one expression ("nesting too deep" beyond it).
inline constexpr uint32_t kMaxExprDepth = 200;

// Parses a whole file. Throws CompileError (frontend/diag.h) at the first error.
ast::Module parse_module(std::shared_ptr<SourceFile> file);

}  // namespace cvsim
