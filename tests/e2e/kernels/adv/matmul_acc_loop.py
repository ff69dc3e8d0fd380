# A K loop accumulating with matmul_acc statements (in place in L0C), then a C2V epilogue: clean on both
# targets. The reference dropped each statement's result (a false E-MISMATCH).
import pypto.language as pl


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[16, 64], pl.FP16], w: pl.Tensor[[64, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(x_left, w_right)
        for k in pl.range(1, 4):
            xm = pl.load(x, [0, k * 16], [16, 16], target_memory=pl.MemorySpace.Mat)
            xl = pl.move(xm, target_memory=pl.MemorySpace.Left)
            wm = pl.load(w, [k * 16, 0], [16, 16], target_memory=pl.MemorySpace.Mat)
            wr = pl.move(wm, target_memory=pl.MemorySpace.Right)
            pl.tile.matmul_acc(acc, xl, wr)
        v = pl.move(acc, target_memory=pl.MemorySpace.Vec)
        e = pl.exp(v)
        out = pl.store(e, [0, 0], out)
        return out
