# The vector core computes an index tile and stores it to GM; the cube gathers table rows into L1 through that GM
# index tensor (pl.tile.mgather, target_memory=Mat: the cube's scalar reads the index from GM). A V2C hand-over
# through GM: cvsim's pass orders it (--v2c fence / syncall); without it (--v2c off) the cube's index read races
# the vector store.
import pypto.language as pl


@pl.program
class MgatherMatV2c:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, table: pl.Tensor[[64, 16], pl.FP32], seed: pl.Tensor[[1, 16], pl.INT32], idx: pl.Out[pl.Tensor[[1, 16], pl.INT32]],
          eye: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        s = pl.load(seed, [0, 0], [1, 16])
        k = pl.tile.adds(s, 3)
        idx_1 = pl.store(k, [0, 0], idx)
        g: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.mgather(table, idx_1, coalesce="row", gather_oob="wrap", target_memory=pl.Mem.Mat)
        i_m: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(eye, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        p = pl.tile.matmul(pl.tile.move(i_m, target_memory=pl.Mem.Left), pl.tile.move(g, target_memory=pl.Mem.Right))
        out_1 = pl.store(p, [0, 0], out)
        return out_1
