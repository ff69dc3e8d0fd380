// libFuzzer target: bytes -> lexer -> parser -> sema -> printer. Any input must end in a program or in one
// CompileError; an accepted program must print, parse back and print identically. Anything else (a crash,
// another exception, a sanitizer report, a leak, a mismatch) is a bug. Built with -DCVSIM_FUZZ=ON and
// clang only (scripts/fuzz.sh).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "frontend/diag.h"
#include "frontend/printer.h"
#include "frontend/sema.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 64 * 1024) return -1;  // larger inputs only slow the search down
    std::string text(reinterpret_cast<const char*>(data), size);
    std::string once;
    try {
        once = cvsim::print_program(*cvsim::load_program_text("fuzz.py", text));
    } catch (const cvsim::CompileError& e) {
        if (e.diag().code.empty()) std::abort();
        (void)cvsim::render_text(e.diag());
        return 0;
    }
    std::string twice;
    try {
        twice = cvsim::print_program(*cvsim::load_program_text("printed.py", once));
    } catch (const cvsim::CompileError& e) {
        std::fprintf(stderr, "printed program does not parse back:\n%s\n%s", once.c_str(),
                     cvsim::render_text(e.diag()).c_str());
        std::abort();
    }
    if (twice != once) {
        std::fprintf(stderr, "print -> parse -> print differs:\n--- once\n%s--- twice\n%s", once.c_str(),
                     twice.c_str());
        std::abort();
    }
    return 0;
}
