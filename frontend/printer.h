// Prints IR programs in the printed style of the DSL (DSL.md section 6); print -> parse -> print is the
// identity.
#pragma once

#include <string>

#include "frontend/ir/ir.h"

namespace cvsim {

std::string print_program(const ir::Program& p);
std::string print_function(const ir::Function& f);
std::string print_expr(const ir::ExprPtr& e);
std::string print_stmt(const ir::Stmt& s);  // the statement's first line (for traces and messages)

}  // namespace cvsim
