// Helpers for frontend tests: parse text or a shared kernel, catch the diagnostic.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "frontend/diag.h"
#include "frontend/ir/ir.h"
#include "frontend/sema.h"
#include "test_support.h"

namespace cvsim::test {

inline std::shared_ptr<ir::Program> parse_text(const std::string& text, const std::string& name = "t.py") {
    return load_program_text(name, text);
}

inline std::shared_ptr<ir::Program> parse_kernel(const std::string& name) {
    return load_program(SourceFile::read(kernel_path(name)));
}

// The diagnostic the text produces, or nullopt when it is accepted.
inline std::optional<Diagnostic> diag_of(const std::string& text) {
    try {
        parse_text(text);
    } catch (const CompileError& e) {
        return e.diag();
    }
    return std::nullopt;
}

// A minimal program around one function body (8-space indented lines).
inline std::string kernel_with(const std::string& params, const std::string& ret, const std::string& body) {
    return "import pypto.language as pl\n\n\n@pl.program\nclass P:\n    @pl.function(type=pl.FunctionType.InCore)\n    "
           "def f(self, " +
           params + ")" + (ret.empty() ? "" : " -> " + ret) + ":\n" + body;
}

}  // namespace cvsim::test
