// Helpers shared by the parser's tests (parser_test.cpp, parser_errors_test.cpp).
#pragma once

#include <algorithm>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/diag.h"
#include "frontend/parser.h"

#ifndef CVSIM_SHARED_DIR
#define CVSIM_SHARED_DIR "/work/shared"
#endif

namespace cvsim::parser_test {

namespace fs = std::filesystem;

inline const fs::path kKernels = fs::path(CVSIM_SHARED_DIR) / "kernels";

inline std::shared_ptr<SourceFile> src(std::string text) {
    return std::make_shared<SourceFile>("t.py", std::move(text));
}

inline ast::Module parse(const std::string& text) {
    return parse_module(src(text));
}

struct Error {
    std::string code;
    uint32_t line = 0;
    uint32_t col = 0;
    std::string message;
};

inline Error parse_error(const std::string& text) {
    auto file = src(text);
    try {
        parse_module(file);
    } catch (const CompileError& e) {
        return {e.diag().code, e.diag().loc.line, e.diag().loc.col, e.diag().message};
    }
    return {"(no error)", 0, 0, ""};
}

// Wraps body lines (8-space indented) in a program; the first body line is line 7 of the file.
inline std::string in_function(const std::string& body) {
    std::string out = "import pypto.language as pl\n\n@pl.program\nclass C:\n    @pl.function\n    def f(self, a):\n";
    std::istringstream lines(body);
    for (std::string line; std::getline(lines, line);) out += (line.empty() ? "" : "        ") + line + "\n";
    return out;
}

inline std::vector<fs::path> python_files(const fs::path& dir) {
    std::vector<fs::path> out;
    for (const auto& entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() == ".py") out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace cvsim::parser_test
