// Parser, expressions: Python precedence climbing over the lexer's tokens (see parser.cpp for the design).
#include <algorithm>

#include "frontend/diag.h"
#include "frontend/parser_impl.h"

namespace cvsim::parse_detail {

ExprPtr Parser::parse_exprlist() {
    ExprPtr first = parse_test();
    if (!at_op(",")) return first;
    auto tuple = make(ExprKind::Tuple, first->loc);
    tuple->args.push_back(std::move(first));
    while (accept_op(",") && starts_expression(peek())) tuple->args.push_back(parse_test());
    return finish(std::move(tuple));
}

ExprPtr Parser::parse_test() {
    DepthGuard guard(m_depth, peek().loc);
    ExprPtr e = parse_bool(true);
    if (at_kw("if")) unsupported(*e, "conditional expressions ('a if c else b') are not supported");
    if (at_op(":=")) unsupported(peek(), "assignment expressions (':=') are not supported");
    return e;
}

ExprPtr Parser::parse_bool(bool is_or) {
    const char* op = is_or ? "or" : "and";
    ExprPtr e = is_or ? parse_bool(false) : parse_not();
    while (accept_kw(op)) {
        ExprPtr right = is_or ? parse_bool(false) : parse_not();
        e = binary(ExprKind::BoolOp, op, std::move(e), std::move(right));
    }
    return e;
}

ExprPtr Parser::parse_not() {
    if (!at_kw("not")) return parse_comparison();
    Token kw = take();
    DepthGuard guard(m_depth, kw.loc);
    auto n = make(ExprKind::UnaryOp, kw.loc);
    n->op = "not";
    n->children.push_back(parse_not());
    return finish(std::move(n));
}

std::string Parser::comparison_op() {
    const Token& t = peek();
    for (std::string_view op : {"<", "<=", ">", ">=", "==", "!="}) {
        if (t.is_op(op)) return t.text;
    }
    if (t.is_keyword("in")) return "in";
    if (t.is_keyword("not") && at_kw("in", 1)) return "not in";
    if (t.is_keyword("is")) return at_kw("not", 1) ? "is not" : "is";
    return "";
}

ExprPtr Parser::parse_comparison() {
    ExprPtr left = parse_binary(0);
    std::string op = comparison_op();
    if (op.empty()) return left;
    take();
    if (op == "not in" || op == "is not") take();
    ExprPtr right = parse_binary(0);
    ExprPtr n = binary(ExprKind::Compare, op, std::move(left), std::move(right));
    if (!comparison_op().empty()) {
        unsupported(*n, "chained comparisons ('a < b < c') are not supported", "write '(a < b) and (b < c)'");
    }
    return n;
}

ExprPtr Parser::parse_binary(size_t level) {
    if (level == kBinaryLevels.size()) return parse_unary();
    ExprPtr e = parse_binary(level + 1);
    const auto& ops = kBinaryLevels[level];
    for (;;) {
        const Token& t = peek();
        if (!std::any_of(ops.begin(), ops.end(), [&](auto op) { return !op.empty() && t.is_op(op); })) return e;
        std::string op = take().text;
        ExprPtr right = parse_binary(level + 1);
        e = binary(ExprKind::BinOp, op, std::move(e), std::move(right));
    }
}

ExprPtr Parser::parse_unary() {
    const Token& t = peek();
    if (!(t.is_op("-") || t.is_op("+") || t.is_op("~"))) return parse_power();
    Token op = take();
    DepthGuard guard(m_depth, op.loc);
    auto n = make(ExprKind::UnaryOp, op.loc);
    n->op = op.text;
    n->children.push_back(parse_unary());
    return finish(std::move(n));
}

ExprPtr Parser::parse_power() {
    ExprPtr base = parse_primary();
    if (!at_op("**")) return base;
    DepthGuard guard(m_depth, take().loc);
    ExprPtr exponent = parse_unary();  // right-associative, and `a ** -b` is legal
    return binary(ExprKind::BinOp, "**", std::move(base), std::move(exponent));
}

ExprPtr Parser::parse_primary() {
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

ExprPtr Parser::parse_call(ExprPtr callee) {
    take();  // '('
    auto call = make(ExprKind::Call, callee->loc);
    call->children.push_back(std::move(callee));
    while (!at_op(")")) {
        const Token& t = peek();
        if (t.is_op("*") || t.is_op("**")) unsupported(t, "star-args ('*args' / '**kwargs') are not supported");
        if (t.kind == TokenKind::Name && at_op("=", 1)) {
            Token name = take();
            take();
            for (const auto& k : call->keywords) {
                if (k.name == name.text) syntax_error(name.loc, "keyword argument repeated: '" + k.name + "'");
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

ExprPtr Parser::parse_subscript(ExprPtr value) {
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

ExprPtr Parser::parse_index() {
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
        if (!at_op(",") && !at_op("]")) unsupported(second, "slice steps ('lo:hi:step') are not supported");
    }
    slice->children.push_back(std::move(lo));
    slice->children.push_back(std::move(hi));
    return finish(std::move(slice));
}

ExprPtr Parser::parse_atom() {
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

ExprPtr Parser::parse_paren() {
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

ExprPtr Parser::parse_list() {
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

ExprPtr Parser::parse_brace() {
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

}  // namespace cvsim::parse_detail
