// Private to frontend/sema_dims*.cpp: what the implicit-symbol binding (sema_dims.cpp) and the per-call
// specialisation (sema_dims_specialise.cpp) share.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "frontend/sema_types.h"

namespace cvsim::dims {

using ast::Expr;
using ast::ExprKind;
using ast::Stmt;
using ast::StmtKind;

// A function of the program class: its parameters and the shape lists of its annotations.
struct FnInfo {
    const Stmt* def = nullptr;
    std::vector<std::string> params;               // without self
    std::map<std::string, const Expr*> annotated;  // variable -> its tensor shape list
    std::map<std::string, const Expr*> tiles;      // variable -> its tile shape list (pl.Tile[[...], ...])
    const Expr* ret = nullptr;                     // the return annotation (tensor or tuple of them)
};

// The shape list of a pl.Tensor[...] annotation (also inside pl.Out/pl.InOut), nullptr otherwise.
const Expr* tensor_shape(const Expr* e);
// Collects a function body's annotated variables into FI, every annotation, and the assignments.
void scan_body(const std::vector<ast::StmtPtr>& body, FnInfo& fi, std::vector<const Expr*>& annotations,
               std::vector<std::pair<const Stmt*, FnInfo*>>& assigns);
// F on every call in E (E included), depth first.
void visit_calls(const Expr& e, const std::function<void(const Expr&)>& f);
// One round of binding the implicit symbols of PROGRAM_CLASS; SYMBOL_SET gets the names a specialisation may rebind.
void bind_once(ConstTable& consts, const Stmt& program_class, std::set<std::string>& symbol_set);

}  // namespace cvsim::dims
