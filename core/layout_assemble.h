// An assemble written straight into a tile's encoded bytes (the data engine's fast path for pl.tile.assemble and
// the gather_row it lowers to; core/layout.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "core/layout.h"

namespace cvsim {

// BYTES is the encoding (encode(), `t`, `l`, `acc`) of a rows x cols tile. Writes round_to(t, src(i, j)) at
// (r0 + i, c0 + j) for every element of SRC, which the caller has checked lies inside the tile, and returns true:
// the bytes are then exactly encode(assemble(decode(BYTES), src, r0, c0)), without decoding and re-encoding the
// whole tile (pypto-lib's gather_row loops assemble one row into a 128 x 512 tile per step). Returns false and
// leaves BYTES alone when that equality is not certain: a packed 4-bit dtype or one without a typed codec, a size
// that is not the tile's physical size, box padding (a decode drops it, an encode zeroes it), or a NaN in a float
// tile (a decode and re-encode may change its payload).
bool assemble_encoded(std::vector<uint8_t>& bytes, DType t, Layout l, bool acc, int64_t rows, int64_t cols,
                      const Matrix& src, int64_t r0, int64_t c0);

}  // namespace cvsim
