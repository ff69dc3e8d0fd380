// Semantic analysis: syntax tree -> typed IR (name resolution, constant folding, op resolution, type rules).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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
    // A symbol --dim does not bind takes this value (kDefaultDim for the commands; unset: it stays symbolic
    // and a use where a number is needed is E-UNSUPPORTED). The names that took it are appended to
    // `defaulted` when given, with the value each took, so the commands can say which sizes a verdict is about.
    // A symbol along which the program reads or writes a window larger than dim_default takes the smallest
    // size those windows need instead (sema_dims.cpp): a made-up size that makes the program invalid helps nobody.
    std::optional<int64_t> dim_default;
    std::vector<std::pair<std::string, int64_t>>* defaulted = nullptr;
    // The pl.dynamic symbols --dim does not bind and the program's own shapes do (an actual argument, a
    // returned tensor, an alias), with the value: appended when given (the commands print a note for each).
    std::vector<std::pair<std::string, int64_t>>* inferred = nullptr;
    // The per-call copies of a kernel called at other sizes than the program's binding (sema_dims.cpp), one
    // line each: appended when given (the commands print a note for each).
    std::vector<std::string>* specialised = nullptr;
    // An E-UNSUPPORTED while reading one function's body or signature is kept on that function
    // (ir::Function::unread) instead of thrown: the commands set it (frontend/launch.h refuse_unread raises it
    // for a launch that reaches the function). Unset: the first one is thrown, as any other error.
    bool keep_unread = false;
    // load_program may return the program an earlier load of the same file with the same dims, default and
    // keep_unread returned (and append the same notes): the commands' sessions, which never change a program they
    // read (a whole-model file is read once per kernel session otherwise). Unset: a program of the caller's own.
    bool reuse = false;
};

// The size cvsim gives a pl.dynamic symbol that no --dim binds (docs/DECISIONS.md, Frontend).
constexpr int64_t kDefaultDim = 128;
// The note the commands print for each defaulted symbol.
std::string defaulted_dim_note(const std::string& name, int64_t value);
std::string inferred_dim_note(const std::string& name, int64_t value);

std::shared_ptr<ir::Program> analyze(const ast::Module& module, const SemaOptions& opt);

// parse_module + analyze.
std::shared_ptr<ir::Program> load_program(std::shared_ptr<SourceFile> file);
std::shared_ptr<ir::Program> load_program(std::shared_ptr<SourceFile> file, const SemaOptions& opt);
std::shared_ptr<ir::Program> load_program_text(const std::string& path, const std::string& text);

}  // namespace cvsim
