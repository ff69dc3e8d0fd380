# pl.tile.mgather's Mat (L1) form on the cube (pto-isa MGATHER GM -> L1): row mode gathers rows of a [64, 32]
# table picked by a GM [1, 32] index tensor, elem mode gathers elements of a flat [2048] table picked by a GM
# [32, 32] index tensor through a GM scratch. Each result is read back through the cube (eye @ gathered), the
# only consumer a Mat tile has; valid_shape narrows the elem gather to [16, 24].
import pypto.language as pl


@pl.program
class MgatherMat:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, table: pl.Tensor[[64, 32], pl.FP32], flat: pl.Tensor[[2048], pl.FP32], ridx: pl.Tensor[[1, 32], pl.INT32],
          eidx: pl.Tensor[[32, 32], pl.INT32], scratch: pl.InOut[pl.Tensor[[1024], pl.FP32]], eye: pl.Tensor[[32, 32], pl.FP32],
          rows: pl.Out[pl.Tensor[[32, 32], pl.FP32]], elems: pl.Out[pl.Tensor[[32, 32], pl.FP32]]) -> pl.Tensor[[32, 32], pl.FP32]:
        g: pl.Tile[[32, 32], pl.FP32, pl.Mem.Mat] = pl.tile.mgather(table, ridx, coalesce="row", gather_oob="wrap", target_memory=pl.Mem.Mat)
        e: pl.Tile[[32, 32], pl.FP32, pl.Mem.Mat] = pl.tile.mgather(flat, eidx, coalesce="elem", gather_oob="zero", target_memory=pl.Mem.Mat,
                                                                   scratch=scratch, valid_shape=[16, 24])
        i_m: pl.Tile[[32, 32], pl.FP32, pl.Mem.Mat] = pl.tile.load(eye, [0, 0], [32, 32], target_memory=pl.Mem.Mat)
        i_l = pl.tile.move(i_m, target_memory=pl.Mem.Left)
        p = pl.tile.matmul(i_l, pl.tile.move(g, target_memory=pl.Mem.Right))
        rows = pl.tile.store(p, [0, 0], rows)
        q = pl.tile.matmul(i_l, pl.tile.move(e, target_memory=pl.Mem.Right))
        elems = pl.tile.store(q, [0, 0], elems)
        return elems
