// A window of a tile decoded from its bytes without decoding the rest (the data engine's tile.extract, slices,
// tile.read and stores; core/layout.cpp).
#pragma once

#include <cstdint>

#include "core/layout.h"

namespace cvsim {

// The wr x wc window at (r0, c0) of decode(bytes, nbytes, t, l, acc, rows, cols), decoding only the elements it
// reads (decode is elementwise): element (i, j) is decode(...)(r0 + i, c0 + j), and zero where that lies outside
// the rows x cols tile (as datapath's window() of the decoded tile). decode() itself is the whole-tile window.
Matrix decode_window(const uint8_t* bytes, size_t nbytes, DType t, Layout l, bool acc, int64_t rows, int64_t cols,
                     int64_t r0, int64_t c0, int64_t wr, int64_t wc);

}  // namespace cvsim
