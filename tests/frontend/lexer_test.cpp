// Tests of the DSL tokeniser: layout tokens, line joining, literals, operators and lexical errors.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "frontend/diag.h"
#include "frontend/lexer.h"

namespace cvsim {
namespace {

std::shared_ptr<SourceFile> src(std::string text) {
    return std::make_shared<SourceFile>("t.py", std::move(text));
}

// Compact rendering of a token stream: names/keywords/ops as written, literals tagged, layout as NL/IN/DE.
std::string render(const std::vector<Token>& tokens) {
    std::string out;
    for (const Token& t : tokens) {
        if (!out.empty()) out += ' ';
        switch (t.kind) {
            case TokenKind::Name:
            case TokenKind::Keyword:
            case TokenKind::Op:
                out += t.text;
                break;
            case TokenKind::Int:
                out += "I:" + std::to_string(t.int_value);
                break;
            case TokenKind::Float:
                out += "F:" + std::to_string(t.float_value);
                break;
            case TokenKind::String:
                out += "S:" + t.str_value;
                break;
            case TokenKind::Newline:
                out += "NL";
                break;
            case TokenKind::Indent:
                out += "IN";
                break;
            case TokenKind::Dedent:
                out += "DE";
                break;
            case TokenKind::End:
                out += "END";
                break;
        }
    }
    return out;
}

std::string lex(const std::string& text) {
    return render(tokenize(src(text)));
}

Diagnostic lex_error(const std::string& text) {
    auto file = src(text);
    try {
        tokenize(file);
    } catch (const CompileError& e) {
        return e.diag();
    }
    ADD_FAILURE() << "no lexical error for: " << text;
    return {};
}

#define EXPECT_LEX_ERROR(text, code_, line_, col_, fragment)                                  \
    do {                                                                                      \
        Diagnostic d_ = lex_error(text);                                                      \
        EXPECT_EQ(d_.code, code_) << d_.message;                                              \
        EXPECT_EQ(d_.loc.line, uint32_t(line_)) << d_.message;                                \
        EXPECT_EQ(d_.loc.col, uint32_t(col_)) << d_.message;                                  \
        EXPECT_NE(d_.message.find(fragment), std::string::npos) << "message: " << d_.message; \
    } while (0)

TEST(Lexer, SimpleStatement) {
    EXPECT_EQ(lex("x = 1\n"), "x = I:1 NL END");
}

TEST(Lexer, EmptyAndCommentOnlyFilesHaveOnlyEnd) {
    EXPECT_EQ(lex(""), "END");
    EXPECT_EQ(lex("\n\n# just a comment\n   \n"), "END");
}

TEST(Lexer, IndentAndSeveralDedentsAtOnce) {
    EXPECT_EQ(lex("if a:\n    b\n    if c:\n        d\ne\n"), "if a : NL IN b NL if c : NL IN d NL DE DE e NL END");
}

TEST(Lexer, MissingFinalNewlineStillClosesLineAndBlocks) {
    EXPECT_EQ(lex("if a:\n    b"), "if a : NL IN b NL DE END");
}

TEST(Lexer, BlankAndCommentLinesDoNotAffectIndentation) {
    EXPECT_EQ(lex("if a:\n\n    # comment\n  # comment at an odd column\n\t# tab before a comment\n    b  # "
                  "trailing\n\n"),
              "if a : NL IN b NL DE END");
}

TEST(Lexer, NewlinesAndCommentsInsideBracketsAreJoined) {
    EXPECT_EQ(lex("f(a,\n  b,  # comment inside brackets\n      [c,\n{d: e}])\nx\n"),
              "f ( a , b , [ c , { d : e } ] ) NL x NL END");
}

TEST(Lexer, BackslashContinuesTheLogicalLine) {
    EXPECT_EQ(lex("x = 1 + \\\n        2\ny\n"), "x = I:1 + I:2 NL y NL END");
}

TEST(Lexer, CrLfLineEndingsBehaveLikeLf) {
    EXPECT_EQ(lex("if a:\r\n    b = 'x'\r\n\r\nc\r\n"), lex("if a:\n    b = 'x'\n\nc\n"));
}

TEST(Lexer, ByteOrderMarkIsSkipped) {
    EXPECT_EQ(lex("\xEF\xBB\xBFx = 1\n"), "x = I:1 NL END");
}

TEST(Lexer, IntegerLiterals) {
    auto tokens = tokenize(src("0 16 0x1F 0X_ff 0o17 0b101 1_000_000 00 9223372036854775807"));
    std::vector<int64_t> want = {0, 16, 31, 255, 15, 5, 1000000, 0, 9223372036854775807};
    ASSERT_EQ(tokens.size(), want.size() + 2);  // + NL + END
    for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(tokens[i].kind, TokenKind::Int) << i;
        EXPECT_EQ(tokens[i].int_value, want[i]) << tokens[i].text;
    }
    EXPECT_EQ(tokens[2].text, "0x1F");
}

TEST(Lexer, FloatLiterals) {
    auto tokens = tokenize(src("1.0 1e-3 .5 1. 2E+2 1_0.2_5 0.0625"));
    std::vector<double> want = {1.0, 1e-3, 0.5, 1.0, 200.0, 10.25, 0.0625};
    ASSERT_EQ(tokens.size(), want.size() + 2);
    for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(tokens[i].kind, TokenKind::Float) << tokens[i].text;
        EXPECT_DOUBLE_EQ(tokens[i].float_value, want[i]) << tokens[i].text;
    }
}

TEST(Lexer, EllipsisIsNotAFloat) {
    EXPECT_EQ(lex("x[...]"), "x [ ... ] NL END");
}

TEST(Lexer, StringLiteralsAndEscapes) {
    auto tokens = tokenize(src(R"(a = 'it\'s' "say \"hi\"" 'tab\there' '\x41\101\u00e9' r'raw\n' "back\\slash" '\q')"));
    ASSERT_GE(tokens.size(), 9u);
    EXPECT_EQ(tokens[2].str_value, "it's");
    EXPECT_EQ(tokens[3].str_value, "say \"hi\"");
    EXPECT_EQ(tokens[4].str_value, "tab\there");
    EXPECT_EQ(tokens[5].str_value, "AA\xC3\xA9");
    EXPECT_EQ(tokens[6].str_value, "raw\\n");
    EXPECT_EQ(tokens[7].str_value, "back\\slash");
    EXPECT_EQ(tokens[8].str_value, "\\q");  // unknown escapes are kept, as Python does
}

TEST(Lexer, OnlyPythonStringPrefixesStartAString) {
    EXPECT_EQ(lex("u'a' R'\\d' uu'x' ab\"y\""), "S:a S:\\d uu S:x ab S:y NL END");
}

TEST(Lexer, TripleQuotedStringSpansLinesAndKeepsLineNumbers) {
    auto tokens = tokenize(src("\"\"\"Doc\nstring with 'quotes' and \"\" inside\n\"\"\"\nx = 1\n"));
    ASSERT_EQ(tokens[0].kind, TokenKind::String);
    EXPECT_EQ(tokens[0].str_value, "Doc\nstring with 'quotes' and \"\" inside\n");
    EXPECT_EQ(tokens[0].loc.line, 1u);
    EXPECT_EQ(tokens[0].end.line, 3u);
    EXPECT_EQ(tokens[2].text, "x");
    EXPECT_EQ(tokens[2].loc.line, 4u);
}

TEST(Lexer, OperatorsUseLongestMatch) {
    EXPECT_EQ(lex("a**b//c->d<<e>>f<=g>=h==i!=j@k%l&m|n^o~p"),
              "a ** b // c -> d << e >> f <= g >= h == i != j @ k % l & m | n ^ o ~ p NL END");
    EXPECT_EQ(lex("x += 1; y := 2"), "x += I:1 ; y := I:2 NL END");
}

TEST(Lexer, KeywordsAndNames) {
    auto tokens = tokenize(src("True None and yield_ pl.yield_ match for"));
    EXPECT_EQ(tokens[0].kind, TokenKind::Keyword);
    EXPECT_EQ(tokens[1].kind, TokenKind::Keyword);
    EXPECT_EQ(tokens[2].kind, TokenKind::Keyword);
    EXPECT_EQ(tokens[3].kind, TokenKind::Name);
    EXPECT_EQ(tokens[6].kind, TokenKind::Name);
    EXPECT_EQ(tokens[7].kind, TokenKind::Name);  // soft keyword: an ordinary name
    EXPECT_EQ(tokens[8].kind, TokenKind::Keyword);
}

TEST(Lexer, LocationsAndSpans) {
    auto tokens = tokenize(src("def f(xy):\n    return xy + 10\n"));
    // def f ( xy ) : NL IN return xy + 10 NL DE END
    EXPECT_EQ(tokens[3].text, "xy");
    EXPECT_EQ(tokens[3].loc.line, 1u);
    EXPECT_EQ(tokens[3].loc.col, 7u);
    EXPECT_EQ(tokens[3].span, 2u);
    EXPECT_EQ(tokens[7].kind, TokenKind::Indent);
    EXPECT_EQ(tokens[7].loc.line, 2u);
    EXPECT_EQ(tokens[7].loc.col, 5u);
    EXPECT_EQ(tokens[11].text, "10");
    EXPECT_EQ(tokens[11].loc.col, 17u);
    EXPECT_EQ(tokens[11].span, 2u);
}

TEST(Lexer, TokensBeforeAnErrorAreDelivered) {
    Lexer lexer(src("a\n$\n"));
    EXPECT_EQ(lexer.next().text, "a");
    EXPECT_EQ(lexer.next().kind, TokenKind::Newline);
    EXPECT_THROW(lexer.next(), CompileError);
    EXPECT_THROW(lexer.next(), CompileError);  // the error is sticky, never a garbage token
}

TEST(Lexer, EndRepeatsForever) {
    Lexer lexer(src("x"));
    for (int i = 0; i < 3; ++i) lexer.next();
    EXPECT_EQ(lexer.next().kind, TokenKind::End);
    EXPECT_EQ(lexer.next().kind, TokenKind::End);
}

TEST(Lexer, BracketNestingLimit) {
    EXPECT_NO_THROW(tokenize(src(std::string(100, '(') + std::string(100, ')'))));
    EXPECT_LEX_ERROR(std::string(101, '['), "E-PARSE", 1, 101, "nesting too deep");
}

TEST(Lexer, IndentationErrors) {
    EXPECT_LEX_ERROR("if a:\n\tb\n", "E-PARSE", 2, 1, "tabs are not allowed in indentation");
    EXPECT_LEX_ERROR("if a:\n    b\n  c\n", "E-PARSE", 3, 3, "unindent does not match any outer indentation level");
    EXPECT_NO_THROW(tokenize(src("x = 1\t# tabs between tokens are fine\n")));
}

TEST(Lexer, UnterminatedStringsPointAtTheOpeningQuote) {
    EXPECT_LEX_ERROR("x = 'abc\ny = 2\n", "E-PARSE", 1, 5, "unterminated string literal");
    EXPECT_LEX_ERROR("a = 1\nx = \"\"\"abc\n\nmore\n", "E-PARSE", 2, 5, "unterminated triple-quoted string");
    EXPECT_LEX_ERROR("x = 'abc\\", "E-PARSE", 1, 5, "unterminated");
}

TEST(Lexer, InvalidCharacters) {
    EXPECT_LEX_ERROR("x = a $ b\n", "E-PARSE", 1, 7, "invalid character '$'");
    EXPECT_LEX_ERROR("x = a ? b\n", "E-PARSE", 1, 7, "invalid character '?'");
    EXPECT_LEX_ERROR("x = !a\n", "E-PARSE", 1, 5, "'!'");
    EXPECT_LEX_ERROR("x = 1 \\ y\n", "E-PARSE", 1, 8, "after line continuation");
    EXPECT_LEX_ERROR("x = caf\xC3\xA9\n", "E-UNSUPPORTED", 1, 8, "non-ASCII");
}

TEST(Lexer, BinaryInputIsRejectedAtTheOffendingByte) {
    EXPECT_LEX_ERROR(std::string("x = 1\n# caf\xE9\n", 13), "E-PARSE", 2, 6, "invalid UTF-8 byte 0xe9");
    EXPECT_LEX_ERROR(std::string("ab\0cd", 5), "E-PARSE", 1, 3, "null byte");
    EXPECT_LEX_ERROR("x = 1\ny = \x01\n", "E-PARSE", 2, 5, "control character 0x01");
    EXPECT_LEX_ERROR("x = 1\ry = 2\n", "E-PARSE", 1, 6, "control character 0x0d");
    EXPECT_LEX_ERROR("s = '\xED\xA0\x80'\n", "E-PARSE", 1, 6, "invalid UTF-8");  // encoded surrogate
    EXPECT_LEX_ERROR("s = '\xC3'\n", "E-PARSE", 1, 6, "invalid UTF-8");          // truncated sequence
}

TEST(Lexer, BracketErrors) {
    EXPECT_LEX_ERROR("x = (1,\n [2,\n", "E-PARSE", 2, 2, "'[' was never closed");
    EXPECT_LEX_ERROR("x = [1, 2)\n", "E-PARSE", 1, 10, "does not match opening bracket '['");
    EXPECT_LEX_ERROR("x = 1)\n", "E-PARSE", 1, 6, "unmatched ')'");
}

TEST(Lexer, NumberErrors) {
    EXPECT_LEX_ERROR("x = 007\n", "E-PARSE", 1, 5, "leading zeros");
    EXPECT_LEX_ERROR("x = 0xg\n", "E-PARSE", 1, 5, "invalid hexadecimal literal");
    EXPECT_LEX_ERROR("x = 0b12\n", "E-PARSE", 1, 8, "invalid digit '2' in binary literal");
    EXPECT_LEX_ERROR("x = 1e\n", "E-PARSE", 1, 5, "invalid decimal literal");
    EXPECT_LEX_ERROR("x = 1abc\n", "E-PARSE", 1, 5, "invalid decimal literal");
    EXPECT_LEX_ERROR("x = 1__0\n", "E-PARSE", 1, 5, "invalid decimal literal");
    EXPECT_LEX_ERROR("x = 99999999999999999999\n", "E-UNSUPPORTED", 1, 5, "64 bits");
    EXPECT_LEX_ERROR("x = 1e999\n", "E-UNSUPPORTED", 1, 5, "too large");
    EXPECT_LEX_ERROR("x = 3j\n", "E-UNSUPPORTED", 1, 5, "complex");
}

TEST(Lexer, UnsupportedStringForms) {
    EXPECT_LEX_ERROR("x = f'{a}'\n", "E-UNSUPPORTED", 1, 5, "f-strings");
    EXPECT_LEX_ERROR("x = b'ab'\n", "E-UNSUPPORTED", 1, 5, "bytes literals");
    EXPECT_LEX_ERROR("x = '\\N{DASH}'\n", "E-UNSUPPORTED", 1, 6, "named unicode escapes");
    EXPECT_LEX_ERROR("x = '\\x4'\n", "E-PARSE", 1, 6, "truncated \\x escape");
}

TEST(Lexer, DescribeNamesTokensForMessages) {
    auto tokens = tokenize(src("x ** 1 'a' for\n"));
    EXPECT_EQ(describe(tokens[0]), "name 'x'");
    EXPECT_EQ(describe(tokens[1]), "'**'");
    EXPECT_EQ(describe(tokens[2]), "number '1'");
    EXPECT_EQ(describe(tokens[3]), "string literal");
    EXPECT_EQ(describe(tokens[4]), "keyword 'for'");
    EXPECT_EQ(describe(tokens[5]), "end of line");
    EXPECT_EQ(describe(tokens[6]), "end of file");
}

}  // namespace
}  // namespace cvsim
