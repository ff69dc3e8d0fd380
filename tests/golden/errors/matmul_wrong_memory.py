# matmul on an Acc tile instead of Left: no move takes Acc to Left (a Vec or Mat operand would get the
# move PyPTO's InferTileMemorySpace inserts, tests/e2e/kernels/fr_wrong_mem.py).
# ERROR: E-TYPE 15:23 pl.Mem.Left
import pypto.language as pl

M = 16


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        r = pl.move(pl.load(b, [0, 0], [16, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        t = pl.matmul(pl.move(pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left), r)
        z = pl.matmul(t, r)  # <-- here
        out = pl.store(z, [0, 0], out)
        return out
