// Diagnostics as data: code, location, message, hint; rendered as text with a caret or as JSON.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "frontend/source.h"

namespace cvsim {

enum class Severity { Error, Warning, Note };

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string code;                        // stable code, e.g. "E-PARSE", "E-TYPE", "W-V2C-LAYOUT"
    SourceLoc loc;                           // where the caret points
    uint32_t span = 1;                       // number of columns the caret underlines
    std::string message;                     // one line, no trailing period needed
    std::string hint;                        // optional "hint: ..." line
    std::shared_ptr<const SourceFile> keep;  // keeps loc.file alive after the parse that raised it unwinds
};

// Thrown by the frontend and passes at the first user error: one primary diagnostic per mistake,
// no cascades. Internal invariants use assertions instead.
class CompileError : public std::runtime_error {
  public:
    explicit CompileError(Diagnostic d) : std::runtime_error(d.message), m_diag(std::move(d)) {}
    const Diagnostic& diag() const { return m_diag; }

  private:
    Diagnostic m_diag;  // the diagnostic to render
};

[[noreturn]] void raise(const std::string& code, const SourceLoc& loc, const std::string& message,
                        const std::string& hint = "", uint32_t span = 1);

// "FILE:LINE:COL: error[CODE]: message\n  source line\n  ^~~\nhint: ...\n"
std::string render_text(const Diagnostic& d);
nlohmann::json to_json(const Diagnostic& d);
const char* severity_name(Severity s);

}  // namespace cvsim
