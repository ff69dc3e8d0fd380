// Tokeniser, literals: numbers (digits, bases, underscores) and strings (prefixes, escapes); see lexer.cpp.
#include <charconv>
#include <cstdio>
#include <limits>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/lexer.h"
#include "frontend/lexer_internal.h"

namespace cvsim {

using namespace lexchar;

std::string Lexer::scan_digits(size_t& pos, int base, bool allow_leading_underscore) {
    std::string digits;
    for (;;) {
        char c = at(pos);
        if (digit_value(c) < base) {
            digits += c;
            ++pos;
        } else if (c == '_' && digit_value(at(pos + 1)) < base && (allow_leading_underscore || !digits.empty())) {
            ++pos;
        } else {
            return digits;
        }
        allow_leading_underscore = false;
    }
}

void Lexer::scan_number(size_t start) {
    SourceLoc loc = loc_at(start);
    size_t p = start;
    auto invalid = [&](const std::string& what) { fail(loc, "invalid " + what + " literal", uint32_t(p - start + 1)); };
    char c1 = at(start + 1);
    if (at(start) == '0' && (c1 == 'x' || c1 == 'X' || c1 == 'o' || c1 == 'O' || c1 == 'b' || c1 == 'B')) {
        int base = (c1 == 'x' || c1 == 'X') ? 16 : (c1 == 'o' || c1 == 'O') ? 8 : 2;
        const char* name = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
        p += 2;
        std::string digits = scan_digits(p, base, true);
        if (is_digit(at(p))) {
            fail(loc_at(p), std::string("invalid digit '") + at(p) + "' in " + name + " literal");
        }
        if (digits.empty() || is_ident_char(at(p))) invalid(name);
        uint64_t value = 0;
        for (char d : digits) {
            if (value > (uint64_t(std::numeric_limits<int64_t>::max()) - digit_value(d)) / base) {
                fail(loc, "integer literal does not fit in 64 bits", uint32_t(p - start), codes::kUnsupported);
            }
            value = value * base + digit_value(d);
        }
        m_pos = p;
        push(TokenKind::Int, start, loc, p);
        m_pending.back().int_value = int64_t(value);
        return;
    }
    std::string int_part = scan_digits(p, 10, false);
    std::string frac;
    std::string exponent;
    bool is_float = false;
    if (at(p) == '.') {
        is_float = true;
        ++p;
        frac = scan_digits(p, 10, false);
    }
    if (at(p) == 'e' || at(p) == 'E') {
        size_t q = p + 1;
        std::string sign;
        if (at(q) == '+' || at(q) == '-') sign = at(q++);
        if (!is_digit(at(q))) invalid("decimal");
        p = q;
        exponent = "e" + sign + scan_digits(p, 10, false);
        is_float = true;
    }
    if (at(p) == 'j' || at(p) == 'J') {
        fail(loc, "complex number literals are not supported", uint32_t(p - start + 1), codes::kUnsupported);
    }
    if (is_ident_char(at(p))) invalid("decimal");
    m_pos = p;
    if (is_float) {
        std::string text = (int_part.empty() ? "0" : int_part) + "." + (frac.empty() ? "0" : frac) + exponent;
        double value = 0;
        auto res = std::from_chars(text.data(), text.data() + text.size(), value);
        if (res.ec == std::errc::result_out_of_range) {
            if (exponent.size() < 2 || exponent[1] != '-') {
                fail(loc, "float literal is too large", uint32_t(p - start), codes::kUnsupported);
            }
            value = 0;
        }
        push(TokenKind::Float, start, loc, p);
        m_pending.back().float_value = value;
        return;
    }
    if (int_part.size() > 1 && int_part[0] == '0' && int_part.find_first_not_of('0') != std::string::npos) {
        fail(loc, "leading zeros in decimal integer literals are not permitted", uint32_t(p - start), codes::kParse,
             "use an 0o prefix for octal integers");
    }
    int64_t value = 0;
    for (char d : int_part) {
        if (value > (std::numeric_limits<int64_t>::max() - (d - '0')) / 10) {
            fail(loc, "integer literal does not fit in 64 bits", uint32_t(p - start), codes::kUnsupported);
        }
        value = value * 10 + (d - '0');
    }
    push(TokenKind::Int, start, loc, p);
    m_pending.back().int_value = value;
}

uint32_t Lexer::scan_hex_escape(size_t& pos, int digits, size_t backslash) {
    uint32_t value = 0;
    for (int k = 0; k < digits; ++k) {
        int d = digit_value(at(pos));
        if (d >= 16) {
            fail(loc_at(backslash), "truncated \\" + std::string(1, m_text[backslash + 1]) + " escape in string");
        }
        value = value * 16 + uint32_t(d);
        ++pos;
    }
    return value;
}

void Lexer::scan_string(size_t start, size_t prefix_len) {
    SourceLoc loc = loc_at(start);
    std::string_view prefix = m_text.substr(start, prefix_len);
    bool raw = prefix.find_first_of("rR") != std::string_view::npos;
    if (prefix.find_first_of("fF") != std::string_view::npos) {
        fail(loc, "f-strings are not supported", uint32_t(prefix_len + 1), codes::kUnsupported,
             "build the value without string formatting");
    }
    if (prefix.find_first_of("bB") != std::string_view::npos) {
        fail(loc, "bytes literals are not supported", uint32_t(prefix_len + 1), codes::kUnsupported);
    }
    size_t p = start + prefix_len;
    char quote = at(p);
    bool triple = at(p + 1) == quote && at(p + 2) == quote;
    p += triple ? 3 : 1;
    std::string value;
    auto unterminated = [&] {
        fail(loc, triple ? "unterminated triple-quoted string literal" : "unterminated string literal",
             uint32_t(prefix_len + (triple ? 3 : 1)), codes::kParse,
             triple ? "close it with " + std::string(3, quote)
                    : "close it with " + std::string(1, quote) + " on the same line");
    };
    auto line_break = [&](size_t newline_pos) {
        p = newline_pos + 1;
        new_line(p);
    };
    for (;;) {
        if (p >= m_text.size()) unterminated();
        char c = at(p);
        if (c == quote && (!triple || (at(p + 1) == quote && at(p + 2) == quote))) {
            p += triple ? 3 : 1;
            break;
        }
        if (c == '\r') {
            ++p;
        } else if (c == '\n') {
            if (!triple) unterminated();
            value += '\n';
            line_break(p);
        } else if (c != '\\') {
            value += c;
            ++p;
        } else if (raw) {
            value += '\\';
            ++p;
            char e = at(p);
            if (e == '\r') e = at(++p);
            if (e == '\n') {
                value += '\n';
                line_break(p);
            } else if (p < m_text.size()) {
                value += e;
                ++p;
            }
        } else {
            size_t backslash = p;
            char e = at(++p);
            if (p >= m_text.size()) unterminated();
            if (e == '\r') e = at(++p);
            if (e == '\n') {
                line_break(p);
                continue;
            }
            ++p;
            switch (e) {
                case 'n':
                    value += '\n';
                    break;
                case 't':
                    value += '\t';
                    break;
                case 'r':
                    value += '\r';
                    break;
                case 'a':
                    value += '\a';
                    break;
                case 'b':
                    value += '\b';
                    break;
                case 'f':
                    value += '\f';
                    break;
                case 'v':
                    value += '\v';
                    break;
                case '\\':
                case '\'':
                case '"':
                    value += e;
                    break;
                case 'x':
                    append_utf8(value, scan_hex_escape(p, 2, backslash));
                    break;
                case 'u':
                case 'U': {
                    uint32_t cp = scan_hex_escape(p, e == 'u' ? 4 : 8, backslash);
                    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                        fail(loc_at(backslash), "invalid unicode escape in string", uint32_t(p - backslash));
                    }
                    append_utf8(value, cp);
                    break;
                }
                case 'N':
                    fail(loc_at(backslash), "named unicode escapes (\\N{...}) are not supported", 2,
                         codes::kUnsupported);
                default:
                    if (e >= '0' && e <= '7') {
                        uint32_t cp = uint32_t(e - '0');
                        for (int k = 0; k < 2 && at(p) >= '0' && at(p) <= '7'; ++k)
                            cp = cp * 8 + uint32_t(at(p++) - '0');
                        append_utf8(value, cp);
                    } else {
                        value += '\\';  // Python keeps unknown escapes as written
                        --p;
                    }
            }
        }
    }
    m_pos = p;
    push(TokenKind::String, start, loc, p);
    m_pending.back().str_value = std::move(value);
}

}  // namespace cvsim
