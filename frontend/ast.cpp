// Syntax tree helpers.
#include "frontend/ast.h"

#include <algorithm>

namespace cvsim::ast {

std::string Expr::dotted() const {
    // Two walks down the Attribute chain: the length, then the parts written from the end (one allocation at
    // most; sema names every call's callee this way, tens of thousands of times on a whole model file).
    size_t len = 0;
    const Expr* e = this;
    while (e->kind == ExprKind::Attribute) {
        if (e->children.empty() || !e->children[0]) return "";
        len += e->name.size() + 1;
        e = e->children[0].get();
    }
    if (e->kind != ExprKind::Name) return "";
    len += e->name.size();
    std::string out(len, '.');
    size_t pos = len;
    for (e = this; e->kind == ExprKind::Attribute; e = e->children[0].get()) {
        pos -= e->name.size();
        std::copy(e->name.begin(), e->name.end(), out.begin() + static_cast<std::ptrdiff_t>(pos));
        --pos;  // (the '.')
    }
    std::copy(e->name.begin(), e->name.end(), out.begin());
    return out;
}

}  // namespace cvsim::ast
