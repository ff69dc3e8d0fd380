// Parser internals shared by parser.cpp (tokens, statements) and parser_expr.cpp (expressions).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "frontend/ast.h"
#include "frontend/lexer.h"
#include "frontend/parser.h"

namespace cvsim::parse_detail {

using ast::ExprKind;
using ast::ExprPtr;
using ast::StmtKind;
using ast::StmtPtr;

inline constexpr int kMaxDepth = 300;  // recursion budget (each open bracket costs one or two)

// Binary operator levels from loosest to tightest, below comparisons.
inline constexpr std::array<std::array<std::string_view, 5>, 6> kBinaryLevels = {
    {{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}}};

inline constexpr std::array<std::string_view, 12> kAugmentedOps = {
    "+=", "-=", "*=", "/=", "//=", "%=", "@=", "&=", "|=", "^=", "<<=", ">>="};

// Keywords that start a construct outside the subset.
struct RejectedKeyword {
    std::string_view keyword;
    const char* message;
    const char* hint;
};
inline constexpr std::array<RejectedKeyword, 13> kRejectedKeywords = {{
    {"while", "'while' loops are not supported", "use 'for i in pl.range(n):'"},
    {"try", "'try' statements are not supported", ""},
    {"async", "'async' functions and statements are not supported", ""},
    {"raise", "'raise' statements are not supported", ""},
    {"global", "'global' statements are not supported", ""},
    {"nonlocal", "'nonlocal' statements are not supported", ""},
    {"del", "'del' statements are not supported", ""},
    {"assert", "'assert' statements are not supported", ""},
    {"break", "'break' is not supported", "loops always run their full trip count"},
    {"continue", "'continue' is not supported", "loops always run their full trip count"},
    {"lambda", "lambda expressions are not supported", "define a function of the program instead"},
    {"yield", "'yield' expressions are not supported", "loop-carried values use 'x = pl.yield_(v)'"},
    {"await", "'await' expressions are not supported", ""},
}};

[[noreturn]] void syntax_error(const SourceLoc& loc, const std::string& message, uint32_t span = 1,
                               const std::string& hint = "");
[[noreturn]] void unsupported(const SourceLoc& loc, const std::string& message, uint32_t span = 1,
                              const std::string& hint = "");
[[noreturn]] void unsupported(const Token& t, const std::string& message, const std::string& hint = "");
[[noreturn]] void unsupported(const ast::Expr& e, const std::string& message, const std::string& hint = "");

class Parser {
  public:
    explicit Parser(std::shared_ptr<SourceFile> file) : m_file(file), m_lex(file) {}

    ast::Module parse();

  private:
    // Counts recursion while alive; "nesting too deep" beyond kMaxDepth.
    struct DepthGuard {
        DepthGuard(int& depth, const SourceLoc& loc) : m_depth(depth) {
            if (++m_depth > kMaxDepth) syntax_error(loc, "nesting too deep", 1, "split it into smaller parts");
        }
        ~DepthGuard() { --m_depth; }
        int& m_depth;  // the parser's recursion counter
    };

    // ---- token stream -------------------------------------------------------------------------

    const Token& peek(size_t k = 0);

    Token take();

    bool at_op(std::string_view op, size_t k = 0) { return peek(k).is_op(op); }
    bool at_kw(std::string_view kw, size_t k = 0) { return peek(k).is_keyword(kw); }
    bool accept_op(std::string_view op) { return at_op(op) && (take(), true); }
    bool accept_kw(std::string_view kw) { return at_kw(kw) && (take(), true); }

    [[noreturn]] void fail_expected(const std::string& what, const Token& found);

    // Raises E-UNSUPPORTED if `t` is a keyword starting a construct outside the subset.
    static void reject_keyword(const Token& t);

    Token expect_op(std::string_view op, const std::string& what);

    Token expect_name(const std::string& what);

    // After an element of a bracketed list: a ',' or the closing bracket must follow.
    void separator(std::string_view close, const std::string& where);

    // ---- node helpers -------------------------------------------------------------------------

    template <class Node = ast::Expr, class Kind>
    static std::unique_ptr<Node> make(Kind kind, const SourceLoc& loc) {
        auto n = std::make_unique<Node>();
        n->kind = kind;
        n->loc = loc;
        return n;
    }
    static StmtPtr make_stmt(StmtKind kind, const SourceLoc& loc) { return make<ast::Stmt>(kind, loc); }

    uint32_t depth_of(const ExprPtr& e) const;

    // Sets the span (up to the last consumed token) and checks the tree depth of a finished node.
    ExprPtr finish(ExprPtr e);

    ExprPtr binary(ExprKind kind, const std::string& op, ExprPtr left, ExprPtr right);

    static bool starts_expression(const Token& t);

    // ---- statements ---------------------------------------------------------------------------

    void parse_statement(std::vector<StmtPtr>& out);

    StmtPtr parse_decorated();

    StmtPtr parse_def(std::vector<ExprPtr> decorators);

    StmtPtr parse_class(std::vector<ExprPtr> decorators);

    // ':' followed by an indented block (or simple statements on the same line).
    std::vector<StmtPtr> parse_block(const std::string& owner, uint32_t owner_line);

    bool accept_newline() { return peek().kind == TokenKind::Newline && (take(), true); }

    StmtPtr parse_if();

    StmtPtr parse_for();

    // `with EXPR [as NAME]:` block (one context manager; sema decides which scopes are supported).
    StmtPtr parse_with();

    ExprPtr parse_target_element();

    // Assignment and loop targets: names and (nested) tuples of names.
    void check_target(const ast::Expr& e);

    void parse_simple_line(std::vector<StmtPtr>& out);

    // One simple statement; nullptr for a docstring.
    StmtPtr parse_simple();

    std::string parse_dotted_name(const std::string& what);

    // `import a.b [as c]`: name = "a.b", alias = "c" (empty without `as`).
    StmtPtr parse_import();

    // `from a import b [as c]`: name = "a.b", alias = "c" (or "b" without `as`).
    StmtPtr parse_from_import();

    StmtPtr parse_expression_statement();

    // ---- expressions --------------------------------------------------------------------------

    // `e` or `e, e, ...` (a Tuple; a trailing comma is allowed).
    ExprPtr parse_exprlist();

    ExprPtr parse_test();

    // `a or b` (is_or) / `a and b`.
    ExprPtr parse_bool(bool is_or);

    ExprPtr parse_not();

    // The comparison operator at the current token ("" if none); consumes nothing.
    std::string comparison_op();

    ExprPtr parse_comparison();

    ExprPtr parse_binary(size_t level);

    ExprPtr parse_unary();

    ExprPtr parse_power();

    ExprPtr parse_primary();

    ExprPtr parse_call(ExprPtr callee);

    ExprPtr parse_subscript(ExprPtr value);

    // `e`, or a slice `lo:hi` with either bound omitted.
    ExprPtr parse_index();

    ExprPtr parse_atom();

    ExprPtr parse_paren();

    ExprPtr parse_list();

    ExprPtr parse_brace();

    std::shared_ptr<SourceFile> m_file;  // the file being parsed
    Lexer m_lex;                         // token source
    std::deque<Token> m_ahead;           // lookahead tokens (peeked, not yet taken)
    bool m_lex_failed = false;           // the error came from the lexer (no unclosed-bracket rescan)
    SourceLoc m_prev_end;                // end of the last consumed real token (for spans)
    int m_depth = 0;                     // current recursion depth (DepthGuard)
    int m_function_depth = 0;            // > 0 inside a function body (nested def is unsupported)
    std::unordered_map<const ast::Expr*, uint32_t> m_expr_depth;  // tree depth of inner nodes (> 1)
};

}  // namespace cvsim::parse_detail
