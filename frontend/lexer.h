// Tokeniser for the Python subset of the PyPTO DSL (indentation, brackets, literals, operators).
//
// Follows Python 3 tokenisation: NEWLINE ends a logical line, INDENT/DEDENT come from leading spaces,
// newlines inside () [] {} and after a `\` are joined, comments and blank lines are invisible.
// Tokens are produced on demand, so the first error in source order is the one reported. Every
// user error is a CompileError (E-PARSE, or E-UNSUPPORTED for f-strings, bytes and complex literals).
#pragma once

#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "frontend/codes.h"
#include "frontend/source.h"

namespace cvsim {

enum class TokenKind {
    Name,     // identifier that is not a keyword
    Keyword,  // Python keyword (`def`, `for`, `True`, ...); text holds the spelling
    Int,      // integer literal -> int_value
    Float,    // float literal -> float_value
    String,   // string literal (one literal, not yet concatenated) -> str_value
    Op,       // operator or delimiter; text holds the spelling ("**", "(", "->", ...)
    Newline,  // end of a logical line
    Indent,   // the line is indented deeper than the enclosing block
    Dedent,   // one indentation level closed
    End,      // end of input (repeated forever once reached)
};

struct Token {
    TokenKind kind = TokenKind::End;
    std::string text;        // source spelling (raw, including quotes for strings); empty for layout tokens
    SourceLoc loc;           // first character
    SourceLoc end;           // position just after the last character
    uint32_t span = 1;       // columns covered on the first line (for carets)
    int64_t int_value = 0;   // Int
    double float_value = 0;  // Float
    std::string str_value;   // String: decoded contents

    bool is_op(std::string_view op) const { return kind == TokenKind::Op && text == op; }
    bool is_keyword(std::string_view kw) const { return kind == TokenKind::Keyword && text == kw; }
};

// Deepest bracket nesting and indentation depth accepted before "nesting too deep".
inline constexpr size_t kMaxLexNesting = 100;

class Lexer {
  public:
    // An opening bracket that has not been closed yet.
    struct OpenBracket {
        char ch = '(';  // '(', '[' or '{'
        SourceLoc loc;  // where it was opened
    };

    explicit Lexer(std::shared_ptr<SourceFile> file);

    // The next token; throws CompileError at the first lexical error (and again on every later call).
    Token next();

    // After a parse error: keeps lexing to the end of the file and returns the innermost bracket
    // that is still open there, if the file ends inside brackets. Never throws.
    std::optional<OpenBracket> find_unclosed_bracket();

    const SourceFile& file() const { return *m_file; }

  private:
    char at(size_t pos);  // byte at pos ('\0' past the end); validates each line before it is read
    void validate_line();
    SourceLoc loc_at(size_t pos) const;  // pos must be on the current line
    [[noreturn]] void fail(const SourceLoc& loc, const std::string& message, uint32_t span = 1,
                           const std::string& code = codes::kParse, const std::string& hint = "");

    void scan();              // appends at least one token to m_pending
    bool scan_indentation();  // at the start of a logical line; true when it queued tokens
    void scan_end_of_file();
    void scan_token();
    void scan_number(size_t start);
    void scan_string(size_t start, size_t prefix_len);
    void scan_operator(size_t start);
    std::string scan_digits(size_t& pos, int base, bool allow_leading_underscore);
    uint32_t scan_hex_escape(size_t& pos, int digits, size_t backslash);
    void new_line(size_t next_line_start);
    void push(TokenKind kind, size_t start, const SourceLoc& loc, size_t end);
    void push_layout(TokenKind kind, const SourceLoc& loc);

    std::shared_ptr<SourceFile> m_file;     // keeps the text alive for the SourceLocs we hand out
    std::string_view m_text;                // the whole input
    size_t m_pos = 0;                       // next byte to read
    uint32_t m_line = 1;                    // line of m_pos
    size_t m_line_start = 0;                // offset of the first byte of m_line
    size_t m_valid_end = 0;                 // bytes before this offset were checked (UTF-8, control chars)
    uint32_t m_valid_line = 1;              // line number of the byte at m_valid_end
    bool m_at_line_start = true;            // the next token starts a logical line (indentation pending)
    std::vector<uint32_t> m_indents{0};     // stack of open indentation widths
    std::vector<OpenBracket> m_brackets;    // stack of open brackets
    std::deque<Token> m_pending;            // tokens scanned but not yet returned
    TokenKind m_last = TokenKind::Newline;  // kind of the last token queued
    SourceLoc m_last_end;                   // end of the last real (non-layout) token
    bool m_done = false;                    // End has been queued
    bool m_unclosed_at_eof = false;         // the error raised was "bracket never closed"
    std::exception_ptr m_error;             // first error, rethrown by later next() calls
};

// All tokens of a file up to and including End; throws CompileError.
std::vector<Token> tokenize(std::shared_ptr<SourceFile> file);

// "name 'x'", "keyword 'for'", "'('", "end of line", ... for "expected X, found Y" messages.
std::string describe(const Token& token);

const char* token_kind_name(TokenKind kind);

bool is_python_keyword(std::string_view word);

}  // namespace cvsim
