// Semantic analysis: syntax tree -> typed IR (name resolution, constant folding, op resolution, type rules).
#pragma once

#include <memory>

#include "frontend/ast.h"
#include "frontend/ir/ir.h"

namespace cvsim {

// Resolves names, folds module constants with Python semantics, resolves op spellings against the
// catalogue and checks every op's type rule. Nested op calls are hoisted into their own assignments
// (fresh names `_<op>`), so every IR statement holds at most one op call. Throws CompileError at the
// first mistake (E-NAME, E-TYPE, E-OOB, E-UNSUPPORTED, E-PARSE for misplaced constructs).
std::shared_ptr<ir::Program> analyze(const ast::Module& module);

// parse_module + analyze.
std::shared_ptr<ir::Program> load_program(std::shared_ptr<SourceFile> file);
std::shared_ptr<ir::Program> load_program_text(const std::string& path, const std::string& text);

}  // namespace cvsim
