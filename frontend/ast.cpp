// Syntax tree helpers.
#include "frontend/ast.h"

#include <vector>

namespace cvsim::ast {

std::string Expr::dotted() const {
    // Walk down the Attribute chain iteratively; the parts come out innermost-last.
    std::vector<const std::string*> parts;
    const Expr* e = this;
    while (e->kind == ExprKind::Attribute) {
        if (e->children.empty() || !e->children[0]) return "";
        parts.push_back(&e->name);
        e = e->children[0].get();
    }
    if (e->kind != ExprKind::Name) return "";
    std::string out = e->name;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) out += "." + **it;
    return out;
}

}  // namespace cvsim::ast
