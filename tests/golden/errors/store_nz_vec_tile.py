# a Vec tile in NZ layout (col_major blocks, row_major fractals) stored to an ND tensor: pto-isa's TSTORE
# needs matching layouts, so the board's toolchain rejects the kernel (E-TYPE at the stored tile).
# RUN: check
# ERROR: E-TYPE 19:24 does not compile for the board
import pypto.language as pl


@pl.program
class StoreNz:
    @pl.function(type=pl.FunctionType.InCore)
    def f(
        self,
        a: pl.Tensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 64])
        e = pl.exp(t)
        z = pl.move(e, target_memory=pl.MemorySpace.Vec, blayout=pl.TileLayout.col_major, slayout=pl.TileLayout.row_major)
        out = pl.store(z, [0, 0], out)
        return out
