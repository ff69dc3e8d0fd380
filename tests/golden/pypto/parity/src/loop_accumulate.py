# parity fixture: a cube accumulation carried by the loop (matmul_acc), the result crossing C2V after it.
import pypto.language as pl


@pl.program
class LoopAccumulate:
    @pl.function(type=pl.FunctionType.InCore)
    def splitk(
        self,
        x: pl.Tensor[[16, 128], pl.BF16],
        w: pl.Tensor[[128, 64], pl.BF16],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        x_mat = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Mat)
        x_left = pl.move(x_mat, target_memory=pl.MemorySpace.Left)
        w_mat = pl.load(w, [0, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
        w_right = pl.move(w_mat, target_memory=pl.MemorySpace.Right)
        acc = pl.matmul(x_left, w_right)
        for k in pl.range(1, 2):
            xk_mat = pl.load(x, [0, k * 64], [16, 64], target_memory=pl.MemorySpace.Mat)
            xk_left = pl.move(xk_mat, target_memory=pl.MemorySpace.Left)
            wk_mat = pl.load(w, [k * 64, 0], [64, 64], target_memory=pl.MemorySpace.Mat)
            wk_right = pl.move(wk_mat, target_memory=pl.MemorySpace.Right)
            acc = pl.matmul_acc(acc, xk_left, wk_right)
        acc_vec = pl.move(acc, target_memory=pl.MemorySpace.Vec, blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box)
        r = pl.relu(acc_vec)
        out = pl.store(r, [0, 0], out)
        return out
