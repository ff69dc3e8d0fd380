// Tokeniser for the Python subset of the PyPTO DSL.
//
// Algorithm: a pull lexer over the raw bytes. Each physical line is validated (UTF-8, no control
// characters) the first time any of its bytes is read, so an invalid byte is reported at its own
// line and column before anything on that line is tokenised. At the start of a logical line (outside
// brackets) the leading spaces are compared with the indentation stack to queue INDENT/DEDENT; blank
// and comment-only lines never reach that comparison. Newlines inside brackets and after `\` are
// skipped. At end of file an open bracket is reported at the bracket itself. Numbers and strings: lexer_literals.cpp.
#include "frontend/lexer.h"

#include <array>
#include <charconv>
#include <cstdio>
#include <limits>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/lexer_internal.h"

namespace cvsim {

using namespace lexchar;

namespace {

constexpr std::array<std::string_view, 35> kKeywords = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};

constexpr std::array<std::string_view, 5> kOps3 = {"**=", "//=", ">>=", "<<=", "..."};
constexpr std::array<std::string_view, 19> kOps2 = {
    "**", "//", "->", "<<", ">>", "<=", ">=", "==", "!=", ":=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@="};
constexpr std::string_view kOps1 = "+-*/%@&|^~<>()[]{},:.;=";

}  // namespace

bool is_python_keyword(std::string_view word) {
    for (auto kw : kKeywords) {
        if (kw == word) return true;
    }
    return false;
}

const char* token_kind_name(TokenKind kind) {
    switch (kind) {
        case TokenKind::Name:
            return "Name";
        case TokenKind::Keyword:
            return "Keyword";
        case TokenKind::Int:
            return "Int";
        case TokenKind::Float:
            return "Float";
        case TokenKind::String:
            return "String";
        case TokenKind::Op:
            return "Op";
        case TokenKind::Newline:
            return "Newline";
        case TokenKind::Indent:
            return "Indent";
        case TokenKind::Dedent:
            return "Dedent";
        case TokenKind::End:
            return "End";
    }
    return "?";
}

std::string describe(const Token& t) {
    switch (t.kind) {
        case TokenKind::Name:
            return "name '" + t.text + "'";
        case TokenKind::Keyword:
            return "keyword '" + t.text + "'";
        case TokenKind::Int:
        case TokenKind::Float:
            return "number '" + t.text + "'";
        case TokenKind::String:
            return "string literal";
        case TokenKind::Op:
            return "'" + t.text + "'";
        case TokenKind::Newline:
            return "end of line";
        case TokenKind::Indent:
            return "unexpected indent";
        case TokenKind::Dedent:
            return "end of the indented block";
        case TokenKind::End:
            return "end of file";
    }
    return "?";
}

Lexer::Lexer(std::shared_ptr<SourceFile> file) : m_file(std::move(file)), m_text(m_file->text()) {
    if (m_text.substr(0, 3) == "\xEF\xBB\xBF") m_pos = m_line_start = 3;  // UTF-8 byte-order mark
    m_last_end = SourceLoc{m_file.get(), 1, 1};
}

char Lexer::at(size_t pos) {
    if (pos >= m_text.size()) return '\0';
    while (pos >= m_valid_end) validate_line();
    return m_text[pos];
}

void Lexer::validate_line() {
    size_t begin = m_valid_end;
    size_t i = begin;
    auto bad = [&](const std::string& message) {
        fail(SourceLoc{m_file.get(), m_valid_line, uint32_t(i - begin + 1)}, message);
    };
    while (i < m_text.size() && m_text[i] != '\n') {
        auto c = (unsigned char)m_text[i];
        if (c >= 0x80) {
            size_t len = utf8_length(m_text, i);
            if (len == 0) bad("invalid UTF-8 byte " + hex_byte(c) + " (the file must be UTF-8 text)");
            i += len;
            continue;
        }
        if (c == '\r' && i + 1 < m_text.size() && m_text[i + 1] == '\n') {
            ++i;
            continue;
        }
        if (c == 0) bad("source contains a null byte (is this a binary file?)");
        if ((c < 0x20 && c != '\t') || c == 0x7f) bad("invalid control character " + hex_byte(c));
        ++i;
    }
    if (i < m_text.size()) {
        ++i;
        ++m_valid_line;
    }
    m_valid_end = i;
}

SourceLoc Lexer::loc_at(size_t pos) const {
    return SourceLoc{m_file.get(), m_line, uint32_t(pos - m_line_start + 1)};
}

void Lexer::fail(const SourceLoc& loc, const std::string& message, uint32_t span, const std::string& code,
                 const std::string& hint) {
    raise(code, loc, message, hint, span);
}

void Lexer::new_line(size_t next_line_start) {
    ++m_line;
    m_line_start = next_line_start;
}

void Lexer::push(TokenKind kind, size_t start, const SourceLoc& loc, size_t end) {
    Token t;
    t.kind = kind;
    t.text = std::string(m_text.substr(start, end - start));
    t.loc = loc;
    t.end = loc_at(end);
    if (t.end.line == loc.line) {
        t.span = uint32_t(end - start);
    } else {
        size_t width = m_file->line_text(loc.line).size();
        t.span = width >= loc.col ? uint32_t(width - loc.col + 1) : 1;
    }
    m_last = kind;
    m_last_end = t.end;
    m_pending.push_back(std::move(t));
}

void Lexer::push_layout(TokenKind kind, const SourceLoc& loc) {
    Token t;
    t.kind = kind;
    t.loc = loc;
    t.end = loc;
    m_last = kind;
    m_pending.push_back(std::move(t));
}

Token Lexer::next() {
    if (m_error) std::rethrow_exception(m_error);
    if (m_pending.empty()) {
        if (m_done) {
            Token t;
            t.loc = t.end = m_last_end;
            return t;
        }
        try {
            scan();
        } catch (...) {
            m_error = std::current_exception();
            throw;
        }
    }
    Token t = std::move(m_pending.front());
    m_pending.pop_front();
    return t;
}

std::optional<Lexer::OpenBracket> Lexer::find_unclosed_bracket() {
    try {
        while (next().kind != TokenKind::End) {
        }
    } catch (const CompileError&) {
        if (m_unclosed_at_eof && !m_brackets.empty()) return m_brackets.back();
    }
    return std::nullopt;
}

void Lexer::scan() {
    for (;;) {
        if (m_at_line_start && m_brackets.empty() && scan_indentation()) return;
        char c = at(m_pos);
        if (c == ' ' || c == '\t' || c == '\r') {
            ++m_pos;
        } else if (c == '#') {
            while (m_pos < m_text.size() && at(m_pos) != '\n') ++m_pos;
        } else if (c == '\\') {
            size_t p = m_pos + 1;
            if (at(p) == '\r') ++p;
            if (at(p) == '\n') {
                m_pos = p + 1;
                new_line(m_pos);
            } else if (p >= m_text.size()) {
                fail(loc_at(m_pos), "unexpected end of file after line continuation character '\\'");
            } else {
                fail(loc_at(m_pos + 1), "unexpected character after line continuation character '\\'", 1, codes::kParse,
                     "a '\\' continues the line only when it is the last character");
            }
        } else if (c == '\n') {
            if (m_brackets.empty()) {
                push_layout(TokenKind::Newline, loc_at(m_pos));
                m_pending.back().span = 1;
                m_at_line_start = true;
            }
            ++m_pos;
            new_line(m_pos);
            if (m_brackets.empty()) return;
        } else if (m_pos >= m_text.size()) {
            scan_end_of_file();
            return;
        } else {
            scan_token();
            return;
        }
    }
}

bool Lexer::scan_indentation() {
    for (;;) {
        size_t p = m_pos;
        size_t first_tab = std::string_view::npos;
        while (at(p) == ' ' || at(p) == '\t') {
            if (at(p) == '\t' && first_tab == std::string_view::npos) first_tab = p;
            ++p;
        }
        if (at(p) == '#') {
            while (p < m_text.size() && at(p) != '\n') ++p;
        }
        if (at(p) == '\r') ++p;
        if (at(p) == '\n') {  // blank or comment-only line: invisible
            m_pos = p + 1;
            new_line(m_pos);
            continue;
        }
        m_at_line_start = false;
        if (p >= m_text.size()) {
            m_pos = p;
            return false;
        }
        if (first_tab != std::string_view::npos) {
            fail(loc_at(first_tab), "tabs are not allowed in indentation", 1, codes::kParse, "indent with spaces");
        }
        m_pos = p;
        auto width = uint32_t(p - m_line_start);
        SourceLoc loc = loc_at(p);
        if (width > m_indents.back()) {
            if (m_indents.size() > kMaxLexNesting) fail(loc, "nesting too deep (more than 100 indented blocks)");
            m_indents.push_back(width);
            push_layout(TokenKind::Indent, loc);
            return true;
        }
        if (width == m_indents.back()) return false;
        while (width < m_indents.back()) {
            m_indents.pop_back();
            push_layout(TokenKind::Dedent, loc);
        }
        if (width != m_indents.back()) {
            m_pending.clear();
            fail(loc, "unindent does not match any outer indentation level", 1, codes::kParse,
                 "indent to the same column as the enclosing block");
        }
        return true;
    }
}

void Lexer::scan_end_of_file() {
    if (!m_brackets.empty()) {
        m_unclosed_at_eof = true;
        const OpenBracket& b = m_brackets.back();
        char close = b.ch == '(' ? ')' : b.ch == '[' ? ']' : '}';
        fail(b.loc, std::string("'") + b.ch + "' was never closed", 1, codes::kParse,
             std::string("add the matching '") + close + "'");
    }
    if (m_last != TokenKind::Newline) push_layout(TokenKind::Newline, m_last_end);
    while (m_indents.size() > 1) {
        m_indents.pop_back();
        push_layout(TokenKind::Dedent, m_last_end);
    }
    push_layout(TokenKind::End, m_last_end);
    m_done = true;
}

void Lexer::scan_token() {
    size_t start = m_pos;
    char c = at(start);
    if (is_ident_start(c)) {
        size_t p = start;
        while (is_ident_char(at(p))) ++p;
        std::string_view word = m_text.substr(start, p - start);
        std::string lower(word.size() <= 2 ? word : "");
        for (char& ch : lower) ch = char(ch | 0x20);
        bool prefix = lower == "r" || lower == "u" || lower == "f" || lower == "b" || lower == "rb" || lower == "br" ||
                      lower == "rf" || lower == "fr";
        if (prefix && (at(p) == '\'' || at(p) == '"')) {
            scan_string(start, p - start);
            return;
        }
        if ((unsigned char)at(p) >= 0x80) {
            fail(loc_at(p), "non-ASCII characters are not allowed in names", 1, codes::kUnsupported);
        }
        m_pos = p;
        push(is_python_keyword(word) ? TokenKind::Keyword : TokenKind::Name, start, loc_at(start), p);
        return;
    }
    if (is_digit(c) || (c == '.' && is_digit(at(start + 1)))) {
        scan_number(start);
        return;
    }
    if (c == '\'' || c == '"') {
        scan_string(start, 0);
        return;
    }
    scan_operator(start);
}

void Lexer::scan_operator(size_t start) {
    SourceLoc loc = loc_at(start);
    char c = at(start);
    size_t len = 0;
    char c1 = at(start + 1);
    char c2 = c1 == '\0' ? '\0' : at(start + 2);
    const char three[4] = {c, c1, c2, '\0'};
    for (auto op : kOps3) {
        if (op == std::string_view(three, 3)) len = 3;
    }
    for (auto op : kOps2) {
        if (len == 0 && op == std::string_view(three, 2)) len = 2;
    }
    if (len == 0 && c != '\0' && kOps1.find(c) != std::string_view::npos) len = 1;
    if (len == 0) {
        auto uc = (unsigned char)c;
        if (uc >= 0x80) fail(loc, "non-ASCII character outside a string or comment", 1, codes::kUnsupported);
        if (c == '!') fail(loc, "invalid character '!' (did you mean '!=' or 'not'?)");
        fail(loc, std::string("invalid character '") + c + "'");
    }
    if (c == '(' || c == '[' || c == '{') {
        if (m_brackets.size() >= kMaxLexNesting) fail(loc, "nesting too deep (more than 100 open brackets)");
        m_brackets.push_back(OpenBracket{c, loc});
    } else if (c == ')' || c == ']' || c == '}') {
        if (m_brackets.empty()) fail(loc, std::string("unmatched '") + c + "'");
        const OpenBracket& open = m_brackets.back();
        char want = open.ch == '(' ? ')' : open.ch == '[' ? ']' : '}';
        if (c != want) {
            std::string where = open.loc.line == loc.line ? "" : " on line " + std::to_string(open.loc.line);
            fail(loc,
                 std::string("closing bracket '") + c + "' does not match opening bracket '" + open.ch + "'" + where, 1,
                 codes::kParse, std::string("expected '") + want + "'");
        }
        m_brackets.pop_back();
    }
    m_pos = start + len;
    push(TokenKind::Op, start, loc, m_pos);
}

std::vector<Token> tokenize(std::shared_ptr<SourceFile> file) {
    Lexer lexer(std::move(file));
    std::vector<Token> tokens;
    do {
        tokens.push_back(lexer.next());
    } while (tokens.back().kind != TokenKind::End);
    return tokens;
}

}  // namespace cvsim
