// Names of the datapath's operations and cast modes (the DSL's op names, with or without "tile.").
#include <optional>
#include <string_view>

#include "core/datapath.h"

namespace cvsim {

namespace {

constexpr std::string_view kBinaryNames[] = {"add",  "sub", "mul", "div", "maximum", "minimum", "rem",
                                             "fmod", "and", "or",  "xor", "shl",     "shr"};
constexpr std::string_view kScalarNames[] = {"adds",  "subs", "muls", "divs", "maximums", "minimums", "rems",
                                             "fmods", "ands", "ors",  "xors", "shls",     "shrs"};
constexpr std::string_view kUnaryNames[] = {"exp", "log",  "sqrt", "rsqrt", "recip", "abs",
                                            "neg", "relu", "sin",  "cos",   "not"};
constexpr std::string_view kReduceNames[] = {"row_sum", "row_max", "row_min", "row_prod"};
constexpr std::string_view kRowExpandNames[] = {"row_expand_mul",    "row_expand_add", "row_expand_sub",
                                                "row_expand_div",    "row_expand_max", "row_expand_min",
                                                "row_expand_expdif", "row_expand"};
constexpr std::string_view kCastModeNames[] = {"round", "floor", "ceil", "trunc", "rint", "none", "odd"};

// Op names may carry the canonical "tile." prefix; cast modes are plain words.
template <class E, size_t N>
std::optional<E> lookup(const std::string_view (&names)[N], std::string_view name, bool op_name = true) {
    if (op_name && name.starts_with("tile.")) name.remove_prefix(5);
    for (size_t i = 0; i < N; ++i)
        if (names[i] == name) return static_cast<E>(i);
    return std::nullopt;
}

}  // namespace

std::optional<BinaryOp> binary_op_from_name(std::string_view n) {
    return lookup<BinaryOp>(kBinaryNames, n);
}
std::optional<BinaryOp> scalar_op_from_name(std::string_view n) {
    return lookup<BinaryOp>(kScalarNames, n);
}
std::optional<UnaryOp> unary_op_from_name(std::string_view n) {
    return lookup<UnaryOp>(kUnaryNames, n);
}
std::optional<ReduceOp> reduce_op_from_name(std::string_view n) {
    return lookup<ReduceOp>(kReduceNames, n);
}
std::optional<RowExpandOp> row_expand_op_from_name(std::string_view n) {
    return lookup<RowExpandOp>(kRowExpandNames, n);
}
std::optional<CastMode> cast_mode_from_name(std::string_view n) {
    return lookup<CastMode>(kCastModeNames, n, false);
}
std::string_view binary_op_name(BinaryOp op) {
    return kBinaryNames[static_cast<int>(op)];
}
std::string_view unary_op_name(UnaryOp op) {
    return kUnaryNames[static_cast<int>(op)];
}
std::string_view reduce_op_name(ReduceOp op) {
    return kReduceNames[static_cast<int>(op)];
}
std::string_view row_expand_op_name(RowExpandOp op) {
    return kRowExpandNames[static_cast<int>(op)];
}
std::string_view cast_mode_name(CastMode mode) {
    return kCastModeNames[static_cast<int>(mode)];
}

}  // namespace cvsim
