# V2C RAW through a scalar GM read: the vector lane rewrites the table, then the cube reads one element of
# it (pl.tensor.read, a SHARED statement) to choose the row it loads. The read is a cube GM load: fence /
# syncall must order it, reject must name it (before: neither, and `expand -v` said "left unfenced 0").
import pypto.language as pl


@pl.program
class TableRaw:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, table: pl.InOut[pl.Tensor[[16, 16], pl.INT32]], kv: pl.Tensor[[64, 32], pl.FP16], w: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(table, [0, 0], [16, 16])
        t2 = pl.adds(t, 1)
        table = pl.store(t2, [0, 0], table)
        blk = pl.tensor.read(table, [0, 1])
        row = pl.min(pl.max(pl.cast(blk, pl.INDEX), 0), 3) * 16
        a_mat = pl.load(kv, [row, 0], [16, 32], target_memory=pl.MemorySpace.Mat)
        a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [32, 16], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        s = pl.matmul(a_left, w_right)
        out = pl.store(s, [0, 0], out)
        return out
