# Loop-carried RAW and WAR through a scalar GM read: each iteration the cube reads table[i, 1]
# (pl.tensor.read) and the vector lane then rewrites the whole table, which the next iteration reads.
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, table: pl.InOut[pl.Tensor[[16, 16], pl.INT32]], kv: pl.Tensor[[64, 32], pl.FP16], w: pl.Tensor[[32, 16], pl.FP16], out: pl.Out[pl.Tensor[[48, 16], pl.FP32]]) -> pl.Tensor[[48, 16], pl.FP32]:
        w_mat = pl.load(w, [0, 0], [32, 16], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        for i in pl.range(3):
            blk = pl.tensor.read(table, [i, 1])
            row = pl.min(pl.max(pl.cast(blk, pl.INDEX), 0), 3) * 16
            a_mat = pl.load(kv, [row, 0], [16, 32], target_memory=pl.MemorySpace.Mat)
            a_left = pl.move(a_mat, target_memory=pl.MemorySpace.Left)
            s = pl.matmul(a_left, w_right)
            out = pl.store(s, [i * 16, 0], out)
            t = pl.load(table, [0, 0], [16, 16])
            t2 = pl.adds(t, 1)
            table = pl.store(t2, [0, 0], table)
        return out
