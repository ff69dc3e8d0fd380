// Physical tile layouts (ND, DN, NZ, ZN; SPEC 4.2): box shapes, element offsets, byte encode/decode and
// repacks.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/dtype.h"

namespace cvsim {

// Logical tile values, row-major. Each element is exactly representable in the tile's dtype; the datapath
// rounds every result with round_to, so a Matrix never carries more precision than the hardware would.
using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// One fractal box, in elements. ND and DN have no boxes ({1, 1}), which makes the padding arithmetic uniform.
struct BoxShape {
    int64_t r0 = 1;
    int64_t c0 = 1;
};

// NZ: 16 rows x 32 bytes; ZN: the transposed box; `acc` (a tile in Mem::Acc) uses 16x16 boxes of 4-byte
// elements.
BoxShape box_shape(Layout l, DType t, bool acc);
// Physical rows x cols: NZ/ZN round both dimensions up to whole boxes, ND/DN are unpadded.
std::pair<int64_t, int64_t> physical_shape(Layout l, DType t, bool acc, int64_t rows, int64_t cols);
// Bytes of the physical tile (physical rows * cols * dtype_bytes).
size_t physical_bytes(Layout l, DType t, bool acc, int64_t rows, int64_t cols);
// Offset in elements of logical (r, c) in a physical R x C tile with box `b` (the SPEC 4.2 formulas).
int64_t element_offset(Layout l, int64_t R, int64_t C, BoxShape b, int64_t r, int64_t c);

// The bytes of the physical tile holding `logical` (values are rounded to `t`); box padding is zero.
std::vector<uint8_t> encode(const Matrix& logical, DType t, Layout l, bool acc);
// The logical rows x cols tile a reader assuming layout `l` sees in `bytes`. Padding is ignored. Bytes past
// `nbytes` read as zero, so a short or scrambled buffer yields wrong values, never an out-of-bounds read.
Matrix decode(const uint8_t* bytes, size_t nbytes, DType t, Layout l, bool acc, int64_t rows, int64_t cols);

// A correct layout conversion (the GM->L1 ND->NZ, L1->L0B NZ->ZN and FIXP NZ->ND repacks): moves element
// bytes unchanged, so NaN payloads and poison patterns survive. Missing source bytes read as zero.
std::vector<uint8_t> repack(const uint8_t* bytes, size_t nbytes, DType t, Layout from, bool from_acc, Layout to,
                            bool to_acc, int64_t rows, int64_t cols);
// A layout *mistake*: what a reader assuming `read_as` sees when the tile was written as `written_as` (e.g. a
// vector tile pushed ND over the a5 V2C transport and read as NZ by the cube). Same as decode(encode(...)).
Matrix reinterpret(const Matrix& logical, DType t, Layout written_as, bool written_acc, Layout read_as, bool read_acc);

}  // namespace cvsim
