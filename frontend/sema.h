// Semantic analysis: syntax tree -> typed IR (name resolution, constant folding, op resolution, type rules).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "frontend/ast.h"
#include "frontend/ir/ir.h"

namespace cvsim {

// Resolves names, folds module constants with Python semantics, resolves op spellings against the
// catalogue and checks every op's type rule. Nested op calls are hoisted into their own assignments
// (fresh names `_<op>`), so every IR statement holds at most one op call. Throws CompileError at the
// first mistake (E-NAME, E-TYPE, E-OOB, E-UNSUPPORTED, E-PARSE for misplaced constructs).
std::shared_ptr<ir::Program> analyze(const ast::Module& module);

struct SemaOptions {
    // --dim NAME=V: binds the module-level symbol NAME = pl.dynamic("...") (by the Python name or the symbol
    // string) to V, which is then folded like a module constant (shapes, bounds, values). A NAME that is no
    // pl.dynamic symbol of the program is E-NAME.
    std::map<std::string, int64_t> dims;
};

std::shared_ptr<ir::Program> analyze(const ast::Module& module, const SemaOptions& opt);

// parse_module + analyze.
std::shared_ptr<ir::Program> load_program(std::shared_ptr<SourceFile> file);
std::shared_ptr<ir::Program> load_program(std::shared_ptr<SourceFile> file, const SemaOptions& opt);
std::shared_ptr<ir::Program> load_program_text(const std::string& path, const std::string& text);

}  // namespace cvsim
