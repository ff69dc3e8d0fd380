// Sorting, gathering, scattering and index kernels on logical tiles (pto-isa TSORT32, TMRGSORT, TGATHER, TSCATTER,
// TROWARGMAX/TROWARGMIN/TCOLARGMAX/TCOLARGMIN), shared by the reference interpreter and the simulator so the
// two agree bit for bit. Layouts follow the ISA exactly:
//
//  * Value-index pairs. sort32 and mrgsort work on 8-byte tuples [value, index]: an FP32 tile holds a tuple in 2
//    elements [value, bits(index)], an FP16 tile in 4 [value, 0, bits(index low 16), bits(index high 16)]. The
//    index slots carry the uint32 index's bit pattern reinterpreted as the tile dtype (index 1 in FP32 is the
//    denormal 2^-149); `gather_mask(..., P1010, output_dtype=UINT32)` reads them back as integers.
//  * Order. Descending by value; sort32 breaks ties by the smaller index, mrgsort by the earlier list (the first
//    maximum of the heads wins). NaN counts as larger than +inf (documented choice: the ISA leaves it open).
//  * Undefined results (merge positions the hardware leaves unwritten) are NaN, so they stay visible.
//
// Shape errors are caller bugs (the type rules reject such programs): they throw std::invalid_argument.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/datapath.h"

namespace cvsim {

// Tile elements per 8-byte value-index tuple: 2 for FP32, 4 for FP16.
int64_t sort_tuple_elems(DType t);
// The tile-dtype value whose bit pattern is `index` (FP32), or whose slots hold its halves (FP16, `half` 0/1).
double index_bits_as(DType t, uint32_t index, int half = 0);
// The uint32 index a tuple at `row`, tuple position `k` of a sort32/mrgsort tile holds.
uint32_t tuple_index(const TileData& pairs, int64_t row, int64_t k);

// src [R, C] FP32/FP16, idx [R, C] or [1, C] (a shared index row), UINT32 or INT32 (bits taken as uint32) ->
// [R, C * sort_tuple_elems] of src's dtype: each 32-column block of each row sorted into tuples; a tail block
// shorter than 32 sorts its valid elements only.
TileData sort32(const TileData& src, const TileData& idx);

// Format 1 (TMRGSORT single list): src [R, C] holds groups of 4 sorted runs of `block_len` elements (block_len /
// sort_tuple_elems tuples each); each group of 4 * block_len columns is merged in place. Columns after the last
// whole group are NaN. block_len must be a positive multiple of sort_tuple_elems.
TileData mrgsort1(const TileData& src, int64_t block_len);
// Format 2 (2-4 sorted lists, each [1, Ci]) -> [1, out_cols]: merges until out_cols are written or every list
// is used up; with `exhausted`, stops as soon as one list is used up. Unwritten columns are NaN.
// `executed` (optional) receives the tuples taken from each list (the ISA's MrgSortExecutedNumList).
TileData mrgsort2(const std::vector<const TileData*>& srcs, int64_t out_cols, bool exhausted,
                  std::vector<int64_t>* executed = nullptr);

// dst[i, j] = src.flat[indices[i, j]] (row-major over src's shape); an index outside src gives 0.
TileData gather(const TileData& src, const TileData& indices);
// Mask patterns 1..7: P0101, P1010, P0001, P0010, P0100, P1000, P1111 (pl.tile.MaskPattern).
bool mask_pattern_selects(int pattern, int64_t col);
int64_t mask_pattern_stride(int pattern);  // 2, 2, 4, 4, 4, 4, 1
// Each row's selected columns, compacted: [R, C / stride] of `out_dtype` (same byte width as src: the bits are
// reinterpreted, not converted).
TileData gather_mask(const TileData& src, int pattern, DType out_dtype);
// dst.flat[indexes[i, j]] = src[i, j] in row-major order of src (a repeated index keeps the last write); an index
// outside dst writes nothing.
TileData scatter(const TileData& dst, const TileData& src, const TileData& indexes);
// Inverse of gather_mask: row r's src elements go, in order, to the selected columns of dst row r.
TileData scatter_mask(const TileData& dst, const TileData& src, int pattern);

// pto-isa TGATHER compare form (pl.tile.gather_compare). For each valid row r of src (valid_rows x valid_cols of
// the [R, C] tile), the matches are the valid columns c with src[r, c] == k (EQ) or > k (GT), k already rounded to
// src's dtype; a NaN matches nothing. dst [R, out_cols] INT32: row r holds offset + c of its matches in increasing c
// (the column within the row, as PyPTO's on-board test of the op expects), then zeros (the hardware leaves those
// elements unwritten; cvsim defines them as 0). cdst [1, R] of count_dtype: the number of matches of row r (rows
// past the valid rows: 0). A row with more than out_cols matches overflows the hardware's dst row:
// gather_compare_overflow names the first such row; gather_compare_dst keeps its first out_cols indices.
enum class GatherCmp : uint8_t { EQ, GT };
TileData gather_compare_dst(const TileData& src, int64_t valid_rows, int64_t valid_cols, double k, GatherCmp mode,
                            int64_t offset, int64_t out_cols);
TileData gather_compare_cdst(const TileData& src, int64_t valid_rows, int64_t valid_cols, double k, GatherCmp mode,
                             DType count_dtype);
// The first row with more than out_cols matches, and its count; nullopt when every row fits.
std::optional<std::pair<int64_t, int64_t>> gather_compare_overflow(const TileData& src, int64_t valid_rows,
                                                                   int64_t valid_cols, double k, GatherCmp mode,
                                                                   int64_t out_cols);

// Column index of each row's first maximum (minimum): [R, 1] INT32. A NaN is never replaced by a later element
// and never replaces the running best (strict comparisons, as the ISA's reference model).
TileData row_argmax(const TileData& x);
TileData row_argmin(const TileData& x);
// Row index of each column's first maximum (minimum): [1, C] INT32.
TileData col_argmax(const TileData& x);
TileData col_argmin(const TileData& x);

}  // namespace cvsim
