// Private to frontend/ops_types*.cpp: the operand checks the type rules share, and the rules of the
// synchronisation and pipe ops (ops_types_sync.cpp), compute ops (ops_types_compute.cpp) and
// tensor ops (ops_types_tensor.cpp).
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "frontend/ops.h"

namespace cvsim::ir::typing {

[[noreturn]] void type_error(const Expr& call, const std::string& msg, const std::string& hint = "");
// "pl.tile.load" etc., as the user wrote the op.
std::string op_label(const Expr& call);
// Argument NAME of CALL, which must be a tile (E-TYPE otherwise).
const Type& tile_arg(const Expr& call, const std::string& name);
// Argument NAME of CALL, a tile in one of MEMS (E-TYPE otherwise).
void expect_mem(const Expr& call, const std::string& name, std::initializer_list<Mem> mems);
// A constant boolean keyword (True / False / None, or 0 / 1 as the printer may write it); absent is false.
bool const_flag(const Expr& call, const char* name);
// Argument NAME, a pl.Mem member; DFLT when absent.
Mem enum_mem(const Expr& call, const std::string& name, Mem dflt);
// Argument NAME, a list of constant integers.
std::vector<int64_t> int_list(const Expr& call, const std::string& name);
// A shape argument: constant integers, each a valid dimension (1..2^31).
std::vector<int64_t> shape_list(const Expr& call, const std::string& name);
// E-OOB when every offset is constant and the window leaves the tensor (or tile) TENSOR.
void check_window(const Expr& call, const ExprPtr& offsets, const std::vector<int64_t>& extents, const Type& tensor,
                  const std::string& tensor_name);
// The Vec tile of argument "tile" (shape, dtype, valid region): a unary vector op's result.
Type vec_unary_type(const Expr& call);
// "'x'" for a variable operand, else "operand".
std::string var_label(const ExprPtr& e);

// The result type of a ring, flag, barrier, prefetch or fence op (tpush/tpop/tfree, pipes, shard/gather,
// syncall, sync_set/wait, cacheinvalid, prefetch.*, set_ffts, fence); nullopt for any other op.
std::optional<Type> sync_op_type(const Expr& call, int region_split);
// The result type of a matmul/gemv, an elementwise, reduction, row-expand or cast op (ops_types_compute.cpp);
// nullopt for any other op.
std::optional<Type> compute_op_type(const Expr& call);
// The result type of a tile creation, a block index, or a GM tensor op (create, read, write, view) in a kernel
// or an orchestration (ops_types_tensor.cpp); nullopt for any other op.
std::optional<Type> tensor_op_type(const Expr& call);

}  // namespace cvsim::ir::typing
