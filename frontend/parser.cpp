// Recursive-descent parser for the PyPTO DSL (Python subset) producing the ast.h tree.
//
// Algorithm: one function per grammar level, pulling tokens from the Lexer through a small lookahead
// queue. Binary operators are parsed by loops (left-associative); only brackets, unary operators,
// `not`, `**` and blocks recurse, and those are counted by DepthGuard. Tree depth is tracked per node
// (m_expr_depth) so that long operator chains cannot build a tree too deep to destroy or walk.
// When the parser fails, the rest of the file is lexed: if a bracket opened before the error is
// still open at end of file, that bracket is the real mistake and is reported instead (as CPython
// does), e.g. a missing ')' that makes the next line look like a stray name.
#include "frontend/parser.h"

#include <algorithm>
#include <array>
#include <deque>
#include <string_view>
#include <unordered_map>

#include "frontend/diag.h"
#include "frontend/lexer.h"

namespace cvsim {
namespace {

using ast::ExprKind;
using ast::ExprPtr;
using ast::StmtKind;
using ast::StmtPtr;

constexpr int kMaxDepth = 300;  // recursion budget (each open bracket costs one or two)

// Binary operator levels from loosest to tightest, below comparisons.
const std::array<std::array<std::string_view, 5>, 6> kBinaryLevels = {
    {{"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "//", "%", "@"}}};

constexpr std::array<std::string_view, 12> kAugmentedOps = {
    "+=", "-=", "*=", "/=", "//=", "%=", "@=", "&=", "|=", "^=", "<<=", ">>="};

// Keywords that start a construct outside the subset.
struct RejectedKeyword {
    std::string_view keyword;
    const char* message;
    const char* hint;
};
constexpr std::array<RejectedKeyword, 14> kRejectedKeywords = {{
    {"while", "'while' loops are not supported", "use 'for i in pl.range(n):'"},
    {"with",
     "'with' statements are not supported (tensor-level scopes such as 'pl.at', 'pl.cluster' and "
     "'pl.spmd' must be outlined before cvsim reads the program)",
     ""},
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
                               const std::string& hint = "") {
    raise("E-PARSE", loc, message, hint, span);
}
[[noreturn]] void unsupported(const SourceLoc& loc, const std::string& message, uint32_t span = 1,
                              const std::string& hint = "") {
    raise("E-UNSUPPORTED", loc, message, hint, span);
}
[[noreturn]] void unsupported(const Token& t, const std::string& message, const std::string& hint = "") {
    unsupported(t.loc, message, t.span, hint);
}
[[noreturn]] void unsupported(const ast::Expr& e, const std::string& message, const std::string& hint = "") {
    unsupported(e.loc, message, e.span, hint);
}

class Parser {
  public:
    explicit Parser(std::shared_ptr<SourceFile> file) : m_file(file), m_lex(file) {}

    ast::Module parse() {
        ast::Module module;
        module.source = m_file;
        try {
            while (peek().kind != TokenKind::End) parse_statement(module.body);
        } catch (const CompileError& e) {
            if (m_lex_failed) throw;
            auto open = m_lex.find_unclosed_bracket();
            if (!open || !loc_before(open->loc, e.diag().loc)) throw;
            char close = open->ch == '(' ? ')' : open->ch == '[' ? ']' : '}';
            syntax_error(open->loc, std::string("'") + open->ch + "' was never closed", 1,
                         std::string("add the matching '") + close +
                             "'; the bracket was still open at line " + std::to_string(e.diag().loc.line));
        }
        return module;
    }

  private:
    // Counts recursion while alive; "nesting too deep" beyond kMaxDepth.
    struct DepthGuard {
        DepthGuard(int& depth, const SourceLoc& loc) : m_depth(depth) {
            if (++m_depth > kMaxDepth)
                syntax_error(loc, "nesting too deep", 1, "split it into smaller parts");
        }
        ~DepthGuard() { --m_depth; }
        int& m_depth;  // the parser's recursion counter
    };

    // ---- token stream -------------------------------------------------------------------------

    const Token& peek(size_t k = 0) {
        while (m_ahead.size() <= k) {
            try {
                m_ahead.push_back(m_lex.next());
            } catch (...) {
                m_lex_failed = true;
                throw;
            }
        }
        return m_ahead[k];
    }

    Token take() {
        peek();
        Token t = std::move(m_ahead.front());
        m_ahead.pop_front();
        if (t.kind != TokenKind::Newline && t.kind != TokenKind::Indent && t.kind != TokenKind::Dedent) {
            m_prev_end = t.end;
        }
        return t;
    }

    bool at_op(std::string_view op, size_t k = 0) { return peek(k).is_op(op); }
    bool at_kw(std::string_view kw, size_t k = 0) { return peek(k).is_keyword(kw); }
    bool accept_op(std::string_view op) { return at_op(op) && (take(), true); }
    bool accept_kw(std::string_view kw) { return at_kw(kw) && (take(), true); }

    [[noreturn]] void fail_expected(const std::string& what, const Token& found) {
        if (found.kind == TokenKind::Indent) syntax_error(found.loc, "unexpected indent");
        syntax_error(found.loc, "expected " + what + ", found " + describe(found), found.span);
    }

    // Raises E-UNSUPPORTED if `t` is a keyword starting a construct outside the subset.
    static void reject_keyword(const Token& t) {
        for (const auto& r : kRejectedKeywords) {
            if (t.is_keyword(r.keyword)) unsupported(t, r.message, r.hint);
        }
    }

    Token expect_op(std::string_view op, const std::string& what) {
        if (!at_op(op)) fail_expected(what, peek());
        return take();
    }

    Token expect_name(const std::string& what) {
        if (peek().kind != TokenKind::Name) fail_expected(what, peek());
        return take();
    }

    // After an element of a bracketed list: a ',' or the closing bracket must follow.
    void separator(std::string_view close, const std::string& where) {
        if (!accept_op(",") && !at_op(close))
            fail_expected("',' or '" + std::string(close) + "' in " + where, peek());
    }

    // ---- node helpers -------------------------------------------------------------------------

    template <class Node = ast::Expr, class Kind>
    static std::unique_ptr<Node> make(Kind kind, const SourceLoc& loc) {
        auto n = std::make_unique<Node>();
        n->kind = kind;
        n->loc = loc;
        return n;
    }
    static StmtPtr make_stmt(StmtKind kind, const SourceLoc& loc) { return make<ast::Stmt>(kind, loc); }

    uint32_t depth_of(const ExprPtr& e) const {
        auto it = e ? m_expr_depth.find(e.get()) : m_expr_depth.end();
        return !e ? 0 : it == m_expr_depth.end() ? 1 : it->second;
    }

    // Sets the span (up to the last consumed token) and checks the tree depth of a finished node.
    ExprPtr finish(ExprPtr e) {
        uint32_t child = 0;
        for (const auto& c : e->children) child = std::max(child, depth_of(c));
        for (const auto& c : e->args) child = std::max(child, depth_of(c));
        for (const auto& c : e->values) child = std::max(child, depth_of(c));
        for (const auto& k : e->keywords) child = std::max(child, depth_of(k.value));
        if (child + 1 > kMaxExprDepth) {
            syntax_error(
                e->loc,
                "nesting too deep (expression tree deeper than " + std::to_string(kMaxExprDepth) + " levels)",
                1, "split the expression with intermediate assignments");
        }
        if (child > 0) m_expr_depth[e.get()] = child + 1;
        if (m_prev_end.line == e->loc.line && m_prev_end.col > e->loc.col) {
            e->span = m_prev_end.col - e->loc.col;
        } else {  // to the end of its first line
            size_t width = m_file->line_text(e->loc.line).size();
            e->span = width >= e->loc.col ? uint32_t(width - e->loc.col + 1) : 1;
        }
        return e;
    }

    ExprPtr binary(ExprKind kind, const std::string& op, ExprPtr left, ExprPtr right) {
        auto n = make(kind, left->loc);
        n->op = op;
        n->children.push_back(std::move(left));
        n->children.push_back(std::move(right));
        return finish(std::move(n));
    }

    static bool starts_expression(const Token& t) {
        static constexpr std::array<std::string_view, 7> kKeywords = {"True",   "False", "None", "not",
                                                                      "lambda", "await", "yield"};
        static constexpr std::array<std::string_view, 8> kOps = {"(", "[", "{", "-", "+", "~", "...", "*"};
        auto in = [&](const auto& set) { return std::find(set.begin(), set.end(), t.text) != set.end(); };
        if (t.kind == TokenKind::Keyword) return in(kKeywords);
        if (t.kind == TokenKind::Op) return in(kOps);
        return t.kind == TokenKind::Name || t.kind == TokenKind::Int || t.kind == TokenKind::Float ||
               t.kind == TokenKind::String;
    }

    // ---- statements ---------------------------------------------------------------------------

    void parse_statement(std::vector<StmtPtr>& out) {
        if (!m_expr_depth.empty()) m_expr_depth = {};  // only nodes of the current statement are looked up
        const Token& t = peek();
        if (t.kind == TokenKind::Indent) fail_expected("a statement", t);
        if (t.is_op("@")) return out.push_back(parse_decorated());
        if (t.is_keyword("def")) return out.push_back(parse_def({}));
        if (t.is_keyword("class")) return out.push_back(parse_class({}));
        if (t.is_keyword("if")) return out.push_back(parse_if());
        if (t.is_keyword("for")) return out.push_back(parse_for());
        for (std::string_view kw : {"else", "elif", "except", "finally"}) {
            if (t.is_keyword(kw)) {
                syntax_error(t.loc,
                             "unexpected '" + t.text + "' (no matching block before it at this indentation)",
                             t.span);
            }
        }
        parse_simple_line(out);
    }

    StmtPtr parse_decorated() {
        std::vector<ExprPtr> decorators;
        while (accept_op("@")) {
            decorators.push_back(parse_test());
            if (peek().kind != TokenKind::Newline) fail_expected("end of line after the decorator", peek());
            take();
        }
        const Token& t = peek();
        if (t.is_keyword("def")) return parse_def(std::move(decorators));
        if (t.is_keyword("class")) return parse_class(std::move(decorators));
        reject_keyword(t);
        if (t.kind == TokenKind::Indent || t.kind == TokenKind::End) fail_expected("'def' or 'class'", t);
        unsupported(t, "decorators are only supported on 'def' and 'class'");
    }

    StmtPtr parse_def(std::vector<ExprPtr> decorators) {
        Token kw = take();
        if (m_function_depth > 0) {
            unsupported(kw, "nested function definitions are not supported",
                        "define it as another function of the program class");
        }
        auto s = make_stmt(StmtKind::FunctionDef, kw.loc);
        s->decorators = std::move(decorators);
        s->name = expect_name("a function name after 'def'").text;
        expect_op("(", "'(' after the function name");
        while (!at_op(")")) {
            const Token& t = peek();
            if (t.is_op("*") || t.is_op("**"))
                unsupported(t, "star parameters ('*args', '**kwargs') are not supported");
            if (t.is_op("/")) unsupported(t, "positional-only parameter marker '/' is not supported");
            Token name = expect_name("a parameter name");
            for (const auto& p : s->params) {
                if (p.name == name.text)
                    syntax_error(name.loc, "duplicate parameter '" + name.text + "'", name.span);
            }
            ast::Param param;
            param.name = name.text;
            param.loc = name.loc;
            if (accept_op(":")) param.annotation = parse_test();
            if (accept_op("=")) {
                param.default_value = parse_test();
            } else if (!s->params.empty() && s->params.back().default_value) {
                syntax_error(name.loc, "parameter without a default follows a parameter with a default",
                             name.span);
            }
            s->params.push_back(std::move(param));
            separator(")", "the parameter list");
        }
        take();
        if (accept_op("->")) s->annotation = parse_test();
        ++m_function_depth;
        s->body = parse_block("function definition", kw.loc.line);
        --m_function_depth;
        return s;
    }

    StmtPtr parse_class(std::vector<ExprPtr> decorators) {
        Token kw = take();
        if (m_function_depth > 0) unsupported(kw, "class definitions inside a function are not supported");
        auto s = make_stmt(StmtKind::ClassDef, kw.loc);
        s->decorators = std::move(decorators);
        s->name = expect_name("a class name after 'class'").text;
        if (accept_op("(") && !accept_op(")")) {
            unsupported(peek(), "class definitions with base classes are not supported",
                        "write 'class " + s->name + ":'");
        }
        s->body = parse_block("class definition", kw.loc.line);
        return s;
    }

    // ':' followed by an indented block (or simple statements on the same line).
    std::vector<StmtPtr> parse_block(const std::string& owner, uint32_t owner_line) {
        expect_op(":", "':'");
        std::vector<StmtPtr> body;
        SourceLoc first = peek().loc;
        if (!accept_newline()) {
            const Token& t = peek();
            for (std::string_view kw : {"def", "class", "if", "for"}) {
                if (t.is_keyword(kw) || t.is_op("@"))
                    fail_expected("a simple statement or a line break after ':'", t);
            }
            parse_simple_line(body);
        } else {
            const Token& t = peek();
            if (t.kind != TokenKind::Indent) {
                syntax_error(
                    t.loc,
                    "expected an indented block after " + owner + " on line " + std::to_string(owner_line),
                    t.span);
            }
            first = t.loc;
            DepthGuard guard(m_depth, t.loc);
            take();
            while (peek().kind != TokenKind::Dedent && peek().kind != TokenKind::End) parse_statement(body);
            if (peek().kind == TokenKind::Dedent) take();
        }
        if (body.empty()) body.push_back(make_stmt(StmtKind::Pass, first));  // the block held only docstrings
        return body;
    }

    bool accept_newline() { return peek().kind == TokenKind::Newline && (take(), true); }

    StmtPtr parse_if() {
        struct Arm {
            SourceLoc loc;
            ExprPtr test;
            std::vector<StmtPtr> body;
        };
        std::vector<Arm> arms;
        for (bool first = true; first || at_kw("elif"); first = false) {
            Token kw = take();
            if (m_depth + int(arms.size()) >= kMaxDepth)
                syntax_error(kw.loc, "nesting too deep (too many 'elif')");
            Arm arm{kw.loc, parse_test(), {}};
            arm.body = parse_block("'" + kw.text + "' statement", kw.loc.line);
            arms.push_back(std::move(arm));
        }
        std::vector<StmtPtr> orelse;
        if (at_kw("else")) {
            uint32_t line = take().loc.line;
            orelse = parse_block("'else' statement", line);
        }
        // An `elif` is an If nested in the else-branch of the previous one; build from the last arm.
        for (size_t i = arms.size(); i-- > 0;) {
            auto s = make_stmt(StmtKind::If, arms[i].loc);
            s->value = std::move(arms[i].test);
            s->body = std::move(arms[i].body);
            s->orelse = std::move(orelse);
            orelse.clear();
            orelse.push_back(std::move(s));
        }
        return std::move(orelse.front());
    }

    StmtPtr parse_for() {
        Token kw = take();
        auto s = make_stmt(StmtKind::For, kw.loc);
        ExprPtr target = parse_target_element();
        if (at_op(",")) {
            auto tuple = make(ExprKind::Tuple, target->loc);
            tuple->args.push_back(std::move(target));
            while (accept_op(",") && !at_kw("in")) tuple->args.push_back(parse_target_element());
            target = finish(std::move(tuple));
        }
        check_target(*target);
        if (!accept_kw("in")) fail_expected("'in' after the loop target", peek());
        s->targets.push_back(std::move(target));
        s->value = parse_exprlist();
        s->body = parse_block("'for' statement", kw.loc.line);
        if (at_kw("else")) unsupported(peek(), "'for ... else' is not supported");
        return s;
    }

    ExprPtr parse_target_element() {
        if (at_op("*")) unsupported(peek(), "starred assignment targets ('*x') are not supported");
        return parse_binary(0);  // stops before `in`
    }

    // Assignment and loop targets: names and (nested) tuples of names.
    void check_target(const ast::Expr& e) {
        if (e.kind == ExprKind::Name) return;
        if (e.kind == ExprKind::Tuple && !e.args.empty()) {
            for (const auto& a : e.args) check_target(*a);
            return;
        }
        if (e.kind == ExprKind::List)
            unsupported(e, "list assignment targets are not supported", "use a tuple");
        if (e.kind == ExprKind::Attribute) unsupported(e, "assignment to an attribute is not supported");
        if (e.kind == ExprKind::Subscript) {
            unsupported(e, "assignment to a subscript is not supported", "tensors are written with pl.store");
        }
        bool literal = e.kind >= ExprKind::Int && e.kind <= ExprKind::Ellipsis;
        std::string what = e.kind == ExprKind::Call    ? "a function call"
                           : e.kind == ExprKind::Tuple ? "()"
                           : literal                   ? "a literal"
                                                       : "an expression";
        syntax_error(e.loc, "cannot assign to " + what, e.span, literal ? "" : "did you mean '=='?");
    }

    void parse_simple_line(std::vector<StmtPtr>& out) {
        StmtPtr s = parse_simple();
        if (at_op(";")) {
            unsupported(peek(), "several statements on one line (';') are not supported",
                        "one statement per line");
        }
        if (!accept_newline()) fail_expected("end of line after the statement", peek());
        if (s) out.push_back(std::move(s));
    }

    // One simple statement; nullptr for a docstring.
    StmtPtr parse_simple() {
        const Token& t = peek();
        reject_keyword(t);
        if (t.is_keyword("pass")) return make_stmt(StmtKind::Pass, take().loc);
        if (t.is_keyword("import")) return parse_import();
        if (t.is_keyword("from")) return parse_from_import();
        if (t.is_keyword("return")) {
            Token kw = take();
            if (m_function_depth == 0) syntax_error(kw.loc, "'return' outside a function", kw.span);
            auto s = make_stmt(StmtKind::Return, kw.loc);
            if (starts_expression(peek())) s->value = parse_exprlist();
            return s;
        }
        return parse_expression_statement();
    }

    std::string parse_dotted_name(const std::string& what) {
        std::string name = expect_name(what).text;
        while (accept_op(".")) name += "." + expect_name("a name after '.'").text;
        return name;
    }

    // `import a.b [as c]`: name = "a.b", alias = "c" (empty without `as`).
    StmtPtr parse_import() {
        auto s = make_stmt(StmtKind::Import, take().loc);
        s->name = parse_dotted_name("a module name after 'import'");
        if (accept_kw("as")) s->alias = expect_name("a name after 'as'").text;
        if (at_op(",")) unsupported(peek(), "importing several modules in one statement is not supported");
        return s;
    }

    // `from a import b [as c]`: name = "a.b", alias = "c" (or "b" without `as`).
    StmtPtr parse_from_import() {
        auto s = make_stmt(StmtKind::Import, take().loc);
        if (at_op(".") || at_op("...")) unsupported(peek(), "relative imports are not supported");
        std::string module = parse_dotted_name("a module name after 'from'");
        if (!accept_kw("import")) fail_expected("'import'", peek());
        bool paren = accept_op("(");
        if (at_op("*")) unsupported(peek(), "star imports ('from m import *') are not supported");
        s->alias = expect_name("a name to import").text;
        s->name = module + "." + s->alias;
        if (accept_kw("as")) s->alias = expect_name("a name after 'as'").text;
        if (at_op(",") && !(paren && at_op(")", 1))) {
            unsupported(peek(), "importing several names in one statement is not supported");
        }
        if (paren) {
            accept_op(",");
            expect_op(")", "')'");
        }
        return s;
    }

    StmtPtr parse_expression_statement() {
        SourceLoc loc = peek().loc;
        ExprPtr first = parse_exprlist();
        bool annotated = at_op(":");
        if (annotated || at_op("=")) {
            if (annotated && first->kind == ExprKind::Tuple) {
                syntax_error(first->loc, "only a single target (not a tuple) can be annotated", first->span);
            }
            check_target(*first);
            take();
            auto s = make_stmt(StmtKind::Assign, loc);
            if (annotated) {
                s->annotation = parse_test();
                if (!accept_op("=")) {
                    unsupported(*first, "annotations without a value ('x: T') are not supported",
                                "write 'x: T = v'");
                }
            }
            s->targets.push_back(std::move(first));
            s->value = parse_exprlist();
            if (at_op("=")) unsupported(peek(), "chained assignment ('a = b = ...') is not supported");
            return s;
        }
        const Token& t = peek();
        if (t.kind == TokenKind::Op &&
            std::find(kAugmentedOps.begin(), kAugmentedOps.end(), t.text) != kAugmentedOps.end()) {
            unsupported(t, "augmented assignment ('" + t.text + "') is not supported",
                        "write 'x = x " + t.text.substr(0, t.text.size() - 1) + " ...'");
        }
        if (first->kind == ExprKind::Str) return nullptr;  // docstring
        auto s = make_stmt(StmtKind::Expr, loc);
        s->value = std::move(first);
        return s;
    }

    // ---- expressions --------------------------------------------------------------------------

    // `e` or `e, e, ...` (a Tuple; a trailing comma is allowed).
    ExprPtr parse_exprlist() {
        ExprPtr first = parse_test();
        if (!at_op(",")) return first;
        auto tuple = make(ExprKind::Tuple, first->loc);
        tuple->args.push_back(std::move(first));
        while (accept_op(",") && starts_expression(peek())) tuple->args.push_back(parse_test());
        return finish(std::move(tuple));
    }

    ExprPtr parse_test() {
        DepthGuard guard(m_depth, peek().loc);
        ExprPtr e = parse_bool(true);
        if (at_kw("if")) unsupported(*e, "conditional expressions ('a if c else b') are not supported");
        if (at_op(":=")) unsupported(peek(), "assignment expressions (':=') are not supported");
        return e;
    }

    // `a or b` (is_or) / `a and b`.
    ExprPtr parse_bool(bool is_or) {
        const char* op = is_or ? "or" : "and";
        ExprPtr e = is_or ? parse_bool(false) : parse_not();
        while (accept_kw(op)) {
            ExprPtr right = is_or ? parse_bool(false) : parse_not();
            e = binary(ExprKind::BoolOp, op, std::move(e), std::move(right));
        }
        return e;
    }

    ExprPtr parse_not() {
        if (!at_kw("not")) return parse_comparison();
        Token kw = take();
        DepthGuard guard(m_depth, kw.loc);
        auto n = make(ExprKind::UnaryOp, kw.loc);
        n->op = "not";
        n->children.push_back(parse_not());
        return finish(std::move(n));
    }

    // The comparison operator at the current token ("" if none); consumes nothing.
    std::string comparison_op() {
        const Token& t = peek();
        for (std::string_view op : {"<", "<=", ">", ">=", "==", "!="}) {
            if (t.is_op(op)) return t.text;
        }
        if (t.is_keyword("in")) return "in";
        if (t.is_keyword("not") && at_kw("in", 1)) return "not in";
        if (t.is_keyword("is")) return at_kw("not", 1) ? "is not" : "is";
        return "";
    }

    ExprPtr parse_comparison() {
        ExprPtr left = parse_binary(0);
        std::string op = comparison_op();
        if (op.empty()) return left;
        take();
        if (op == "not in" || op == "is not") take();
        ExprPtr right = parse_binary(0);
        ExprPtr n = binary(ExprKind::Compare, op, std::move(left), std::move(right));
        if (!comparison_op().empty()) {
            unsupported(*n, "chained comparisons ('a < b < c') are not supported",
                        "write '(a < b) and (b < c)'");
        }
        return n;
    }

    ExprPtr parse_binary(size_t level) {
        if (level == kBinaryLevels.size()) return parse_unary();
        ExprPtr e = parse_binary(level + 1);
        const auto& ops = kBinaryLevels[level];
        for (;;) {
            const Token& t = peek();
            if (!std::any_of(ops.begin(), ops.end(), [&](auto op) { return !op.empty() && t.is_op(op); }))
                return e;
            std::string op = take().text;
            ExprPtr right = parse_binary(level + 1);
            e = binary(ExprKind::BinOp, op, std::move(e), std::move(right));
        }
    }

    ExprPtr parse_unary() {
        const Token& t = peek();
        if (!(t.is_op("-") || t.is_op("+") || t.is_op("~"))) return parse_power();
        Token op = take();
        DepthGuard guard(m_depth, op.loc);
        auto n = make(ExprKind::UnaryOp, op.loc);
        n->op = op.text;
        n->children.push_back(parse_unary());
        return finish(std::move(n));
    }

    ExprPtr parse_power() {
        ExprPtr base = parse_primary();
        if (!at_op("**")) return base;
        DepthGuard guard(m_depth, take().loc);
        ExprPtr exponent = parse_unary();  // right-associative, and `a ** -b` is legal
        return binary(ExprKind::BinOp, "**", std::move(base), std::move(exponent));
    }

    ExprPtr parse_primary() {
        ExprPtr e = parse_atom();
        for (;;) {
            if (accept_op(".")) {
                Token name = expect_name("an attribute name after '.'");
                auto a = make(ExprKind::Attribute, e->loc);
                a->name = name.text;
                a->children.push_back(std::move(e));
                e = finish(std::move(a));
            } else if (at_op("(")) {
                e = parse_call(std::move(e));
            } else if (at_op("[")) {
                e = parse_subscript(std::move(e));
            } else {
                return e;
            }
        }
    }

    ExprPtr parse_call(ExprPtr callee) {
        take();  // '('
        auto call = make(ExprKind::Call, callee->loc);
        call->children.push_back(std::move(callee));
        while (!at_op(")")) {
            const Token& t = peek();
            if (t.is_op("*") || t.is_op("**"))
                unsupported(t, "star-args ('*args' / '**kwargs') are not supported");
            if (t.kind == TokenKind::Name && at_op("=", 1)) {
                Token name = take();
                take();
                for (const auto& k : call->keywords) {
                    if (k.name == name.text)
                        syntax_error(name.loc, "keyword argument repeated: '" + k.name + "'");
                }
                call->keywords.push_back(ast::Keyword{name.text, name.loc, parse_test()});
            } else {
                ExprPtr arg = parse_test();
                if (at_kw("for")) unsupported(*arg, "generator expressions are not supported");
                if (!call->keywords.empty()) {
                    syntax_error(arg->loc, "positional argument follows keyword argument", arg->span);
                }
                call->args.push_back(std::move(arg));
            }
            separator(")", "the argument list");
        }
        take();
        return finish(std::move(call));
    }

    ExprPtr parse_subscript(ExprPtr value) {
        take();  // '['
        auto sub = make(ExprKind::Subscript, value->loc);
        sub->children.push_back(std::move(value));
        if (at_op("]")) fail_expected("an index", peek());
        while (!at_op("]")) {
            sub->args.push_back(parse_index());
            separator("]", "the subscript");
        }
        take();
        return finish(std::move(sub));
    }

    // `e`, or a slice `lo:hi` with either bound omitted.
    ExprPtr parse_index() {
        ExprPtr lo;
        if (!at_op(":")) {
            lo = parse_test();
            if (!at_op(":")) return lo;
        }
        Token colon = take();
        auto slice = make(ExprKind::Slice, lo ? lo->loc : colon.loc);
        ExprPtr hi;
        if (!at_op(":") && !at_op(",") && !at_op("]")) hi = parse_test();
        if (at_op(":")) {
            Token second = take();
            if (!at_op(",") && !at_op("]"))
                unsupported(second, "slice steps ('lo:hi:step') are not supported");
        }
        slice->children.push_back(std::move(lo));
        slice->children.push_back(std::move(hi));
        return finish(std::move(slice));
    }

    ExprPtr parse_atom() {
        const Token& t = peek();
        if (t.kind == TokenKind::Name || t.kind == TokenKind::Int || t.kind == TokenKind::Float) {
            Token tok = take();
            auto e = make(tok.kind == TokenKind::Name  ? ExprKind::Name
                          : tok.kind == TokenKind::Int ? ExprKind::Int
                                                       : ExprKind::Float,
                          tok.loc);
            if (tok.kind == TokenKind::Name) e->name = tok.text;
            e->int_value = tok.int_value;
            e->float_value = tok.float_value;
            return finish(std::move(e));
        }
        if (t.kind == TokenKind::String) {
            auto e = make(ExprKind::Str, t.loc);
            while (peek().kind == TokenKind::String) e->str_value += take().str_value;  // "a" "b" == "ab"
            return finish(std::move(e));
        }
        if (t.is_keyword("True") || t.is_keyword("False")) {
            auto e = make(ExprKind::Bool, t.loc);
            e->bool_value = take().text == "True";
            return finish(std::move(e));
        }
        if (t.is_keyword("None")) return finish(make(ExprKind::None, take().loc));
        if (t.is_keyword("lambda") || t.is_keyword("yield") || t.is_keyword("await")) reject_keyword(t);
        if (t.is_op("(")) return parse_paren();
        if (t.is_op("[")) return parse_list();
        if (t.is_op("{")) return parse_brace();
        if (t.is_op("...")) return finish(make(ExprKind::Ellipsis, take().loc));
        if (t.is_op("*")) unsupported(t, "starred expressions ('*x') are not supported");
        fail_expected("an expression", t);
    }

    ExprPtr parse_paren() {
        Token open = take();
        if (accept_op(")")) {
            auto e = make(ExprKind::Tuple, open.loc);
            e->parenthesized = true;
            return finish(std::move(e));
        }
        ExprPtr first = parse_test();
        if (at_kw("for")) unsupported(*first, "generator expressions are not supported");
        if (!at_op(",")) {
            expect_op(")", "',' or ')'");
            first->parenthesized = true;
            return first;
        }
        auto tuple = make(ExprKind::Tuple, open.loc);
        tuple->args.push_back(std::move(first));
        while (accept_op(",") && !at_op(")")) tuple->args.push_back(parse_test());
        expect_op(")", "',' or ')'");
        tuple->parenthesized = true;
        return finish(std::move(tuple));
    }

    ExprPtr parse_list() {
        Token open = take();
        auto list = make(ExprKind::List, open.loc);
        while (!at_op("]")) {
            list->args.push_back(parse_test());
            if (at_kw("for")) unsupported(open, "list comprehensions are not supported");
            separator("]", "the list");
        }
        take();
        return finish(std::move(list));
    }

    ExprPtr parse_brace() {
        Token open = take();
        auto dict = make(ExprKind::Dict, open.loc);
        while (!at_op("}")) {
            if (at_op("**")) unsupported(peek(), "dict unpacking ('**d') is not supported");
            ExprPtr key = parse_test();
            if (!at_op(":")) {
                if (!dict->args.empty()) fail_expected("':' after the dictionary key", peek());
                if (at_kw("for")) unsupported(open, "set comprehensions are not supported");
                unsupported(open, "set literals are not supported", "use a list or a tuple");
            }
            take();
            ExprPtr value = parse_test();
            if (at_kw("for")) unsupported(open, "dict comprehensions are not supported");
            dict->args.push_back(std::move(key));
            dict->values.push_back(std::move(value));
            separator("}", "the dictionary");
        }
        take();
        return finish(std::move(dict));
    }

    std::shared_ptr<SourceFile> m_file;  // the file being parsed
    Lexer m_lex;                         // token source
    std::deque<Token> m_ahead;           // lookahead tokens (peeked, not yet taken)
    bool m_lex_failed = false;           // the error came from the lexer (no unclosed-bracket rescan)
    SourceLoc m_prev_end;                // end of the last consumed real token (for spans)
    int m_depth = 0;                     // current recursion depth (DepthGuard)
    int m_function_depth = 0;            // > 0 inside a function body (nested def is unsupported)
    std::unordered_map<const ast::Expr*, uint32_t> m_expr_depth;  // tree depth of inner nodes (> 1)
};

}  // namespace

ast::Module parse_module(std::shared_ptr<SourceFile> file) {
    return Parser(std::move(file)).parse();
}

}  // namespace cvsim
