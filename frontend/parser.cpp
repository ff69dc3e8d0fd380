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

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/parser_impl.h"

namespace cvsim {
namespace parse_detail {

[[noreturn]] void syntax_error(const SourceLoc& loc, const std::string& message, uint32_t span,
                               const std::string& hint) {
    raise(codes::kParse, loc, message, hint, span);
}
[[noreturn]] void unsupported(const SourceLoc& loc, const std::string& message, uint32_t span,
                              const std::string& hint) {
    raise(codes::kUnsupported, loc, message, hint, span);
}
[[noreturn]] void unsupported(const Token& t, const std::string& message, const std::string& hint) {
    unsupported(t.loc, message, t.span, hint);
}
[[noreturn]] void unsupported(const ast::Expr& e, const std::string& message, const std::string& hint) {
    unsupported(e.loc, message, e.span, hint);
}

ast::Module Parser::parse() {
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
                     std::string("add the matching '") + close + "'; the bracket was still open at line " +
                         std::to_string(e.diag().loc.line));
    }
    return module;
}

const Token& Parser::peek(size_t k) {
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

Token Parser::take() {
    peek();
    Token t = std::move(m_ahead.front());
    m_ahead.pop_front();
    if (t.kind != TokenKind::Newline && t.kind != TokenKind::Indent && t.kind != TokenKind::Dedent) {
        m_prev_end = t.end;
    }
    return t;
}

[[noreturn]] void Parser::fail_expected(const std::string& what, const Token& found) {
    if (found.kind == TokenKind::Indent) syntax_error(found.loc, "unexpected indent");
    syntax_error(found.loc, "expected " + what + ", found " + describe(found), found.span);
}

void Parser::reject_keyword(const Token& t) {
    for (const auto& r : kRejectedKeywords) {
        if (t.is_keyword(r.keyword)) unsupported(t, r.message, r.hint);
    }
}

Token Parser::expect_op(std::string_view op, const std::string& what) {
    if (!at_op(op)) fail_expected(what, peek());
    return take();
}

Token Parser::expect_name(const std::string& what) {
    if (peek().kind != TokenKind::Name) fail_expected(what, peek());
    return take();
}

void Parser::separator(std::string_view close, const std::string& where) {
    if (!accept_op(",") && !at_op(close)) fail_expected("',' or '" + std::string(close) + "' in " + where, peek());
}

uint32_t Parser::depth_of(const ExprPtr& e) const {
    auto it = e ? m_expr_depth.find(e.get()) : m_expr_depth.end();
    return !e ? 0 : it == m_expr_depth.end() ? 1 : it->second;
}

ExprPtr Parser::finish(ExprPtr e) {
    uint32_t child = 0;
    for (const auto& c : e->children) child = std::max(child, depth_of(c));
    for (const auto& c : e->args) child = std::max(child, depth_of(c));
    for (const auto& c : e->values) child = std::max(child, depth_of(c));
    for (const auto& k : e->keywords) child = std::max(child, depth_of(k.value));
    if (child + 1 > kMaxExprDepth) {
        syntax_error(e->loc,
                     "nesting too deep (expression tree deeper than " + std::to_string(kMaxExprDepth) + " levels)", 1,
                     "split the expression with intermediate assignments");
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

ExprPtr Parser::binary(ExprKind kind, const std::string& op, ExprPtr left, ExprPtr right) {
    auto n = make(kind, left->loc);
    n->op = op;
    n->children.push_back(std::move(left));
    n->children.push_back(std::move(right));
    return finish(std::move(n));
}

bool Parser::starts_expression(const Token& t) {
    static constexpr std::array<std::string_view, 7> kKeywords = {"True",   "False", "None", "not",
                                                                  "lambda", "await", "yield"};
    static constexpr std::array<std::string_view, 8> kOps = {"(", "[", "{", "-", "+", "~", "...", "*"};
    auto in = [&](const auto& set) { return std::find(set.begin(), set.end(), t.text) != set.end(); };
    if (t.kind == TokenKind::Keyword) return in(kKeywords);
    if (t.kind == TokenKind::Op) return in(kOps);
    return t.kind == TokenKind::Name || t.kind == TokenKind::Int || t.kind == TokenKind::Float ||
           t.kind == TokenKind::String;
}

void Parser::parse_statement(std::vector<StmtPtr>& out) {
    if (!m_expr_depth.empty()) m_expr_depth = {};  // only nodes of the current statement are looked up
    const Token& t = peek();
    if (t.kind == TokenKind::Indent) fail_expected("a statement", t);
    if (t.is_op("@")) return out.push_back(parse_decorated());
    if (t.is_keyword("def")) return out.push_back(parse_def({}));
    if (t.is_keyword("class")) return out.push_back(parse_class({}));
    if (t.is_keyword("if")) return out.push_back(parse_if());
    if (t.is_keyword("for")) return out.push_back(parse_for());
    if (t.is_keyword("with")) return out.push_back(parse_with());
    for (std::string_view kw : {"else", "elif", "except", "finally"}) {
        if (t.is_keyword(kw)) {
            syntax_error(t.loc, "unexpected '" + t.text + "' (no matching block before it at this indentation)",
                         t.span);
        }
    }
    parse_simple_line(out);
}

StmtPtr Parser::parse_decorated() {
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

StmtPtr Parser::parse_def(std::vector<ExprPtr> decorators) {
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
        if (t.is_op("*") || t.is_op("**")) unsupported(t, "star parameters ('*args', '**kwargs') are not supported");
        if (t.is_op("/")) unsupported(t, "positional-only parameter marker '/' is not supported");
        Token name = expect_name("a parameter name");
        for (const auto& p : s->params) {
            if (p.name == name.text) syntax_error(name.loc, "duplicate parameter '" + name.text + "'", name.span);
        }
        ast::Param param;
        param.name = name.text;
        param.loc = name.loc;
        if (accept_op(":")) param.annotation = parse_test();
        if (accept_op("=")) {
            param.default_value = parse_test();
        } else if (!s->params.empty() && s->params.back().default_value) {
            syntax_error(name.loc, "parameter without a default follows a parameter with a default", name.span);
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

StmtPtr Parser::parse_class(std::vector<ExprPtr> decorators) {
    Token kw = take();
    if (m_function_depth > 0) unsupported(kw, "class definitions inside a function are not supported");
    auto s = make_stmt(StmtKind::ClassDef, kw.loc);
    s->decorators = std::move(decorators);
    s->name = expect_name("a class name after 'class'").text;
    if (accept_op("(") && !accept_op(")")) {
        unsupported(peek(), "class definitions with base classes are not supported", "write 'class " + s->name + ":'");
    }
    s->body = parse_block("class definition", kw.loc.line);
    return s;
}

std::vector<StmtPtr> Parser::parse_block(const std::string& owner, uint32_t owner_line) {
    expect_op(":", "':'");
    std::vector<StmtPtr> body;
    SourceLoc first = peek().loc;
    if (!accept_newline()) {
        const Token& t = peek();
        for (std::string_view kw : {"def", "class", "if", "for", "with"}) {
            if (t.is_keyword(kw) || t.is_op("@")) fail_expected("a simple statement or a line break after ':'", t);
        }
        parse_simple_line(body);
    } else {
        const Token& t = peek();
        if (t.kind != TokenKind::Indent) {
            syntax_error(t.loc, "expected an indented block after " + owner + " on line " + std::to_string(owner_line),
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

StmtPtr Parser::parse_if() {
    struct Arm {
        SourceLoc loc;
        ExprPtr test;
        std::vector<StmtPtr> body;
    };
    std::vector<Arm> arms;
    for (bool first = true; first || at_kw("elif"); first = false) {
        Token kw = take();
        if (m_depth + int(arms.size()) >= kMaxDepth) syntax_error(kw.loc, "nesting too deep (too many 'elif')");
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

StmtPtr Parser::parse_for() {
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

StmtPtr Parser::parse_with() {
    Token kw = take();
    auto s = make_stmt(StmtKind::With, kw.loc);
    s->value = parse_test();
    if (accept_kw("as")) {
        ExprPtr target = parse_target_element();
        check_target(*target);
        s->targets.push_back(std::move(target));
    }
    if (at_op(","))
        unsupported(peek(), "several context managers in one 'with' are not supported", "nest the 'with' statements");
    s->body = parse_block("'with' statement", kw.loc.line);
    return s;
}

ExprPtr Parser::parse_target_element() {
    if (at_op("*")) unsupported(peek(), "starred assignment targets ('*x') are not supported");
    return parse_binary(0);  // stops before `in`
}

void Parser::check_target(const ast::Expr& e) {
    if (e.kind == ExprKind::Name) return;
    if (e.kind == ExprKind::Tuple && !e.args.empty()) {
        for (const auto& a : e.args) check_target(*a);
        return;
    }
    if (e.kind == ExprKind::List) unsupported(e, "list assignment targets are not supported", "use a tuple");
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

void Parser::parse_simple_line(std::vector<StmtPtr>& out) {
    StmtPtr s = parse_simple();
    if (at_op(";")) {
        unsupported(peek(), "several statements on one line (';') are not supported", "one statement per line");
    }
    if (!accept_newline()) fail_expected("end of line after the statement", peek());
    if (s) out.push_back(std::move(s));
}

StmtPtr Parser::parse_simple() {
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

std::string Parser::parse_dotted_name(const std::string& what) {
    std::string name = expect_name(what).text;
    while (accept_op(".")) name += "." + expect_name("a name after '.'").text;
    return name;
}

StmtPtr Parser::parse_import() {
    auto s = make_stmt(StmtKind::Import, take().loc);
    s->name = parse_dotted_name("a module name after 'import'");
    if (accept_kw("as")) s->alias = expect_name("a name after 'as'").text;
    if (at_op(",")) unsupported(peek(), "importing several modules in one statement is not supported");
    return s;
}

StmtPtr Parser::parse_from_import() {
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

StmtPtr Parser::parse_expression_statement() {
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
                unsupported(*first, "annotations without a value ('x: T') are not supported", "write 'x: T = v'");
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

}  // namespace parse_detail

ast::Module parse_module(std::shared_ptr<SourceFile> file) {
    return parse_detail::Parser(std::move(file)).parse();
}

}  // namespace cvsim
